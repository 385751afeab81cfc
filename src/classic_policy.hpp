#pragma once
// The classic model (docs/MODEL.md §2) as a neighbour-pass policy (internal), with the extensions of the
// ECE 4760 lab page and Downey's chapter that act on it (docs/MODEL.md §3): field of view, gravity with a
// dive speed, Flake's clear line of sight, perching.

#include "classic_rules.hpp"
#include "food_rules.hpp"
#include "neighbour_pass_types.hpp"
#include "obstacle_rules.hpp"
#include "perch_rules.hpp"

#include <cmath>
#include <numbers>

namespace boids::classic {

template <class Real>
struct Policy {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::InRange;

    struct Sums {
        Real xsum{0}, ysum{0}, vxsum{0}, vysum{0}, close_dx{0}, close_dy{0}, pdx{0}, pdy{0};
        Real zsum{0}, vzsum{0}, close_dz{0}, pdz{0}; // 3D (0 in 2D)
        long long neighbours = 0;
        LookAhead ahead; ///< line of sight: the nearest neighbour dead ahead
    };

    Policy(const Params& p, const Constants<Real>& constants, long long step_number)
        : c(constants), params(p), step(step_number), ledge(p) {}

    /// Field of view: a neighbour counts when the angle between the agent's velocity and the direction to
    /// the neighbour is at most fov_angle / 2. Computed in double: it is a geometric test, not lab
    /// arithmetic.
    bool sees(const Agent<Real>& a, const Neighbour<Real>& n) const {
        // Toward the neighbour: minus its offset.
        return !c.fov_limited ||
               in_field_of_view(static_cast<double>(a.vx), static_cast<double>(a.vy),
                                static_cast<double>(a.vz), -static_cast<double>(n.dx),
                                -static_cast<double>(n.dy), -static_cast<double>(n.dz), c.cos_half_fov);
    }

    // Step 1. (In 2D every z term is 0 and leaves the planar sums bit for bit as they were.)
    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        if (T::abs(n.dx) < c.visual && T::abs(n.dy) < c.visual && T::abs(n.dz) < c.visual && sees(a, n)) {
            const Real d2 = n.dx * n.dx + n.dy * n.dy + n.dz * n.dz;
            if (c.line_of_sight && d2 < c.visual2) {
                s.ahead.see(static_cast<double>(a.vx), static_cast<double>(a.vy), static_cast<double>(n.dx),
                            static_cast<double>(n.dy), n.index, c.cos_line_of_sight);
            }
            if (d2 < c.protected2) {
                s.close_dx = s.close_dx + n.dx;
                s.close_dy = s.close_dy + n.dy;
                s.close_dz = s.close_dz + n.dz;
            } else if (d2 < c.visual2) {
                // Across a wrap seam n.x is the neighbour's nearest image: what the boid sees.
                s.xsum = s.xsum + n.x;
                s.ysum = s.ysum + n.y;
                s.vxsum = s.vxsum + n.vx;
                s.vysum = s.vysum + n.vy;
                if (c.three_d) {
                    s.zsum = s.zsum + n.z;
                    s.vzsum = s.vzsum + n.vz;
                }
                ++s.neighbours;
            }
        }
    }

    // Step 5's sums.
    void accumulate_predator(Sums& s, const Agent<Real>&, const Neighbour<Real>& n) const {
        if (T::abs(n.dx) < c.predator_range && T::abs(n.dy) < c.predator_range &&
            T::abs(n.dz) < c.predator_range && n.dx * n.dx + n.dy * n.dy + n.dz * n.dz < c.predator_range2) {
            s.pdx = s.pdx + n.dx;
            s.pdy = s.pdy + n.dy;
            s.pdz = s.pdz + n.dz;
        }
    }

    // Steps 2-8, with the extensions.
    void steer(const Sums& s, Agent<Real>& a) const {
        if (a.rest > 0) { // perched: sit still, then take off upward on the last step
            ledge.rest_step(a.rest, a.vx, a.vy, a.vz);
            return;
        }
        if (c.predators_first) { // the lab page's order: alignment below reads the kicked velocity
            flee_predators(c, s.pdx, s.pdy, s.pdz, a.vx, a.vy, a.vz);
        }
        if (s.neighbours > 0) {
            const Real xavg = T::divide_by_count(s.xsum, s.neighbours);
            const Real yavg = T::divide_by_count(s.ysum, s.neighbours);
            const Real vxavg = T::divide_by_count(s.vxsum, s.neighbours);
            const Real vyavg = T::divide_by_count(s.vysum, s.neighbours);
            a.vx = a.vx + (xavg - a.x) * c.centering + (vxavg - a.vx) * c.matching;
            a.vy = a.vy + (yavg - a.y) * c.centering + (vyavg - a.vy) * c.matching;
            if (c.three_d) {
                const Real zavg = T::divide_by_count(s.zsum, s.neighbours);
                const Real vzavg = T::divide_by_count(s.vzsum, s.neighbours);
                a.vz = a.vz + (zavg - a.z) * c.centering + (vzavg - a.vz) * c.matching;
            }
        }
        a.vx = a.vx + s.close_dx * c.avoid;
        a.vy = a.vy + s.close_dy * c.avoid;
        a.vz = a.vz + s.close_dz * c.avoid;
        if (!c.wrap) {
            turn_at_edges(c, a.x, a.y, a.z, a.vx, a.vy, a.vz);
        }
        if (!c.predators_first) { // Adams' VGA predator page's order
            flee_predators(c, s.pdx, s.pdy, s.pdz, a.vx, a.vy, a.vz);
        }
        steer_scout(c, a.kind, a.vx, a.bias);
        sidestep(s.ahead, c.line_of_sight_factor, a.vx, a.vy);
        steer_around_obstacles(params, c.three_d, a.x, a.y, a.z, a.vx, a.vy, a.vz);
        seek_food(params, c.three_d, step, a.x, a.y, a.z, a.vx, a.vy, a.vz);
        if (c.falls) {
            a.vy = a.vy + c.gravity;
        }
        limit_speed(c, a.vx, a.vy, a.vz);
        // Reaching the ledge from above: land on it this step and rest.
        if (ledge.on && ledge.land(a.x, a.y, a.vx, a.vy, a.vz)) {
            a.rest = ledge.rest_time(a.id, step);
        }
    }

    const Constants<Real>& c;
    const Params& params;
    long long step;
    Ledge ledge;
};

} // namespace boids::classic
