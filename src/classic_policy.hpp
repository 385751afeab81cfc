#pragma once
// The classic model of SPEC §2 as a neighbour-pass policy (internal), with an optional field of view.

#include "classic_rules.hpp"
#include "neighbour_pass.hpp"

#include <cmath>
#include <numbers>

namespace boids::classic {

template <class Real>
struct Policy {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::InRange;

    struct Sums {
        Real xsum{0}, ysum{0}, vxsum{0}, vysum{0}, close_dx{0}, close_dy{0}, pdx{0}, pdy{0};
        long long neighbours = 0;
    };

    Policy(const Params& p, const Constants<Real>& constants)
        : c(constants), fov_limited(p.fov_angle < 360.0), cos_half_fov(std::cos(p.fov_angle * std::numbers::pi / 360.0)) {}

    /// Field of view: a neighbour counts when the angle between the agent's velocity and the direction to
    /// the neighbour is at most fov_angle / 2. Computed in double: it is a geometric test, not lab arithmetic.
    bool sees(const Agent<Real>& a, const Neighbour<Real>& n) const {
        if (!fov_limited) {
            return true;
        }
        const double vx = static_cast<double>(a.vx), vy = static_cast<double>(a.vy);
        const double tx = -static_cast<double>(n.dx), ty = -static_cast<double>(n.dy); // toward the neighbour
        const double norms = std::sqrt((vx * vx + vy * vy) * (tx * tx + ty * ty));
        return norms == 0.0 || vx * tx + vy * ty >= norms * cos_half_fov;
    }

    // Step 1.
    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        if (T::abs(n.dx) < c.visual && T::abs(n.dy) < c.visual && sees(a, n)) {
            const Real d2 = n.dx * n.dx + n.dy * n.dy;
            if (d2 < c.protected2) {
                s.close_dx = s.close_dx + n.dx;
                s.close_dy = s.close_dy + n.dy;
            } else if (d2 < c.visual2) {
                // Across a wrap seam the neighbour's nearest image is what the boid sees.
                s.xsum = s.xsum + (c.wrap ? a.x - n.dx : n.x);
                s.ysum = s.ysum + (c.wrap ? a.y - n.dy : n.y);
                s.vxsum = s.vxsum + n.vx;
                s.vysum = s.vysum + n.vy;
                ++s.neighbours;
            }
        }
    }

    // Step 5's sums.
    void accumulate_predator(Sums& s, const Agent<Real>&, const Neighbour<Real>& n) const {
        if (T::abs(n.dx) < c.predator_range && T::abs(n.dy) < c.predator_range &&
            n.dx * n.dx + n.dy * n.dy < c.predator_range2) {
            s.pdx = s.pdx + n.dx;
            s.pdy = s.pdy + n.dy;
        }
    }

    // Steps 2-8.
    void steer(const Sums& s, Agent<Real>& a) const {
        if (s.neighbours > 0) {
            const Real xavg = T::divide_by_count(s.xsum, s.neighbours);
            const Real yavg = T::divide_by_count(s.ysum, s.neighbours);
            const Real vxavg = T::divide_by_count(s.vxsum, s.neighbours);
            const Real vyavg = T::divide_by_count(s.vysum, s.neighbours);
            a.vx = a.vx + (xavg - a.x) * c.centering + (vxavg - a.vx) * c.matching;
            a.vy = a.vy + (yavg - a.y) * c.centering + (vyavg - a.vy) * c.matching;
        }
        a.vx = a.vx + s.close_dx * c.avoid;
        a.vy = a.vy + s.close_dy * c.avoid;
        if (!c.wrap) {
            turn_at_edges(c, a.x, a.y, a.vx, a.vy);
        }
        flee_predators(c, s.pdx, s.pdy, a.vx, a.vy);
        steer_scout(c, a.kind, a.vx, a.bias);
        limit_speed(c, a.vx, a.vy);
    }

    // A predator: edges and speed limits only.
    void steer_predator(Agent<Real>& a) const {
        if (!c.wrap) {
            turn_at_edges(c, a.x, a.y, a.vx, a.vy);
        }
        limit_speed(c, a.vx, a.vy);
    }

    const Constants<Real>& c;
    bool fov_limited;
    double cos_half_fov;
};

} // namespace boids::classic
