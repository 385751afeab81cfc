#pragma once
// The topological model of Nikolaus Stromberg's PyNBoids (docs/MODEL.md §4): its parameters, its rules as
// a neighbour-pass policy and its descriptor (internal).
//
// Each boid follows only its k nearest neighbours (exactly, through the grid). It steers its heading by a
// fixed turn rate toward the neighbours' centroid, or toward their mean heading once within
// 5 body lengths + 2 coherence of it, and reverses that turn when the nearest neighbour is closer than
// 1 body length + avoidance (away from their mean heading, as PyNBoids does), ignoring heading errors
// below 0.5 + adherence / 200 degrees. Near a margin it
// turns toward the inside, faster the closer it gets. It moves at topological_speed (pixels per second)
// plus 5 px/s per missing neighbour. PyNBoids' frame time is fixed at 1/60 s per step; its random
// +-4 degree wobble is left out so that runs stay reproducible. The maths is done in double, with the
// engine's own arc tangent, sine and cosine (angle_math.hpp) and lengths as square roots of sums of
// squares (the same bits with every C library, and in SIMD lanes), and the velocity stored in the
// engine's scalar.
// PyNBoids' own choices are parameters (docs/MODEL.md §4): search_cell (its 3 x 3 block of 100-pixel
// cells, where fewer than k may be found), wrap_style = sprite (its wrap: wrap_sprite below) and
// heading_range = positive (its angle in [0, 360), which moves the dead band).

#include "../angle_math.hpp"
#include "../classic_rules.hpp"
#include "../neighbour_pass_types.hpp"
#include "key_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

namespace boids {

/// How a topological world wraps (boundary = wrap; docs/MODEL.md §4).
enum class WrapStyle {
    Torus,  ///< positions wrap exactly and distances use the minimum image
    Sprite, ///< PyNBoids: a boid reappears on the other side once its sprite is wholly off screen; nobody
            ///< sees across the seam
};

/// The range a topological boid's heading is kept in, which decides its dead band (docs/MODEL.md §4).
enum class HeadingRange {
    Signed,   ///< (-180, 180] degrees
    Positive, ///< [0, 360) degrees, as PyNBoids keeps its angle
};

/// The topological model's own parameters (PyNBoids; keys below).
struct TopologicalParams {
    static constexpr Model model = Model::Topological;
    double k_neighbours = 7;   ///< how many nearest neighbours a boid follows (integer)
    double coherence = 0.0;    ///< widens the distance within which it aligns
    double avoidance = 0.0;    ///< widens the distance at which it turns away
    double adherence = 0.0;    ///< widens the heading error it tolerates
    double speed = 150.0;      ///< base speed in pixels per second (60 steps/s); key topological_speed
    double body_length = 17.0; ///< a boid's size in pixels
    double search_cell = 0.0;  ///< 0: the k nearest anywhere; > 0: only within the 3 x 3 block of cells
                               ///< of this size around the boid's own (PyNBoids: 100 pixels)
    WrapStyle wrap_style = WrapStyle::Torus;           ///< how boundary = wrap wraps
    HeadingRange heading_range = HeadingRange::Signed; ///< where headings are kept
    bool operator==(const TopologicalParams&) const = default;

    /// Nearer than this, a boid turns away from its nearest neighbour.
    [[nodiscard]] double too_close() const { return body_length + avoidance; }
    /// A target (centroid or nearest) nearer than this: the boid aligns with its neighbours instead.
    [[nodiscard]] double align_within() const { return body_length * 5 + coherence * 2; }
};

} // namespace boids

namespace boids::topological {

inline constexpr double frame_time = 1.0 / 60.0; ///< seconds per step (PyNBoids' FPS = 60)
inline constexpr double base_turn_rate = 120.0;  ///< degrees per second
inline constexpr double edge_turn_rate = 20.0;   ///< degrees per step at the very edge

inline double degrees(double radians) {
    return radians * 180.0 / std::numbers::pi;
}
inline double radians(double degrees) {
    return degrees * std::numbers::pi / 180.0;
}

/// PyNBoids draws a boid as a 15 x 15 sprite, rotated to its heading.
inline constexpr double sprite_side = 15.0;

/// PyNBoids' wrap: a boid whose sprite, at its position before the move and rotated to its new heading
/// (vx, vy), lies wholly off one side of the screen is put on the opposite edge; otherwise (x, y), the
/// moved position, stands. A boid near a side is therefore seen only from its own side of the seam.
template <class Real>
void wrap_sprite(Real old_x, Real old_y, Real vx, Real vy, Real& x, Real& y, double width, double height) {
    using T = ScalarTraits<Real>;
    const double dx = static_cast<double>(vx), dy = static_cast<double>(vy);
    const double speed = angle::length(dx, dy);
    // Half the side of the rotated sprite's bounding box.
    const double half = speed > 0 ? sprite_side / 2 * (std::abs(dx) + std::abs(dy)) / speed : sprite_side / 2;
    const double ox = static_cast<double>(old_x), oy = static_cast<double>(old_y);
    if (oy + half < 0) {
        y = T::from_double(height);
    } else if (oy - half > height) {
        y = Real(0);
    }
    if (ox + half < 0) {
        x = T::from_double(width);
    } else if (ox - half > width) {
        x = Real(0);
    }
}

/// The signed turn (-180, 180] that takes heading `from` to `to`, as PyNBoids computes it.
inline double turn_toward(double to, double from) {
    const double diff = (to - from) + 180.0;
    return (diff / 360.0 - std::floor(diff / 360.0)) * 360.0 - 180.0;
}

template <class Real>
struct Policy {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::KNearest;

    struct Sums {
        double x_sum = 0, y_sum = 0, cos_sum = 0, sin_sum = 0;
        double nearest_dx = 0, nearest_dy = 0; ///< agent minus nearest neighbour
        int count = 0;
    };

    Policy(const Params& p, const classic::Constants<Real>& constants)
        : params(p), own(models::own<TopologicalParams>(p)), c(constants) {}

    int k() const { return static_cast<int>(own.k_neighbours); }
    /// 0, or the side of the cells whose 3 x 3 block around the boid's own holds its candidates.
    double block_cell() const { return own.search_cell; }

    // Neighbours arrive nearest first.
    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const double dx = static_cast<double>(n.dx), dy = static_cast<double>(n.dy);
        if (s.count == 0) {
            s.nearest_dx = dx;
            s.nearest_dy = dy;
        }
        s.x_sum += static_cast<double>(a.x) - dx; // the neighbour's nearest image
        s.y_sum += static_cast<double>(a.y) - dy;
        const double vx = static_cast<double>(n.vx), vy = static_cast<double>(n.vy);
        const double speed = angle::length(vx, vy);
        if (speed > 0) {
            s.cos_sum += vx / speed;
            s.sin_sum += vy / speed;
        }
        ++s.count;
    }

    void accumulate_predator(Sums&, const Agent<Real>&, const Neighbour<Real>&) const {} // not in PyNBoids

    /// What a step takes the angles of, each as (y, x): the agent's velocity, and what it aims at, its
    /// neighbours' summed headings where its target (the centroid, or away from the nearest neighbour) lies
    /// within align_within and the target elsewhere (new_heading reads only that one of the two); with the
    /// target's distance and whether it flees. Without two neighbours only the velocity counts (the rest
    /// is 0).
    struct Bearings {
        double vy = 0, vx = 0, aim_y = 0, aim_x = 0;
        double target_distance = 0;
        bool flee_nearest = false;
    };

    Bearings bearings(const Sums& s, const Agent<Real>& a) const {
        Bearings b;
        b.vy = static_cast<double>(a.vy);
        b.vx = static_cast<double>(a.vx);
        if (s.count > 1) {
            b.flee_nearest = angle::length(s.nearest_dx, s.nearest_dy) < own.too_close();
            // Toward the centroid, or toward (then, in new_heading, away from) the nearest neighbour.
            const double tx = b.flee_nearest ? -s.nearest_dx : s.x_sum / s.count - static_cast<double>(a.x);
            const double ty = b.flee_nearest ? -s.nearest_dy : s.y_sum / s.count - static_cast<double>(a.y);
            b.target_distance = angle::length(tx, ty);
            // A target this near: align with the neighbours' mean heading instead.
            const bool aligning = b.target_distance < own.align_within();
            b.aim_y = aligning ? s.sin_sum : ty;
            b.aim_x = aligning ? s.cos_sum : tx;
        }
        return b;
    }

    /// The new heading in degrees, given the bearings' arc tangents (radians): atan2(vy, vx) and
    /// atan2(aim_y, aim_x).
    double new_heading(const Sums& s, const Agent<Real>& a, const Bearings& b, double own_angle,
                       double aim_angle) const {
        const double x = static_cast<double>(a.x), y = static_cast<double>(a.y);
        double heading = degrees(own_angle);
        if (own.heading_range == HeadingRange::Positive) {
            heading = heading < 0 ? heading + 360.0 : heading;
            heading = heading >= 360.0 ? heading - 360.0 : heading;
        }
        double turn_rate = base_turn_rate * frame_time;
        double turn = 0.0;
        double target_angle = heading;
        if (s.count > 1) {
            target_angle = degrees(aim_angle); // the neighbours' mean heading, or the target's (bearings)
            if (std::abs(target_angle - heading) > 0.5 + own.adherence * 5 / 1000) {
                turn = turn_toward(target_angle, heading);
            }
            if (b.target_distance < own.too_close() && b.flee_nearest) {
                turn = -turn;
            }
        }
        if (!c.wrap && !c.sprite_wrap) {
            // Within a margin: head for the inside, turning harder the deeper in.
            const double w = params.width, h = params.height;
            const double depth = std::min({x / params.margin_left, y / params.margin_top,
                                           (w - x) / params.margin_right, (h - y) / params.margin_bottom});
            if (depth < 1.0) {
                if (x < params.margin_left) {
                    target_angle = 0;
                } else if (x > w - params.margin_right) {
                    target_angle = 180;
                }
                if (y < params.margin_top) {
                    target_angle = 90;
                } else if (y > h - params.margin_bottom) {
                    target_angle = 270;
                }
                turn = turn_toward(target_angle, heading);
                turn_rate += (1.0 - std::max(depth, 0.0)) * (edge_turn_rate - turn_rate);
            }
        }
        if (turn != 0) {
            heading += turn > 0 ? turn_rate : -turn_rate;
            heading = heading - 360.0 * std::floor(heading / 360.0);
        }
        return heading;
    }

    /// Flies along the heading whose sine and cosine (of its radians) are `along`, at the speed for the
    /// neighbours found.
    void fly(const Sums& s, Agent<Real>& a, angle::SinCos along) const {
        const double speed = (own.speed + (k() - s.count) * 5.0) * frame_time;
        a.vx = T::from_double(along.cos * speed);
        a.vy = T::from_double(along.sin * speed);
    }

    void steer(const Sums& s, Agent<Real>& a) const {
        const Bearings b = bearings(s, a);
        const double heading = new_heading(s, a, b, angle::atan2(b.vy, b.vx), angle::atan2(b.aim_y, b.aim_x));
        fly(s, a, angle::sin_cos(radians(heading)));
    }

    const Params& params;
    const TopologicalParams& own;
    const classic::Constants<Real>& c;
};

} // namespace boids::topological

namespace boids::models {

struct Topological {
    static constexpr Model id = Model::Topological;
    static constexpr std::string_view name = "topological";
    static constexpr std::string_view title = "Topological (PyNBoids)";
    using Own = TopologicalParams; ///< the parameters it keeps for itself
    static constexpr ModelAbilities abilities{
        .fix15 = true, .sequential = true, .hunting = true, .turns_at_margins = true};

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {{"k_neighbours", 1, 64, "topological: number of nearest neighbours followed (integer)", own_field<&TopologicalParams::k_neighbours>, "k nearest", 1, 64, SliderScale::Linear, true}},
        {{"coherence", 0, 100, "topological: aligns with the neighbours within 5 body lengths + 2 coherence", own_field<&TopologicalParams::coherence>, "coherence"}},
        {{"avoidance", 0, 100, "topological: too close when the nearest is within 1 body length + avoidance: it then turns away from the mean heading", own_field<&TopologicalParams::avoidance>, "avoidance"}},
        {{"adherence", 0, 100, "topological: tolerates 0.5 + adherence / 200 degrees of heading error", own_field<&TopologicalParams::adherence>, "adherence"}},
        {{"topological_speed", 0, 10000, "topological: base speed in pixels per second (60 steps per second)", own_field<&TopologicalParams::speed>, "speed (px/s)", 0, 1000}},
        {{"body_length", 0, 1000, "topological: boid size in pixels", own_field<&TopologicalParams::body_length>, "body length", 0, 100}},
        {{"search_cell", 0, world_max, "topological: 0 = the k nearest anywhere; > 0 = only in the 3 x 3 block of cells of this size around the boid's (PyNBoids: 100)", own_field<&TopologicalParams::search_cell>, "search cell", 0, 400}},
    });
    // clang-format on

    // clang-format off
    static constexpr std::array<std::string_view, 2> wrap_style_names{"torus", "sprite"};
    static constexpr std::array<std::string_view, 2> heading_range_names{"signed", "positive"};
    static constexpr auto choices = std::to_array<ChoiceKey>({
        {{"wrap_style", "choice", 0, 1, "topological, boundary = wrap: torus (exact) | sprite (PyNBoids: reappear once the sprite is off screen, no seeing across the seam)", "wrap style"}, wrap_style_names,
         [](const Params& p) { return static_cast<int>(own<TopologicalParams>(p).wrap_style); },
         [](Params& p, int v) { own<TopologicalParams>(p).wrap_style = static_cast<WrapStyle>(v); }},
        {{"heading_range", "choice", 0, 1, "topological: headings kept in signed (-180, 180] | positive [0, 360) degrees (PyNBoids; moves its dead band)", "heading range"}, heading_range_names,
         [](const Params& p) { return static_cast<int>(own<TopologicalParams>(p).heading_range); },
         [](Params& p, int v) { own<TopologicalParams>(p).heading_range = static_cast<HeadingRange>(v); }},
    });
    // clang-format on

    static void validate(const Params&) {}
    /// The k-nearest search works with any cell size: 0 lets the grid choose fine cells.
    static double grid_range(const Params&) { return 0.0; }
    /// The distance within which a boid aligns with its neighbours.
    static double link_range(const Params& p) { return own<TopologicalParams>(p).align_within(); }

    /// PyNBoids' wrap (wrap_style = sprite) replaces the torus.
    static bool sprite_wrap(const Params& p) {
        return p.boundary == Boundary::Wrap && p.model == id &&
               own<TopologicalParams>(p).wrap_style == WrapStyle::Sprite;
    }

    template <class Real>
    static topological::Policy<Real> policy(const Params& p, const classic::Constants<Real>& c, long long) {
        return topological::Policy<Real>(p, c);
    }
};

} // namespace boids::models
