#pragma once
// Couzin's fast pass (internal; lane_group_pass.hpp): each neighbour's unit heading once per step, the
// agents of a cell in SIMD lanes, the zones' sums in the plain path's order, so the same bits as
// couzin::Policy on the plain path.

#include "../lane_group_pass.hpp"
#include "couzin.hpp"

namespace boids::couzin {

/// The neighbour phase of a Couzin step (as neighbour_pass with couzin::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    using Sums = typename Policy<Real>::Sums;
    const SpatialGrid<Real>& flock = pass.flock;
    const HeadingColumns heading = heading_columns<HeadingLength::Root>(flock, pass.columns, pass.threads);
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
        const fast::CouzinLaneSums all = lane_sums(0);
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
            Agent<Real> a = slot_agent(pass, s);
            policy.steer(sums, a);
            store_velocity(pass, a);
        }
    });
}

} // namespace boids::couzin
