#pragma once
// The weighted model's fast pass (internal; slot_order_pass.hpp). What the plain path computes up to six
// times per candidate (the offset's length, for each neighbourhood's radius and angle) is computed once (in
// lanes, only near a limit: weighted_lanes_kernel.hpp), a neighbour's unit heading once per step, and the
// angle's acos only when the cosine lies within 1e-9 of a neighbourhood's limit (weighted::Neighbourhood). In
// a plane the agents of a cell take SIMD lanes (lane_group_pass.hpp, weighted_lanes_kernel.hpp) for their
// sums and for their steering; in 3D they run one at a time in cell order. Either way the sums run in the
// plain path's order and the steering takes Policy::steer's operations: the same bits as weighted::Policy
// on the plain path.

#include "../lane_group_pass.hpp"
#include "../weighted_lanes_kernel.hpp"
#include "weighted.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace boids::weighted {

/// The 3D neighbour phase, one agent at a time with a candidate at a time.
template <class Real, class Next>
void solid_fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass, const Neighbourhoods& near,
                     const double* ux, const double* uy, const double* uz) {
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    // Beyond every radius for certain (sqrt is correctly rounded; the margin is far above its error).
    const double reach = std::max({near.center.radius, near.avoid.radius, near.align.radius}) * (1 + 1e-9);
    const double beyond2 = reach * reach;
    struct NoScratch {};
    slot_order_pass<Policy<Real>, NoScratch>(pass, [&](std::uint32_t self, Agent<Real>& a, NoScratch&) {
        typename Policy<Real>::Sums s;
        const Vec3 pos = Policy<Real>::position(a);
        const Vec3 v = Policy<Real>::heading(a);
        const double speed = v.norm();
        flock.for_each_candidate(a.x, a.y, a.z, [&](std::uint32_t k) { // Policy::accumulate
            if (k == self) {
                return;
            }
            const Neighbour<Real> n = geo.neighbour(a, flock.x(k), flock.y(k), flock.z(k), flock.vx(k),
                                                    flock.vy(k), flock.vz(k), flock.agent(k));
            const Vec3 offset{-static_cast<double>(n.dx), -static_cast<double>(n.dy),
                              -static_cast<double>(n.dz)};
            const double squared = offset.x * offset.x + offset.y * offset.y + offset.z * offset.z;
            if (squared > beyond2) {
                return;
            }
            const double length = std::sqrt(squared); // offset.norm()
            const bool turning = speed != 0 && length != 0;
            const double cosine = turning ? v.dot(offset) / (speed * length) : 0.0;
            const Vec3 neighbour_at = pos + offset;
            // The sums take +0 where a neighbourhood does not see the neighbour, which leaves them as they
            // are (they start at +0 and so are never -0): no branch to mispredict.
            const auto add_if = [](Vec3& sum, int& count, bool seen, Vec3 term) {
                sum = sum + Vec3{seen ? term.x : 0.0, seen ? term.y : 0.0, seen ? term.z : 0.0};
                count += seen ? 1 : 0;
            };
            add_if(s.center_sum, s.center_count, near.center.sees(length, turning, cosine), neighbour_at);
            add_if(s.avoid_sum, s.avoid_count, near.avoid.sees(length, turning, cosine), neighbour_at);
            add_if(s.align_sum, s.align_count, near.align.sees(length, turning, cosine),
                   Vec3{ux[k], uy[k], uz[k]});
        });
        policy.steer(s, a);
    });
}

/// The neighbour phase of a weighted step (as neighbour_pass with weighted::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    SlotColumnStore& columns = pass.columns;
    const auto slots = static_cast<std::uint32_t>(flock.size());
    columns.resize(6, slots);
    double* const ux = columns.column(0);
    double* const uy = columns.column(1);
    double* const uz = columns.column(2);
    double* const vx = columns.column(3);
    double* const vy = columns.column(4);
    double* const speed = columns.column(5);
    if (pass.geo.three_d) {
#pragma omp parallel for num_threads(pass.threads) schedule(static)
        for (std::uint32_t s = 0; s < slots; ++s) {
            const Vec3 v{static_cast<double>(flock.vx(s)), static_cast<double>(flock.vy(s)),
                         static_cast<double>(flock.vz(s))};
            const Vec3 u = unit(v);
            ux[s] = u.x;
            uy[s] = u.y;
            uz[s] = u.z;
            vx[s] = v.x;
            vy[s] = v.y;
            speed[s] = v.norm();
        }
    } else { // in lanes, a chunk of slots at a time
        const std::uint32_t chunks = (slots + slot_chunk - 1) / slot_chunk;
#pragma omp parallel for num_threads(pass.threads) schedule(static)
        for (std::uint32_t c = 0; c < chunks; ++c) {
            const std::uint32_t s = c * slot_chunk, n = std::min(slot_chunk, slots - s);
            fast::weighted_headings(flock.vxs().data() + s, flock.vys().data() + s, n, vx + s, vy + s,
                                    speed + s, ux + s, uy + s);
        }
    }
    const WeightedParams& own = policy.own;
    const Neighbourhoods near{{own.center_radius, own.center_angle},
                              {own.avoid_radius, own.avoid_angle},
                              {own.align_radius, own.align_angle}};
    if (pass.geo.three_d) {
        solid_fast_pass(policy, pass, near, ux, uy, uz);
        return;
    }
    // In a plane (z and vz zero, whose terms add zeros that change nothing) the lanes skip the candidates
    // beyond every radius for certain: d2 <= reach^2 (sqrt is correctly rounded; the margin is far above
    // its error).
    const double reach = std::max({own.center_radius, own.avoid_radius, own.align_radius}) * (1 + 1e-9);
    const fast::InRangeGrid<Real> grid = in_range_grid(
        flock, pass.geo, std::nextafter(reach * reach, std::numeric_limits<double>::infinity()));
    const fast::WeightedLaneAgents agents{vx, vy, speed, ux, uy};
    const fast::WeightedSteering steering{own.carrot_x,         own.carrot_y,        policy.params.width,
                                          policy.params.height, policy.c.wrap,       near.avoid,
                                          own.w_center,         own.w_avoid,         own.w_align,
                                          own.w_love,           own.maneuverability, own.time_step};
    // Tiles of the agents of a row's cells (lane_group_pass.hpp).
    const LaneTiling tiling = lane_tiling(flock, grid.range2, fast::tile_agents());
    using Scratch = LaneSumsScratch<11>; // the nine sums, then the new velocities
    slot_chunk_pass<Policy<Real>, Scratch>(
        pass, [&](std::uint32_t begin, std::uint32_t end, Scratch& scratch) {
            const auto lane_sums = [&](std::uint32_t offset) {
                return fast::WeightedLaneSums{
                    scratch.column(0, offset), scratch.column(1, offset), scratch.column(2, offset),
                    scratch.column(3, offset), scratch.column(4, offset), scratch.column(5, offset),
                    scratch.column(6, offset), scratch.column(7, offset), scratch.column(8, offset)};
            };
            scratch.groups.clear();
            for_each_lane_group(flock, begin, end, tiling,
                                [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
                                    scratch.groups.push_back({group, runs});
                                });
            fast::weighted_sums(grid, near, agents, scratch.groups, begin, lane_sums(0));
            double* const next_vx = scratch.column(9, 0);
            double* const next_vy = scratch.column(10, 0);
            fast::weighted_steer(steering, grid.x + begin, grid.y + begin, vx + begin, vy + begin,
                                 speed + begin, lane_sums(0), end - begin, next_vx, next_vy);
            for (std::uint32_t s = begin; s < end; ++s) { // policy.steer's conversion to the storage type
                const std::uint32_t i = flock.agent(s);   // store_velocity's, in a plane
                pass.next.vx[i] = Policy<Real>::T::from_double(next_vx[s - begin]);
                pass.next.vy[i] = Policy<Real>::T::from_double(next_vy[s - begin]);
            }
        });
}

} // namespace boids::weighted
