// k_nearest_tiles (k_nearest_tiles.hpp): a tile's agents in SIMD lanes, each with its sorted list of the
// nearest in registers, for every instruction set Highway targets here (foreach_target), dispatched at run
// time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "k_nearest_tiles.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "cell_block_lines.hpp"
#include "grid_lines-inl.h"
#include "k_nearest_distance.hpp"
#include "k_nearest_tiles.hpp"
#include "k_nearest_two_rings.hpp"
#include "lane_vectors-inl.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#ifndef BOIDS_K_NEAREST_TILES_ONCE
#define BOIDS_K_NEAREST_TILES_ONCE
namespace boids::tiles {

/// A key is a squared distance whose lowest bits are replaced by the candidate's place in its tile's list,
/// so that one min and one max move both. Keys then rank by the distance truncated to its upper bits (its
/// bucket), then by place. A tile's keys take as few bits for the place as tell its candidates apart
/// (place_bits), at least min_place_bits.
inline constexpr int max_place_bits = 12;
inline constexpr std::uint32_t max_candidates = 1u << max_place_bits;

/// At least this many: a float key's bucket then spans 2^-20 of its distance or more, four times the
/// error of a distance taken in float (KeyLimits), so that two candidates a float misorders lie in the same
/// or neighbouring buckets.
inline constexpr int min_place_bits = 4;

/// The bits of a tile's keys that hold the place of one of `count` candidates.
inline int place_bits(std::uint32_t count) {
    return std::max(min_place_bits, static_cast<int>(std::bit_width(count - 1u)));
}

/// The bits of a key that hold its place, for `bits` place bits.
template <class Bits>
Bits place_mask(int bits) {
    return static_cast<Bits>((Bits{1} << bits) - 1);
}

/// The candidate place a key's bits hold.
template <class Bits>
std::uint32_t place(Bits key, int bits) {
    return static_cast<std::uint32_t>(key & place_mask<Bits>(bits));
}

/// Whether a tile takes half a vector on AVX-512 (k_nearest_tiles.hpp: force_half_tiles, or the CPU's
/// splits_512_bit_operations).
bool half_tiles();

/// How many lines (columns or rows) of n apart a and b lie, the shorter way round on a torus.
inline double lines_apart(double a, double b, int n, bool wrap) {
    const double apart = a > b ? a - b : b - a;
    return wrap && n - apart < apart ? n - apart : apart;
}

} // namespace boids::tiles
#endif

HWY_BEFORE_NAMESPACE();
namespace boids::tiles {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using fast::HWY_NAMESPACE::DD;

/// A tile's candidates, in the order they are offered: each one's slot; the tile's own agents follow one
/// another from place `own`.
struct Candidates {
    std::uint32_t slot[max_candidates + HWY_MAX_BYTES / sizeof(std::uint32_t)]; // room for a whole vector
    std::uint32_t count = 0;
    std::uint32_t own = max_candidates;
};

/// The tile's agents [first, first + n), each of whose lists holds the keys of its k nearest among the
/// candidates (levels 8 - k to 7 of `list`, nearest first; the levels before are -infinity) and
/// `left_out`, the least key that sank through the list. T: the keys' type (float or double).
template <class T>
struct Lists {
    static constexpr std::size_t lanes = HWY_MAX_BYTES / sizeof(T);
    alignas(64) T list[max_tile_k][lanes];
    alignas(64) T left_out[lanes];
};

/// Each lane's sorted keys (levels 8 - k to 7; the levels before stay at -infinity, which a key passes
/// unchanged) and the least key that sank through them. Named registers: an array indexed in a loop was
/// kept in memory. kEightLeast (k from 5 to 7): levels 1 to 7 and left_out hold the lane's eight least
/// keys, which SinkEight takes eight candidates at a time, and Store puts the k least and the next where
/// the levels of k would hold them; level 0 is not visited.
template <class DT, bool kEightLeast>
struct Levels {
    using V = hn::Vec<DT>;
    V l0, l1, l2, l3, l4, l5, l6, l7, left_out;
    int k;

    HWY_INLINE explicit Levels(int k_nearest) : k(k_nearest) {
        const DT dd;
        const V inf = hn::Inf(dd), none = hn::Neg(inf);
        const int held = kEightLeast ? 7 : k; // levels 8 - held to 7 take keys
        l0 = held >= 8 ? inf : none;
        l1 = held >= 7 ? inf : none;
        l2 = held >= 6 ? inf : none;
        l3 = held >= 5 ? inf : none;
        l4 = held >= 4 ? inf : none;
        l5 = held >= 3 ? inf : none;
        l6 = held >= 2 ? inf : none;
        l7 = inf;
        left_out = inf;
    }

    /// The nearer and the farther of two keys in each lane. Float keys are compared as 32-bit integers, on
    /// the vector integer units: 3-5% off the topological step on Zen 5 (docs/PERFORMANCE.md §3.4). The
    /// same order, since every key is a non-negative float (a squared distance with place bits), +infinity
    /// or -infinity, and the integers of those order as the floats do (-infinity's is negative, the least
    /// of all).
    HWY_INLINE static V Nearer(V a, V b) {
        if constexpr (std::is_same_v<hn::TFromD<DT>, float>) {
            const hn::RebindToSigned<DT> di;
            return hn::BitCast(DT(), hn::Min(hn::BitCast(di, a), hn::BitCast(di, b)));
        } else {
            return hn::Min(a, b);
        }
    }
    HWY_INLINE static V Farther(V a, V b) {
        if constexpr (std::is_same_v<hn::TFromD<DT>, float>) {
            const hn::RebindToSigned<DT> di;
            return hn::BitCast(DT(), hn::Max(hn::BitCast(di, a), hn::BitCast(di, b)));
        } else {
            return hn::Max(a, b);
        }
    }

    /// The key sinks to its place in each lane; the key it pushes past the last level is left out.
    HWY_INLINE void Sink(V key) {
        // The farther first, into a register of its own: the other order had GCC copy each level before
        // its max (seven moves per candidate).
        const auto level = [&key](V & l) HWY_ATTR __attribute__((always_inline)) {
            const V farther = Farther(l, key);
            l = Nearer(l, key);
            key = farther;
        };
        // Every key sinks: a branch on whether any lane's list changes (about half the candidates) cost
        // more in mispredictions than the levels.
        if constexpr (!kEightLeast) {
            level(l0);
        }
        level(l1);
        level(l2);
        level(l3);
        level(l4);
        level(l5);
        level(l6);
        level(l7);
        left_out = Nearer(left_out, key);
    }

    /// Eight keys at once into the eight least (kEightLeast), in order. The eight are sorted by a network
    /// of 19 comparators, and the least eight of both sorted lists found by a bitonic merge (8 mins, then
    /// 12 comparators): 70 operations, where sinking each takes 15, 120 for eight. The same levels and
    /// left_out as eight sinks, since keys are distinct but for the infinities, whose equal bits any order
    /// keeps.
    HWY_INLINE void SinkEight(V b0, V b1, V b2, V b3, V b4, V b5, V b6, V b7) {
        static_assert(kEightLeast, "levels 1 to 7 and left_out hold the eight least keys");
        const auto order = [](V & a, V & b) HWY_ATTR __attribute__((always_inline)) {
            const V farther = Farther(a, b);
            a = Nearer(a, b);
            b = farther;
        };
        order(b0, b2), order(b1, b3), order(b4, b6), order(b5, b7);
        order(b0, b4), order(b1, b5), order(b2, b6), order(b3, b7);
        order(b0, b1), order(b2, b3), order(b4, b5), order(b6, b7);
        order(b2, b4), order(b3, b5);
        order(b1, b4), order(b3, b6);
        order(b1, b2), order(b3, b4), order(b5, b6);
        // The least eight of the two lists, as a sequence that rises then falls; then sorted.
        l1 = Nearer(l1, b7), l2 = Nearer(l2, b6), l3 = Nearer(l3, b5), l4 = Nearer(l4, b4);
        l5 = Nearer(l5, b3), l6 = Nearer(l6, b2), l7 = Nearer(l7, b1), left_out = Nearer(left_out, b0);
        order(l1, l5), order(l2, l6), order(l3, l7), order(l4, left_out);
        order(l1, l3), order(l2, l4), order(l5, l7), order(l6, left_out);
        order(l1, l2), order(l3, l4), order(l5, l6), order(l7, left_out);
    }

    /// Keys offered without the lanes' bounds (RankTile away from a seam): those past `seen` by their
    /// buckets become +infinity, as unseen ones would have stayed; a lane with a key whose bucket may lie
    /// on either side of `surely` or of `seen` comes back in `unsure`. Buckets as signed integers, so that
    /// -infinity stays below.
    template <class VI>
    HWY_INLINE void Settle(VI truncate, VI surely, VI seen, hn::Mask<DT>& unsure) {
        const DT dd;
        const hn::RebindToSigned<DT> di;
        const V inf = hn::Inf(dd);
        const auto settle = [&](V & l) HWY_ATTR __attribute__((always_inline)) {
            const VI bucket = hn::And(hn::BitCast(di, l), truncate);
            const auto past = hn::Gt(bucket, seen);
            unsure = hn::Or(unsure, hn::RebindMask(dd, hn::Not(hn::Or(hn::Lt(bucket, surely), past))));
            l = hn::IfThenElse(hn::RebindMask(dd, past), inf, l);
        };
        settle(l0), settle(l1), settle(l2), settle(l3), settle(l4), settle(l5), settle(l6), settle(l7);
        settle(left_out);
    }

    HWY_INLINE void Store(Lists<hn::TFromD<DT>>& lists) const {
        const DT dd;
        hn::Store(l0, dd, lists.list[0]);
        hn::Store(l1, dd, lists.list[1]);
        hn::Store(l2, dd, lists.list[2]);
        hn::Store(l3, dd, lists.list[3]);
        hn::Store(l4, dd, lists.list[4]);
        hn::Store(l5, dd, lists.list[5]);
        hn::Store(l6, dd, lists.list[6]);
        hn::Store(l7, dd, lists.list[7]);
        hn::Store(left_out, dd, lists.left_out);
        if (kEightLeast && k < 7) { // the eight least from level 1: the k least to levels 8 - k to 7
            const auto next = hn::Load(dd, lists.list[1 + k]);
            const auto top = static_cast<std::size_t>(max_tile_k - k);
            for (std::size_t i = static_cast<std::size_t>(k); i-- > 0;) { // each into a later level
                hn::Store(hn::Load(dd, lists.list[1 + i]), dd, lists.list[top + i]);
            }
            for (std::size_t j = 0; j < top; ++j) {
                hn::Store(hn::Neg(hn::Inf(dd)), dd, lists.list[j]);
            }
            hn::Store(next, dd, lists.left_out);
        }
    }
};
static_assert(max_tile_k == 8, "Levels names eight levels");

/// Where a tile's keys of type T tell k_nearest's answer, as thresholds on the keys (KeyLimits::Of).
///
/// Double keys hold k_nearest's very distances: a lane sees candidates nearer than two rings (`seen`), and
/// its lists rank them exactly but for those of one bucket (`gap` 1: a lane with two keys of one bucket, or
/// a k-th of the bucket of one left out, takes the agent-by-agent search).
///
/// Float keys hold the distance taken in float from the same float offsets, within 2^-22 of k_nearest's
/// double (two or three roundings of 2^-24; 2^-149 apart below the normal range, far below a bucket). Two
/// candidates it may misorder lie within a bucket of each other (min_place_bits), so a lane answers only
/// where its keys lie two buckets apart or more (`gap` 2), and the two-ring bounds take a margin of 2^-20:
/// a lane sees the candidates below two rings and a little more (`seen`), answers where its k-th lies
/// below two rings for certain (`answered`), and is checked for a k-th within one ring where it may be
/// (`near`). Twice as many float lanes as double ones share a candidate's operations.
///
/// Away from a seam a tile's lanes take every candidate, and their lists are settled afterwards
/// (Levels::Settle) by the buckets of the keys that stay. A key of a bucket below `surely`'s (far2 less
/// 2^-20 of it in double, 2^-16 in float) is a candidate nearer than the rings for certain, and so within
/// their count of columns of the lane's own: more than r columns apart lies more than r cells' widths away,
/// at least r rings (a ring is the least side of a cell). The margin takes in the key's rounding and the
/// binning's, which can put a point a hair over a line's edge (about 2^-52 of the line's number). A key of
/// a bucket past `seen`'s is one the lane does not see, and a lane with a key between the two takes the
/// ring search.
template <class T>
struct KeyLimits {
    T seen, answered, near, surely;
    std::uint32_t gap;

    static KeyLimits Of(double near2, double far2) {
        constexpr T inf = std::numeric_limits<T>::infinity();
        if constexpr (std::is_same_v<T, double>) {
            return {far2, inf, near2, far2 * (1 - 0x1p-20), 1};
        } else {
            constexpr double margin = 0x1p-20;
            const auto up = [&](double v) {
                return std::nextafter(static_cast<float>(v * (1 + margin)), inf);
            };
            const auto down = [&](double v) {
                return std::nextafter(static_cast<float>(v * (1 - margin)), 0.0f);
            };
            return {up(far2), down(far2), up(near2), down(far2 * (1 - 0x1p-16)), 2};
        }
    }
};

/// Whether a tile of float keys tells k_nearest's answer where a grid's rings are `near2` and `far2`
/// (KeyLimits): its distances and margins within the range of normal floats, with room.
inline bool float_keys_hold(double near2, double far2) {
    return near2 >= 0x1p-100 && far2 <= 0x1p100;
}

/// Ranks the candidates for the tile's agents in lanes: each lane's list is of the candidates it sees (in
/// the lane's own cells, `reach` rings around its own: 5 x 5 cells for two, nearer than limits.seen, not
/// itself). At a seam each candidate is offered to the lanes that see it; elsewhere to every lane but its
/// own agent's, and the lists are settled from the keys that stay (Levels::Settle, KeyLimits::surely), as
/// few of them lie near the bounds. `bits`: the keys' place bits. The tile's agents are the slots [first,
/// first + n), which follow one another in the candidates from place candidates.own; or, with `scattered`,
/// the n slots scattered[i], each at place scattered_own[i] in the candidates.
template <class DT, bool kImages, bool kEightLeast, class Real>
HWY_ATTR void RankTile(const SpatialGrid<Real>& grid, const double* column, std::uint32_t first,
                       std::size_t n, int k, int reach, Real width, Real height,
                       const KeyLimits<hn::TFromD<DT>>& limits, int bits, const Candidates& candidates,
                       Lists<hn::TFromD<DT>>& lists, const std::uint32_t* scattered = nullptr,
                       const std::uint32_t* scattered_own = nullptr) {
    using T = hn::TFromD<DT>;
    using V = hn::Vec<DT>;
    using M = hn::Mask<DT>;
    const DT dd;
    const hn::Rebind<Real, DT> dr;
    const hn::RebindToUnsigned<DT> du;
    using U = hn::TFromD<decltype(du)>;
    using VR = hn::Vec<decltype(dr)>;
    constexpr std::size_t max_lanes = Lists<T>::lanes;
    const Real* const xs = grid.xs().data();
    const Real* const ys = grid.ys().data();
    const std::size_t lanes = hn::Lanes(dd);
    alignas(64) Real ax[max_lanes], ay[max_lanes];
    alignas(64) T own_column[max_lanes], own_place[max_lanes];
    for (std::size_t i = 0; i < lanes; ++i) { // the spare lanes repeat the last agent
        const std::size_t j = std::min(i, n - 1);
        const std::size_t a = scattered != nullptr ? scattered[j] : first + j;
        ax[i] = xs[a];
        ay[i] = ys[a];
        own_column[i] = static_cast<T>(column[a]);
        // Each lane's own place (places are exact in float).
        own_place[i] = static_cast<T>(scattered != nullptr ? scattered_own[j] : candidates.own + i);
    }
    const VR px = hn::Load(dr, ax), py = hn::Load(dr, ay);
    // At a seam a lane sees the candidates of its own columns (five for two rings), told by the grid's own
    // binning (slot_lines), not by a bound on distances and their rounding: the columns' distance the
    // shorter way round the torus. (Lines are exact in float too: a grid has fewer than 2^24 of them to an
    // axis.)
    const V lane_column = hn::Load(dd, own_column);
    const V columns = hn::Set(dd, static_cast<T>(grid.columns())), rings = hn::Set(dd, static_cast<T>(reach));
    const V seen_below = hn::Set(dd, limits.seen), inf = hn::Inf(dd);
    const auto truncate = hn::Set(du, static_cast<U>(~place_mask<U>(bits)));
    const VR w = hn::Set(dr, width), h = hn::Set(dr, height);
    const VR hw = hn::Set(dr, width / Real(2)), hh = hn::Set(dr, height / Real(2));
    const VR nhw = hn::Neg(hw), nhh = hn::Neg(hh);
    const V own = hn::Load(dd, own_place);

    Levels<DT, kEightLeast> levels(k);
    const auto key_of = [&](std::uint32_t p, auto may_be_self) HWY_ATTR __attribute__((always_inline)) {
        const std::uint32_t c = candidates.slot[p];
        VR x = hn::Set(dr, xs[c]), y = hn::Set(dr, ys[c]);
        if constexpr (kImages) { // classic::nearest_image
            const VR ex = hn::Sub(px, x), ey = hn::Sub(py, y);
            x = hn::IfThenElse(hn::Gt(ex, hw), hn::Add(x, w),
                               hn::IfThenElse(hn::Lt(ex, nhw), hn::Sub(x, w), x));
            y = hn::IfThenElse(hn::Gt(ey, hh), hn::Add(y, h),
                               hn::IfThenElse(hn::Lt(ey, nhh), hn::Sub(y, h), y));
        }
        // The offset in the storage type, as k_nearest takes it. Double keys: widened, squared and summed
        // (k_nearest's bits); float keys: squared and summed in float (KeyLimits).
        V d2;
        if constexpr (std::is_same_v<T, double>) {
            const V dx = fast::HWY_NAMESPACE::WidenLanes<Real>(dd, hn::Sub(px, x));
            const V dy = fast::HWY_NAMESPACE::WidenLanes<Real>(dd, hn::Sub(py, y));
            d2 = fast::HWY_NAMESPACE::WidenedDot<Real>(dx, dx, dy, dy);
        } else {
            const V dx = hn::Sub(px, x), dy = hn::Sub(py, y);
            d2 = hn::MulAdd(dx, dx, hn::Mul(dy, dy));
        }
        const V key = hn::BitCast(dd, hn::Or(hn::And(hn::BitCast(du, d2), truncate), hn::Set(du, U{p})));
        const auto self = [&]() HWY_ATTR { return hn::Eq(own, hn::Set(dd, static_cast<T>(p))); };
        if constexpr (kImages) { // on a torus: the columns' distance the shorter way round
            const V apart = hn::Abs(hn::Sub(hn::Set(dd, static_cast<T>(column[c])), lane_column));
            M seen = hn::And(hn::Lt(d2, seen_below), hn::Le(hn::Min(apart, hn::Sub(columns, apart)), rings));
            if constexpr (decltype(may_be_self)::value) {
                seen = hn::AndNot(self(), seen);
            }
            return hn::IfThenElse(seen, key, inf);
        } else if constexpr (decltype(may_be_self)::value) { // every lane but its own agent's (Settle)
            return hn::IfThenElse(self(), inf, key);
        } else {
            return key;
        }
    };
    const auto offer = [&](std::uint32_t p, auto may_be_self) HWY_ATTR __attribute__((always_inline)) {
        levels.Sink(key_of(p, may_be_self));
    };
    // The places that may hold a lane's own agent: with `scattered`, any.
    const std::uint32_t own_from = scattered != nullptr ? 0 : candidates.own;
    const std::uint32_t own_to =
        scattered != nullptr ? candidates.count : candidates.own + static_cast<std::uint32_t>(n);
    if constexpr (kEightLeast) {
        // Eight candidates at a time; those of eight that may hold a lane's own agent are all tested for it.
        const auto eight = [&](std::uint32_t p, auto may_be_self) HWY_ATTR __attribute__((always_inline)) {
            levels.SinkEight(key_of(p, may_be_self), key_of(p + 1, may_be_self), key_of(p + 2, may_be_self),
                             key_of(p + 3, may_be_self), key_of(p + 4, may_be_self),
                             key_of(p + 5, may_be_self), key_of(p + 6, may_be_self),
                             key_of(p + 7, may_be_self));
        };
        std::uint32_t p = 0;
        for (; candidates.count - p >= 8; p += 8) {
            if (p + 8 <= own_from || p >= own_to) {
                eight(p, std::false_type{});
            } else {
                eight(p, std::true_type{});
            }
        }
        for (; p < candidates.count; ++p) {
            offer(p, std::true_type{});
        }
    } else {
        for (std::uint32_t p = 0; p < own_from; ++p) {
            offer(p, std::false_type{});
        }
        for (std::uint32_t p = own_from; p < own_to; ++p) {
            offer(p, std::true_type{});
        }
        for (std::uint32_t p = own_to; p < candidates.count; ++p) {
            offer(p, std::false_type{});
        }
    }
    if constexpr (kImages) {
        levels.Store(lists);
    } else {
        const hn::RebindToSigned<DT> di;
        using I = hn::TFromD<decltype(di)>;
        const auto bucket_of = [&](T v) {
            return static_cast<I>(std::bit_cast<U>(v) & ~place_mask<U>(bits));
        };
        M unsure = hn::FirstN(dd, 0);
        levels.Settle(hn::Set(di, static_cast<I>(~place_mask<U>(bits))),
                      hn::Set(di, bucket_of(limits.surely)), hn::Set(di, bucket_of(limits.seen)), unsure);
        levels.Store(lists);
        // Such a lane's key left out made its k-th's: Tiles' unsure check then sends it to the ring search.
        hn::Store(
            hn::IfThenElse(unsure, hn::Load(dd, lists.list[max_tile_k - 1]), hn::Load(dd, lists.left_out)),
            dd, lists.left_out);
    }
}

/// k_nearest_tiles with tiles of DT's lanes (TilesOfItsWidth), whose keys are DT's floats or doubles.
template <class DT, class Real>
HWY_ATTR void Tiles(const SpatialGrid<Real>& grid, SlotLines lines, std::uint32_t begin, std::uint32_t end,
                    int k, bool wrap, Real width, Real height, std::uint32_t* nearest, std::size_t stride,
                    int* count) {
    using T = hn::TFromD<DT>;
    KNearest found; // once per call: its 1 KiB list is zeroed when made
    // past_two_rings: the agent's lane found fewer than k nearer than two rings in its 5 x 5 cells.
    const auto by_agent = [&](std::uint32_t s, bool past_two_rings = false) {
        if (past_two_rings) {
            k_nearest_past_two_rings(grid, grid.x(s), grid.y(s), grid.agent(s), k, wrap, width, height,
                                     found);
        } else {
            k_nearest_two_rings(grid, grid.x(s), grid.y(s), grid.agent(s), k, wrap, width, height, found);
        }
        count[s - begin] = found.count;
        for (int m = 0; m < found.count; ++m) {
            nearest[static_cast<std::size_t>(m) * stride + (s - begin)] =
                found.found[static_cast<std::size_t>(m)].slot;
        }
    };
    const int nx = grid.columns(), ny = grid.rows();
    if (k < 1 || k > max_tile_k || grid.three_d() || nx < 5 || ny < 5) {
        for (std::uint32_t s = begin; s < end; ++s) {
            by_agent(s);
        }
        return;
    }
    using M = hn::Mask<DT>;
    const DT dd;
    const hn::RebindToUnsigned<DT> du;
    using U = hn::TFromD<decltype(du)>;
    const hn::ScalableTag<std::uint32_t> du32;
    const auto from_zero = hn::Iota(du32, 0); // Highway 1.0's Iota goes through memory: made once
    const std::size_t lanes = hn::Lanes(dd);
    const detail::GridGeometry g = grid.geometry();
    const std::uint32_t* const start = grid.cell_starts().data();
    // k_nearest's ring search stops after ring 2 when its k-th is nearer than two rings, and after ring 1
    // (the 3 x 3 cells' list, which takes the agent-by-agent search) when nearer than one.
    const double near2 = grid.min_cell() * grid.min_cell(), far2 = 4 * near2;
    const KeyLimits<T> limits = KeyLimits<T>::Of(near2, far2);
    // Without a seam in the block, and a block well within half the world, no nearest image differs from
    // the candidate's own position.
    const double half_w = static_cast<double>(width) / 2, half_h = static_cast<double>(height) / 2;
    // Lists the slots of the rows `reach` either side of `row` (the row first, then outward), in the column
    // spans `pieces`, as `list`'s candidates; calls own_row(place, run, run_end) for each of the row's own
    // runs. False for a crowd: more candidates than keys can tell apart.
    const auto list_rows = [&](int row, int reach, const block_lines::Columns(&pieces)[2], int spans,
                               Candidates& list, auto&& own_row) HWY_ATTR {
        list.count = 0;
        for (int step = 0; step <= 2 * reach; ++step) {
            const int r = block_lines::grid_row(row + (step % 2 == 0 ? step / 2 : -(step + 1) / 2), ny, wrap);
            if (r < 0) {
                continue;
            }
            const std::size_t base = static_cast<std::size_t>(r) * static_cast<std::size_t>(nx);
            for (int piece = 0; piece < spans; ++piece) {
                const std::uint32_t run = start[base + static_cast<std::size_t>(pieces[piece].first)];
                const std::uint32_t run_end = start[base + static_cast<std::size_t>(pieces[piece].last) + 1];
                const std::uint32_t at = list.count;
                if (run_end - run > max_candidates - at) {
                    return false;
                }
                if (step == 0) {
                    own_row(at, run, run_end);
                }
                for (std::uint32_t s = run; s < run_end; s += static_cast<std::uint32_t>(hn::Lanes(du32))) {
                    hn::StoreU(hn::Add(from_zero, hn::Set(du32, s)), du32,
                               list.slot + at + (s - run)); // past the end: spare
                }
                list.count = at + (run_end - run);
            }
        }
        return true;
    };
    // Ranks a tile's candidates (RankTile) for its agents' blocks `reach` rings around their cells (columns
    // low to high of `row`, the block's columns in `spans` pieces), with nearest images only where one may
    // differ from the candidate's own position: a block across a seam or not well within half the world.
    const auto rank_tile = [&](std::uint32_t first, std::size_t n, int reach, const KeyLimits<T>& with,
                               int bits, int spans, int row, int low, int high, const Candidates& from,
                               Lists<T>& into, const std::uint32_t* scattered = nullptr,
                               const std::uint32_t* scattered_own = nullptr) HWY_ATTR {
        const int block = 2 * reach + 1;
        const bool images =
            wrap && (spans == 2 || row < reach || row + reach >= ny || block * g.cell_h >= 0.99 * half_h ||
                     (high - low + block) * g.cell_w >= 0.99 * half_w);
        // Eight at a time for k from 5 (Levels): below, sinking each key through k levels costs less.
        const bool eight_least = k >= 5 && k <= 7;
        if (images && eight_least) {
            RankTile<DT, true, true>(grid, lines.column, first, n, k, reach, width, height, with, bits, from,
                                     into, scattered, scattered_own);
        } else if (images) {
            RankTile<DT, true, false>(grid, lines.column, first, n, k, reach, width, height, with, bits, from,
                                      into, scattered, scattered_own);
        } else if (eight_least) {
            RankTile<DT, false, true>(grid, lines.column, first, n, k, reach, width, height, with, bits, from,
                                      into, scattered, scattered_own);
        } else {
            RankTile<DT, false, false>(grid, lines.column, first, n, k, reach, width, height, with, bits,
                                       from, into, scattered, scattered_own);
        }
    };
    const auto top = static_cast<std::size_t>(max_tile_k - k); // a list's first level
    // Each lane's list as slots, for the agent of slot agent_slot(i) in lane i < n: the lanes whose list may
    // not be k_nearest's then take the agent-by-agent search, which writes over it.
    const auto write_lists = [&](const Lists<T>& from, const Candidates& listed, int bits, std::size_t n,
                                 auto&& agent_slot) {
        for (std::size_t j = top; j < max_tile_k; ++j) {
            std::uint32_t* const level = nearest + (j - top) * stride;
            for (std::size_t i = 0; i < n; ++i) {
                level[agent_slot(i) - begin] = listed.slot[place(std::bit_cast<U>(from.list[j][i]), bits)];
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            count[agent_slot(i) - begin] = k;
        }
    };
    // A key with its place cleared (its bucket's least distance).
    const auto truncated = [&](hn::Vec<DT> key, int bits) HWY_ATTR {
        return hn::BitCast(dd,
                           hn::And(hn::BitCast(du, key), hn::Set(du, static_cast<U>(~place_mask<U>(bits)))));
    };
    // The lanes whose lists may not be k_nearest's, told in lanes without a branch per level: fewer than k
    // seen, or a k-th not below `with`'s rings for certain (a key below the truncated bound has its whole
    // bucket below it; a key of the bound's bucket may stand for a distance above it), or keys less than
    // with.gap buckets apart (a lane's successive levels, and its k-th and the least left out, which is no
    // nearer than the k-th).
    const auto unsure = [&](const Lists<T>& from, const KeyLimits<T>& with, int bits) HWY_ATTR {
        const auto bucket = [&](const T* keys) HWY_ATTR {
            return hn::ShiftRightSame(hn::BitCast(du, hn::Load(dd, keys)), bits);
        };
        const auto gap = hn::Set(du, static_cast<U>(with.gap));
        auto nearer = bucket(from.list[max_tile_k - 1]);
        auto tied = hn::Lt(hn::Sub(bucket(from.left_out), nearer), gap);
        for (std::size_t j = max_tile_k - 1; j-- > top;) {
            const auto level = bucket(from.list[j]);
            tied = hn::Or(tied, hn::Lt(hn::Sub(nearer, level), gap));
            nearer = level;
        }
        const auto kth = hn::Load(dd, from.list[max_tile_k - 1]);
        return hn::Or(hn::Not(hn::Lt(kth, truncated(hn::Set(dd, with.answered), bits))),
                      hn::RebindMask(dd, tied));
    };
    const auto lane_bits = [&](hn::Mask<DT> m) HWY_ATTR {
        std::uint8_t b[8] = {};
        hn::StoreMaskBits(dd, m, b);
        return static_cast<unsigned>(b[0]) | static_cast<unsigned>(b[1]) << 8;
    };
    // Agents whose lanes find fewer than k nearer than two rings: the ring search goes on to ring 3, and
    // answers with the 7 x 7 cells' k nearest nearer than three rings when there are k. Such agents (a few
    // in a hundred at one agent per cell, where the flock is sparse, often beside one another in a row)
    // wait in `pending` until a tile's worth is known; then those of a row close enough to share their
    // cells' candidates (columns at most max_three_rings_span apart) take a tile of their own, whose lanes
    // rank those candidates as a tile's lanes rank theirs: a vector operation per level and candidate,
    // where the agent-by-agent search ranks double lanes by counts after a compress per vector of
    // candidates. A lane's list is the answer when a tile's lane would answer (its k-th below three rings
    // for certain, its keys apart); the others take that search.
    const double three_rings = 3 * grid.min_cell(), three2 = three_rings * three_rings; // the search's bound
    const KeyLimits<T> limits3 = KeyLimits<T>::Of(near2, three2);
    const bool three_rings_tiled =
        nx >= 7 && ny >= 7 && (!std::is_same_v<T, float> || float_keys_hold(near2, three2));
    constexpr int max_three_rings_span = 4;
    constexpr std::size_t max_pending = 256;
    std::uint32_t pending[max_pending];
    std::size_t pending_count = 0;
    Candidates wide;
    Lists<T> wide_lists;
    std::uint32_t wide_own[Lists<T>::lanes];
    // A tile of the agents pending[from, to) (one row, their columns within max_three_rings_span); returns
    // the lanes it answers, as bits.
    const auto three_rings_tile = [&](std::size_t from, std::size_t to) HWY_ATTR -> unsigned {
        const std::uint32_t* const group = pending + from;
        const std::size_t n = to - from;
        const int row = static_cast<int>(lines.row[group[0]]);
        int low = nx, high = -1;
        for (std::size_t i = 0; i < n; ++i) {
            low = std::min(low, static_cast<int>(lines.column[group[i]]));
            high = std::max(high, static_cast<int>(lines.column[group[i]]));
            wide_own[i] = max_candidates;
        }
        block_lines::Columns pieces[2];
        const int spans = block_lines::column_spans(low - 3, high + 3, nx, wrap, pieces);
        const auto own_places = [&](std::uint32_t at, std::uint32_t run, std::uint32_t run_end) {
            for (std::size_t i = 0; i < n; ++i) {
                if (group[i] >= run && group[i] < run_end) {
                    wide_own[i] = at + (group[i] - run);
                }
            }
        };
        if (!list_rows(row, 3, pieces, spans, wide, own_places)) {
            return 0u;
        }
        if (std::find(wide_own, wide_own + n, max_candidates) != wide_own + n) {
            return 0u;
        }
        const int bits = place_bits(wide.count);
        rank_tile(0, n, 3, limits3, bits, spans, row, low, high, wide, wide_lists, group, wide_own);
        write_lists(wide_lists, wide, bits, n, [&](std::size_t i) { return group[i]; });
        return ~lane_bits(unsure(wide_lists, limits3, bits)) & ((1u << n) - 1);
    };
    // The pending agents in tiles of a row's agents close together; the agent-by-agent search for the rest.
    const auto flush_pending = [&]() HWY_ATTR {
        for (std::size_t from = 0; from < pending_count;) {
            std::size_t to = from + 1;
            if (three_rings_tiled) {
                const double row = lines.row[pending[from]];
                double low = lines.column[pending[from]], high = low;
                const auto span = [&](double column) {
                    return std::max(high, column) - std::min(low, column);
                };
                while (to < pending_count && to - from < lanes && lines.row[pending[to]] == row &&
                       span(lines.column[pending[to]]) <= max_three_rings_span &&
                       span(lines.column[pending[to]]) + 7 <= nx) {
                    low = std::min(low, lines.column[pending[to]]);
                    high = std::max(high, lines.column[pending[to]]);
                    ++to;
                }
            }
            const unsigned answered = three_rings_tiled ? three_rings_tile(from, to) : 0u;
            for (std::size_t i = from; i < to; ++i) {
                if (((answered >> (i - from)) & 1u) == 0) {
                    by_agent(pending[i], true);
                }
            }
            from = to;
        }
        pending_count = 0;
    };
    Candidates candidates;
    Lists<T> lists;
    for (std::uint32_t first = begin; first < end;) {
        // The tile: consecutive agents of one row of cells, a vector of them at most, whose block of
        // columns fits the grid.
        const double row_line = lines.row[first];
        double low_line = lines.column[first], high_line = low_line;
        std::uint32_t past = first + 1;
        while (past < end && past - first < lanes && lines.row[past] == row_line &&
               std::max(high_line, lines.column[past]) - std::min(low_line, lines.column[past]) + 5 <= nx) {
            low_line = std::min(low_line, lines.column[past]);
            high_line = std::max(high_line, lines.column[past]);
            ++past;
        }
        const auto n = static_cast<std::size_t>(past - first);
        const int row = static_cast<int>(row_line);
        const int low = static_cast<int>(low_line), high = static_cast<int>(high_line);
        block_lines::Columns pieces[2];
        const int spans =
            high - low + 5 <= nx ? block_lines::column_spans(low - 2, high + 2, nx, wrap, pieces) : 0;
        // The slots three rows on, under the tile, fetched ahead: the tiles of agents past two rings read
        // them soon (three_rings_tile, or k_nearest_past_two_rings), the tiles a row later read them as
        // their block's last row, and neither finds them in the cache otherwise. Found by their cells'
        // bounds, which were fetched a row of tiles earlier as the bounds four rows on.
        if (ny >= 7) {
            const int from = std::max(low - 2, 0), to = std::min(high + 2, nx - 1);
            const int three_on = block_lines::grid_row(row + 3, ny, wrap);
            const int four_on = block_lines::grid_row(row + 4, ny, wrap);
            if (four_on >= 0) {
                __builtin_prefetch(start + static_cast<std::size_t>(four_on) * static_cast<std::size_t>(nx) +
                                   from);
            }
            if (three_on >= 0) {
                const std::size_t base = static_cast<std::size_t>(three_on) * static_cast<std::size_t>(nx);
                const std::uint32_t run = start[base + static_cast<std::size_t>(from)];
                const std::uint32_t run_end = start[base + static_cast<std::size_t>(to) + 1];
                const auto fetch = [&](const auto* column) {
                    constexpr std::uint32_t per_line = 64 / sizeof(*column);
                    for (std::uint32_t s = run / per_line * per_line; s < run_end; s += per_line) {
                        __builtin_prefetch(column + s);
                    }
                };
                fetch(grid.xs().data());
                fetch(grid.ys().data());
                fetch(lines.column);
                fetch(lines.row);
            }
        }
        // The candidates: the block's rows, the tile's own first and then outward.
        candidates.own = max_candidates;
        const bool listed =
            spans > 0 && list_rows(row, 2, pieces, spans, candidates,
                                   [&](std::uint32_t at, std::uint32_t run, std::uint32_t run_end) {
                                       if (first >= run && first < run_end) {
                                           candidates.own = at + (first - run);
                                       }
                                   });
        if (!listed || candidates.own == max_candidates) {
            for (std::uint32_t s = first; s < past; ++s) {
                by_agent(s);
            }
            first = past;
            continue;
        }
        const int bits = place_bits(candidates.count);
        rank_tile(first, n, 2, limits, bits, spans, row, low, high, candidates, lists);
        write_lists(lists, candidates, bits, n,
                    [&](std::size_t i) { return first + static_cast<std::uint32_t>(i); });
        const M unanswered = unsure(lists, limits, bits);
        // Fewer than k seen: the ring search goes on past two rings.
        const auto kth = hn::Load(dd, lists.list[max_tile_k - 1]);
        const M few = hn::Not(hn::Lt(kth, hn::Inf(dd)));
        // A k-th nearer than one ring: the ring search stops after ring 1, with the 3 x 3 cells' k nearest.
        // Those are these when all these lie in the 3 x 3 cells (the k nearest of the 5 x 5 cells, and so of
        // any part of them that holds all k). A key's truncated distance is at most its distance, so a lane
        // whose truncated k-th is not below limits.near has its k-th farther than one ring.
        const M may_be_near = hn::Lt(truncated(kth, bits), hn::Set(dd, limits.near));
        const auto key_place = [&](T key) { return place(std::bit_cast<U>(key), bits); };
        const unsigned by_search = lane_bits(unanswered);
        const unsigned near = lane_bits(hn::AndNot(unanswered, may_be_near));
        const unsigned past_two_rings = lane_bits(few);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t s = first + static_cast<std::uint32_t>(i);
            bool answered = ((by_search >> i) & 1u) == 0;
            if (((near >> i) & 1u) != 0) {
                const std::uint32_t c = candidates.slot[key_place(lists.list[max_tile_k - 1][i])];
                if (k_nearest_distance2(grid.x(s), grid.y(s), grid.x(c), grid.y(c), wrap, width, height) <
                    near2) {
                    for (std::size_t j = top; answered && j < max_tile_k; ++j) {
                        const std::uint32_t m = candidates.slot[key_place(lists.list[j][i])];
                        answered = lines_apart(lines.column[m], lines.column[s], nx, wrap) <= 1 &&
                                   lines_apart(lines.row[m], lines.row[s], ny, wrap) <= 1;
                    }
                }
            }
            if (answered) {
                continue;
            }
            if (((past_two_rings >> i) & 1u) == 0) {
                by_agent(s);
                continue;
            }
            pending[pending_count++] = s;
            if (pending_count == max_pending) {
                flush_pending();
            }
        }
        first = past;
    }
    flush_pending();
}

/// Tiles of float keys from float storage (KeyLimits), of double keys from double storage or where a
/// grid's rings leave floats' range (float_keys_hold); of half a vector on AVX-512 where the CPU splits
/// 512-bit operations (half_tiles), of a whole one elsewhere.
template <class Real>
HWY_ATTR void TilesOfItsWidth(const SpatialGrid<Real>& grid, SlotLines lines, std::uint32_t begin,
                              std::uint32_t end, int k, bool wrap, Real width, Real height,
                              std::uint32_t* nearest, std::size_t stride, int* count) {
    const auto of_width = [&]<class D>(D) HWY_ATTR {
        if constexpr (fast::HWY_NAMESPACE::half_vectors) {
            if (half_tiles()) {
                Tiles<hn::Half<D>>(grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
                return;
            }
        }
        Tiles<D>(grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
    };
    const double near2 = grid.min_cell() * grid.min_cell();
    if constexpr (std::is_same_v<Real, float>) {
        if (float_keys_hold(near2, 4 * near2)) {
            of_width(hn::ScalableTag<float>());
            return;
        }
    }
    of_width(DD());
}

template <class Real>
HWY_ATTR void Lines(const SpatialGrid<Real>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                    double* row) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;
    const detail::GridGeometry g = grid.geometry();
    const Real* const xs = grid.xs().data();
    const Real* const ys = grid.ys().data();
    const auto line = [&](hn::Vec<DD> p, double origin, double cell, int count)
                          HWY_ATTR { return fast::HWY_NAMESPACE::ClampedLine(dd, p, origin, cell, count); };
    const std::size_t lanes = hn::Lanes(dd);
    std::uint32_t s = begin;
    for (; s + lanes <= end; s += static_cast<std::uint32_t>(lanes)) {
        const auto x = fast::HWY_NAMESPACE::WidenLanes<Real>(dd, hn::LoadU(dr, xs + s));
        const auto y = fast::HWY_NAMESPACE::WidenLanes<Real>(dd, hn::LoadU(dr, ys + s));
        hn::StoreU(line(x, g.origin_x, g.cell_w, g.nx), dd, column + s);
        hn::StoreU(line(y, g.origin_y, g.cell_h, g.ny), dd, row + s);
    }
    for (; s < end; ++s) {
        column[s] = detail::clamped_line(static_cast<double>(xs[s]), g.origin_x, g.cell_w, g.nx);
        row[s] = detail::clamped_line(static_cast<double>(ys[s]), g.origin_y, g.cell_h, g.ny);
    }
}

HWY_ATTR void TilesF32(const SpatialGrid<float>& grid, SlotLines lines, std::uint32_t begin,
                       std::uint32_t end, int k, bool wrap, float width, float height, std::uint32_t* nearest,
                       std::size_t stride, int* count) {
    TilesOfItsWidth(grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
}
HWY_ATTR void TilesF64(const SpatialGrid<double>& grid, SlotLines lines, std::uint32_t begin,
                       std::uint32_t end, int k, bool wrap, double width, double height,
                       std::uint32_t* nearest, std::size_t stride, int* count) {
    TilesOfItsWidth(grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
}
HWY_ATTR void LinesF32(const SpatialGrid<float>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                       double* row) {
    Lines(grid, begin, end, column, row);
}
HWY_ATTR void LinesF64(const SpatialGrid<double>& grid, std::uint32_t begin, std::uint32_t end,
                       double* column, double* row) {
    Lines(grid, begin, end, column, row);
}

} // namespace HWY_NAMESPACE
} // namespace boids::tiles
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids {
namespace tiles {
// Dispatched unqualified, under `using namespace tiles`: a one-target build calls N_<target>::<name>.
HWY_EXPORT(TilesF32);
HWY_EXPORT(TilesF64);
HWY_EXPORT(LinesF32);
HWY_EXPORT(LinesF64);

namespace {
/// force_half_tiles: -1 by the CPU, 0 whole vectors, 1 halves.
std::atomic<int> forced_half{-1};
} // namespace

bool half_tiles() {
    static const bool splits = splits_512_bit_operations();
    const int forced = forced_half.load(std::memory_order_relaxed);
    return forced < 0 ? splits : forced != 0;
}
} // namespace tiles

bool splits_512_bit_operations() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) {
        return false;
    }
    const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u; // "AuthenticAMD"
    if (!amd || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) {
        return false;
    }
    const unsigned base = (eax >> 8) & 0xfu;
    const unsigned family = base == 0xfu ? base + ((eax >> 20) & 0xffu) : base;
    return family == 0x19u; // Zen 3 and Zen 4; of them only Zen 4 runs AVX-512
#else
    return false;
#endif
}

void force_half_tiles(std::optional<bool> half) {
    tiles::forced_half.store(half.has_value() ? (*half ? 1 : 0) : -1, std::memory_order_relaxed);
}

void slot_lines(const SpatialGrid<float>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                double* row) {
    using namespace tiles;
    HWY_DYNAMIC_DISPATCH(LinesF32)(grid, begin, end, column, row);
}
void slot_lines(const SpatialGrid<double>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                double* row) {
    using namespace tiles;
    HWY_DYNAMIC_DISPATCH(LinesF64)(grid, begin, end, column, row);
}
void k_nearest_tiles(const SpatialGrid<float>& grid, SlotLines lines, std::uint32_t begin, std::uint32_t end,
                     int k, bool wrap, float width, float height, std::uint32_t* nearest, std::size_t stride,
                     int* count) {
    using namespace tiles;
    HWY_DYNAMIC_DISPATCH(TilesF32)
    (grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
}
void k_nearest_tiles(const SpatialGrid<double>& grid, SlotLines lines, std::uint32_t begin, std::uint32_t end,
                     int k, bool wrap, double width, double height, std::uint32_t* nearest,
                     std::size_t stride, int* count) {
    using namespace tiles;
    HWY_DYNAMIC_DISPATCH(TilesF64)
    (grid, lines, begin, end, k, wrap, width, height, nearest, stride, count);
}
} // namespace boids
#endif
