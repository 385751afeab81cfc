// The weighted model's sums in SIMD lanes (src/weighted_lanes_kernel.cpp) where a cosine lies on a
// neighbourhood's limit: the lanes cannot tell the side by comparing cosines, and decide with the angle's
// scalar acos as the plain path does. (Every other case is test_slot_order_pass.cpp's.)

#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace boids {
namespace {

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

/// The weighted preset in a 10 x 10 world whose center and align half-angles are `angle`.
Params limit_params(Boundary boundary, double angle) {
    Params p = load_preset("downey-2d").params;
    p.boundary = boundary;
    p.update = UpdateOrder::Synchronous;
    p.width = p.height = 10;
    set_param(p, "margin", boundary == Boundary::Wrap ? "0" : "1");
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

} // namespace
} // namespace boids
