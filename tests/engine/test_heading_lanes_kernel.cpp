// Couzin's steering in SIMD lanes (couzin_direction and couzin_turned in src/heading_lanes_kernel.cpp)
// against couzin::Policy's direction and turned on the plain path, on every SIMD target: repelled and
// attracted agents, informed ones of both kinds, pulls that balance to zero (the agent keeps its heading),
// and an informed agent whose preference cancels its direction.

#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include "../support/every_simd_target.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <string>

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
/// orientation +1 balance to zero), and an informed agent (preferring -x) alone, heading +x (its
/// direction plus its preference is zero).
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
    return w;
}

TEST(CouzinLanes, SteerAsThePlainPath) {
    const Params p = steering_params();
    expect_every_target_plain(p, steering_world<float>(p, 7), 10, "f32");
    expect_every_target_plain(p, steering_world<double>(p, 8), 10, "f64");
}

} // namespace
} // namespace boids
