// Couzin et al. 2005: the zones and the turning limit by hand, and the paper's headline on small runs:
// accuracy rises with the proportion of informed agents, and a larger group needs a smaller proportion.

#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids {
namespace {

constexpr double pi = 3.14159265358979323846;

Params couzin(double side) {
    Params p;
    p.model = Model::Couzin;
    p.width = p.height = side;
    set_param(p, "margin", "0");
    p.heading.speed = 0.1;
    set_number(p, "repulsion_radius", 1);
    set_number(p, "attraction_radius", 6);
    set_number(p, "turn_rate", 0.2);
    p.heading.noise = 0;
    set_number(p, "informed_weight", 0.5);
    p.min_speed = p.max_speed = 0.1;
    return p;
}

double heading(const World<double>& w, std::size_t i) {
    return std::atan2(w.vy[i], w.vx[i]);
}

TEST(CouzinModel, RepulsionOverridesAlignmentAndTheTurnIsLimited) {
    World<double> w;
    w.add(Kind::Boid, 10, 10, 0.1, 0, 0);   // heading +x; a neighbour 0.5 ahead: turn away (toward -x)
    w.add(Kind::Boid, 10.5, 10, 0.1, 0, 0); // and this one is pushed toward +x: keeps its heading
    Simulation<double> sim(couzin(20), w);
    sim.step(1);
    EXPECT_NEAR(std::abs(heading(sim.world(), 0)), 0.2, 1e-12) << "a full turn is cut to turn_rate";
    EXPECT_NEAR(heading(sim.world(), 1), 0.0, 1e-12);
    EXPECT_NEAR(std::hypot(sim.world().vx[0], sim.world().vy[0]), 0.1, 1e-15);
}

TEST(CouzinModel, AttractionAndOrientationWithinRho) {
    World<double> w;
    w.add(Kind::Boid, 10, 10, 0.1, 0, 0); // neighbour 3 away straight up (y grows), heading +y
    w.add(Kind::Boid, 10, 13, 0, 0.1, 0);
    w.add(Kind::Boid, 30, 30, 0.1, 0, 0); // beyond rho from both: keeps going
    Params p = couzin(40);
    set_number(p, "turn_rate", pi); // no limit: the desired direction itself
    Simulation<double> sim(p, w);
    sim.step(1);
    // Agent 0: attraction (0, 1) + own heading (1, 0) + neighbour's heading (0, 1) = (1, 2).
    EXPECT_NEAR(heading(sim.world(), 0), std::atan2(2.0, 1.0), 1e-12);
    // Agent 1: attraction (0, -1) + (0, 1) + (1, 0) = (1, 0).
    EXPECT_NEAR(heading(sim.world(), 1), 0.0, 1e-12);
    EXPECT_NEAR(heading(sim.world(), 2), 0.0, 1e-12);
}

TEST(CouzinModel, InformedAgentsAddTheirPreferredDirection) {
    World<double> w;
    w.add(Kind::Scout1, 10, 10, 0, 0.1, 0); // heading +y, prefers +x: (0, 1) + 0.5 (1, 0)
    w.add(Kind::Scout2, 30, 30, 0, 0.1, 0); // prefers -x
    Params p = couzin(40);
    set_number(p, "turn_rate", pi);
    Simulation<double> sim(p, w);
    sim.step(1);
    EXPECT_NEAR(heading(sim.world(), 0), std::atan2(1.0, 0.5), 1e-12);
    EXPECT_NEAR(heading(sim.world(), 1), std::atan2(1.0, -0.5), 1e-12);
}

/// Mean accuracy over seeds of a group of n with `informed` scouts1, second half of 1200 steps.
double accuracy(long long n, long long informed, int seeds) {
    double sum = 0;
    int samples = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        Params p = couzin(1.4 * std::sqrt(static_cast<double>(n))); // a compact start
        p.heading.noise = 0.05;
        p.noise_seed = seed;
        Simulation<float> sim(
            p, spawn_world<float>(p, {n - informed, informed, 0, 0}, static_cast<std::uint64_t>(seed)));
        sim.set_threads(1);
        sim.step(600);
        for (int t = 0; t < 30; ++t) {
            sim.step(20);
            sum += compute_metrics(sim.world(), p, 1).accuracy;
            ++samples;
        }
    }
    return sum / samples;
}

TEST(CouzinModel, AccuracyRisesWithTheProportionInformed) {
    const double none = accuracy(50, 0, 8);
    const double few = accuracy(50, 3, 8);
    const double many = accuracy(50, 15, 8);
    EXPECT_LT(none, 0.75);
    EXPECT_LT(none, few);
    EXPECT_LT(few, many);
    EXPECT_GT(many, 0.9);
}

TEST(CouzinModel, LargerGroupsNeedASmallerProportion) {
    // 10% informed: 1 of 10 against 10 of 100.
    const double small = accuracy(10, 1, 12);
    const double large = accuracy(100, 10, 12);
    EXPECT_LT(small + 0.05, large);
}

} // namespace
} // namespace boids
