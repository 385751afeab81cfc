#pragma once
// Downey's weighted boids (Think Linear Algebra / his VPython notebook, docs/MODEL.md §5): its parameters,
// its rules as a neighbour-pass policy and its descriptor (internal).
//
// Four acceleration requests, each limited to unit length: center (toward the neighbours' centroid),
// avoid (away from the centroid of the boids and the carrot that are too close), align (the neighbours'
// mean heading, a mean of unit vectors) and love (toward the carrot). Each request has its own neighbourhood:
// a radius and a half-angle around the velocity. goal = w_center center + w_avoid avoid + w_align align +
// w_love love, normalised; vel = (1 - mu) vel + mu goal, normalised (unit speed); pos += dt vel.
//
// Two decisions where Downey's code and text part ways: align uses the neighbours' mean heading, as the
// docstring says ("the average heading"), not that mean minus the boid's position, which the code
// computes; and a zero goal or velocity (which Downey's code cannot normalise) keeps the previous
// direction. docs/MODEL.md §5.3 lists every departure.
// The engine stores the displacement per step, dt vel, as the velocity; align therefore reads the
// neighbours' stored velocities as unit headings, which is what Downey's velocities are, so that its pull
// does not depend on dt. No edge rule: the carrot holds the flock together (wrap mode keeps the minimum
// image).

#include "../classic_rules.hpp"
#include "../neighbour_pass_types.hpp"
#include "key_table.hpp"

#include <array>
#include <cmath>
#include <string_view>

namespace boids {

/// The weighted model's own parameters (Downey; keys below).
struct WeightedParams {
    static constexpr Model model = Model::Weighted;
    double center_radius = 1.0;             ///< radius of the center request's neighbourhood
    double center_angle = 1.0;              ///< its half-angle around the velocity, radians
    double avoid_radius = 0.3;              ///< radius of the avoid request (boids and the carrot)
    double avoid_angle = 3.141592653589793; ///< its half-angle, radians (pi = all around)
    double align_radius = 0.5;              ///< radius of the align request
    double align_angle = 1.0;               ///< its half-angle, radians
    double w_center = 3.0;                  ///< weight of the center request
    double w_avoid = 10.0;                  ///< weight of the avoid request
    double w_align = 1.0;                   ///< weight of the align request
    double w_love = 10.0;                   ///< weight of the love request (toward the carrot)
    double maneuverability = 0.1;           ///< mu in vel = (1 - mu) vel + mu goal
    double time_step = 0.1;                 ///< dt in pos += dt vel (boids fly at unit speed)
    double carrot_x = 1.0;                  ///< the carrot (attractor) position
    double carrot_y = 0.0;
    double carrot_z = 0.0; ///< 3D: the carrot's z
    bool operator==(const WeightedParams&) const = default;
};

} // namespace boids

namespace boids::weighted {

/// Downey's vectors are 3D (VPython); in a 2D world z is 0 and every result is the planar one.
struct Vec3 {
    double x = 0, y = 0, z = 0;
    Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(double k) const { return {x * k, y * k, z * k}; }
    [[nodiscard]] double dot(Vec3 o) const { return x * o.x + y * o.y + z * o.z; }
    [[nodiscard]] double norm() const { return std::sqrt(x * x + y * y + z * z); }
};

/// Downey's limit_vector: a vector longer than 1 is scaled to length 1.
inline Vec3 limit(Vec3 v) {
    const double n = v.norm();
    return n > 1.0 ? v * (1.0 / n) : v;
}

/// std::remainder(x, length) for length > 0, to the bit, without the C library's call where |x| is at most
/// twice the length (every offset from a position in the world to the carrot): the offset's image nearest
/// zero. IEEE's remainder is exact, so any exact computation gives its bits: here x - n * length for n = 0,
/// +-1 or +-2 is exact (Sterbenz: x and n * length lie within a factor of 2), n taken as the nearest
/// integer to x / length with ties to even, and a zero result has the sign of x.
inline double nearest_offset(double x, double length) {
    const double half = length * 0.5;
    const double ax = std::abs(x);
    if (ax <= half) {
        return x; // n = 0 (at exactly half: a tie between 0 and +-1, and 0 is even)
    }
    if (!(ax <= 2 * length)) {
        return std::remainder(x, length); // far outside, infinite or NaN: the C library's
    }
    const double step = x > 0 ? length : -length;
    const double once = x - step; // n = +-1
    const double r =
        std::abs(once) < half ? once : (x - 2 * step); // beyond, or a tie between 1 and 2: n = +-2
    return r == 0 ? std::copysign(0.0, x) : r;
}

/// v scaled to length 1; a zero vector stays zero.
inline Vec3 unit(Vec3 v) {
    const double n = v.norm();
    return n > 0 ? v * (1.0 / n) : v;
}

/// The angle between a and b in [0, pi]; 0 if either is zero (a neighbour on top of the boid is seen).
inline double angle_between(Vec3 a, Vec3 b) {
    const double na = a.norm(), nb = b.norm();
    if (na == 0 || nb == 0) {
        return 0;
    }
    const double c = a.dot(b) / (na * nb);
    return std::acos(c > 1 ? 1 : (c < -1 ? -1 : c));
}

template <class Real>
struct Policy {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::InRange;

    struct Sums {
        Vec3 center_sum, avoid_sum, align_sum;
        int center_count = 0, avoid_count = 0, align_count = 0;
    };

    Policy(const Params& p, const classic::Constants<Real>& constants)
        : params(p), own(models::own<WeightedParams>(p)), c(constants) {}

    static Vec3 heading(const Agent<Real>& a) {
        return {static_cast<double>(a.vx), static_cast<double>(a.vy), static_cast<double>(a.vz)};
    }

    static Vec3 position(const Agent<Real>& a) {
        return {static_cast<double>(a.x), static_cast<double>(a.y), static_cast<double>(a.z)};
    }

    /// Within radius r and half-angle `angle` of the velocity (Downey's get_neighbors: skip if beyond).
    static bool in_view(Vec3 velocity, Vec3 offset, double radius, double angle) {
        return !(offset.norm() > radius) && !(angle_between(velocity, offset) > angle);
    }

    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const Vec3 offset{-static_cast<double>(n.dx), -static_cast<double>(n.dy),
                          -static_cast<double>(n.dz)};  // from the boid to it
        const Vec3 neighbour_at = position(a) + offset; // nearest image
        const Vec3 v = heading(a);
        if (in_view(v, offset, own.center_radius, own.center_angle)) {
            s.center_sum = s.center_sum + neighbour_at;
            ++s.center_count;
        }
        if (in_view(v, offset, own.avoid_radius, own.avoid_angle)) {
            s.avoid_sum = s.avoid_sum + neighbour_at;
            ++s.avoid_count;
        }
        if (in_view(v, offset, own.align_radius, own.align_angle)) {
            s.align_sum = s.align_sum + unit(Vec3{static_cast<double>(n.vx), static_cast<double>(n.vy),
                                                  static_cast<double>(n.vz)});
            ++s.align_count;
        }
    }

    void accumulate_predator(Sums&, const Agent<Real>&, const Neighbour<Real>&) const {} // not in Downey's

    void steer(const Sums& sums, Agent<Real>& a) const {
        Sums s = sums;
        const Vec3 pos = position(a);
        Vec3 to_carrot = Vec3{own.carrot_x, own.carrot_y, c.three_d ? own.carrot_z : 0.0} - pos;
        if (c.wrap) {
            to_carrot.x = nearest_offset(to_carrot.x, params.width);
            to_carrot.y = nearest_offset(to_carrot.y, params.height);
            if (c.three_d) {
                to_carrot.z = nearest_offset(to_carrot.z, params.depth);
            }
        }
        const Vec3 v = heading(a);
        if (in_view(v, to_carrot, own.avoid_radius,
                    own.avoid_angle)) { // the carrot is avoided too
            s.avoid_sum = s.avoid_sum + pos + to_carrot;
            ++s.avoid_count;
        }
        const auto toward_mean = [&](Vec3 sum, int count, Vec3 from) {
            return count > 0 ? limit(sum * (1.0 / count) - from) : Vec3{};
        };
        const Vec3 center = toward_mean(s.center_sum, s.center_count, pos);
        const Vec3 avoid = toward_mean(s.avoid_sum, s.avoid_count, pos) * -1.0;
        const Vec3 align = toward_mean(s.align_sum, s.align_count, Vec3{});
        const Vec3 love = limit(to_carrot);
        Vec3 goal = center * own.w_center + avoid * own.w_avoid + align * own.w_align + love * own.w_love;
        const double goal_norm = goal.norm();
        const double speed = v.norm();
        const Vec3 unit_velocity = speed > 0 ? v * (1.0 / speed) : Vec3{1, 0, 0};
        goal = goal_norm > 0 ? goal * (1.0 / goal_norm) : unit_velocity;
        Vec3 next = unit_velocity * (1.0 - own.maneuverability) + goal * own.maneuverability;
        const double next_norm = next.norm();
        next = next_norm > 0 ? next * (1.0 / next_norm) : unit_velocity;
        a.vx = T::from_double(next.x * own.time_step);
        a.vy = T::from_double(next.y * own.time_step);
        a.vz = T::from_double(next.z * own.time_step);
    }

    const Params& params;
    const WeightedParams& own;
    const classic::Constants<Real>& c;
};

} // namespace boids::weighted

namespace boids::models {

struct Weighted {
    static constexpr Model id = Model::Weighted;
    static constexpr std::string_view name = "weighted";
    static constexpr std::string_view title = "Weighted (Downey)";
    using Own = WeightedParams; ///< the parameters it keeps for itself
    static constexpr ModelAbilities abilities{
        .three_d = true, .fix15 = true, .sequential = true, .hunting = true, .carrot = true};

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {{"center_radius", 0, range_max, "weighted: radius of the center request", own_field<&WeightedParams::center_radius>, "center radius", allowed, allowed, SliderScale::Log}},
        {{"center_angle", 0, pi, "weighted: half-angle of the center request, radians", own_field<&WeightedParams::center_angle>, "center angle (rad)"}},
        {{"avoid_radius", 0, range_max, "weighted: radius of the avoid request (boids and carrot)", own_field<&WeightedParams::avoid_radius>, "avoid radius", allowed, allowed, SliderScale::Log}},
        {{"avoid_angle", 0, pi, "weighted: half-angle of the avoid request, radians", own_field<&WeightedParams::avoid_angle>, "avoid angle (rad)"}},
        {{"align_radius", 0, range_max, "weighted: radius of the align request", own_field<&WeightedParams::align_radius>, "align radius", allowed, allowed, SliderScale::Log}},
        {{"align_angle", 0, pi, "weighted: half-angle of the align request, radians", own_field<&WeightedParams::align_angle>, "align angle (rad)"}},
        {{"w_center", 0, 1000, "weighted: weight of the center request", own_field<&WeightedParams::w_center>, "w center", 0, 100}},
        {{"w_avoid", 0, 1000, "weighted: weight of the avoid request", own_field<&WeightedParams::w_avoid>, "w avoid", 0, 100}},
        {{"w_align", 0, 1000, "weighted: weight of the align request", own_field<&WeightedParams::w_align>, "w align", 0, 100}},
        {{"w_love", 0, 1000, "weighted: weight of the love request (toward the carrot)", own_field<&WeightedParams::w_love>, "w love", 0, 100}},
        {{"maneuverability", 0, 1, "weighted: mu, how fast a boid turns toward its goal", own_field<&WeightedParams::maneuverability>, "mu (maneuverability)"}},
        {{"time_step", 0, 1000, "weighted: dt, distance flown per step at unit speed", own_field<&WeightedParams::time_step>, "dt", 0, 10}},
        {{"carrot_x", -world_max, world_max, "weighted: carrot (attractor) x", own_field<&WeightedParams::carrot_x>, "carrot x"}},
        {{"carrot_y", -world_max, world_max, "weighted: carrot (attractor) y", own_field<&WeightedParams::carrot_y>, "carrot y"}},
        {{"carrot_z", -world_max, world_max, "weighted, 3D: carrot (attractor) z", own_field<&WeightedParams::carrot_z>, "carrot z (3D)"}},
    });
    // clang-format on

    static void validate(const Params&) {}
    /// The query range: the largest of the three neighbourhoods.
    static double grid_range(const Params& p) {
        const WeightedParams& w = own<WeightedParams>(p);
        return std::fmax(w.center_radius, std::fmax(w.avoid_radius, w.align_radius));
    }
    /// The center request's radius.
    static double link_range(const Params& p) { return own<WeightedParams>(p).center_radius; }

    template <class Real>
    static weighted::Policy<Real> policy(const Params& p, const classic::Constants<Real>& c, long long) {
        return weighted::Policy<Real>(p, c);
    }
};

} // namespace boids::models
