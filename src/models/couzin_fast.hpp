#pragma once
// Couzin's fast pass (internal; slot_order_pass.hpp): each neighbour's unit heading once per step, the
// agents in cell order, the zones' sums in the plain path's order, so the same bits as couzin::Policy on
// the plain path.

#include "../slot_order_pass.hpp"
#include "couzin.hpp"

namespace boids::couzin {

/// The neighbour phase of a Couzin step (as neighbour_pass with couzin::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const HeadingColumns heading = hypot_heading_columns(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    const fast::InRangeGrid<Real> grid = in_range_grid(flock, pass.geo, policy.rho2);
    const double alpha2 = policy.alpha2;
    slot_order_pass<Policy<Real>, InRangeScratch>(
        pass, [&](std::uint32_t self, Agent<Real>& a, InRangeScratch& scratch) {
            typename Policy<Real>::Sums sums;
            if (ux[self] != 0.0 || uy[self] != 0.0) { // Policy::start: moving (at rest it heads +x)
                sums.hx = ux[self];
                sums.hy = uy[self];
            }
            sums.ox = sums.hx;
            sums.oy = sums.hy;
            const auto [near, count] = candidates_in_range(flock, grid, self, a, scratch, true);
            for (std::size_t k = 0; k < count; ++k) {
                const double dx = near.dx[k], dy = near.dy[k], d2 = near.d2[k];
                if (d2 == 0.0) {
                    continue; // exactly on top: no direction to take (Policy::accumulate)
                }
                const double dist = std::sqrt(d2);
                if (d2 < alpha2) {
                    sums.repelled = true;
                    sums.rx -= dx / dist;
                    sums.ry -= dy / dist;
                    continue;
                }
                sums.ax += dx / dist;
                sums.ay += dy / dist;
                const std::uint32_t s = near.slot[k];
                if (ux[s] != 0.0 || uy[s] != 0.0) { // a neighbour at rest adds no heading
                    sums.ox += ux[s];
                    sums.oy += uy[s];
                }
            }
            policy.steer(sums, a);
        });
}

} // namespace boids::couzin
