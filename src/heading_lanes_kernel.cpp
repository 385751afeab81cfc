// The Vicsek and Couzin sums with a group's agents in SIMD lanes (heading_lanes_kernel.hpp; the layout is
// lane_vectors-inl.h's), compiled for every instruction set Highway targets on this architecture
// (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "heading_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "heading_lanes_kernel.hpp"
#include "lane_vectors-inl.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

/// unit_heading in lanes: the speed as angle::length (Length: products and sum rounded apart, no fused
/// multiply-add), IEEE's divisions; a speed not above 0 (zero or NaN) gives (0, 0).
template <class Real>
HWY_ATTR void UnitHeadings(const Real* vx, const Real* vy, std::uint32_t count, double* ux, double* uy) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;
    const V zero = hn::Zero(dd);
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(dd));
    for (std::uint32_t at = 0; at < count; at += lanes) {
        const std::size_t n = std::min(lanes, count - at);
        const V x = WidenLanes<Real>(dd, LoadLanes(dr, vx, at, n));
        const V y = WidenLanes<Real>(dd, LoadLanes(dr, vy, at, n));
        const V speed = Length(x, y);
        const M moving = hn::Gt(speed, zero);
        StoreLanes(hn::IfThenElseZero(moving, hn::Div(x, speed)), ux, at, n);
        StoreLanes(hn::IfThenElseZero(moving, hn::Div(y, speed)), uy, at, n);
    }
}

HWY_ATTR void UnitHeadingsF32(const float* vx, const float* vy, std::uint32_t count, double* ux, double* uy) {
    UnitHeadings(vx, vy, count, ux, uy);
}
HWY_ATTR void UnitHeadingsF64(const double* vx, const double* vy, std::uint32_t count, double* ux,
                              double* uy) {
    UnitHeadings(vx, vy, count, ux, uy);
}

template <class D>
struct VicsekLanes {
    hn::Vec<D> sx, sy;
};

template <class Real>
HWY_ATTR void VicsekSums(const InRangeGrid<Real>& grid, const double* ux, const double* uy, LaneGroup group,
                         const CandidateRuns& runs, const VicsekLaneSums& sums) {
    const std::uint32_t base = group.first; // the sums are indexed from the group's first agent
    EachLaneVectorOf(
        grid, group, runs,
        [&](auto d, std::uint32_t at, std::size_t n) {
            return VicsekLanes<decltype(d)>{LoadLanes(d, sums.sx, at - base, n),
                                            LoadLanes(d, sums.sy, at - base, n)};
        },
        [&](auto& s, std::uint32_t c, auto, auto, auto, auto reached) {
            const hn::DFromV<decltype(s.sx)> d;
            // The sums start at 0.0 + the agent's heading (vicsek::Policy::start), never -0: add_where's
            // bits.
            s.sx = add_where(reached, s.sx, hn::Set(d, ux[c]));
            s.sy = add_where(reached, s.sy, hn::Set(d, uy[c]));
        },
        [&](const auto& s, std::uint32_t at, std::size_t n) {
            StoreLanes(s.sx, sums.sx, at - base, n);
            StoreLanes(s.sy, sums.sy, at - base, n);
        });
}

template <class D>
struct CouzinLanes {
    hn::Vec<D> rx, ry, ax, ay, ox, oy;
    hn::Mask<D> repelled;
};

template <class Real>
HWY_ATTR void CouzinSums(const InRangeGrid<Real>& grid, double alpha2, const double* ux, const double* uy,
                         LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    const std::uint32_t base = group.first;
    // The repulsion zone's squared radius in lanes of each width, made here: GCC does not hoist a broadcast
    // out of the candidate loop, and loaded it again for every candidate.
    const auto a2_full = hn::Set(DD(), alpha2);
    const auto a2_half = hn::Set(DH(), alpha2);
    const auto repulsion2 = [&](auto d) {
        if constexpr (std::is_same_v<decltype(d), DD>) {
            return a2_full;
        } else {
            return a2_half;
        }
    };
    // One vector of agents at a time, each with its own list of candidates in reach: the square root and
    // the divisions take the whole vector whichever lanes a candidate reaches, and two vectors sharing the
    // list of both their agents took each through the other's candidates too (docs/PERFORMANCE.md §3.4,
    // "Couzin's lanes, one vector at a time").
    EachLaneVectorOf<LaneOffset::ImageMinusAgent, 1, true>(
        grid, group, runs,
        [&](auto d, std::uint32_t at, std::size_t n) {
            const std::uint32_t i = at - base;
            return CouzinLanes<decltype(d)>{LoadLanes(d, sums.rx, i, n),
                                            LoadLanes(d, sums.ry, i, n),
                                            LoadLanes(d, sums.ax, i, n),
                                            LoadLanes(d, sums.ay, i, n),
                                            LoadLanes(d, sums.ox, i, n),
                                            LoadLanes(d, sums.oy, i, n),
                                            hn::FirstN(d, 0)};
        },
        [&](auto& s, std::uint32_t c, auto dx, auto dy, auto d2, auto reached) {
            const hn::DFromV<decltype(dx)> dd;
            const auto in =
                hn::And(reached, hn::Ne(d2, hn::Zero(dd))); // exactly on top: no direction to take
            if (hn::AllFalse(dd, in)) { // rare: the filter left out the candidates that reach no lane
                return;
            }
            const auto dist = hn::Sqrt(d2);
            const auto qx = hn::Div(dx, dist), qy = hn::Div(dy, dist);
            const auto repel = hn::And(in, hn::Lt(d2, repulsion2(dd)));
            const auto attract = hn::AndNot(repel, in);
            s.repelled = hn::Or(s.repelled, repel);
            // add_where's bits need a sum that is never -0: rx, ry, ax and ay start at +0; ox and oy start
            // at the agent's heading, whose -0 may turn +0 in a lane left out, but they are only ever read
            // added to ax and ay (couzin_direction), where +0 and -0 give the same sum. So a neighbour at
            // rest, whose heading the plain path leaves out, adds its (+0, +0) here, without a branch.
            s.rx = subtract_where(repel, s.rx, qx);
            s.ry = subtract_where(repel, s.ry, qy);
            s.ax = add_where(attract, s.ax, qx);
            s.ay = add_where(attract, s.ay, qy);
            s.ox = add_where(attract, s.ox, hn::Set(dd, ux[c]));
            s.oy = add_where(attract, s.oy, hn::Set(dd, uy[c]));
        },
        [&](const auto& s, std::uint32_t at, std::size_t n) {
            const hn::DFromV<decltype(s.rx)> dd;
            const std::uint32_t i = at - base;
            StoreLanes(s.rx, sums.rx, i, n);
            StoreLanes(s.ry, sums.ry, i, n);
            StoreLanes(s.ax, sums.ax, i, n);
            StoreLanes(s.ay, sums.ay, i, n);
            StoreLanes(s.ox, sums.ox, i, n);
            StoreLanes(s.oy, sums.oy, i, n);
            alignas(8) std::uint8_t bits[8] = {};
            hn::StoreMaskBits(dd, s.repelled, bits);
            for (std::size_t k = 0; k < n; ++k) {
                sums.repelled[i + k] = static_cast<std::uint8_t>((bits[0] >> k) & 1u);
            }
        });
}

/// How many vectors of agents couzin_direction takes side by side (vector_packs-inl.h): two lengths and
/// their divisions follow one another, which one vector at a time leaves waiting.
constexpr std::size_t direction_pack = 4;

HWY_ATTR void CouzinDirection(const CouzinDirectionColumns& c, double informed_weight, std::size_t count) {
    EachColumnPack<direction_pack>(count, [&](auto pack, std::uint32_t at, std::size_t n) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        const DD dd;
        const auto load = [&](const double* column) HWY_ATTR { return LoadColumn<k>(dd, column, at, n); };
        const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0), weight = hn::Set(dd, informed_weight);
        const auto repelled = pk::Ne(load(c.repelled), zero);
        auto dx = pk::IfThenElse(repelled, load(c.rx), pk::Add(load(c.ax), load(c.ox)));
        auto dy = pk::IfThenElse(repelled, load(c.ry), pk::Add(load(c.ay), load(c.oy)));
        auto dn = Length(dx, dy);
        const auto balanced = pk::Eq(dn, zero); // balanced pulls: keep going
        dx = pk::IfThenElse(balanced, load(c.hx), dx);
        dy = pk::IfThenElse(balanced, load(c.hy), dy);
        dn = pk::IfThenElse(balanced, one, dn);
        dx = pk::Div(dx, dn);
        dy = pk::Div(dy, dn);
        // An informed agent's preference.
        const auto gx = load(c.gx);
        const auto px = pk::Add(dx, pk::Mul(weight, gx));
        const auto pn = Length(px, dy);
        const auto some = pk::Gt(pn, zero);
        const auto informed = pk::Ne(gx, zero);
        dx = pk::IfThenElse(informed, pk::IfThenElse(some, pk::Div(px, pn), gx), dx);
        dy = pk::IfThenElse(informed, pk::IfThenElse(some, pk::Div(dy, pn), zero), dy);
        StoreColumn<k>(dx, c.dx, at, n);
        StoreColumn<k>(dy, c.dy, at, n);
    });
}

HWY_ATTR void CouzinTurned(const double* desired, const double* current, const double* sin, const double* cos,
                           double cos_turn, double turn_rate, std::size_t count, double* turned) {
    const DD dd;
    const V limit = hn::Set(dd, cos_turn), rate = hn::Set(dd, turn_rate), zero = hn::Zero(dd);
    for (std::size_t at = 0; at < count; at += hn::Lanes(dd)) {
        const auto i = static_cast<std::uint32_t>(at);
        const std::size_t n = std::min(hn::Lanes(dd), count - at);
        const V step = hn::IfThenElse(hn::Ge(LoadLanes(dd, sin, i, n), zero), rate, hn::Neg(rate));
        const V limited = hn::Add(LoadLanes(dd, current, i, n), step);
        StoreLanes(
            hn::IfThenElse(hn::Lt(LoadLanes(dd, cos, i, n), limit), limited, LoadLanes(dd, desired, i, n)),
            turned, i, n);
    }
}

HWY_ATTR void VicsekSumsF32(const InRangeGrid<float>& grid, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const VicsekLaneSums& sums) {
    VicsekSums(grid, ux, uy, group, runs, sums);
}
HWY_ATTR void VicsekSumsF64(const InRangeGrid<double>& grid, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const VicsekLaneSums& sums) {
    VicsekSums(grid, ux, uy, group, runs, sums);
}
HWY_ATTR void CouzinSumsF32(const InRangeGrid<float>& grid, double alpha2, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    CouzinSums(grid, alpha2, ux, uy, group, runs, sums);
}
HWY_ATTR void CouzinSumsF64(const InRangeGrid<double>& grid, double alpha2, const double* ux,
                            const double* uy, LaneGroup group, const CandidateRuns& runs,
                            const CouzinLaneSums& sums) {
    CouzinSums(grid, alpha2, ux, uy, group, runs, sums);
}

/// The agents of a tile (lane_group_pass.hpp): two vectors of them where a vector holds four or more (16 on
/// AVX-512, 8 on AVX2), whose two lists of candidates in reach one pass makes (lane_vectors-inl.h); none
/// below (a group per cell). Measured (docs/PERFORMANCE.md §3.4): one vector to a tile slower on AVX-512
/// (Couzin 2-5%, the weighted model 0-4%) and on AVX2 (10%), tiles of three vectors no faster; tiles of
/// any size on SSE4's two lanes slower than cells.
HWY_ATTR std::size_t TileAgents() {
    return hn::Lanes(DD()) >= 4 ? 2 * hn::Lanes(DD()) : 0;
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(UnitHeadingsF32);
HWY_EXPORT(UnitHeadingsF64);
HWY_EXPORT(VicsekSumsF32);
HWY_EXPORT(VicsekSumsF64);
HWY_EXPORT(CouzinSumsF32);
HWY_EXPORT(CouzinSumsF64);
HWY_EXPORT(CouzinDirection);
HWY_EXPORT(CouzinTurned);
HWY_EXPORT(TileAgents);

std::size_t tile_agents() {
    return HWY_DYNAMIC_DISPATCH(TileAgents)();
}

void unit_headings(const float* vx, const float* vy, std::uint32_t count, double* ux, double* uy) {
    HWY_DYNAMIC_DISPATCH(UnitHeadingsF32)(vx, vy, count, ux, uy);
}
void unit_headings(const double* vx, const double* vy, std::uint32_t count, double* ux, double* uy) {
    HWY_DYNAMIC_DISPATCH(UnitHeadingsF64)(vx, vy, count, ux, uy);
}

void vicsek_sums(const InRangeGrid<float>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(VicsekSumsF32)(grid, ux, uy, group, runs, sums);
}
void vicsek_sums(const InRangeGrid<double>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(VicsekSumsF64)(grid, ux, uy, group, runs, sums);
}
void couzin_sums(const InRangeGrid<float>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(CouzinSumsF32)(grid, alpha2, ux, uy, group, runs, sums);
}
void couzin_sums(const InRangeGrid<double>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(CouzinSumsF64)(grid, alpha2, ux, uy, group, runs, sums);
}

void couzin_direction(const CouzinDirectionColumns& columns, double informed_weight, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(CouzinDirection)(columns, informed_weight, n);
}
void couzin_turned(const double* desired, const double* current, const double* sin, const double* cos,
                   double cos_turn, double turn_rate, std::size_t n, double* turned) {
    HWY_DYNAMIC_DISPATCH(CouzinTurned)(desired, current, sin, cos, cos_turn, turn_rate, n, turned);
}

} // namespace boids::fast
#endif
