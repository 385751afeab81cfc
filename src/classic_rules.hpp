#pragma once
// The per-agent rules of the classic model (docs/MODEL.md §2.3-2.8) in the engine's scalar type (internal).

#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/scalar.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <type_traits>

namespace boids::classic {

/// True when the world wraps the way PyNBoids does (the topological model's wrap_style = sprite), which
/// replaces the torus (defined with the registry, src/models/model_parameters.cpp).
bool wraps_as_sprites(const Params& p);

/// Parameters converted once per step into the scalar type, with the derived thresholds.
template <class Real>
struct Constants {
    using T = ScalarTraits<Real>;

    explicit Constants(const Params& p)
        : sprite_wrap(wraps_as_sprites(p)), wrap(p.boundary == Boundary::Wrap && !sprite_wrap),
          dynamic_bias(p.dynamic_bias), width(T::from_double(p.width)), height(T::from_double(p.height)),
          half_width(width / Real(2)), half_height(height / Real(2)),
          left_edge(T::from_double(p.margin_left)), right_edge(T::from_double(p.width - p.margin_right)),
          top_edge(T::from_double(p.margin_top)), bottom_edge(T::from_double(p.height - p.margin_bottom)),
          turn(T::from_double(p.turn_factor)), visual(T::from_double(p.visual_range)),
          visual2(visual * visual),
          protected2(T::from_double(p.protected_range) * T::from_double(p.protected_range)),
          centering(T::from_double(p.centering_factor)), avoid(T::from_double(p.avoid_factor)),
          matching(T::from_double(p.matching_factor)), min_speed(T::from_double(p.min_speed)),
          max_speed(T::from_double(p.max_speed)), predator_range(T::from_double(p.predator_range)),
          predator_range2(predator_range * predator_range),
          predator_turn(T::from_double(p.predator_turn_factor)), max_bias(T::from_double(p.max_bias)),
          bias_increment(T::from_double(p.bias_increment)),
          exact_speed(p.speed_estimate == SpeedEstimate::Exact),
          alpha(T::from_double(alpha_max_beta_min_alpha)), beta(T::from_double(alpha_max_beta_min_beta)),
          falls(p.gravity > 0), gravity(T::from_double(p.gravity)), dives(p.max_dive_speed > 0),
          max_dive_speed(T::from_double(p.max_dive_speed)), three_d(p.dimensions == 3),
          depth(T::from_double(p.depth)), half_depth(depth / Real(2)),
          front_edge(T::from_double(p.margin_front)), back_edge(T::from_double(p.depth - p.margin_back)),
          predators_first(p.predator_order == PredatorOrder::BeforeFlocking),
          fov_limited(p.fov_angle < 360.0), cos_half_fov(std::cos(p.fov_angle * std::numbers::pi / 360.0)),
          line_of_sight(p.line_of_sight_factor > 0), line_of_sight_factor(p.line_of_sight_factor),
          cos_line_of_sight(std::cos(p.line_of_sight_angle * std::numbers::pi / 180.0)) {}

    /// PyNBoids' wrap (wrap_style = sprite): no torus (no minimum image, no seeing across the seam), and a
    /// boid reappears on the other side only once its sprite is wholly off screen
    /// (src/models/topological.hpp).
    bool sprite_wrap;
    bool wrap; ///< a torus: positions wrap and distances use the minimum image
    bool dynamic_bias;
    Real width, height, half_width, half_height;
    Real left_edge, right_edge, top_edge, bottom_edge, turn;
    Real visual, visual2, protected2;
    Real centering, avoid, matching;
    Real min_speed, max_speed;
    Real predator_range, predator_range2, predator_turn;
    Real max_bias, bias_increment;
    bool exact_speed;
    Real alpha, beta;
    bool falls;   ///< gravity pulls every flocking agent down (+y) before the speed limits
    Real gravity; ///< added to vy each step when `falls`
    bool dives;   ///< a separate speed limit applies while descending
    Real max_dive_speed;
    bool three_d; ///< the world has a z axis (front and back margins, a z period)
    Real depth, half_depth, front_edge, back_edge;
    bool predators_first; ///< PredatorOrder::BeforeFlocking: flee before cohesion and alignment
    bool fov_limited;     ///< a field of view below 360 degrees (in_field_of_view)
    double cos_half_fov;  ///< cosine of half the field of view
    bool line_of_sight;   ///< Flake's sidestep is on (LookAhead)
    double line_of_sight_factor, cos_line_of_sight;
};

/// Field of view (docs/MODEL.md §3): whether a neighbour in direction (tx, ty, tz) from an agent flying at
/// (vx, vy, vz) lies within the view cone, that is whether the angle between the two is at most half the
/// field of view. Computed in double: a geometric test, not lab arithmetic. A neighbour on top of the agent,
/// or an agent at rest, sees all around. The plain path and the fast kernel call this one function.
inline bool in_field_of_view(double vx, double vy, double vz, double tx, double ty, double tz,
                             double cos_half_fov) {
    const double norms = std::sqrt((vx * vx + vy * vy + vz * vz) * (tx * tx + ty * ty + tz * tz));
    return norms == 0.0 || vx * tx + vy * ty + vz * tz >= norms * cos_half_fov;
}

/// Flake's clear line of sight (docs/MODEL.md §3.5): of the neighbours in visual range, the nearest one
/// within the sight angle of the agent's heading, and on which side of the heading it is. Planar. The
/// plain path and the fast kernel feed it the same pairs in the same order, so they keep the same one.
struct LookAhead {
    double d2 = -1;          ///< the neighbour ahead's squared distance; below 0: none seen
    std::uint32_t index = 0; ///< its world index (ties of distance go to the lower one)
    double cross = 0;        ///< > 0: it is to the heading's left (+90 degrees)

    /// A neighbour at offset (dx, dy) (the agent's position minus the neighbour's) of an agent flying at
    /// (vx, vy): kept if it is ahead, within the angle whose cosine is `cos_sight`, and nearer than the one
    /// kept so far.
    void see(double vx, double vy, double dx, double dy, std::uint32_t neighbour, double cos_sight) {
        const double tx = -dx, ty = -dy; // toward the neighbour
        const double t2 = tx * tx + ty * ty;
        const double norms = std::sqrt((vx * vx + vy * vy) * t2);
        if (norms == 0 || vx * tx + vy * ty < norms * cos_sight) {
            return;
        }
        if (d2 < 0 || t2 < d2 || (t2 == d2 && neighbour < index)) {
            d2 = t2;
            index = neighbour;
            cross = vx * ty - vy * tx;
        }
    }
};

/// Flake's sidestep, once the neighbours were seen: a push of `factor` along the unit normal of the
/// velocity, away from the side the neighbour ahead is on (dead centre: to the left). The speed is the
/// square root of vx^2 + vy^2 in double, not std::hypot: IEEE's square root gives the same bits with every
/// C library (glibc's hypot is a unit in the last place off the rounded result for about one velocity in
/// fifteen), a speed is far from overflowing its square, and the root is a tenth of hypot's cost.
template <class Real>
inline void sidestep(const LookAhead& ahead, double factor, Real& vx, Real& vy) {
    if (ahead.d2 < 0) {
        return;
    }
    const double x = static_cast<double>(vx), y = static_cast<double>(vy);
    const double speed = std::sqrt(x * x + y * y);
    if (speed > 0) {
        const double side = ahead.cross > 0 ? -1.0 : 1.0;
        vx = vx + ScalarTraits<Real>::from_double(side * -y / speed * factor);
        vy = vy + ScalarTraits<Real>::from_double(side * x / speed * factor);
    }
}

/// The image of a neighbour at `x` nearest to an agent at `a` on a circle of length `length`, for positions
/// already wrapped into [0, length): x itself, or x moved by one period when the plain difference a - x is
/// beyond half a period. The agent's offset (the minimum image of a - x) is then a - image, one rounding,
/// and the image is the position the agent sees: the classic rules sum it for the average position. Every
/// offset on a torus is taken this way (neighbour pass, k nearest, fast kernel), so they agree to the bit.
template <class Real>
inline Real nearest_image(Real a, Real x, Real length, Real half) {
    const Real d = a - x;
    if (d > half) {
        return x + length;
    }
    if (d < -half) {
        return x - length;
    }
    return x;
}

/// wrap_position's general case, kept out of line: it is rare, and inlined it would keep the common case
/// (a position already inside) from being inlined into the loops over every agent.
template <class Real>
[[gnu::noinline]] Real wrap_outside(Real p, Real length) {
    Real w;
    if constexpr (std::is_floating_point_v<Real>) {
        w = p - length * std::floor(p / length);
    } else { // fixed point: through double, where every step here is exact for fix15 values
        const double d = static_cast<double>(p), l = static_cast<double>(length);
        w = ScalarTraits<Real>::from_double(d - l * std::floor(d / l));
    }
    // Rounding can land exactly on `length` for tiny negative p.
    return (w >= length || w < Real(0)) ? Real(0) : w;
}

/// Wraps a position into [0, length) (one step moves at most max_speed, but --init files may hold any
/// position, hence the general case).
template <class Real>
inline Real wrap_position(Real p, Real length) {
    if (p >= Real(0) && p < length) [[likely]] {
        return p;
    }
    return wrap_outside(p, length);
}

/// Step 4: turn back inside the margins, in the order of docs/MODEL.md §2.5; in 3D also at the front and
/// back.
template <class Real>
inline void turn_at_edges(const Constants<Real>& c, Real x, Real y, Real z, Real& vx, Real& vy, Real& vz) {
    if (y < c.top_edge) {
        vy = vy + c.turn;
    }
    if (x > c.right_edge) {
        vx = vx - c.turn;
    }
    if (x < c.left_edge) {
        vx = vx + c.turn;
    }
    if (y > c.bottom_edge) {
        vy = vy - c.turn;
    }
    if (c.three_d) {
        if (z < c.front_edge) {
            vz = vz + c.turn;
        }
        if (z > c.back_edge) {
            vz = vz - c.turn;
        }
    }
}

/// Step 4 in a 2D world.
template <class Real>
inline void turn_at_edges(const Constants<Real>& c, Real x, Real y, Real& vx, Real& vy) {
    Real vz(0);
    turn_at_edges(c, x, y, Real(0), vx, vy, vz);
}

/// Step 5's reaction once the predators in range were summed: a fixed kick per axis, by sign only.
template <class Real>
inline void flee_predators(const Constants<Real>& c, Real pdx, Real pdy, Real pdz, Real& vx, Real& vy,
                           Real& vz) {
    if (pdz > Real(0)) {
        vz = vz + c.predator_turn;
    }
    if (pdz < Real(0)) {
        vz = vz - c.predator_turn;
    }
    if (pdy > Real(0)) {
        vy = vy + c.predator_turn;
    }
    if (pdy < Real(0)) {
        vy = vy - c.predator_turn;
    }
    if (pdx > Real(0)) {
        vx = vx + c.predator_turn;
    }
    if (pdx < Real(0)) {
        vx = vx - c.predator_turn;
    }
}

/// Steps 6 and 7: a scout's dynamic bias, then its pull toward its side.
template <class Real>
inline void steer_scout(const Constants<Real>& c, Kind kind, Real& vx, Real& bias) {
    if (kind != Kind::Scout1 && kind != Kind::Scout2) {
        return;
    }
    const bool right = kind == Kind::Scout1;
    if (c.dynamic_bias) {
        const bool moving_its_way = right ? vx > Real(0) : vx < Real(0);
        if (moving_its_way) {
            const Real raised = bias + c.bias_increment;
            bias = raised < c.max_bias ? raised : c.max_bias;
        } else {
            const Real lowered = bias - c.bias_increment;
            bias = lowered > c.bias_increment ? lowered : c.bias_increment;
        }
    }
    const Real one(1);
    vx = (one - bias) * vx + bias * (right ? one : -one);
}

/// Step 8: every component scaled by the same factor (the lab pages' one-component typo is not reproduced:
/// docs/MODEL.md §2.14);
/// a velocity of exactly zero has no direction and becomes (min_speed, 0, 0). In 2D vz is 0 throughout,
/// and adding its square changes no bit of the planar result.
template <class Real>
inline void limit_speed(const Constants<Real>& c, Real& vx, Real& vy, Real& vz) {
    using T = ScalarTraits<Real>;
    Real speed;
    if (c.exact_speed) {
        speed = T::sqrt(vx * vx + vy * vy + vz * vz);
    } else {
        const Real ax = T::abs(vx), ay = T::abs(vy);
        speed = c.alpha * (ax > ay ? ax : ay) + c.beta * (ax > ay ? ay : ax);
    }
    if (speed == Real(0)) {
        vx = c.min_speed;
        vy = Real(0);
        vz = Real(0);
        return;
    }
    if (speed < c.min_speed) {
        vx = (vx / speed) * c.min_speed;
        vy = (vy / speed) * c.min_speed;
        vz = (vz / speed) * c.min_speed;
    }
    // With gravity, boids may dive (vy > 0: down the screen) faster than they climb.
    const Real max_speed = c.dives && vy > Real(0) ? c.max_dive_speed : c.max_speed;
    if (speed > max_speed) {
        vx = (vx / speed) * max_speed;
        vy = (vy / speed) * max_speed;
        vz = (vz / speed) * max_speed;
    }
}

/// Step 8 in a 2D world.
template <class Real>
inline void limit_speed(const Constants<Real>& c, Real& vx, Real& vy) {
    Real vz(0);
    limit_speed(c, vx, vy, vz);
}

} // namespace boids::classic
