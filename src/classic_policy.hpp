#pragma once
// The classic model (docs/MODEL.md §2) as a neighbour-pass policy (internal), with the extensions of the
// ECE 4760 lab page and Downey's chapter that act on it (docs/MODEL.md §3): field of view, gravity with a
// dive speed, Flake's clear line of sight, perching.

#include "classic_rules.hpp"
#include "neighbour_pass_types.hpp"

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
        : c(constants), params(p), step(step_number), perching(p.perch_rest_max > 0),
          ledge_y(p.ledge_y >= 0 ? p.ledge_y : p.height - p.margin_bottom),
          ledge_x0(p.ledge_x0 >= 0 ? p.ledge_x0 : p.margin_left),
          ledge_x1(p.ledge_x1 >= 0 ? p.ledge_x1 : p.width - p.margin_right) {}

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

    /// A rest time in [perch_rest_min, perch_rest_max] steps, from a hash of the agent and the step, so it
    /// is the same for any thread count.
    [[nodiscard]] std::int32_t rest_time(std::uint32_t index) const {
        std::uint64_t z = (static_cast<std::uint64_t>(index) << 32) ^ static_cast<std::uint64_t>(step);
        z += 0x9e3779b97f4a7c15ull; // splitmix64 finaliser
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        const auto lo = static_cast<std::uint64_t>(params.perch_rest_min);
        const auto span = static_cast<std::uint64_t>(params.perch_rest_max) - lo + 1;
        return static_cast<std::int32_t>(lo + z % span);
    }

    /// Near an obstacle (within obstacle_margin of its surface): a push along the outward normal.
    void steer_around_obstacles(Agent<Real>& a) const {
        const double x = static_cast<double>(a.x), y = static_cast<double>(a.y), z = static_cast<double>(a.z);
        for (const Obstacle& o : params.obstacles) {
            const SurfaceDistance sd =
                c.three_d ? surface_distance(o, x, y, z, params.depth) : surface_distance(o, x, y);
            if (sd.distance < params.obstacle_margin) {
                a.vx = a.vx + T::from_double(sd.nx * params.obstacle_turn_factor);
                a.vy = a.vy + T::from_double(sd.ny * params.obstacle_turn_factor);
                if (c.three_d) {
                    a.vz = a.vz + T::from_double(sd.nz * params.obstacle_turn_factor);
                }
            }
        }
    }

    /// Within a food source's range: a pull toward it, where it is at this step.
    void seek_food(Agent<Real>& a) const {
        for (const FoodSource& f : params.food) {
            const auto [fx, fy] = f.position(step);
            const double dx = fx - static_cast<double>(a.x), dy = fy - static_cast<double>(a.y);
            const double dz = c.three_d ? f.z.value_or(params.depth / 2) - static_cast<double>(a.z) : 0.0;
            const double d = c.three_d ? std::sqrt(dx * dx + dy * dy + dz * dz) : std::hypot(dx, dy);
            if (d > 0 && d < f.range) {
                a.vx = a.vx + T::from_double(dx / d * f.strength);
                a.vy = a.vy + T::from_double(dy / d * f.strength);
                if (c.three_d) {
                    a.vz = a.vz + T::from_double(dz / d * f.strength);
                }
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
            --a.rest;
            a.vx = Real(0);
            a.vz = Real(0);
            a.vy = a.rest == 0 ? T::from_double(-(params.min_speed + params.max_speed) / 2) : Real(0);
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
        steer_around_obstacles(a);
        seek_food(a);
        if (params.gravity > 0) {
            a.vy = a.vy + T::from_double(params.gravity);
        }
        limit_speed(c, a.vx, a.vy, a.vz);
        if (perching) {
            // Reaching the ledge from above: land on it this step and rest. (In 3D the ledge runs through
            // the whole depth.)
            const double x = static_cast<double>(a.x), y = static_cast<double>(a.y);
            const double next_y = y + static_cast<double>(a.vy);
            if (y < ledge_y && next_y >= ledge_y && x >= ledge_x0 && x <= ledge_x1) {
                a.vx = Real(0);
                a.vz = Real(0);
                a.vy = T::from_double(ledge_y) - a.y;
                a.rest = rest_time(a.id);
            }
        }
    }

    const Constants<Real>& c;
    const Params& params;
    long long step;
    bool perching;
    double ledge_y, ledge_x0, ledge_x1;
};

} // namespace boids::classic
