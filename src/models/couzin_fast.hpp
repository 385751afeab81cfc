#pragma once
// Couzin's fast pass (internal; lane_group_pass.hpp): each neighbour's unit heading once per step, the
// agents of a cell in SIMD lanes, the zones' sums in the plain path's order, and the directions, turns and
// their arc tangents, sines and cosines in lanes (heading_lanes_kernel.hpp, angle_lanes.hpp), so the same
// bits as couzin::Policy on the plain path.

#include "../angle_lanes.hpp"
#include "../lane_group_pass.hpp"
#include "../noise_lanes.hpp"
#include "couzin.hpp"

namespace boids::couzin {

/// The neighbour phase of a Couzin step (as neighbour_pass with couzin::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    using Sums = typename Policy<Real>::Sums;
    const SpatialGrid<Real>& flock = pass.flock;
    const HeadingColumns heading = heading_columns(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    const fast::InRangeGrid<Real> grid = in_range_grid(flock, pass.geo, policy.rho2);
    // Policy::start: the agent's heading (at rest, +x), which its orientation sum starts with.
    const auto start = [&](std::uint32_t s) {
        Sums sums;
        if (ux[s] != 0.0 || uy[s] != 0.0) {
            sums.hx = ux[s];
            sums.hy = uy[s];
        }
        sums.ox = sums.hx;
        sums.oy = sums.hy;
        return sums;
    };
    // Tiles of the agents of a row's cells (lane_group_pass.hpp).
    const LaneTiling tiling = lane_tiling(flock, grid.range2, fast::tile_agents());
    using Scratch = LaneSumsScratch<10>; // the sums, then whether repelled, the heading and the preference
    slot_chunk_pass<Policy<Real>, Scratch>(pass, [&](std::uint32_t begin, std::uint32_t end,
                                                     Scratch& scratch) {
        const auto lane_sums = [&](std::uint32_t offset) {
            return fast::CouzinLaneSums{scratch.column(0, offset),    scratch.column(1, offset),
                                        scratch.column(2, offset),    scratch.column(3, offset),
                                        scratch.column(4, offset),    scratch.column(5, offset),
                                        scratch.flags.data() + offset};
        };
        for_each_lane_group(flock, begin, end, tiling,
                            [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
                                const fast::CouzinLaneSums out = lane_sums(group.first - begin);
                                for (std::uint32_t k = 0; k < group.count; ++k) {
                                    const Sums sums = start(group.first + k);
                                    out.rx[k] = sums.rx;
                                    out.ry[k] = sums.ry;
                                    out.ax[k] = sums.ax;
                                    out.ay[k] = sums.ay;
                                    out.ox[k] = sums.ox;
                                    out.oy[k] = sums.oy;
                                }
                                fast::couzin_sums(grid, policy.alpha2, ux, uy, group, runs, out);
                            });
        // Policy::steer for the chunk's agents in lanes: the direction, its angle and the heading's, the
        // noise per agent, the turn, its sine and cosine; the columns of the sums take the results as the
        // sums are spent.
        const fast::CouzinLaneSums all = lane_sums(0);
        const std::size_t n = end - begin;
        double *const repelled = scratch.column(6, 0), *const hx = scratch.column(7, 0);
        double *const hy = scratch.column(8, 0), *const gx = scratch.column(9, 0);
        for (std::uint32_t s = begin; s < end; ++s) {
            const std::uint32_t k = s - begin;
            const Sums sums = start(s);
            repelled[k] = static_cast<double>(all.repelled[k] != 0); // 1 or 0, without a branch
            hx[k] = sums.hx;
            hy[k] = sums.hy;
            gx[k] = Policy<Real>::preferred_x(pass.w.kind[flock.agent(s)]);
        }
        double *const dx = all.rx, *const dy = all.ry;
        fast::couzin_direction({all.rx, all.ry, all.ax, all.ay, all.ox, all.oy, repelled, hx, hy, gx, dx, dy},
                               policy.own.informed_weight, n);
        double *const desired = all.ox, *const current = all.oy;
        angle::atan2_lanes(dy, dx, n, desired);
        angle::atan2_lanes(hy, hx, n, current);
        // The noise: each agent's uniforms (its key's streams), then their Gaussians in lanes.
        double *const u1 = repelled, *const u2 = hx, *const normal = hy; // spent
        std::uint32_t ids[slot_chunk];
        for (std::uint32_t s = begin; s < end; ++s) {
            ids[s - begin] = slot_id(pass, s);
        }
        noise::normal_draw_lanes(policy.noise_key, ids, n, 0, u1, u2);
        noise::gaussian_lanes(u1, u2, n, normal);
        double* const difference = dx;
        for (std::uint32_t s = begin; s < end; ++s) {
            const std::uint32_t k = s - begin;
            desired[k] = policy.noisy_by(desired[k], normal[k]);
            difference[k] = desired[k] - current[k];
        }
        double *const sin = dy, *const cos = all.ax;
        angle::sin_cos_lanes(difference, n, sin, cos);
        double* const turned = all.ay;
        fast::couzin_turned(desired, current, sin, cos, policy.cos_turn, policy.own.turn_rate, n, turned);
        angle::sin_cos_lanes(turned, n, sin, cos);
        for (std::uint32_t s = begin; s < end; ++s) {
            store_flight(pass, policy, s, angle::SinCos{sin[s - begin], cos[s - begin]});
        }
    });
}

} // namespace boids::couzin
