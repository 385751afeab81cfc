#pragma once
// What obstacles do to an agent (docs/MODEL.md §3), in the engine's scalar type (internal): the classic
// model's push away from a surface within obstacle_margin, and every model's keep-out after the move. The
// plain path and the fast kernel call these same functions, so they agree to the bit; the kernel calls
// them only for the lanes that its reach boxes (obstacle_reach_boxes) cannot rule out.

#include "boids/obstacle.hpp"
#include "boids/params.hpp"
#include "boids/scalar.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace boids {

/// Near an obstacle (within obstacle_margin of its surface): a push along the outward normal, for an agent
/// at (x, y, z) (z ignored in 2D). Computed in double.
template <class Real>
void steer_around_obstacles(const Params& params, bool three_d, Real x, Real y, Real z, Real& vx, Real& vy,
                            Real& vz) {
    using T = ScalarTraits<Real>;
    const double px = static_cast<double>(x), py = static_cast<double>(y), pz = static_cast<double>(z);
    for (const Obstacle& o : params.obstacles) {
        const SurfaceDistance sd =
            three_d ? surface_distance(o, px, py, pz, params.depth) : surface_distance(o, px, py);
        if (sd.distance < params.obstacle_margin) {
            vx = vx + T::from_double(sd.nx * params.obstacle_turn_factor);
            vy = vy + T::from_double(sd.ny * params.obstacle_turn_factor);
            if (three_d) {
                vz = vz + T::from_double(sd.nz * params.obstacle_turn_factor);
            }
        }
    }
}

/// The part of keep_out_of_obstacles' clearance that does not depend on the position's size: a point
/// closer than the clearance to a surface is put back at the clearance.
inline constexpr double obstacle_clearance_per_unit = 1e-3;

/// No agent ends a step inside an obstacle: one that would is put back just outside the nearest surface,
/// and the part of its velocity pointing inward is removed (it slides along the surface). `depth` > 0 means
/// a 3D world (spheres and boxes); z and vz are then moved too.
template <class Real>
void keep_out_of_obstacles(const std::vector<Obstacle>& obstacles, double depth, Real& x, Real& y, Real& z,
                           Real& vx, Real& vy, Real& vz) {
    using T = ScalarTraits<Real>;
    const bool three_d = depth > 0;
    for (int pass = 0; pass < 4; ++pass) { // overlapping obstacles can push into each other
        bool moved = false;
        for (const Obstacle& o : obstacles) {
            const double px = static_cast<double>(x), py = static_cast<double>(y),
                         pz = static_cast<double>(z);
            const SurfaceDistance sd =
                three_d ? surface_distance(o, px, py, pz, depth) : surface_distance(o, px, py);
            // A clearance relative to the position's size keeps the point outside after rounding to Real.
            const double clearance = obstacle_clearance_per_unit * std::max({1.0, std::abs(px), std::abs(py),
                                                                             three_d ? std::abs(pz) : 0.0});
            if (sd.distance >= clearance) {
                continue;
            }
            x = T::from_double(px + sd.nx * (clearance - sd.distance));
            y = T::from_double(py + sd.ny * (clearance - sd.distance));
            const double inward = static_cast<double>(vx) * sd.nx + static_cast<double>(vy) * sd.ny +
                                  (three_d ? static_cast<double>(vz) * sd.nz : 0.0);
            if (three_d) {
                z = T::from_double(pz + sd.nz * (clearance - sd.distance));
            }
            if (inward < 0) {
                vx = T::from_double(static_cast<double>(vx) - inward * sd.nx);
                vy = T::from_double(static_cast<double>(vy) - inward * sd.ny);
                if (three_d) {
                    vz = T::from_double(static_cast<double>(vz) - inward * sd.nz);
                }
            }
            moved = true;
        }
        if (!moved) {
            return;
        }
    }
}

/// A box in Real around what an agent must be near for some rule to act on it (an obstacle, a food
/// source): the fast kernel tests its lanes against it and takes the rule's own function only where a lane
/// is inside. An axis without bounds spans everything (infinite bounds).
template <class Real>
struct ReachBox {
    Real lo_x, hi_x, lo_y, hi_y, lo_z, hi_z;
};

/// The box [lo, hi] grown by `grow` on every axis and rounded outward to Real (one step past the rounding
/// of the double bounds).
template <class Real>
ReachBox<Real> grown_reach_box(const double (&lo)[3], const double (&hi)[3], double grow) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr Real real_inf = std::numeric_limits<Real>::infinity();
    const auto down = [&](double v) {
        return v == -inf ? -real_inf : std::nextafter(static_cast<Real>(v - grow), -real_inf);
    };
    const auto up = [&](double v) {
        return v == inf ? real_inf : std::nextafter(static_cast<Real>(v + grow), real_inf);
    };
    return {down(lo[0]), up(hi[0]), down(lo[1]), up(hi[1]), down(lo[2]), up(hi[2])};
}

/// An obstacle's reach box is its bounding box grown by obstacle_margin: a point p outside it on some axis,
/// even after p is moved toward the box by obstacle_reach_slack_per_unit times its largest coordinate (at
/// least 1) on every axis, is farther than obstacle_margin and than keep_out_of_obstacles' clearance from
/// the obstacle, so neither function would change anything for it. How far it is moved: twice the largest
/// clearance at it, which leaves room for the rounding of the test in Real (the clearance is at most 1.001e-3
/// times the point's largest coordinate, or 1e-3, in double).
inline constexpr double obstacle_reach_slack_per_unit = 2 * obstacle_clearance_per_unit;

/// An obstacle's bounding box (a column's z axis, and every z axis in 2D, unbounded).
inline void obstacle_bounds(const Obstacle& o, const Params& params, bool three_d, double (&lo)[3],
                            double (&hi)[3]) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (o.shape == Obstacle::Shape::Circle) {
        const double cz = o.z.value_or(params.depth / 2);
        lo[0] = o.x - o.radius, hi[0] = o.x + o.radius;
        lo[1] = o.y - o.radius, hi[1] = o.y + o.radius;
        lo[2] = cz - o.radius, hi[2] = cz + o.radius;
    } else {
        lo[0] = o.x0, hi[0] = o.x1, lo[1] = o.y0, hi[1] = o.y1;
        lo[2] = o.z0 ? *o.z0 : -inf, hi[2] = o.z0 ? *o.z1 : inf;
    }
    if (!three_d) {
        lo[2] = -inf, hi[2] = inf;
    }
}

/// The reach boxes of the world's obstacles, in the order of params.obstacles.
template <class Real>
std::vector<ReachBox<Real>> obstacle_reach_boxes(const Params& params, bool three_d) {
    std::vector<ReachBox<Real>> boxes;
    for (const Obstacle& o : params.obstacles) {
        double lo[3], hi[3];
        obstacle_bounds(o, params, three_d, lo, hi);
        boxes.push_back(grown_reach_box<Real>(lo, hi, std::max(params.obstacle_margin, 0.0)));
    }
    return boxes;
}

/// True when keep_out_of_obstacles cannot put a point outside the world's box [0, width) x [0, height)
/// (x [0, depth) in 3D): every obstacle, grown by more than the largest clearance near it, lies inside. (On
/// a torus the plain path wraps such a point only as the next step begins, which the fast path, whose
/// positions stay wrapped, does not reproduce.)
inline bool obstacles_keep_points_in_world(const Params& params, bool three_d) {
    const double size[3] = {params.width, params.height, params.depth};
    for (const Obstacle& o : params.obstacles) {
        double lo[3], hi[3];
        obstacle_bounds(o, params, three_d, lo, hi);
        for (int axis = 0; axis < 3; ++axis) {
            if (!std::isfinite(lo[axis])) {
                continue; // unbounded: the keep-out does not move points along it
            }
            const double largest = std::max({1.0, std::abs(lo[axis]), std::abs(hi[axis]), size[axis]});
            const double grow = 2 * obstacle_clearance_per_unit * largest;
            if (!(lo[axis] - grow > 0 && hi[axis] + grow < size[axis] * (1 - 1e-6))) {
                return false;
            }
        }
    }
    return true;
}

} // namespace boids
