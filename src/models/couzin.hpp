#pragma once
// Couzin et al. 2005, "Effective leadership and decision-making in animal groups on the move": zones of
// repulsion, orientation and attraction, a turning limit, and informed agents (docs/MODEL.md §7).

#include "../text.hpp"
#include "boids/error.hpp"
#include "heading.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids {

/// Couzin's own parameters (keys below).
struct CouzinParams {
    static constexpr Model model = Model::Couzin;
    double repulsion_radius = 1.0;  ///< zone of repulsion, alpha
    double attraction_radius = 6.0; ///< zone of orientation and attraction, rho
    double turn_rate = 0.2;         ///< largest heading change per step (rad)
    double informed_weight = 0.5;   ///< omega, weight of an informed agent's preferred direction
    bool operator==(const CouzinParams&) const = default;
};

} // namespace boids

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
        : Base(p, step_index), own(models::own<CouzinParams>(p)),
          alpha2(own.repulsion_radius * own.repulsion_radius),
          rho2(own.attraction_radius * own.attraction_radius), cos_turn(angle::sin_cos(own.turn_rate).cos) {}

    void start(Sums& s, const Agent<Real>& a) const {
        const double vx = T::to_double(a.vx), vy = T::to_double(a.vy);
        const double v = angle::length(vx, vy);
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
        const double nv = angle::length(nvx, nvy);
        if (nv > 0.0) {
            s.ox += nvx / nv;
            s.oy += nvy / nv;
        }
    }

    /// The preferred direction's x component of an informed agent (0 for the uninformed). A table rather
    /// than comparisons: the fast pass asks it for every agent, and the informed ones come in no order a
    /// branch predictor learns.
    static double preferred_x(Kind kind) {
        static constexpr std::array<double, kind_count> by_kind{0.0, 1.0, -1.0, 0.0}; // Kind's order
        static_assert(static_cast<int>(Kind::Scout1) == 1 && static_cast<int>(Kind::Scout2) == 2);
        return by_kind[static_cast<std::size_t>(kind)];
    }

    /// Steps 1 to 3 of the rule: the unit direction the zones ask for, with an informed agent's preference.
    heading::Offset direction(const Sums& s, Kind kind) const {
        double dx = s.repelled ? s.rx : s.ax + s.ox;
        double dy = s.repelled ? s.ry : s.ay + s.oy;
        double dn = angle::length(dx, dy);
        if (dn == 0.0) { // balanced pulls: keep going
            dx = s.hx;
            dy = s.hy;
            dn = 1.0;
        }
        dx /= dn;
        dy /= dn;
        if (const double gx = preferred_x(kind); gx != 0.0) {
            dx += own.informed_weight * gx;
            dn = angle::length(dx, dy);
            if (dn > 0.0) {
                dx /= dn;
                dy /= dn;
            } else {
                dx = gx;
                dy = 0.0;
            }
        }
        return {dx, dy};
    }

    /// The desired angle with its noise, given the direction's angle.
    double noisy(double direction_angle, std::uint32_t id) const {
        return noisy_by(direction_angle, noise::normal(this->noise_key, id, 0));
    }

    /// The desired angle with the noise of a standard normal draw.
    double noisy_by(double direction_angle, double normal) const {
        return direction_angle + params.heading.noise * normal;
    }

    /// The turning-rate limit, given the sine and cosine of desired - current: at most turn_rate toward
    /// the desired side (the sign of the cross product).
    double turned(double desired, double current, angle::SinCos turn) const {
        return turn.cos < cos_turn ? current + (turn.sin >= 0.0 ? own.turn_rate : -own.turn_rate) : desired;
    }

    void steer(const Sums& s, Agent<Real>& a) const {
        const heading::Offset d = direction(s, a.kind);
        const double desired = noisy(angle::atan2(d.dy, d.dx), a.id);
        const double current = angle::atan2(s.hy, s.hx);
        this->fly(a, turned(desired, current, angle::sin_cos(desired - current)));
    }

    const CouzinParams& own;
    double alpha2, rho2, cos_turn;
};

} // namespace boids::couzin

namespace boids::models {

struct Couzin {
    static constexpr Model id = Model::Couzin;
    static constexpr std::string_view name = "couzin";
    static constexpr std::string_view title = "Couzin";
    using Own = CouzinParams; ///< the parameters it keeps for itself
    static constexpr ModelAbilities abilities{};

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {heading_speed_key, bit(Model::Vicsek)},
        {heading_noise_key, bit(Model::Vicsek)},
        {{"repulsion_radius", 0, range_max, "couzin: zone of repulsion alpha (<= attraction_radius)", own_field<&CouzinParams::repulsion_radius>, "repulsion radius", 0, 50}},
        {{"attraction_radius", 0, range_max, "couzin: zone of orientation and attraction rho", own_field<&CouzinParams::attraction_radius>, "attraction radius", 0, 100}},
        {{"turn_rate", 0, pi, "couzin: largest heading change per step (rad)", own_field<&CouzinParams::turn_rate>, "turn rate (rad)"}},
        {{"informed_weight", 0, 1000, "couzin: omega, weight of an informed agent's preferred direction", own_field<&CouzinParams::informed_weight>, "informed weight", 0, 10}},
        {noise_seed_key, bit(Model::Vicsek)},
    });
    // clang-format on

    static void validate(const Params& p) {
        const CouzinParams& c = own<CouzinParams>(p);
        if (c.repulsion_radius > c.attraction_radius) {
            throw InputError(invalid_value_message("repulsion_radius", text::shortest(c.repulsion_radius),
                                                   "must not exceed attraction_radius = " +
                                                       text::shortest(c.attraction_radius)));
        }
    }
    static double grid_range(const Params& p) { return own<CouzinParams>(p).attraction_radius; }
    static double link_range(const Params& p) { return own<CouzinParams>(p).attraction_radius; }

    template <class Real>
    static couzin::Policy<Real> policy(const Params& p, const classic::Constants<Real>&, long long step) {
        return couzin::Policy<Real>(p, step);
    }
};

} // namespace boids::models
