#pragma once
// The weighted model's neighbour sums with the agents in SIMD lanes (internal): a group of agents that
// share their candidates (a grid cell's agents, lane_group_pass.hpp) takes one lane each and every
// candidate is broadcast to all lanes in turn, as the Vicsek and Couzin sums do (heading_lanes_kernel.hpp).
// Compiled once per instruction set by Highway and dispatched at run time.
//
// Each lane decides what weighted::Policy::accumulate decides, and adds what it adds with its arithmetic:
// the offset is Geometry::neighbour's (the agent minus the neighbour's nearest image in the storage type,
// widened to double; the plain path negates it), no FMA; a neighbourhood that does not see a candidate adds
// +0 to its sums, as the scalar fast pass does (the sums start at +0, so they never are -0 and +0 leaves
// them as they are). So each agent's sums are the plain path's to the bit. Planar worlds only (the 3D fast
// pass stays scalar).
//
// Which neighbourhoods see a candidate takes neither a square root nor a division where it can be told
// for certain without them: the radius by the squared length (Neighbourhood::reach2), the half-angle by
// comparing signed squares of the cosine's numerator and denominator with the limits' (a margin of 1e-12
// against roundings of about 1e-16). A lane near a limit, or out of the ranges that bound those roundings,
// takes the plain path's square root, division and, within 1e-9 of the limit, acos.

#include "heading_lanes_kernel.hpp"
#include "lane_grid.hpp"

#include <cmath>
#include <limits>

namespace boids::weighted {

/// One neighbourhood of the weighted model: a radius and a half-angle around the velocity.
struct Neighbourhood {
    double radius, angle;
    double cos_below, cos_above; ///< cosines certainly beyond, certainly within the half-angle
    /// The largest squared length whose (correctly rounded) square root is not beyond the radius: an offset
    /// of squared length d2 is within the radius, !(sqrt(d2) > radius), exactly when d2 <= reach2.
    double reach2;
    /// The cosine limits as signed squares (c * |c|) with a relative margin of 1e-12 outward: a cosine
    /// dot / (speed * length) lies at or above cos_above, as the plain path rounds it, whenever
    /// dot * |dot| >= above_squared * speed^2 * length^2, and at or below cos_below whenever
    /// dot * |dot| <= below_squared * speed^2 * length^2 (the margin is far above the few roundings on
    /// either side, within the ranges weighted_sums checks). Where a limit lies outside [-1, 1] or too near 0
    /// for that, +-1e300: far beyond any such ratio (|dot| is at most speed * length), so the comparison
    /// holds only where both sides are zero (an agent or offset of length zero).
    double above_squared, below_squared;

    Neighbourhood(double r, double half_angle)
        : radius(r), angle(half_angle), cos_below(std::cos(half_angle) - 1e-9),
          cos_above(std::cos(half_angle) + 1e-9), reach2(squared_reach(r)),
          above_squared(cos_above <= 1 && std::abs(cos_above) >= 1e-30
                            ? cos_above * std::abs(cos_above) + 1e-12 * cos_above * cos_above
                            : 1e300),
          below_squared(cos_below >= -1 && std::abs(cos_below) >= 1e-30
                            ? cos_below * std::abs(cos_below) - 1e-12 * cos_below * cos_below
                            : -1e300) {}

    /// Neighbourhood::reach2 of a radius (sqrt is monotonic: a few steps from radius^2 find the edge).
    [[nodiscard]] static double squared_reach(double radius) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        if (std::isnan(radius) || radius == inf) {
            return inf; // !(length > radius) always
        }
        if (radius < 0) {
            return -1; // never: a squared length is >= 0
        }
        double t = radius * radius;
        while (t > 0 && std::sqrt(t) > radius) {
            t = std::nextafter(t, 0.0);
        }
        while (std::sqrt(std::nextafter(t, inf)) <= radius) {
            t = std::nextafter(t, inf);
        }
        return t;
    }

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

    /// Whether the half-angle takes every direction: pi (the largest the parameters allow) is the largest
    /// value the C library's acos gives, for a cosine of -1 (any cosine above -1 is at least 2^-26 short of
    /// it), so every angle_between is within it, and a NaN one is too (!(NaN > angle)).
    [[nodiscard]] bool all_around() const { return angle >= std::acos(-1.0); }

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

/// Writes the sums of each agent of `groups` over the candidates of its group's runs as
/// weighted::Policy::accumulate adds them (starting from zero sums; candidates beyond grid.range2 and the
/// agent itself skipped); the sums are indexed from slot `base` (a chunk's groups, in one call).
void weighted_sums(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                   std::uint32_t base, const WeightedLaneSums& sums);
void weighted_sums(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                   std::uint32_t base, const WeightedLaneSums& sums);

/// Each of `count` agents' velocity widened to double, its speed (Vec3::norm) and its unit heading
/// (weighted::unit: the velocity over its speed, zero at rest), in a plane: what the lanes read of a slot
/// (WeightedLaneAgents).
void weighted_headings(const float* vx, const float* vy, std::uint32_t count, double* out_vx, double* out_vy,
                       double* speed, double* ux, double* uy);
void weighted_headings(const double* vx, const double* vy, std::uint32_t count, double* out_vx,
                       double* out_vy, double* speed, double* ux, double* uy);

/// What weighted::Policy::steer takes besides an agent and its sums, in a plane.
struct WeightedSteering {
    double carrot_x, carrot_y;
    double width, height; ///< the torus's sides, where `wrap`
    bool wrap;
    weighted::Neighbourhood avoid; ///< the avoid request's, which avoids the carrot too
    double w_center, w_avoid, w_align, w_love, maneuverability, time_step;
};

/// The new velocities weighted::Policy::steer gives `count` agents in a plane, as doubles before their
/// conversion to the storage type (next * time_step), with its arithmetic: x, y, vx, vy and speed from the
/// agents' first slot (speed as Vec3::norm of the velocity), their sums (WeightedLaneSums, indexed as those
/// columns) and the velocities written to out_vx, out_vy.
void weighted_steer(const WeightedSteering& steering, const float* x, const float* y, const double* vx,
                    const double* vy, const double* speed, const WeightedLaneSums& sums, std::uint32_t count,
                    double* out_vx, double* out_vy);
void weighted_steer(const WeightedSteering& steering, const double* x, const double* y, const double* vx,
                    const double* vy, const double* speed, const WeightedLaneSums& sums, std::uint32_t count,
                    double* out_vx, double* out_vy);

} // namespace boids::fast
