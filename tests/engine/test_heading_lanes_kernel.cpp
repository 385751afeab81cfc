// Couzin's steering in SIMD lanes (couzin_direction and couzin_turned in src/heading_lanes_kernel.cpp)
// against couzin::Policy's direction and turned on the plain path, on every SIMD target: repelled and
// attracted agents, informed ones of both kinds, pulls that balance to zero (the agent keeps its heading),
// and an informed agent whose preference cancels its direction. And a neighbour at the attraction zone's
// edge, where the lanes' first pass, in float, must keep what the sums in double reach. And the slots'
// unit headings in lanes (unit_headings) against unit_heading.

#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include "../support/every_simd_target.hpp"
#include "heading_lanes_kernel.hpp"
#include "slot_order_pass.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace boids {
namespace {

using boids::testing::expect_every_target_plain;

/// The couzin preset in a 60 x 60 torus, its informed agents weighing their preference 1 (so that a
/// preference can cancel a direction).
Params steering_params() {
    Params p = load_preset("couzin").params;
    p.boundary = Boundary::Wrap;
    p.update = UpdateOrder::Synchronous;
    p.width = p.height = 60;
    set_param(p, "margin", "0");
    set_param(p, "informed_weight", "1");
    return p;
}

/// A flock of boids and informed agents of both kinds, with agents placed for the rarer branches:
/// one heading +x whose only neighbour, at rest, lies behind it in the attraction zone (attraction -1 and
/// orientation +1 balance to zero), an informed agent (preferring -x) alone, heading +x (its direction
/// plus its preference is zero), and two boids in the crowd heading along an axis with a -0 component.
template <class Real>
World<Real> steering_world(const Params& p, std::uint64_t seed) {
    World<Real> w = spawn_world<Real>(p, AgentCounts{250, 25, 25, 0}, seed);
    for (std::size_t i = 0; i < w.size(); ++i) { // clear the placed agents' neighbourhoods, across the seams
        const bool near_corner =
            (w.x[i] < Real(25) || w.x[i] > Real(50)) && (w.y[i] < Real(25) || w.y[i] > Real(50));
        if (near_corner) {
            w.x[i] = Real(30) + w.x[i] / Real(10);
            w.y[i] = Real(30) + w.y[i] / Real(10);
        }
    }
    w.add(Kind::Boid, Real(5), Real(5), Real(1), Real(0), Real(0));
    w.add(Kind::Boid, Real(2), Real(5), Real(0), Real(0), Real(0)); // at rest, 3 behind: attraction
    w.add(Kind::Scout2, Real(15), Real(15), Real(1), Real(0), Real(0));
    // Headings with a -0 component, among neighbours: the lanes' sums of headings may turn it +0.
    w.add(Kind::Boid, Real(31), Real(32), Real(-0.0), Real(1), Real(0));
    w.add(Kind::Boid, Real(32), Real(31), Real(-1), Real(-0.0), Real(0));
    return w;
}

TEST(CouzinLanes, SteerAsThePlainPath) {
    const Params p = steering_params();
    expect_every_target_plain(p, steering_world<float>(p, 7), 10, "f32");
    expect_every_target_plain(p, steering_world<double>(p, 8), 10, "f64");
}

/// A neighbour's offset (dx, dy) from an agent at (19.6, 19.6) in float, and an attraction radius whose
/// square the offset's squared length, as the plain path takes it (in double, from the coordinates widened),
/// lies just below, while the same squared length in float arithmetic rounds above the square's nearest
/// float.
struct AttractionEdge {
    float dx, dy;
    double radius;
};

AttractionEdge attraction_edge() {
    const float ax = 19.6f, ay = 19.6f;
    for (int i = 0; i < 1000000; ++i) {
        const float bx = ax + 0.6f + static_cast<float>(i) * 1e-6f, by = ay + 0.8f;
        const double ox = static_cast<double>(bx) - static_cast<double>(ax);
        const double oy = static_cast<double>(by) - static_cast<double>(ay);
        const double d2 = ox * ox + oy * oy;
        const float fx = bx - ax, fy = by - ay;
        const float f2 = fx * fx + fy * fy;
        // The smallest radius whose square lies above d2; the float nearest that square must lie below f2.
        double radius = std::sqrt(d2);
        while (!(radius * radius > d2)) {
            radius = std::nextafter(radius, std::numeric_limits<double>::infinity());
        }
        if (static_cast<float>(radius * radius) < f2) {
            return {fx, fy, radius};
        }
    }
    ADD_FAILURE() << "no offset whose float square rounds past the edge";
    return {0.6f, 0.8f, 1.0};
}

/// Two agents, the second at `edge`'s offset from the first, with the attraction zone's radius `radius`:
/// on either side of a line of cells (42 agents make a grid of 9 x 9 cells, 60 / 9 wide), so that neither
/// is a candidate of the other's group for being in its lanes. Forty more agents far from both follow them
/// in slot order: the first pass reads its candidates a whole vector at a time only where the slots fill
/// one.
template <class Real>
std::uint64_t attraction_edge_hash(double bx, double by, double radius, const std::string& what) {
    Params p = steering_params();
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", radius);
    set_param(p, "attraction_radius", text);
    set_param(p, "repulsion_radius", "0.1");
    World<Real> w;
    w.add(Kind::Boid, Real(19.6f), Real(19.6f), Real(1), Real(0), Real(0));
    w.add(Kind::Boid, Real(bx), Real(by), Real(0), Real(1), Real(0));
    for (int k = 0; k < 40; ++k) {
        w.add(Kind::Boid, Real(40 + 1.5 * (k % 8)), Real(40 + 1.5 * (k / 8)), Real(1), Real(0), Real(0));
    }
    return expect_every_target_plain(p, w, 1, what);
}

/// In double storage, a neighbour at (bx, by) beside an agent at (19.6f, 19.6f), and an attraction radius
/// whose square is the double just above the offset's squared length as the plain path takes it (two
/// products and their sum, each rounded), where the same length with the first product fused into the sum
/// rounds up to that square: a first pass that fused it would leave the neighbour out.
struct FusedEdge {
    double bx, by, radius;
};

FusedEdge fused_edge() {
    const double ax = 19.6f, ay = 19.6f;
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> offset(0.5, 0.9);
    for (int i = 0; i < 1000000; ++i) {
        const double bx = ax + offset(random), by = ay + offset(random);
        const double ox = bx - ax, oy = by - ay, oy2 = oy * oy;
        const double d2 = ox * ox + oy2, fused = std::fma(ox, ox, oy2);
        if (!(fused > d2) || std::nextafter(d2, fused) != fused) {
            continue;
        }
        double radius = std::nextafter(std::sqrt(fused), 0.0);
        for (int step = 0; step < 3 && radius * radius < fused; ++step) {
            radius = std::nextafter(radius, std::numeric_limits<double>::infinity());
        }
        if (radius * radius == fused) {
            return {bx, by, radius};
        }
    }
    ADD_FAILURE() << "no offset whose fused squared length rounds to a radius's square";
    return {20.2, 20.4, 1.0};
}

TEST(CouzinLanes, TakeANeighbourAtTheAttractionEdgeAsThePlainPath) {
    const AttractionEdge edge = attraction_edge();
    const double bx = 19.6f + edge.dx, by = 19.6f + edge.dy; // in float
    const std::uint64_t reached =
        attraction_edge_hash<float>(bx, by, edge.radius, "f32, just within the zone");
    const std::uint64_t beyond = attraction_edge_hash<float>(
        bx, by, std::nextafter(edge.radius, 0.0), "f32, the radius a hair shorter: just beyond the zone");
    EXPECT_NE(reached, beyond) << "the zone's edge decides what the agents see";
    attraction_edge_hash<double>(bx, by, edge.radius, "f64, just within the zone");
    const FusedEdge fused = fused_edge();
    const std::uint64_t seen =
        attraction_edge_hash<double>(fused.bx, fused.by, fused.radius, "f64, just within the zone, fused");
    const std::uint64_t unseen = attraction_edge_hash<double>(
        fused.bx, fused.by, std::nextafter(fused.radius, 0.0), "f64, the radius a hair shorter, fused");
    EXPECT_NE(seen, unseen) << "the zone's edge decides what the agents see";
}

/// Velocities for unit_headings: at rest (both zeros), one axis alone, the smallest and largest values of
/// the storage type, the infinities and NaN, then random ones over many magnitudes.
template <class Real>
void heading_probes(std::vector<Real>& vx, std::vector<Real>& vy) {
    constexpr Real inf = std::numeric_limits<Real>::infinity();
    const Real specials[] = {Real(0),
                             Real(-0.0),
                             Real(1),
                             Real(-3.5),
                             std::numeric_limits<Real>::denorm_min(),
                             std::numeric_limits<Real>::min(),
                             std::numeric_limits<Real>::max(),
                             -std::numeric_limits<Real>::max(),
                             inf,
                             -inf,
                             std::numeric_limits<Real>::quiet_NaN()};
    for (const Real x : specials) {
        for (const Real y : specials) {
            vx.push_back(x);
            vy.push_back(y);
        }
    }
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    while (vx.size() < 401) { // an odd count: a partial last vector on every target
        vx.push_back(static_cast<Real>(std::ldexp(mantissa(rng), exponent(rng))));
        vy.push_back(static_cast<Real>(std::ldexp(mantissa(rng), exponent(rng))));
    }
}

template <class Real>
void expect_unit_headings_of_the_plain_path() {
    std::vector<Real> vx, vy;
    heading_probes(vx, vy);
    const auto n = static_cast<std::uint32_t>(vx.size());
    std::vector<double> ex(n), ey(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        unit_heading(static_cast<double>(vx[i]), static_cast<double>(vy[i]), ex[i], ey[i]);
    }
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (const std::uint32_t count : {0u, 1u, 3u, 5u, 9u, 17u, n}) {
            std::vector<double> ux(count + 1, 7.0), uy(count + 1, 7.0);
            fast::unit_headings(vx.data(), vy.data(), count, ux.data(), uy.data());
            for (std::uint32_t i = 0; i < count; ++i) {
                ASSERT_EQ(std::memcmp(&ux[i], &ex[i], sizeof(double)), 0)
                    << hwy::TargetName(target) << ": (" << vx[i] << ", " << vy[i] << ") x " << ux[i]
                    << " against " << ex[i];
                ASSERT_EQ(std::memcmp(&uy[i], &ey[i], sizeof(double)), 0)
                    << hwy::TargetName(target) << ": (" << vx[i] << ", " << vy[i] << ") y " << uy[i]
                    << " against " << ey[i];
            }
            ASSERT_EQ(ux[count], 7.0) << "written past the count, " << hwy::TargetName(target);
            ASSERT_EQ(uy[count], 7.0) << "written past the count, " << hwy::TargetName(target);
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(HeadingLanes, UnitHeadingsAsThePlainPathOnEverySimdTarget) {
    expect_unit_headings_of_the_plain_path<float>();
    expect_unit_headings_of_the_plain_path<double>();
}

} // namespace
} // namespace boids
