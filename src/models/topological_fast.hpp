#pragma once
// The topological model's fast pass (internal; slot_order_pass.hpp): each neighbour's unit heading once
// per step rather than once per follower, and the agents in cell order; the k nearest are the plain path's
// (k_nearest_two_rings gives k_nearest's list from the 5 x 5 cells at once, in lanes) and summed nearest
// first, and a chunk's angles, sines and cosines are taken in lanes (angle_lanes.hpp), so the same bits as
// topological::Policy on the plain path.

#include "../angle_lanes.hpp"
#include "../k_nearest_two_rings.hpp"
#include "../slot_order_pass.hpp"
#include "topological.hpp"

#include <cstddef>
#include <vector>

namespace boids::topological {

/// What a chunk of slots keeps between the phases of its steering: each agent, its sums and bearings, and
/// columns for the angles.
template <class Real>
struct TopologicalScratch {
    std::vector<Agent<Real>> agents = std::vector<Agent<Real>>(slot_chunk);
    std::vector<typename Policy<Real>::Sums> sums = std::vector<typename Policy<Real>::Sums>(slot_chunk);
    std::vector<typename Policy<Real>::Bearings> bearings =
        std::vector<typename Policy<Real>::Bearings>(slot_chunk);
    std::vector<double> values = std::vector<double>(9 * std::size_t{slot_chunk});

    [[nodiscard]] double* column(int k) { return values.data() + static_cast<std::size_t>(k) * slot_chunk; }
};

/// The neighbour phase of a topological step (as neighbour_pass with topological::Policy), on the flock
/// grid's slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    const HeadingColumns heading = heading_columns(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    using Scratch = TopologicalScratch<Real>;
    slot_chunk_pass<Policy<Real>, Scratch>(
        pass, [&](std::uint32_t begin, std::uint32_t end, Scratch& scratch) {
            const std::size_t n = end - begin;
            double *const vy = scratch.column(0), *const vx = scratch.column(1);
            double *const sin_sum = scratch.column(2), *const cos_sum = scratch.column(3);
            double *const ty = scratch.column(4), *const tx = scratch.column(5);
            KNearest nearest; // once per chunk: its 1 KiB list is zeroed when made
            for (std::uint32_t slot = begin; slot < end; ++slot) {
                const std::size_t at = slot - begin;
                Agent<Real>& a = scratch.agents[at];
                a = slot_agent(pass, slot);
                typename Policy<Real>::Sums& s = scratch.sums[at];
                s = {};
                if (policy.block_cell() > 0) { // PyNBoids' 3 x 3 block of its own cells: the ring search
                    k_nearest(flock, a.x, a.y, a.index, policy.k(), geo.wrap, geo.width, geo.height, nearest,
                              policy.block_cell());
                } else {
                    k_nearest_two_rings(flock, a.x, a.y, a.index, policy.k(), geo.wrap, geo.width, geo.height,
                                        nearest);
                }
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
                const typename Policy<Real>::Bearings b = scratch.bearings[at] = policy.bearings(s, a);
                vy[at] = b.vy;
                vx[at] = b.vx;
                sin_sum[at] = b.sin_sum;
                cos_sum[at] = b.cos_sum;
                ty[at] = b.ty;
                tx[at] = b.tx;
            }
            // Policy::steer in phases: the bearings' angles in lanes, the new headings, their sines and
            // cosines in lanes.
            double *const own_angle = scratch.column(6), *const mean_angle = scratch.column(7);
            double* const target_angle = scratch.column(8);
            angle::atan2_lanes(vy, vx, n, own_angle);
            angle::atan2_lanes(sin_sum, cos_sum, n, mean_angle);
            angle::atan2_lanes(ty, tx, n, target_angle);
            double* const radians_now = scratch.column(0);
            for (std::size_t at = 0; at < n; ++at) {
                radians_now[at] =
                    radians(policy.new_heading(scratch.sums[at], scratch.agents[at], scratch.bearings[at],
                                               own_angle[at], mean_angle[at], target_angle[at]));
            }
            double *const sin = scratch.column(1), *const cos = scratch.column(2);
            angle::sin_cos_lanes(radians_now, n, sin, cos);
            for (std::size_t at = 0; at < n; ++at) {
                policy.fly(scratch.sums[at], scratch.agents[at], angle::SinCos{sin[at], cos[at]});
                store_velocity(pass, scratch.agents[at]);
            }
        });
}

} // namespace boids::topological
