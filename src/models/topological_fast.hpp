#pragma once
// The topological model's fast pass (internal; slot_order_pass.hpp): each neighbour's unit heading once
// per step rather than once per follower, and the agents in cell order; the k nearest are found by the
// plain path's search (k_nearest) and summed nearest first, so the same bits as topological::Policy on the
// plain path.

#include "../slot_order_pass.hpp"
#include "boids/detail/neighbour_search.hpp"
#include "topological.hpp"

namespace boids::topological {

/// The neighbour phase of a topological step (as neighbour_pass with topological::Policy), on the flock
/// grid's slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    const HeadingColumns heading = heading_columns<HeadingLength::Hypot>(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    struct NoScratch {};
    slot_order_pass<Policy<Real>, NoScratch>(pass, [&](std::uint32_t, Agent<Real>& a, NoScratch&) {
        typename Policy<Real>::Sums s;
        KNearest nearest;
        k_nearest(flock, a.x, a.y, a.index, policy.k(), geo.wrap, geo.width, geo.height, nearest,
                  policy.block_cell());
        const double x = static_cast<double>(a.x), y = static_cast<double>(a.y);
        for (int m = 0; m < nearest.count; ++m) { // nearest first (Policy::accumulate)
            const std::uint32_t k = nearest.found[static_cast<std::size_t>(m)].slot;
            Real nx = flock.x(k), ny = flock.y(k);
            if (geo.wrap) {
                nx = classic::nearest_image(a.x, nx, geo.width, geo.half_width);
                ny = classic::nearest_image(a.y, ny, geo.height, geo.half_height);
            }
            const double dx = static_cast<double>(a.x - nx), dy = static_cast<double>(a.y - ny);
            if (m == 0) {
                s.nearest_dx = dx;
                s.nearest_dy = dy;
            }
            s.x_sum += x - dx;
            s.y_sum += y - dy;
            s.cos_sum += ux[k]; // +0 for a neighbour at rest, which leaves the sum as it is
            s.sin_sum += uy[k];
            ++s.count;
        }
        policy.steer(s, a);
    });
}

} // namespace boids::topological
