#pragma once
// How predators move, for every flock model (internal). The seed's predator only turns at the edges and
// obeys the speed limits; the "smart predator" extension (seed 001) adds chasing the centre of mass of the
// boids it sees, or locking on one boid (the nearest in sight, ties to the lower index) and following it
// until it escapes the predator's vision. The lock is state (World::target), so pursuit stays synchronous
// and deterministic.

#include "classic_rules.hpp"
#include "neighbour_pass_types.hpp"

#include <cmath>

namespace boids::predators {

template <class Real>
struct Behavior {
    using T = ScalarTraits<Real>;

    struct Sight {
        double x_sum = 0, y_sum = 0, z_sum = 0; ///< seen boids' positions (nearest images)
        int count = 0;
        bool target_seen = false;
        double target_dx = 0, target_dy = 0, target_dz = 0; ///< predator minus its locked prey
        double nearest_d2 = 0, nearest_dx = 0, nearest_dy = 0, nearest_dz = 0;
        std::int32_t nearest = -1;
    };

    Behavior(const Params& p, const classic::Constants<Real>& constants) : params(p), c(constants) {}

    [[nodiscard]] bool hunts() const { return params.predator_behavior != PredatorBehavior::Edge; }

    void see(Sight& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const double dx = static_cast<double>(n.dx), dy = static_cast<double>(n.dy);
        const double dz = static_cast<double>(n.dz);
        const double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 > params.predator_vision * params.predator_vision) {
            return;
        }
        s.x_sum += static_cast<double>(a.x) - dx;
        s.y_sum += static_cast<double>(a.y) - dy;
        s.z_sum += static_cast<double>(a.z) - dz;
        ++s.count;
        const auto index = static_cast<std::int32_t>(n.index);
        if (index == a.target) {
            s.target_seen = true;
            s.target_dx = dx;
            s.target_dy = dy;
            s.target_dz = dz;
        }
        if (s.nearest < 0 || d2 < s.nearest_d2 || (d2 == s.nearest_d2 && index < s.nearest)) {
            s.nearest = index;
            s.nearest_d2 = d2;
            s.nearest_dx = dx;
            s.nearest_dy = dy;
            s.nearest_dz = dz;
        }
    }

    /// Turns toward (tx, ty, tz) (a direction from the predator) by predator_hunt_factor.
    void head_for(Agent<Real>& a, double tx, double ty, double tz) const {
        const double norm = c.three_d ? std::sqrt(tx * tx + ty * ty + tz * tz) : std::hypot(tx, ty);
        if (norm > 0) {
            a.vx = a.vx + T::from_double(tx / norm * params.predator_hunt_factor);
            a.vy = a.vy + T::from_double(ty / norm * params.predator_hunt_factor);
            if (c.three_d) {
                a.vz = a.vz + T::from_double(tz / norm * params.predator_hunt_factor);
            }
        }
    }

    void steer(const Sight& s, Agent<Real>& a) const {
        switch (params.predator_behavior) {
        case PredatorBehavior::ChaseCentroid:
            if (s.count > 0) {
                head_for(a, s.x_sum / s.count - static_cast<double>(a.x),
                         s.y_sum / s.count - static_cast<double>(a.y),
                         s.z_sum / s.count - static_cast<double>(a.z));
            }
            break;
        case PredatorBehavior::Pursue:
            if (s.target_seen) {
                head_for(a, -s.target_dx, -s.target_dy, -s.target_dz);
            } else if (s.nearest >= 0) { // lost (or never had) a lock: take the nearest in sight
                a.target = s.nearest;
                head_for(a, -s.nearest_dx, -s.nearest_dy, -s.nearest_dz);
            } else {
                a.target = -1;
            }
            break;
        case PredatorBehavior::Edge:
            break;
        }
        if (params.predator_behavior != PredatorBehavior::Pursue) {
            a.target = -1;
        }
        if (!c.wrap) {
            classic::turn_at_edges(c, a.x, a.y, a.z, a.vx, a.vy, a.vz);
        }
        if (params.predator_speed > 0) { // its own speed
            const double vx = static_cast<double>(a.vx), vy = static_cast<double>(a.vy);
            const double vz = static_cast<double>(a.vz);
            const double speed = c.three_d ? std::sqrt(vx * vx + vy * vy + vz * vz) : std::hypot(vx, vy);
            a.vx = T::from_double(speed > 0 ? vx / speed * params.predator_speed : params.predator_speed);
            a.vy = T::from_double(speed > 0 ? vy / speed * params.predator_speed : 0.0);
            a.vz = T::from_double(speed > 0 ? vz / speed * params.predator_speed : 0.0);
        } else {
            classic::limit_speed(c, a.vx, a.vy, a.vz);
        }
    }

    const Params& params;
    const classic::Constants<Real>& c;
};

} // namespace boids::predators
