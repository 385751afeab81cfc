// The weighted model's sums in SIMD lanes (src/weighted_lanes_kernel.cpp) where their shortcuts meet the
// plain path's arithmetic: a cosine on a neighbourhood's limit (the lanes cannot tell the side by comparing
// cosines, and decide with the angle's scalar acos as the plain path does), the limits compared as signed
// squares for every half-angle, a neighbour at a radius's edge, and offsets and speeds beyond the range
// where the squares decide. (The models' common cases are test_slot_order_pass.cpp's.)

#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"
#include "weighted_lanes_kernel.hpp"

#include "../support/every_simd_target.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace boids {
namespace {

using boids::testing::expect_every_target_plain;

/// An agent at (x, y) moving at (vx, vy).
struct Placed {
    double x, y, vx, vy;
};

/// A cell's agents, the first of which sees the second exactly at the half-angle; the others fill the
/// lanes with neighbours clearly inside or outside every neighbourhood.
constexpr Placed agents[] = {
    {5.5, 5.5, 0.1, 0.0},    {5.5 + 0.45 * 0.6216099682706644, 5.5 + 0.45 * 0.7833269096274834, 0.1, 0.0},
    {5.7, 5.3, 0.0, 0.1},    {5.4, 5.6, -0.1, 0.0},
    {5.55, 5.8, 0.07, 0.07}, {5.2, 5.45, 0.05, -0.08},
    {5.9, 5.9, -0.06, 0.08},
};

/// The cosine the weighted model takes between the first agent's velocity and its offset to the second, in
/// the storage type's arithmetic (Geometry::neighbour's offset, then Vec3's dot and norm).
template <class Real>
double limit_cosine() {
    const auto r = [](double v) { return static_cast<double>(static_cast<Real>(v)); };
    const Placed a = agents[0], b = agents[1];
    const double ox = -static_cast<double>(static_cast<Real>(a.x) - static_cast<Real>(b.x));
    const double oy = -static_cast<double>(static_cast<Real>(a.y) - static_cast<Real>(b.y));
    const double vx = r(a.vx), vy = r(a.vy);
    return (vx * ox + vy * oy) / (std::sqrt(vx * vx + vy * vy) * std::sqrt(ox * ox + oy * oy));
}

std::string exact(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

template <class Real>
World<Real> limit_world() {
    World<Real> w;
    for (const Placed& a : agents) {
        w.add(Kind::Boid, Real(a.x), Real(a.y), Real(a.vx), Real(a.vy), Real(0));
    }
    return w;
}

/// The weighted preset in a square world of `side` with `boundary` (margins of 1, none on a torus),
/// updated synchronously (Downey's presets update in place, which no fast pass runs).
Params downey_params(Boundary boundary, double side) {
    Params p = load_preset("downey-2d").params;
    p.boundary = boundary;
    p.update = UpdateOrder::Synchronous;
    p.width = p.height = side;
    set_param(p, "margin", boundary == Boundary::Wrap ? "0" : "1");
    return p;
}

/// The weighted preset in a 10 x 10 world whose center and align half-angles are `angle`.
Params limit_params(Boundary boundary, double angle) {
    Params p = downey_params(boundary, 10);
    set_param(p, "center_angle", exact(angle));
    set_param(p, "align_angle", exact(angle));
    return p;
}

/// The state after `steps` steps, on the fast path (every SIMD target of this CPU) or the plain one.
template <class Real>
std::uint64_t hash_after(const Params& p, int steps, bool fast) {
    Simulation<Real> sim(p, limit_world<Real>());
    sim.set_fast_path(fast);
    sim.set_threads(1);
    sim.step(steps);
    EXPECT_EQ(sim.last_step_fast(), fast);
    return state_hash(sim.world());
}

template <class Real>
void expect_limit_decided_exactly(Boundary boundary) {
    const double c = limit_cosine<Real>();
    const double on = std::acos(c);               // the second agent exactly on the limit: seen
    const double below = std::nextafter(on, 0.0); // the limit a hair inside it: not seen
    ASSERT_LT(std::abs(c - std::cos(on)), 1e-9);  // the cosines alone cannot tell
    ASSERT_LT(std::abs(c - std::cos(below)), 1e-9);
    const std::string what = std::string(sizeof(Real) == 4 ? "f32" : "f64") +
                             (boundary == Boundary::Wrap ? ", torus" : ", margins");
    const std::uint64_t plain_on = hash_after<Real>(limit_params(boundary, on), 1, false);
    const std::uint64_t plain_below = hash_after<Real>(limit_params(boundary, below), 1, false);
    ASSERT_NE(plain_on, plain_below) << what << ": the limit decides what the first agent sees";
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string where = what + ", SIMD target " + hwy::TargetName(target);
        EXPECT_EQ(hash_after<Real>(limit_params(boundary, on), 1, true), plain_on) << where << ", on";
        EXPECT_EQ(hash_after<Real>(limit_params(boundary, below), 1, true), plain_below)
            << where << ", below";
        EXPECT_EQ(hash_after<Real>(limit_params(boundary, on), 5, true),
                  hash_after<Real>(limit_params(boundary, on), 5, false))
            << where << ", 5 steps";
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(WeightedLanes, DecideACosineOnTheLimitWithTheAnglesAcos) {
    for (const Boundary boundary : {Boundary::Wrap, Boundary::Margin}) {
        expect_limit_decided_exactly<float>(boundary);
        expect_limit_decided_exactly<double>(boundary);
    }
}

/// `w` with agents that do not turn: one at rest among the flock, and two on the spots of others.
template <class Real>
World<Real> with_still_agents(World<Real> w) {
    for (std::size_t i = 0; i < 3; ++i) {
        const bool rest = i == 0;
        w.add(Kind::Boid, w.x[i * 7] + Real(rest ? 0.1 : 0), w.y[i * 7], rest ? Real(0) : w.vx[0],
              rest ? Real(0) : w.vy[0], Real(0));
    }
    return w;
}

TEST(WeightedLanes, CompareTheLimitsAsSignedSquaresForEveryHalfAngle) {
    // Limits of either sign, 0 and pi among them (whose cosines lie past +-1 with their margins), each
    // neighbourhood taking each in turn, then in Downey's shape (align sharing the center's half-angle,
    // avoid seeing all around, which the lanes compile apart); agents at rest and on the same spot as others
    // see all around.
    const double angles[] = {0.0, 0.3, 1.0, 1.5707963267948966, 2.0, 2.8, 3.141592653589793};
    constexpr int count = sizeof angles / sizeof angles[0];
    for (int i = 0; i < 2 * count; ++i) {
        const bool downey = i >= count;
        const double center = angles[i % count];
        const double avoid = downey ? angles[count - 1] : angles[(i + 2) % count];
        const double align = downey ? center : angles[(i + 4) % count];
        // Radius 1: about 20 agents in the center request's neighbourhood.
        Params p = downey_params(Boundary::Wrap, std::sqrt(400 * 3.14159 / w20_mean_neighbours));
        set_param(p, "center_angle", exact(center));
        set_param(p, "avoid_angle", exact(avoid));
        set_param(p, "align_angle", exact(align));
        set_param(p, "avoid_radius", "0.6");
        const std::string what = "angles " + exact(center) + ", " + exact(avoid) + ", " + exact(align);
        expect_every_target_plain(p,
                                  with_still_agents(spawn_world<float>(p, AgentCounts{400, 0, 0, 0}, 13 + i)),
                                  8, what + ", f32");
        expect_every_target_plain(
            p, with_still_agents(spawn_world<double>(p, AgentCounts{400, 0, 0, 0}, 13 + i)), 8,
            what + ", f64");
    }
}

/// Two agents: the first moving along x, the second at (dx, dy) from it, with every half-angle pi (only the
/// radii decide) and the center's radius `radius`.
template <class Real>
std::uint64_t radius_edge_hash(double dx, double dy, double radius, const std::string& what) {
    Params p = downey_params(Boundary::Margin, 10);
    for (const char* angle : {"center_angle", "avoid_angle", "align_angle"}) {
        set_param(p, angle, exact(3.141592653589793));
    }
    set_param(p, "avoid_radius", "0.01");
    set_param(p, "align_radius", "0.01");
    set_param(p, "center_radius", exact(radius));
    World<Real> w;
    w.add(Kind::Boid, Real(5), Real(5), Real(0.1), Real(0), Real(0));
    w.add(Kind::Boid, Real(5 + dx), Real(5 + dy), Real(0), Real(0.1), Real(0));
    return expect_every_target_plain(p, w, 1, what);
}

template <class Real>
void expect_radius_edge_exact() {
    // The plain path's length of the offset: Geometry::neighbour's difference in the storage type, widened.
    const double dx = 0.3, dy = 0.7;
    const double ox = static_cast<double>(Real(5) - Real(5 + dx)),
                 oy = static_cast<double>(Real(5) - Real(5 + dy));
    const double length = std::sqrt(ox * ox + oy * oy);
    const std::string type = sizeof(Real) == 4 ? "f32" : "f64";
    const std::uint64_t on = radius_edge_hash<Real>(dx, dy, length, type + ", the radius the length");
    const std::uint64_t inside =
        radius_edge_hash<Real>(dx, dy, std::nextafter(length, 0.0), type + ", the radius a hair shorter");
    EXPECT_NE(on, inside) << type << ": the radius decides what the first agent sees";
}

/// Two agents, the second straight behind the first (a cosine of exactly -1, whose acos is pi), with the
/// avoid neighbourhood's half-angle `angle` and the others too narrow to see it.
template <class Real>
std::uint64_t behind_hash(double angle, const std::string& what) {
    Params p = downey_params(Boundary::Margin, 10);
    set_param(p, "center_angle", "0.5");
    set_param(p, "align_angle", "0.5");
    set_param(p, "avoid_angle", exact(angle));
    World<Real> w;
    w.add(Kind::Boid, Real(5), Real(5), Real(0.1), Real(0), Real(0));
    w.add(Kind::Boid, Real(4.875), Real(5), Real(0), Real(0.1), Real(0));
    return expect_every_target_plain(p, w, 1, what);
}

template <class Real>
void expect_all_around_exact() {
    const std::string type = sizeof(Real) == 4 ? "f32" : "f64";
    const double pi = std::acos(-1.0);
    const std::uint64_t seen = behind_hash<Real>(pi, type + ", half-angle pi");
    EXPECT_NE(behind_hash<Real>(std::nextafter(pi, 0.0), type + ", half-angle a hair short of pi"), seen)
        << type << ": the half-angle decides whether the first agent sees the one behind";
}

TEST(WeightedLanes, SeeAllAroundFromAHalfAngleOfPi) {
    expect_all_around_exact<float>();
    expect_all_around_exact<double>();
}

TEST(WeightedLanes, DecideANeighbourAtTheRadiusAsThePlainPath) {
    expect_radius_edge_exact<float>();
    expect_radius_edge_exact<double>();
}

TEST(WeightedLanes, SquaredReachIsTheEdgeOfTheRadius) {
    for (const double radius : {0.0, 1e-300, 0.3, 0.5, 1.0, 2.0 / 3.0, 7.1, 1e10, 3.7e150}) {
        const double reach2 = weighted::Neighbourhood::squared_reach(radius);
        EXPECT_FALSE(std::sqrt(reach2) > radius) << radius;
        EXPECT_TRUE(std::sqrt(std::nextafter(reach2, std::numeric_limits<double>::infinity())) > radius)
            << radius;
    }
}

TEST(WeightedLanes, TakeThePlainArithmeticBeyondTheSquaresRange) {
    // Offsets whose squares are subnormal, and speeds whose squares are not normal numbers or overflow:
    // the lanes take the square root and the division there. Near the origin, where such offsets exist.
    const Params p = downey_params(Boundary::Margin, 10);
    World<double> w;
    const double tiny = 1e-160;
    w.add(Kind::Boid, 0.0, 0.0, 0.1, 0.0, 0.0);
    w.add(Kind::Boid, tiny, 0.3 * tiny, 0.0, 0.1, 0.0);
    w.add(Kind::Boid, -0.4 * tiny, tiny, 1e-60, 1e-60, 0.0);
    w.add(Kind::Boid, 0.2, 0.1, 1e160, -1e160, 0.0);
    w.add(Kind::Boid, 0.1, 0.3, 1e-200, 0.0, 0.0);
    w.add(Kind::Boid, -0.2, 0.2, 0.0, 0.0, 0.0);
    expect_every_target_plain(p, w, 1, "tiny offsets, extreme speeds, f64");
    World<float> f;
    f.add(Kind::Boid, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f);
    f.add(Kind::Boid, 1e-44f, 3e-45f, 0.0f, 0.1f, 0.0f);
    f.add(Kind::Boid, 0.2f, 0.1f, 1e30f, -1e30f, 0.0f);
    f.add(Kind::Boid, 0.1f, 0.3f, 1e-40f, 0.0f, 0.0f);
    expect_every_target_plain(p, f, 1, "tiny offsets, extreme speeds, f32");
}

TEST(WeightedLanes, SteerAsThePlainPathWhereverTheCarrotIs) {
    // The steering in lanes (weighted_steer) against Policy::steer: the carrot among the flock (within the
    // avoid radius of many agents, ahead of some and behind others, so the angle decides), at half the
    // torus's side from an agent (a tie of nearest_offset), and far outside the torus (the C library's
    // remainder); agents at rest and on one spot among them.
    Params p = downey_params(Boundary::Wrap, 10);
    set_param(p, "avoid_radius", "2");
    set_param(p, "avoid_angle", "1.3");
    World<float> w = spawn_world<float>(p, AgentCounts{300, 0, 0, 0}, 21);
    w.add(Kind::Boid, 2.0f, 3.0f, 0.0f, 0.0f, 0.0f); // at rest
    w.add(Kind::Boid, 2.0f, 3.0f, 0.1f, 0.0f, 0.0f); // on the same spot
    const struct {
        const char* x;
        const char* y;
        const char* what;
    } carrots[] = {{"5", "5", "carrot among the flock"},
                   {"7", "8", "carrot half the side from an agent"},
                   {"-25", "37", "carrot far outside the torus"}};
    for (const auto& carrot : carrots) {
        set_param(p, "carrot_x", carrot.x);
        set_param(p, "carrot_y", carrot.y);
        expect_every_target_plain(p, w, 6, std::string(carrot.what) + ", f32");
        World<double> d = spawn_world<double>(p, AgentCounts{300, 0, 0, 0}, 22);
        d.add(Kind::Boid, 2.0, 3.0, 0.0, 0.0, 0.0);
        expect_every_target_plain(p, d, 6, std::string(carrot.what) + ", f64");
    }
}

} // namespace
} // namespace boids
