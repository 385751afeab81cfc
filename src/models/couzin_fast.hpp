#pragma once
// Couzin's fast pass (internal; lane_group_pass.hpp): each neighbour's unit heading once per step, the
// agents of a cell in SIMD lanes, the zones' sums in the plain path's order, and the turns' arc tangents,
// sines and cosines in lanes (angle_lanes.hpp), so the same bits as couzin::Policy on the plain path.

#include "../angle_lanes.hpp"
#include "../lane_group_pass.hpp"
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
    using Scratch = LaneSumsScratch<6>;
    slot_chunk_pass<Policy<Real>, Scratch>(pass, [&](std::uint32_t begin, std::uint32_t end,
                                                     Scratch& scratch) {
        const auto lane_sums = [&](std::uint32_t offset) {
            return fast::CouzinLaneSums{scratch.column(0, offset),    scratch.column(1, offset),
                                        scratch.column(2, offset),    scratch.column(3, offset),
                                        scratch.column(4, offset),    scratch.column(5, offset),
                                        scratch.flags.data() + offset};
        };
        for_each_lane_group(flock, begin, end, [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
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
        // Policy::steer for the chunk's agents, each angle, sine and cosine of a step in lanes; the columns
        // of the sums take the angles as the sums are spent.
        const fast::CouzinLaneSums all = lane_sums(0);
        const std::size_t n = end - begin;
        double *const dx = all.rx, *const dy = all.ry, *const hx = all.ax, *const hy = all.ay;
        for (std::uint32_t s = begin; s < end; ++s) {
            const std::uint32_t k = s - begin;
            Sums sums = start(s);
            sums.rx = all.rx[k];
            sums.ry = all.ry[k];
            sums.ax = all.ax[k];
            sums.ay = all.ay[k];
            sums.ox = all.ox[k];
            sums.oy = all.oy[k];
            sums.repelled = all.repelled[k] != 0;
            const heading::Offset d = policy.direction(sums, pass.w.kind[flock.agent(s)]);
            dx[k] = d.dx;
            dy[k] = d.dy;
            hx[k] = sums.hx;
            hy[k] = sums.hy;
        }
        double *const desired = all.ox, *const current = all.oy;
        angle::atan2_lanes(dy, dx, n, desired);
        angle::atan2_lanes(hy, hx, n, current);
        double* const difference = dx;
        for (std::uint32_t s = begin; s < end; ++s) {
            const std::uint32_t k = s - begin;
            desired[k] = policy.noisy(desired[k], slot_id(pass, s));
            difference[k] = desired[k] - current[k];
        }
        double *const sin = dy, *const cos = hx;
        angle::sin_cos_lanes(difference, n, sin, cos);
        double* const turned = hy;
        for (std::size_t k = 0; k < n; ++k) {
            turned[k] = policy.turned(desired[k], current[k], angle::SinCos{sin[k], cos[k]});
        }
        angle::sin_cos_lanes(turned, n, sin, cos);
        for (std::uint32_t s = begin; s < end; ++s) {
            store_flight(pass, policy, s, angle::SinCos{sin[s - begin], cos[s - begin]});
        }
    });
}

} // namespace boids::couzin
