// A group of agents in SIMD lanes (internal), shared by the lanes kernels (heading_lanes_kernel.cpp,
// weighted_lanes_kernel.cpp): the group's agents a vector of double lanes at a time (float storage is read
// into half-width float vectors and widened, which is exact); a last, partial vector repeats its last agent
// in the spare lanes, whose results are dropped. Each candidate of the group's runs is broadcast in the
// plain path's order, its nearest image taken per lane, and a lane mask says which agents it reaches; a
// model adds its terms under that mask.

#include "heading_lanes_kernel.hpp"
#include "lane_grid.hpp"

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_LANE_VECTORS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_LANE_VECTORS_INL_H_
#undef BOIDS_LANE_VECTORS_INL_H_
#else
#define BOIDS_LANE_VECTORS_INL_H_
#endif

#include "hwy/highway.h"

#include "compress_lanes-inl.h"
#include "lane_numbers-inl.h"
#include "masked_sums-inl.h"
#include "torus_lanes-inl.h"
#include "vector_packs-inl.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace pk = packs::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using V = hn::Vec<DD>;
using M = hn::Mask<DD>;
constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(double);

/// Half of DD's lanes. On AVX-512 a vector of agents that fills no more than half the lanes runs at this
/// width (EachLaneVector): AMD's Zen 4 executes a 512-bit operation as two 256-bit halves, so a 256-bit
/// vector costs about half as much, and Intel's cores issue 256-bit operations on as many ports or more.
/// Below AVX-512 a vector is at most 256 bits, which these cores execute at full width: halves would save
/// nothing.
using DH = hn::Half<DD>;
constexpr bool half_vectors = HWY_TARGET <= HWY_AVX3;

/// The `n` entries of `column` from `at` in lanes (the spare lanes repeat the last entry).
template <class T, class D>
HWY_ATTR hn::Vec<D> LoadLanes(D d, const T* column, std::uint32_t at, std::size_t n) {
    if (n == hn::Lanes(d)) {
        return hn::LoadU(d, column + at);
    }
    alignas(64) T lanes[max_lanes];
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
        lanes[i] = column[at + std::min(i, n - 1)];
    }
    return hn::Load(d, lanes);
}

/// Stores the first `n` lanes of `v` (of DD or DH) into `column` from `at`.
template <class VD>
HWY_INLINE HWY_ATTR void StoreLanes(VD v, double* column, std::uint32_t at, std::size_t n) {
    const hn::DFromV<VD> dd;
    if (n == hn::Lanes(dd)) {
        hn::StoreU(v, dd, column + at);
        return;
    }
    alignas(64) double lanes[max_lanes];
    hn::Store(v, dd, lanes);
    for (std::size_t i = 0; i < n && i < max_lanes; ++i) { // bounded for the compiler's sake too
        column[at + i] = lanes[i];
    }
}

/// angle::length in lanes: sqrt(x * x + y * y), of a vector or a pack of them (vector_packs-inl.h).
template <class VD>
HWY_INLINE HWY_ATTR VD Length(VD x, VD y) {
    return pk::Sqrt(pk::Add(pk::Mul(x, x), pk::Mul(y, y)));
}

/// The entries of `column` from `at` as a pack of K whole vectors (vector_packs-inl.h), or for K = 0 as
/// one vector of the `n` from `at` (LoadLanes).
template <std::size_t K, class T, class D>
HWY_INLINE HWY_ATTR auto LoadColumn(D d, const T* column, std::uint32_t at, std::size_t n) {
    return pk::MakePack<K>([&](std::size_t k) HWY_ATTR BOIDS_PACK_INLINE {
        if constexpr (K > 0) {
            return hn::LoadU(d, column + at + k * hn::Lanes(d));
        } else {
            return LoadLanes(d, column, at, n);
        }
    });
}

/// Stores what LoadColumn<K> loads.
template <std::size_t K, class P>
HWY_INLINE HWY_ATTR void StoreColumn(const P& p, double* column, std::uint32_t at, std::size_t n) {
    pk::EachPart(p, [&](std::size_t k, auto v) HWY_ATTR BOIDS_PACK_INLINE {
        if constexpr (K > 0) {
            hn::StoreU(v, DD(), column + at + k * hn::Lanes(DD()));
        } else {
            StoreLanes(v, column, at, n);
        }
    });
}

/// pk::EachPackOf over the entries [0, count) of columns of doubles (vectors of DD).
template <std::size_t K, class Body>
HWY_ATTR void EachColumnPack(std::size_t count, const Body& body) {
    pk::EachPackOf<K>(hn::Lanes(DD()), count, body);
}

/// How a lane takes a candidate's offset from its agent, each as the model's plain path does.
enum class LaneOffset {
    ImageMinusAgent, ///< heading::offset: the image and the agent each widened to double, subtracted
    AgentMinusImage, ///< Geometry::neighbour's dx: the agent minus the image in the storage type, widened
};

/// What LaneVectors tells a model's `add` of the lanes a candidate reaches, for a model whose own radii
/// (each within the grid's range) decide: which lanes are not the candidate itself, a mask where the
/// candidate may be one of the lanes' agents and EveryLane elsewhere, so that no range test is made that
/// the model's tests would repeat.
struct EveryLane {};

/// The candidates' squared distances in the storage type that ListCandidatesInReach keeps (d2 <= bound):
/// every candidate whose squared distance in double, as the lanes take it, is below range2. Double storage
/// computes the lanes' very sums: the next double below range2 (d2 < range2 exactly). In float, the
/// offset (where the lanes subtract in double), the two squares and their sum each round up by at most
/// 2^-24 relative, or 2^-150 absolute below the normal range (a fused multiply-add rounds one square and the
/// sum once, which the bound allows for too), and the lanes' double offsets and sums round
/// down by at most 2^-53 relative each (their squares are normal: a float offset that is not zero is at
/// least 2^-149). So a float sum whose double counterpart lies within range lies below
/// range2 (1 + 2^-21) + 2^-148, which range2 (1 + 2^-20) + 2^-140, rounded up to a float, bounds. A square
/// or sum that overflows a float belongs to an offset far beyond a range2 up to 1e37; above that (or NaN)
/// the bound is infinite and keeps every candidate whose distance is not NaN.
template <class Real>
Real ReachBound(double range2) {
    if constexpr (sizeof(Real) == sizeof(double)) {
        return std::nextafter(range2, -std::numeric_limits<double>::infinity());
    } else {
        if (!(range2 <= 1e37)) {
            return std::numeric_limits<float>::infinity();
        }
        const double bound = range2 * (1 + 0x1p-20) + 0x1p-140;
        auto f = static_cast<float>(bound);
        return static_cast<double>(f) < bound ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
    }
}

/// Lists the candidates of `runs` within range of some agent of each part of slots [first, last): part p
/// holds agents [first + p kAgents, first + (p + 1) kAgents) of them, and lists[p] gets its candidates, in
/// the runs' order: a superset of those the part's lanes reach (ReachBound). The candidates lie in the lanes
/// of the storage type and the agents are broadcast in turn, so a vector tests 16 candidates on AVX-512 in
/// float, and two parts share each vector's loads and the loop. Every vector of candidates meets kAgents
/// agents of each part, the part's last one repeated (which keeps what it kept): an unrolled loop of a fixed
/// count measured faster than a loop over each group's own count. The lists live in thread storage until
/// the next call.
template <std::size_t kAgents, std::size_t kParts, bool Wrap, LaneOffset offset, class Real>
HWY_ATTR void ListCandidatesInReach(const InRangeGrid<Real>& grid, std::uint32_t first, std::uint32_t last,
                                    const CandidateRuns& runs,
                                    std::span<const hwy::MakeUnsigned<Real>> (&lists)[kParts]) {
    using Slot = hwy::MakeUnsigned<Real>; // the indices' lanes as wide as the coordinates'
    static_assert((kAgents & (kAgents - 1)) == 0, "the agents' distances are reduced in pairs");
    const hn::ScalableTag<Real> dc;
    const hn::RebindToUnsigned<decltype(dc)> du;
    using VC = hn::Vec<decltype(dc)>;
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(dc));
    std::uint32_t total = 0;
    for (int k = 0; k < runs.count; ++k) {
        total += runs.end[k] - runs.begin[k];
    }
    thread_local std::vector<Slot> kept;
    const std::size_t room = total + lanes; // a whole vector is stored at the end of a list
    if (kept.size() < kParts * room) {
        kept.resize(kParts * room);
    }
    const TorusLanes<decltype(dc)> torus(dc, grid);
    const VC bound = hn::Set(dc, ReachBound<Real>(grid.range2));
    VC agent_x[kParts][kAgents], agent_y[kParts][kAgents];
    for (std::size_t p = 0; p < kParts; ++p) {
        const auto from = first + static_cast<std::uint32_t>(p * kAgents);
        const std::uint32_t to = std::min(last, from + static_cast<std::uint32_t>(kAgents));
        for (std::size_t j = 0; j < kAgents; ++j) {
            const std::uint32_t s = std::min(from + static_cast<std::uint32_t>(j), to - 1);
            agent_x[p][j] = hn::Set(dc, grid.x[s]);
            agent_y[p][j] = hn::Set(dc, grid.y[s]);
        }
    }
    std::size_t listed[kParts] = {};
    for (int k = 0; k < runs.count; ++k) {
        const std::uint32_t e = runs.end[k];
        for (std::uint32_t c = runs.begin[k]; c < e; c += lanes) {
            const auto here = hn::FirstN(dc, e - c);
            using Mask = std::remove_const_t<decltype(here)>;
            Mask keep[kParts];
            for (std::size_t p = 0; p < kParts; ++p) {
                keep[p] = here; // past the columns' end a vector is not read: all kept
            }
            if (c + lanes <= grid.size) {
                const VC x = hn::LoadU(dc, grid.x + c), y = hn::LoadU(dc, grid.y + c);
                for (std::size_t p = 0; p < kParts; ++p) {
                    // Each agent's squared distances, the least of them taken pairwise, then one comparison:
                    // fewer operations than a comparison and a mask OR per agent (Couzin and the weighted
                    // model 2-4% faster), and no chain of eight dependent mins (5% slower than the ORs). In
                    // float a fused multiply-add rounds once where ReachBound's margin allows for two
                    // roundings.
                    VC d2[kAgents];
#pragma GCC unroll 16
                    for (std::size_t j = 0; j < kAgents; ++j) {
                        const VC a = agent_x[p][j], b = agent_y[p][j];
                        VC ix = x, iy = y;
                        if constexpr (Wrap) {
                            ix = torus.ImageX(a, x);
                            iy = torus.ImageY(b, y);
                        }
                        const VC dx = offset == LaneOffset::AgentMinusImage ? hn::Sub(a, ix) : hn::Sub(ix, a);
                        const VC dy = offset == LaneOffset::AgentMinusImage ? hn::Sub(b, iy) : hn::Sub(iy, b);
                        if constexpr (std::is_same_v<Real, float>) {
                            d2[j] = hn::MulAdd(dx, dx, hn::Mul(dy, dy));
                        } else { // the lanes' very sum, which the bound is the next double below range2 for
                            d2[j] = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
                        }
                    }
                    for (std::size_t width = kAgents / 2; width > 0; width /= 2) {
                        for (std::size_t j = 0; j < width; ++j) {
                            d2[j] = hn::Min(d2[j], d2[j + width]);
                        }
                    }
                    keep[p] = hn::And(hn::Le(d2[0], bound), here);
                }
            }
            for (std::size_t p = 0; p < kParts; ++p) {
                const Compressor<decltype(du)> pick(du, hn::RebindMask(du, keep[p]));
                // The slots c, c + 1, ...: not Highway's Iota, which goes through memory
                // (lane_numbers-inl.h).
                hn::StoreU(pick(LaneNumbersFrom(du, static_cast<Slot>(c))), du,
                           kept.data() + p * room + listed[p]);
                listed[p] += hn::CountTrue(dc, keep[p]);
            }
        }
    }
    for (std::size_t p = 0; p < kParts; ++p) {
        lists[p] = {kept.data() + p * room, listed[p]};
    }
}

/// The candidates ListCandidatesInReach lists for agents [first, last) (at most kAgents) where `filtered`;
/// none otherwise.
template <std::size_t kAgents, bool filtered, bool Wrap, LaneOffset offset, class Real>
HWY_ATTR std::span<const hwy::MakeUnsigned<Real>> CandidatesInReach(const InRangeGrid<Real>& grid,
                                                                    std::uint32_t first, std::uint32_t last,
                                                                    const CandidateRuns& runs) {
    std::span<const hwy::MakeUnsigned<Real>> lists[1];
    if constexpr (filtered) {
        ListCandidatesInReach<kAgents, 1, Wrap, offset>(grid, first, last, runs, lists);
    }
    return lists[0];
}

/// `count` vectors of agents from slot `at` (those before `end`), in double lanes of tag D (DD or DH):
/// `start(d, at, n)` gives the model's sums of agents [at, at + n), `add(sums, c, dx, dy, d2, reached)`
/// adds candidate c (its offsets and squared distances in lanes, and which lanes it reaches: within range,
/// other than the agent itself; with `own_radii`, only the latter, as EveryLane's comment says), in the
/// candidates' order, and `finish(sums, at, n)` stores the sums. Two vectors at once share each
/// candidate's loads and keep two chains of additions in flight. `filtered`: the candidates are those of
/// `listed` (ListCandidatesInReach's for these agents, or for more), the runs' candidates within range of no
/// lane left out, for a model whose terms cost more than a mispredicted branch or a candidate's distances
/// (Couzin's square root and divisions, the weighted model's three neighbourhoods); otherwise the runs'.
template <std::size_t count, bool Wrap, LaneOffset offset, bool filtered, bool own_radii, class D, class Real,
          class Start, class Add, class Finish>
HWY_ATTR void LaneVectors(const InRangeGrid<Real>& grid, std::uint32_t at, std::uint32_t end,
                          const CandidateRuns& runs, std::span<const hwy::MakeUnsigned<Real>> listed,
                          const Start& start, const Add& add, const Finish& finish) {
    using V = hn::Vec<D>;
    const D dd;
    const hn::Rebind<Real, D> dr; // as many lanes of the storage type
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(dd));
    const auto widen = [&](auto v) { return WidenLanes<Real>(dd, v); };
    const TorusLanes<decltype(dr)> torus(dr, grid);
    const V r2 = hn::Set(dd, grid.range2);
    using RealV = decltype(hn::Zero(dr));
    using Sums = decltype(start(dd, at, lanes));
    RealV ax[count], ay[count];
    V dax[count], day[count], self[count];
    Sums sums[count];
    std::size_t n[count];
    for (std::size_t j = 0; j < count; ++j) {
        const std::uint32_t from = at + static_cast<std::uint32_t>(j) * lanes;
        n[j] = std::min<std::size_t>(lanes, end - from);
        ax[j] = LoadLanes(dr, grid.x, from, n[j]);
        ay[j] = LoadLanes(dr, grid.y, from, n[j]);
        dax[j] = widen(ax[j]);
        day[j] = widen(ay[j]);
        // Slots are exact in double; not Highway's Iota, which goes through memory (lane_numbers-inl.h).
        self[j] = LaneNumbersFrom(dd, static_cast<double>(from));
        sums[j] = start(dd, from, n[j]);
    }
    // A candidate is broadcast; `may_be_self` when its slot is one of these vectors' lanes.
    const auto visit = [&](std::uint32_t c, auto may_be_self) __attribute__((always_inline)) {
        const RealV cx = hn::Set(dr, grid.x[c]), cy = hn::Set(dr, grid.y[c]);
        for (std::size_t j = 0; j < count; ++j) {
            RealV x = cx, y = cy;
            if constexpr (Wrap) {
                x = torus.ImageX(ax[j], x);
                y = torus.ImageY(ay[j], y);
            }
            V dx, dy;
            if constexpr (offset == LaneOffset::ImageMinusAgent) {
                dx = hn::Sub(widen(x), dax[j]);
                dy = hn::Sub(widen(y), day[j]);
            } else {
                dx = widen(hn::Sub(ax[j], x));
                dy = widen(hn::Sub(ay[j], y));
            }
            const V d2 = WidenedDot<Real>(dx, dx, dy, dy);
            if constexpr (own_radii) {
                if constexpr (decltype(may_be_self)::value) {
                    add(sums[j], c, dx, dy, d2, hn::Ne(self[j], hn::Set(dd, static_cast<double>(c))));
                } else {
                    add(sums[j], c, dx, dy, d2, EveryLane{});
                }
            } else {
                auto reached = hn::Lt(d2, r2);
                if constexpr (decltype(may_be_self)::value) {
                    reached = hn::And(reached, hn::Ne(self[j], hn::Set(dd, static_cast<double>(c))));
                }
                add(sums[j], c, dx, dy, d2, reached);
            }
        }
    };
    const auto mine = static_cast<std::uint32_t>(count) * lanes; // the lanes' slots: [at, at + mine)
    if constexpr (filtered) {
        // The model's terms of the candidates within range of some lane (or a few more: `listed`, in their
        // order) alone. A candidate left out reaches no lane, so it would add nothing.
        for (const auto slot : listed) {
            const auto c = static_cast<std::uint32_t>(slot);
            if (c - at < mine) [[unlikely]] {
                visit(c, std::true_type{});
            } else {
                visit(c, std::false_type{});
            }
        }
    } else {
        for (int k = 0; k < runs.count; ++k) {
            const std::uint32_t b = runs.begin[k], e = runs.end[k];
            const std::uint32_t lo = std::clamp(at, b, e), hi = std::clamp(at + mine, b, e);
            for (std::uint32_t c = b; c < lo; ++c) {
                visit(c, std::false_type{});
            }
            for (std::uint32_t c = lo; c < hi; ++c) {
                visit(c, std::true_type{});
            }
            for (std::uint32_t c = hi; c < e; ++c) {
                visit(c, std::false_type{});
            }
        }
    }
    for (std::size_t j = 0; j < count; ++j) {
        finish(sums[j], at + static_cast<std::uint32_t>(j) * lanes, n[j]);
    }
}

/// Where one vector at a time takes a group of more than one, two vectors' lists of candidates in reach are
/// made in one pass over the candidates (AVX2 and AVX-512: weighted −8% and −1 to −3%); with SSE4's two
/// double lanes the pass measured no faster than one per vector.
constexpr bool paired_lists = HWY_TARGET <= HWY_AVX2;

/// LaneVectors over the whole group: `most` vectors at a time (1 or 2) while more than one remains; on
/// AVX-512 a vector of no more than half the lanes at half width (DH), on its own. Filtered, each call's
/// candidates are listed for its agents, and paired_lists' two vectors' in one pass.
template <bool Wrap, LaneOffset offset, std::size_t most, bool filtered, bool own_radii, class Real,
          class... Model>
HWY_ATTR void EachLaneVector(const InRangeGrid<Real>& grid, LaneGroup group, const CandidateRuns& runs,
                             const Model&... model) {
    constexpr std::size_t full = hn::MaxLanes(DD()), half = hn::MaxLanes(DH());
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(DD()));
    const std::uint32_t end = group.first + group.count;
    for (std::uint32_t at = group.first; at < end;) {
        const std::uint32_t left = end - at;
        if (most == 2 && left > (half_vectors ? lanes + lanes / 2 : lanes)) {
            const std::uint32_t last = std::min(end, at + 2 * lanes);
            LaneVectors<2, Wrap, offset, filtered, own_radii, DD>(
                grid, at, end, runs,
                CandidatesInReach<2 * full, filtered, Wrap, offset>(grid, at, last, runs), model...);
            at = last;
        } else if (filtered && paired_lists && most == 1 && left > lanes) {
            const std::uint32_t last = std::min(end, at + 2 * lanes), next = at + lanes;
            std::span<const hwy::MakeUnsigned<Real>> lists[2];
            ListCandidatesInReach<full, 2, Wrap, offset>(grid, at, last, runs, lists);
            LaneVectors<1, Wrap, offset, filtered, own_radii, DD>(grid, at, next, runs, lists[0], model...);
            if (half_vectors && last - next <= lanes / 2) {
                LaneVectors<1, Wrap, offset, filtered, own_radii, DH>(grid, next, last, runs, lists[1],
                                                                      model...);
            } else {
                LaneVectors<1, Wrap, offset, filtered, own_radii, DD>(grid, next, last, runs, lists[1],
                                                                      model...);
            }
            at = last;
        } else if (half_vectors && left <= lanes / 2) {
            LaneVectors<1, Wrap, offset, filtered, own_radii, DH>(
                grid, at, end, runs, CandidatesInReach<half, filtered, Wrap, offset>(grid, at, end, runs),
                model...);
            at = end;
        } else {
            const std::uint32_t last = at + std::min(lanes, left);
            LaneVectors<1, Wrap, offset, filtered, own_radii, DD>(
                grid, at, end, runs, CandidatesInReach<full, filtered, Wrap, offset>(grid, at, last, runs),
                model...);
            at = last;
        }
    }
}

/// The lowest and highest coordinates of slots [begin, end) of two columns (x and y), folded into lanes
/// (lo, hi: a vector each per column).
template <class D>
struct Bounds {
    hn::Vec<D> x0, x1, y0, y1;

    HWY_ATTR void add(D d, const hn::TFromD<D>* x, const hn::TFromD<D>* y, std::uint32_t begin,
                      std::uint32_t end) {
        const auto fold = [&](auto vx, auto vy) {
            x0 = hn::Min(x0, vx);
            x1 = hn::Max(x1, vx);
            y0 = hn::Min(y0, vy);
            y1 = hn::Max(y1, vy);
        };
        const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
        if (end - begin < lanes) {
            for (std::uint32_t s = begin; s < end; ++s) {
                fold(hn::Set(d, x[s]), hn::Set(d, y[s]));
            }
            return;
        }
        // A vector at a time, the last one ending at the last slot (lanes seen twice change nothing).
        for (std::uint32_t s = begin;; s += lanes) {
            const std::uint32_t at = std::min(s, end - lanes);
            fold(hn::LoadU(d, x + at), hn::LoadU(d, y + at));
            if (at + lanes == end) {
                break;
            }
        }
    }
};

/// True when no candidate of `runs` needs its nearest image for any agent of `group` on the torus: every
/// difference agent minus candidate, in the storage type, lies within [-half, half]. Rounding is monotonic,
/// so the extreme differences are those of the extreme coordinates.
template <class Real>
HWY_ATTR bool WithinHalfTorus(const InRangeGrid<Real>& grid, LaneGroup group, const CandidateRuns& runs) {
    const hn::ScalableTag<Real> d;
    const auto first_x = hn::Set(d, grid.x[group.first]), first_y = hn::Set(d, grid.y[group.first]);
    Bounds<decltype(d)> agents{first_x, first_x, first_y, first_y};
    agents.add(d, grid.x, grid.y, group.first, group.first + group.count);
    Bounds<decltype(d)> near = agents; // no candidates: no image either
    for (int k = 0; k < runs.count; ++k) {
        near.add(d, grid.x, grid.y, runs.begin[k], runs.end[k]);
    }
    const auto low = [&](auto v) { return hn::GetLane(hn::MinOfLanes(d, v)); };
    const auto high = [&](auto v) { return hn::GetLane(hn::MaxOfLanes(d, v)); };
    return high(agents.x1) - low(near.x0) <= grid.half_width &&
           low(agents.x0) - high(near.x1) >= -grid.half_width &&
           high(agents.y1) - low(near.y0) <= grid.half_height &&
           low(agents.y0) - high(near.y1) >= -grid.half_height;
}

/// EachLaneVector, with nearest images only on a torus and only where a candidate may need one (unless the
/// runs say none can, WithinHalfTorus looks). A model with few sums and cheap terms takes two vectors at a
/// time; one with many sums (two would not fit the registers) or with terms that cost the whole vector
/// whichever lanes a candidate reaches (Couzin's square root and divisions), one, over its own list.
/// `filtered` and `own_radii` as LaneVectors.
template <LaneOffset offset = LaneOffset::ImageMinusAgent, std::size_t most = 2, bool filtered = false,
          bool own_radii = false, class Real, class... Model>
HWY_ATTR void EachLaneVectorOf(const InRangeGrid<Real>& grid, LaneGroup group, const CandidateRuns& runs,
                               const Model&... model) {
    if (grid.wrap && !runs.no_image && !WithinHalfTorus(grid, group, runs)) {
        EachLaneVector<true, offset, most, filtered, own_radii>(grid, group, runs, model...);
    } else {
        EachLaneVector<false, offset, most, filtered, own_radii>(grid, group, runs, model...);
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
