#pragma once
// How predators move, for every flock model (internal). The lab's predator only turns at the edges and
// obeys the speed limits; the "smart predator" extension of the ECE 4760 lab page (docs/MODEL.md §3.3)
// adds chasing the centre of mass of the boids it sees, or locking on one boid (the nearest in sight, ties
// to the lower index) and following it until it escapes the predator's vision. The lock is state
// (World::target), so pursuit stays synchronous and deterministic.
//
// Every predator also keeps turning back at the edges whatever its speed rule does (keep_turning_back),
// except the lab's predator (edge, the boids' speed limits) in a world without obstacles, which follows
// docs/MODEL.md §2.10 (the edges and speed limits of §2.5 and §2.8) exactly.

#include "classic_rules.hpp"
#include "neighbour_pass_types.hpp"

#include <algorithm>
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

    /// The lab's predator in a world without obstacles turns and keeps to the speed limits exactly as
    /// docs/MODEL.md §2.10 says (and as the fast path does, to the bit). Obstacles end that: sliding along a
    /// rectangle's side leaves a velocity component exactly 0, which steps 4 and 8 cannot turn back at a
    /// margin.
    [[nodiscard]] bool turns_as_in_spec() const {
        return !hunts() && params.predator_speed == 0 && params.obstacles.empty();
    }

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
        const double before[3] = {static_cast<double>(a.vx), static_cast<double>(a.vy),
                                  static_cast<double>(a.vz)};
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
        if (!c.wrap && !turns_as_in_spec()) {
            keep_turning_back(before, a);
        }
    }

    /// Past a margin, a predator's outward speed across that margin shrinks by at least the edge turn each
    /// step until it flies inward, as a boid's does under docs/MODEL.md §2.5, so it always comes back (no
    /// further out than a boid at that speed would go). Without this, a speed rule that rescales the
    /// velocity (its own fixed speed, or min_speed) undid the part of the turn parallel to the velocity: all
    /// of it when the predator flew straight out (a velocity component exactly 0), so it flew away for ever,
    /// and nearly all of it when it flew almost straight out. `before` is the velocity at the start of the
    /// step. The speed the rule chose is kept by the components that are free to take it: those across no
    /// margin, and those already flying inward (toward the middle of the world when all of those are 0).
    /// Only a predator flying outward past every margin at once (a corner) can be left slower for a step.
    void keep_turning_back(const double (&before)[3], Agent<Real>& a) const {
        Real kx(0), ky(0), kz(0); // the edge turn alone, in the order and arithmetic of step 4
        classic::turn_at_edges(c, a.x, a.y, a.z, kx, ky, kz);
        const int axes = c.three_d ? 3 : 2;
        const double kick[3] = {static_cast<double>(kx), static_cast<double>(ky), static_cast<double>(kz)};
        double v[3] = {static_cast<double>(a.vx), static_cast<double>(a.vy), static_cast<double>(a.vz)};
        const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        bool fixed[3] = {false, false, false}; // a component the speed may not be moved into
        bool turned = false;
        for (int k = 0; k < axes; ++k) {
            if (kick[k] == 0) { // between the margins (or past two that overlap, whose turns cancel)
                continue;
            }
            const double inward = kick[k] > 0 ? 1.0 : -1.0;
            // The outward speed this step may keep: the last step's, less the turn.
            const double allowed = std::max(-inward * before[k] - std::abs(kick[k]), 0.0);
            if (-inward * v[k] > allowed) {
                v[k] = -inward * allowed;
                fixed[k] = turned = true;
            } else if (inward * v[k] < 0) { // still outward, within what is allowed: must not grow
                fixed[k] = true;
            }
        }
        if (!turned) {
            return;
        }
        const double target = params.predator_speed > 0 ? params.predator_speed : speed;
        double held = 0, free2 = 0;
        for (int k = 0; k < axes; ++k) {
            (fixed[k] ? held : free2) += v[k] * v[k];
        }
        const double room = target * target - held;
        if (room < 0) { // only when the last step was faster than this one may be: all of it slows down
            const double scale = target / std::sqrt(held + free2);
            for (double& component : v) {
                component *= scale;
            }
        } else if (free2 > 0) {
            const double scale = std::sqrt(room / free2);
            for (int k = 0; k < axes; ++k) {
                v[k] = fixed[k] ? v[k] : v[k] * scale;
            }
        } else if (room > 0) { // the free components are all 0: turn toward the middle of the world
            const double middle[3] = {static_cast<double>(c.half_width) - static_cast<double>(a.x),
                                      static_cast<double>(c.half_height) - static_cast<double>(a.y),
                                      static_cast<double>(c.half_depth) - static_cast<double>(a.z)};
            double toward[3] = {0, 0, 0}, length2 = 0;
            for (int k = 0; k < axes; ++k) {
                if (!fixed[k]) {
                    // On the middle's line, the way in from this axis' margin (or +1 between its margins).
                    toward[k] = middle[k] != 0 ? middle[k] : kick[k] < 0 ? -1.0 : 1.0;
                    length2 += toward[k] * toward[k];
                }
            }
            if (length2 > 0) { // else every component is fixed (a corner): slower for this step
                const double scale = std::sqrt(room / length2);
                for (int k = 0; k < axes; ++k) {
                    v[k] += toward[k] * scale;
                }
            }
        }
        a.vx = T::from_double(v[0]);
        a.vy = T::from_double(v[1]);
        if (c.three_d) {
            a.vz = T::from_double(v[2]);
        }
    }

    const Params& params;
    const classic::Constants<Real>& c;
};

} // namespace boids::predators
