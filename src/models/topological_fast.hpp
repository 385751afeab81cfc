#pragma once
// The topological model's fast pass (internal; slot_order_pass.hpp): each neighbour's unit heading once
// per step rather than once per follower, and the agents in cell order; the k nearest are the plain path's
// (k_nearest_tiles gives k_nearest's lists, a tile of agents in SIMD lanes sharing the candidates of their
// 5 x 5 cells) and summed nearest first, and a chunk's bearings, turns, angles, sines and cosines are taken
// in lanes (topological_lanes_kernel.hpp, angle_lanes.hpp), so the same bits as topological::Policy on the
// plain path.

#include "../angle_lanes.hpp"
#include "../k_nearest_tiles.hpp"
#include "../slot_order_pass.hpp"
#include "../topological_lanes_kernel.hpp"
#include "topological.hpp"

#include <cstddef>
#include <vector>

namespace boids::topological {

/// What a chunk of slots keeps between the phases of its steering: each agent's nearest (a level of the
/// chunk's lists after another) and how many, and columns for the sums and the steering in lanes.
struct TopologicalScratch {
    std::vector<double> values = std::vector<double>(18 * std::size_t{slot_chunk});
    std::vector<std::uint32_t> nearest = std::vector<std::uint32_t>(std::size_t{max_k_nearest} * slot_chunk);
    std::vector<int> nearest_count = std::vector<int>(slot_chunk);

    [[nodiscard]] double* column(int k) { return values.data() + static_cast<std::size_t>(k) * slot_chunk; }
};

/// The neighbour phase of a topological step (as neighbour_pass with topological::Policy), on the flock
/// grid's slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    // With each slot's heading, its grid column and row, which k_nearest_tiles reads of every candidate.
    pass.columns.resize(4, flock.size()); // before the columns' addresses are taken
    const SlotLines lines{pass.columns.column(2), pass.columns.column(3)};
    const HeadingColumns heading =
        heading_columns(flock, pass.columns, pass.threads, 2, [&](std::uint32_t begin, std::uint32_t end) {
            if (policy.block_cell() == 0) {
                slot_lines(flock, begin, end, pass.columns.column(2), pass.columns.column(3));
            }
        });
    const double *const ux = heading.ux, *const uy = heading.uy;
    const TopologicalParams& own = policy.own;
    const Params& params = policy.params;
    const fast::TopologicalSteering steering{own.too_close(),
                                             own.align_within(),
                                             0.5 + own.adherence * 5 / 1000,
                                             base_turn_rate * frame_time,
                                             edge_turn_rate,
                                             own.heading_range == HeadingRange::Positive,
                                             !policy.c.wrap && !policy.c.sprite_wrap,
                                             params.width,
                                             params.height,
                                             params.margin_left,
                                             params.margin_top,
                                             params.margin_right,
                                             params.margin_bottom};
    using Scratch = TopologicalScratch;
    slot_chunk_pass<Policy<Real>, Scratch>(
        pass, [&](std::uint32_t begin, std::uint32_t end, Scratch& scratch) {
            const std::size_t n = end - begin;
            double *const count = scratch.column(0), *const x_sum = scratch.column(1);
            double *const y_sum = scratch.column(2), *const nearest_dx = scratch.column(3);
            double *const nearest_dy = scratch.column(4), *const px = scratch.column(5);
            double *const py = scratch.column(6), *const s_sin = scratch.column(7),
                          *const s_cos = scratch.column(8);
            double *const vy = scratch.column(9), *const vx = scratch.column(10);
            double *const own_angle = scratch.column(15), *const aim_angle = scratch.column(16);
            const fast::TopologicalColumns columns{count,
                                                   x_sum,
                                                   y_sum,
                                                   nearest_dx,
                                                   nearest_dy,
                                                   px,
                                                   py,
                                                   s_sin,
                                                   s_cos,
                                                   scratch.column(11),
                                                   scratch.column(12),
                                                   scratch.column(13),
                                                   scratch.column(14),
                                                   own_angle,
                                                   aim_angle};
            std::uint32_t* const nearest = scratch.nearest.data();
            int* const found = scratch.nearest_count.data();
            if (policy.block_cell() > 0) { // PyNBoids' 3 x 3 block of its own cells: the ring search
                KNearest list;             // once per chunk: its 1 KiB list is zeroed when made
                for (std::uint32_t slot = begin; slot < end; ++slot) {
                    const std::size_t at = slot - begin;
                    k_nearest(flock, flock.x(slot), flock.y(slot), flock.agent(slot), policy.k(), geo.wrap,
                              geo.width, geo.height, list, policy.block_cell());
                    found[at] = list.count;
                    for (int m = 0; m < list.count; ++m) {
                        nearest[static_cast<std::size_t>(m) * slot_chunk + at] =
                            list.found[static_cast<std::size_t>(m)].slot;
                    }
                }
            } else {
                k_nearest_tiles(flock, lines, begin, end, policy.k(), geo.wrap, geo.width, geo.height,
                                nearest, slot_chunk, found);
            }
            // Policy::accumulate over each agent's nearest, in lanes.
            const fast::TopologicalNeighbours<Real> neighbours{flock.xs().data(),
                                                               flock.ys().data(),
                                                               flock.vxs().data(),
                                                               flock.vys().data(),
                                                               ux,
                                                               uy,
                                                               geo.wrap,
                                                               geo.width,
                                                               geo.height,
                                                               geo.half_width,
                                                               geo.half_height,
                                                               nearest,
                                                               slot_chunk,
                                                               found,
                                                               policy.k()};
            fast::topological_sums(neighbours, begin, n,
                                   fast::TopologicalSums{count, x_sum, y_sum, nearest_dx, nearest_dy, px, py,
                                                         s_sin, s_cos, vy, vx});
            // Policy::steer in phases, in lanes: the bearings, their angles, the new headings, their sines
            // and cosines.
            fast::topological_bearings(steering, columns, n);
            angle::atan2_lanes(vy, vx, n, own_angle);
            angle::atan2_lanes(columns.aim_y, columns.aim_x, n, aim_angle);
            double* const radians_now = scratch.column(17);
            fast::topological_new_heading(steering, columns, n, radians_now);
            double *const sin = scratch.column(0), *const cos = scratch.column(1); // the sums are spent
            angle::sin_cos_lanes(radians_now, n, sin, cos);
            for (std::size_t at = 0; at < n; ++at) { // Policy::fly reads the count alone of the sums
                typename Policy<Real>::Sums sums;
                sums.count = found[at];
                Agent<Real> a{};
                a.index = flock.agent(begin + static_cast<std::uint32_t>(at));
                policy.fly(sums, a, angle::SinCos{sin[at], cos[at]});
                store_velocity(pass, a);
            }
        });
}

} // namespace boids::topological
