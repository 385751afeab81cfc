#pragma once
// Vicsek's fast pass (internal; lane_group_pass.hpp): each neighbour's unit heading once per step, the
// agents of a cell in SIMD lanes, the sums in the plain path's order, and the new headings' arc tangents,
// sines and cosines in lanes (angle_lanes.hpp), so the same bits as vicsek::Policy on the plain path.

#include "../angle_lanes.hpp"
#include "../lane_group_pass.hpp"
#include "../noise_lanes.hpp"
#include "vicsek.hpp"

namespace boids::vicsek {

/// The neighbour phase of a Vicsek step (as neighbour_pass with vicsek::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const HeadingColumns heading = heading_columns(flock, pass.columns, pass.threads);
    const double *const ux = heading.ux, *const uy = heading.uy;
    const fast::InRangeGrid<Real> grid = in_range_grid(flock, pass.geo, policy.r2);
    using Scratch = LaneSumsScratch<3>; // the sums, then the angles
    slot_chunk_pass<Policy<Real>, Scratch>(pass, [&](std::uint32_t begin, std::uint32_t end,
                                                     Scratch& scratch) {
        for_each_lane_group(flock, begin, end, [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
            const std::uint32_t offset = group.first - begin;
            double* const sx = scratch.column(0, offset);
            double* const sy = scratch.column(1, offset);
            for (std::uint32_t k = 0; k < group.count; ++k) {
                sx[k] = 0.0 + ux[group.first + k]; // Policy::start: the agent's own heading first
                sy[k] = 0.0 + uy[group.first + k];
            }
            fast::vicsek_sums(grid, ux, uy, group, runs, {sx, sy});
        });
        // Policy::steer for the chunk's agents: the angles, then their sines and cosines, in lanes.
        double* const sx = scratch.column(0, 0);
        double* const sy = scratch.column(1, 0);
        double* const angle = scratch.column(2, 0);
        const std::size_t n = end - begin;
        angle::atan2_lanes(sy, sx, n, angle);
        std::uint32_t ids[slot_chunk];
        for (std::uint32_t s = begin; s < end; ++s) {
            ids[s - begin] = slot_id(pass, s);
        }
        double uniform[slot_chunk];
        noise::uniform_lanes(policy.noise_key, ids, n, 0, uniform);
        for (std::uint32_t k = 0; k < n; ++k) {
            angle[k] = Policy<Real>::mean_angle({sx[k], sy[k]}, angle[k]) + policy.noise_angle_by(uniform[k]);
        }
        double* const sin = sy; // the sums are spent
        double* const cos = sx;
        angle::sin_cos_lanes(angle, n, sin, cos);
        for (std::uint32_t s = begin; s < end; ++s) {
            store_flight(pass, policy, s, angle::SinCos{sin[s - begin], cos[s - begin]});
        }
    });
}

} // namespace boids::vicsek
