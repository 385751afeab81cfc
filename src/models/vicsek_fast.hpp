#pragma once
// Vicsek's fast pass (internal; slot_order_pass.hpp): each neighbour's unit heading once per step, the
// agents in cell order, the sums in the plain path's order, so the same bits as vicsek::Policy on the
// plain path.

#include "../slot_order_pass.hpp"
#include "vicsek.hpp"

namespace boids::vicsek {

/// The neighbour phase of a Vicsek step (as neighbour_pass with vicsek::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const HeadingColumns heading = hypot_heading_columns(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    const fast::InRangeGrid<Real> grid = in_range_grid(flock, pass.geo, policy.r2);
    slot_order_pass<Policy<Real>, InRangeScratch>(
        pass, [&](std::uint32_t self, Agent<Real>& a, InRangeScratch& scratch) {
            typename Policy<Real>::Sums sums;
            sums.sx += ux[self]; // Policy::start: the agent's own heading first
            sums.sy += uy[self];
            const auto [near, count] = candidates_in_range(flock, grid, self, a, scratch, false);
            for (std::size_t k = 0; k < count; ++k) {
                sums.sx += ux[near.slot[k]];
                sums.sy += uy[near.slot[k]];
            }
            policy.steer(sums, a);
        });
}

} // namespace boids::vicsek
