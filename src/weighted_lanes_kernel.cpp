// The weighted model's sums with a group's agents in SIMD lanes (weighted_lanes_kernel.hpp; the layout is
// lane_vectors-inl.h's), compiled for every instruction set Highway targets on this architecture
// (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "weighted_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "lane_vectors-inl.h"
#include "weighted_lanes_kernel.hpp"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

/// A vector of agents: their positions, velocities and speeds, and their sums.
struct WeightedLanes {
    V px, py, vx, vy, speed;
    V cx, cy, cn, ax, ay, an, lx, ly, ln;
};

/// One neighbourhood in lanes: its radius and cosine limits.
struct ConeLanes {
    V radius, cos_below, cos_above;
    const weighted::Neighbourhood* cone;

    explicit ConeLanes(DD dd, const weighted::Neighbourhood& n)
        : radius(hn::Set(dd, n.radius)), cos_below(hn::Set(dd, n.cos_below)),
          cos_above(hn::Set(dd, n.cos_above)), cone(&n) {}

    /// The lanes of `reached` whose neighbour at `length` with the clamped cosine `c` the neighbourhood
    /// sees (Neighbourhood::sees; the lanes within 1e-9 of the limit take its scalar acos).
    HWY_INLINE HWY_ATTR M Sees(M reached, M turning, V length, V c) const {
        const DD dd;
        M within = hn::Or(hn::Not(turning), hn::Ge(c, cos_above));
        const M near = hn::And(reached, hn::AndNot(within, hn::And(turning, hn::Gt(c, cos_below))));
        if (!hn::AllFalse(dd, near)) [[unlikely]] {
            alignas(64) double cosine[max_lanes];
            alignas(64) double seen[max_lanes];
            hn::Store(c, dd, cosine);
            hn::Store(hn::IfThenElseZero(near, hn::Set(dd, 1.0)), dd, seen);
            for (std::size_t i = 0; i < hn::Lanes(dd); ++i) {
                seen[i] = seen[i] != 0.0 && cone->within(cosine[i]) ? 1.0 : 0.0;
            }
            within = hn::Or(within, hn::Ne(hn::Load(dd, seen), hn::Zero(dd)));
        }
        return hn::And(reached, hn::AndNot(hn::Gt(length, radius), within));
    }
};

template <class Real>
HWY_ATTR void WeightedSums(const InRangeGrid<Real>& grid, const weighted::Neighbourhoods& near,
                           const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                           const WeightedLaneSums& sums) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;
    const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0), neg_one = hn::Set(dd, -1.0);
    const ConeLanes center(dd, near.center), avoid(dd, near.avoid), align(dd, near.align);
    const std::uint32_t base = group.first; // the sums are indexed from the group's first agent
    EachLaneVectorOf<LaneOffset::NegatedAgentMinusImage, 1>(
        grid, group, runs,
        [&](std::uint32_t at, std::size_t n) {
            return WeightedLanes{WidenLanes<Real>(dd, LoadLanes(dr, grid.x, at, n)),
                                 WidenLanes<Real>(dd, LoadLanes(dr, grid.y, at, n)),
                                 LoadLanes(dd, agents.vx, at, n),
                                 LoadLanes(dd, agents.vy, at, n),
                                 LoadLanes(dd, agents.speed, at, n),
                                 zero,
                                 zero,
                                 zero,
                                 zero,
                                 zero,
                                 zero,
                                 zero,
                                 zero,
                                 zero};
        },
        [&](WeightedLanes & s, std::uint32_t c, V dx, V dy, V d2, M reached) __attribute__((always_inline)) {
            if (hn::AllFalse(dd, reached)) {
                return;
            }
            const V length = hn::Sqrt(d2);
            const M turning = hn::And(hn::Ne(s.speed, zero), hn::Ne(length, zero));
            // v.dot(offset) / (speed * length), clamped; its z terms are zeros that change nothing.
            const V cosine = hn::Div(hn::Add(hn::Mul(s.vx, dx), hn::Mul(s.vy, dy)), hn::Mul(s.speed, length));
            const V clamped = hn::IfThenElse(hn::Gt(cosine, one), one,
                                             hn::IfThenElse(hn::Lt(cosine, neg_one), neg_one, cosine));
            const V nx = hn::Add(s.px, dx), ny = hn::Add(s.py, dy); // the neighbour's image
            const M seen_center = center.Sees(reached, turning, length, clamped);
            s.cx = hn::Add(s.cx, hn::IfThenElseZero(seen_center, nx));
            s.cy = hn::Add(s.cy, hn::IfThenElseZero(seen_center, ny));
            s.cn = hn::Add(s.cn, hn::IfThenElseZero(seen_center, one));
            const M seen_avoid = avoid.Sees(reached, turning, length, clamped);
            s.ax = hn::Add(s.ax, hn::IfThenElseZero(seen_avoid, nx));
            s.ay = hn::Add(s.ay, hn::IfThenElseZero(seen_avoid, ny));
            s.an = hn::Add(s.an, hn::IfThenElseZero(seen_avoid, one));
            const M seen_align = align.Sees(reached, turning, length, clamped);
            s.lx = hn::Add(s.lx, hn::IfThenElseZero(seen_align, hn::Set(dd, agents.ux[c])));
            s.ly = hn::Add(s.ly, hn::IfThenElseZero(seen_align, hn::Set(dd, agents.uy[c])));
            s.ln = hn::Add(s.ln, hn::IfThenElseZero(seen_align, one));
        },
        [&](const WeightedLanes& s, std::uint32_t at, std::size_t n) {
            const std::uint32_t i = at - base;
            StoreLanes(s.cx, sums.cx, i, n);
            StoreLanes(s.cy, sums.cy, i, n);
            StoreLanes(s.cn, sums.cn, i, n);
            StoreLanes(s.ax, sums.ax, i, n);
            StoreLanes(s.ay, sums.ay, i, n);
            StoreLanes(s.an, sums.an, i, n);
            StoreLanes(s.lx, sums.lx, i, n);
            StoreLanes(s.ly, sums.ly, i, n);
            StoreLanes(s.ln, sums.ln, i, n);
        });
}

HWY_ATTR void WeightedSumsF32(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                              const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                              const WeightedLaneSums& sums) {
    WeightedSums(grid, near, agents, group, runs, sums);
}
HWY_ATTR void WeightedSumsF64(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                              const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                              const WeightedLaneSums& sums) {
    WeightedSums(grid, near, agents, group, runs, sums);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(WeightedSumsF32);
HWY_EXPORT(WeightedSumsF64);

void weighted_sums(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                   const WeightedLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(WeightedSumsF32)(grid, near, agents, group, runs, sums);
}
void weighted_sums(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                   const WeightedLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(WeightedSumsF64)(grid, near, agents, group, runs, sums);
}

} // namespace boids::fast
#endif
