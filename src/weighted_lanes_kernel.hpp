#pragma once
// The weighted model's neighbour sums with the agents in SIMD lanes (internal): a group of agents that
// share their candidates (a grid cell's agents, lane_group_pass.hpp) takes one lane each and every
// candidate is broadcast to all lanes in turn, as the Vicsek and Couzin sums do (heading_lanes_kernel.hpp).
// Compiled once per instruction set by Highway and dispatched at run time.
//
// Each lane computes what weighted::Policy::accumulate computes, with its arithmetic: the offset is
// Geometry::neighbour's (the agent minus the neighbour's nearest image in the storage type, negated and
// widened to double), no FMA, IEEE's correctly rounded sqrt and division; a neighbourhood that does not see
// a candidate adds +0 to its sums, as the scalar fast pass does (the sums start at +0, so they never are
// -0 and +0 leaves them as they are). So each agent's sums are the plain path's to the bit. Planar worlds
// only (the 3D fast pass stays scalar).

#include "heading_lanes_kernel.hpp"
#include "lane_grid.hpp"

#include <cmath>

namespace boids::weighted {

/// One neighbourhood of the weighted model: a radius and a half-angle around the velocity.
struct Neighbourhood {
    double radius, angle;
    double cos_below, cos_above; ///< cosines certainly beyond, certainly within the half-angle

    Neighbourhood(double r, double half_angle)
        : radius(r), angle(half_angle), cos_below(std::cos(half_angle) - 1e-9),
          cos_above(std::cos(half_angle) + 1e-9) {}

    /// Whether the half-angle takes a cosine `c` (clamped) of a turning agent (non-zero velocity and
    /// offset). The angle's acos only when the cosine lies within 1e-9 of the limit: elsewhere acos is
    /// monotonic and accurate far beyond that margin, so the side of the limit is known without it.
    [[nodiscard]] bool within(double c) const {
        if (c >= cos_above) {
            return true;
        }
        if (c > cos_below) [[unlikely]] {
            return !(std::acos(c) > angle);
        }
        return false;
    }

    /// Policy::in_view for an offset of length `length` whose cosine with the velocity is `cosine` (not
    /// clamped yet; unused unless `turning`: the velocity and the offset are non-zero).
    [[nodiscard]] bool sees(double length, bool turning, double cosine) const {
        return !(length > radius) && (!turning || within(clamp(cosine)));
    }

    /// The cosine clamped to [-1, 1] as angle_between does.
    [[nodiscard]] static double clamp(double cosine) { return cosine > 1 ? 1 : (cosine < -1 ? -1 : cosine); }
};

/// The three neighbourhoods, in the order Policy::accumulate tests them.
struct Neighbourhoods {
    Neighbourhood center, avoid, align;
};

} // namespace boids::weighted

namespace boids::fast {

/// What the lanes read of each slot: its velocity and speed (|v|, as Vec3::norm), and its unit heading
/// (weighted::unit), all in double.
struct WeightedLaneAgents {
    const double *vx, *vy, *speed, *ux, *uy;
};

/// The weighted model's sums (weighted::Policy::Sums in a plane), one entry per agent of a group, each
/// counted in a double: center_sum and center_count, avoid_sum and avoid_count, align_sum and align_count.
struct WeightedLaneSums {
    double *cx, *cy, *cn, *ax, *ay, *an, *lx, *ly, *ln;
};

/// Writes each agent's sums over the candidates of `runs` as weighted::Policy::accumulate adds them
/// (starting from zero sums; candidates beyond grid.range2 and the agent itself skipped).
void weighted_sums(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                   const WeightedLaneSums& sums);
void weighted_sums(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, LaneGroup group, const CandidateRuns& runs,
                   const WeightedLaneSums& sums);

} // namespace boids::fast
