#pragma once
// The constant-speed heading models as neighbour-pass policies (internal): Vicsek et al. 1995 and
// Couzin et al. 2005. Both fly at `speed`, steer by heading angle, take their noise from counter-based
// draws (counter_noise.hpp), and leave predators, which are not part of these models, on their course.
// Their trigonometry is done in double whatever the storage type. Both are planar (validate() refuses
// them in 3D).

#include "counter_noise.hpp"
#include "neighbour_pass_types.hpp"

#include <cmath>
#include <cstdint>

namespace boids::heading {

/// Neighbour minus agent in double (on a torus the neighbour's position is already its image nearest to
/// the agent: see Neighbour).
struct Offset {
    double dx, dy;
};

template <class Real>
Offset offset(const Agent<Real>& a, const Neighbour<Real>& n) {
    using T = ScalarTraits<Real>;
    return {T::to_double(n.x) - T::to_double(a.x), T::to_double(n.y) - T::to_double(a.y)};
}

/// What both models share: the constants of a step and flying on at `speed` along an angle.
template <class Real>
struct ConstantSpeed {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::InRange;
    static constexpr bool predators_keep_course = true; ///< predators are not part of these models

    ConstantSpeed(const Params& p, long long step_index)
        : params(p), seed(static_cast<std::uint64_t>(p.noise_seed)),
          step(static_cast<std::uint64_t>(step_index)) {}

    void accumulate_predator(auto&, const Agent<Real>&, const Neighbour<Real>&) const {}

    void fly(Agent<Real>& a, double angle) const {
        a.vx = T::from_double(params.heading.speed * std::cos(angle));
        a.vy = T::from_double(params.heading.speed * std::sin(angle));
    }

    const Params& params;
    std::uint64_t seed, step;
};

} // namespace boids::heading

namespace boids::vicsek {

/// Heading = mean heading of the neighbours within interaction_radius, self included, plus uniform angle
/// noise in [-noise / 2, noise / 2].
template <class Real>
struct Policy : heading::ConstantSpeed<Real> {
    using Base = heading::ConstantSpeed<Real>;
    using T = ScalarTraits<Real>;
    using Base::params;

    struct Sums {
        double sx = 0.0, sy = 0.0; ///< sum of unit headings
    };

    Policy(const Params& p, long long step_index)
        : Base(p, step_index), r2(p.vicsek.interaction_radius * p.vicsek.interaction_radius) {}

    static void add_heading(Sums& s, double vx, double vy) {
        const double speed = std::hypot(vx, vy);
        if (speed > 0.0) {
            s.sx += vx / speed;
            s.sy += vy / speed;
        }
    }

    /// Self first, then the neighbours in the grid's fixed order.
    void start(Sums& s, const Agent<Real>& a) const {
        add_heading(s, T::to_double(a.vx), T::to_double(a.vy));
    }

    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const heading::Offset d = heading::offset(a, n);
        if (d.dx * d.dx + d.dy * d.dy < r2) {
            add_heading(s, T::to_double(n.vx), T::to_double(n.vy));
        }
    }

    void steer(const Sums& s, Agent<Real>& a) const {
        const double mean_angle = (s.sx == 0.0 && s.sy == 0.0) ? 0.0 : std::atan2(s.sy, s.sx);
        this->fly(a, mean_angle +
                         params.heading.noise * (noise::uniform01(this->seed, this->step, a.id, 0) - 0.5));
    }

    double r2;
};

} // namespace boids::vicsek

namespace boids::couzin {

/// Repulsion from neighbours within repulsion_radius (alpha) overrides everything; otherwise attraction
/// toward and alignment with those within attraction_radius (rho), own heading included. Informed agents
/// (scouts) add informed_weight times their preferred direction (+x for scout1, -x for scout2). Gaussian
/// angle noise, then a turn of at most turn_rate toward the result.
template <class Real>
struct Policy : heading::ConstantSpeed<Real> {
    using Base = heading::ConstantSpeed<Real>;
    using T = ScalarTraits<Real>;
    using Base::params;

    struct Sums {
        double rx = 0.0, ry = 0.0; ///< repulsion: away from neighbours within alpha
        double ax = 0.0, ay = 0.0; ///< attraction: toward neighbours within rho
        double ox = 0.0, oy = 0.0; ///< orientation: headings within rho, own included
        double hx = 1.0, hy = 0.0; ///< the agent's heading (at rest: +x)
        bool repelled = false;
    };

    Policy(const Params& p, long long step_index)
        : Base(p, step_index), alpha2(p.couzin.repulsion_radius * p.couzin.repulsion_radius),
          rho2(p.couzin.attraction_radius * p.couzin.attraction_radius),
          cos_turn(std::cos(p.couzin.turn_rate)) {}

    void start(Sums& s, const Agent<Real>& a) const {
        const double vx = T::to_double(a.vx), vy = T::to_double(a.vy);
        const double v = std::hypot(vx, vy);
        s.hx = v > 0.0 ? vx / v : 1.0;
        s.hy = v > 0.0 ? vy / v : 0.0;
        s.ox = s.hx;
        s.oy = s.hy;
    }

    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const heading::Offset d = heading::offset(a, n);
        const double d2 = d.dx * d.dx + d.dy * d.dy;
        if (d2 >= rho2 || d2 == 0.0) {
            return; // out of range, or exactly on top: no direction to take
        }
        const double dist = std::sqrt(d2);
        if (d2 < alpha2) {
            s.repelled = true;
            s.rx -= d.dx / dist;
            s.ry -= d.dy / dist;
            return;
        }
        s.ax += d.dx / dist;
        s.ay += d.dy / dist;
        const double nvx = T::to_double(n.vx), nvy = T::to_double(n.vy);
        const double nv = std::hypot(nvx, nvy);
        if (nv > 0.0) {
            s.ox += nvx / nv;
            s.oy += nvy / nv;
        }
    }

    /// The preferred direction's x component of an informed agent (0 for the uninformed).
    static double preferred_x(Kind kind) {
        return kind == Kind::Scout1 ? 1.0 : kind == Kind::Scout2 ? -1.0 : 0.0;
    }

    void steer(const Sums& s, Agent<Real>& a) const {
        double dx = s.repelled ? s.rx : s.ax + s.ox;
        double dy = s.repelled ? s.ry : s.ay + s.oy;
        double dn = std::hypot(dx, dy);
        if (dn == 0.0) { // balanced pulls: keep going
            dx = s.hx;
            dy = s.hy;
            dn = 1.0;
        }
        dx /= dn;
        dy /= dn;
        if (const double gx = preferred_x(a.kind); gx != 0.0) {
            dx += params.couzin.informed_weight * gx;
            dn = std::hypot(dx, dy);
            if (dn > 0.0) {
                dx /= dn;
                dy /= dn;
            } else {
                dx = gx;
                dy = 0.0;
            }
        }
        // Angular noise, then the turning-rate limit toward the noisy desired direction.
        double desired =
            std::atan2(dy, dx) + params.heading.noise * noise::normal(this->seed, this->step, a.id, 0);
        const double current = std::atan2(s.hy, s.hx);
        if (std::cos(desired - current) < cos_turn) {
            // Turn by turn_rate toward the desired side: the sign of the cross product.
            desired = current + (std::sin(desired - current) >= 0.0 ? params.couzin.turn_rate
                                                                    : -params.couzin.turn_rate);
        }
        this->fly(a, desired);
    }

    double alpha2, rho2, cos_turn;
};

} // namespace boids::couzin
