// Vicsek et al. 1995: the rule by hand on a few agents, the phase transition of Fig. 2a on a small system,
// and determinism of the counter-based noise.

#include "boids/error.hpp"
#include "boids/hash.hpp"
#include "boids/metrics.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids {
namespace {

Params vicsek(double side, double eta) {
    Params p;
    p.model = Model::Vicsek;
    p.boundary = Boundary::Wrap;
    p.width = p.height = side;
    set_param(p, "margin", "0");
    p.heading.speed = 0.03;
    set_number(p, "interaction_radius", 1);
    p.heading.noise = eta;
    p.min_speed = p.max_speed = 0.03;
    return p;
}

TEST(VicsekModel, NewHeadingIsTheMeanOfNeighbourHeadingsSelfIncluded) {
    Params p = vicsek(10, 0);
    World<double> w;
    w.add(Kind::Boid, 5.0, 5.0, 1, 0, 0);   // heading 0
    w.add(Kind::Boid, 5.5, 5.0, 0, 2, 0);   // heading pi/2 (speed does not matter)
    w.add(Kind::Boid, 8.0, 8.0, -1, 0, 0);  // out of range of both
    w.add(Kind::Boid, 9.9, 8.0, 0, -1, 0);  // 1.9 away, but the torus does not bring it within 1
    w.add(Kind::Boid, 0.05, 5.0, 0, -1, 0); // 0.15 from agent 5 across the seam
    w.add(Kind::Boid, 9.9, 5.0, 1, 0, 0);
    Simulation<double> sim(p, w);
    sim.set_threads(1);
    sim.step(1);
    const auto& s = sim.world();
    const double pi4 = 0.7853981633974483;
    EXPECT_NEAR(s.vx[0], 0.03 * std::cos(pi4), 1e-15);
    EXPECT_NEAR(s.vy[0], 0.03 * std::sin(pi4), 1e-15);
    EXPECT_NEAR(s.vx[1], 0.03 * std::cos(pi4), 1e-15);
    EXPECT_NEAR(s.vx[2], -0.03, 1e-15);
    EXPECT_NEAR(s.vy[2], 0.0, 1e-15);
    EXPECT_NEAR(s.vx[4], 0.03 * std::cos(-pi4), 1e-15) << "neighbour across the wrap seam";
    EXPECT_NEAR(s.vy[4], 0.03 * std::sin(-pi4), 1e-15);
    // Position += new velocity, wrapped.
    EXPECT_NEAR(s.x[0], 5.0 + 0.03 * std::cos(pi4), 1e-15);
    EXPECT_NEAR(s.x[5], 9.9 + 0.03 * std::cos(-pi4), 1e-12);
}

TEST(VicsekModel, NoiseStaysWithinHalfEtaAndDependsOnTheSeed) {
    Params p = vicsek(1000, 1.0);
    World<double> w;
    for (int i = 0; i < 200; ++i) {
        w.add(Kind::Boid, 4.0 * i, 500, 1, 0, 0); // isolated, heading 0
    }
    Simulation<double> sim(p, w);
    sim.step(1);
    double lo = 1, hi = -1;
    for (std::size_t i = 0; i < 200; ++i) {
        const double a = std::atan2(sim.world().vy[i], sim.world().vx[i]);
        lo = std::min(lo, a);
        hi = std::max(hi, a);
    }
    EXPECT_GE(lo, -0.5);
    EXPECT_LE(hi, 0.5);
    EXPECT_LT(lo, -0.45) << "200 uniform draws should nearly reach the edges";
    EXPECT_GT(hi, 0.45);
    Params q = p;
    q.noise_seed = 1;
    Simulation<double> other(q, w);
    other.step(1);
    EXPECT_NE(state_hash(other.world()), state_hash(sim.world()));
}

/// v_a averaged over the second half of a run, over two seeds.
double order_parameter(double eta) {
    double sum = 0;
    int samples = 0;
    for (std::uint64_t seed : {1u, 2u}) {
        Params p = vicsek(5, eta); // N = 100 at density 4
        p.noise_seed = static_cast<double>(seed);
        Simulation<float> sim(p, spawn_world<float>(p, {100, 0, 0, 0}, seed));
        sim.set_threads(1);
        sim.step(400);
        for (int t = 0; t < 20; ++t) {
            sim.step(10);
            sum += compute_metrics(sim.world(), p, 1).polarization;
            ++samples;
        }
    }
    return sum / samples;
}

TEST(VicsekModel, OrderParameterFallsFromOneToLowAsNoiseGrows) {
    double previous = 2;
    for (double eta : {0.0, 1.0, 2.0, 3.0, 4.0, 5.0}) {
        const double va = order_parameter(eta);
        if (eta == 0.0) {
            EXPECT_GT(va, 0.95);
        }
        if (eta == 5.0) {
            EXPECT_LT(va, 0.35);
        }
        EXPECT_LT(va, previous) << "eta = " << eta;
        previous = va;
    }
}

TEST(VicsekModel, BitIdenticalForAnyThreadCount) {
    const Params p = vicsek(14, 2.0);
    std::uint64_t first = 0;
    for (int threads : {1, 2, 4}) {
        Simulation<float> sim(p, spawn_world<float>(p, {800, 0, 0, 1}, 3));
        sim.set_threads(threads);
        sim.step(30);
        if (threads == 1) {
            first = state_hash(sim.world());
        }
        EXPECT_EQ(state_hash(sim.world()), first) << threads << " threads";
    }
}

TEST(VicsekModel, ModelKeysAreValidated) {
    Params p;
    EXPECT_EQ(get_param(p, "model"), "classic");
    set_param(p, "model", "vicsek");
    EXPECT_EQ(p.model, Model::Vicsek);
    const auto rejects = [](const char* key, const char* value, const char* fragment) {
        Params q;
        try {
            set_param(q, key, value);
            validate(q);
            ADD_FAILURE() << key << " = " << value << " was accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(key), std::string::npos) << what;
            EXPECT_NE(what.find(fragment), std::string::npos) << what;
        }
    };
    rejects("model", "boids", "classic | topological | weighted | vicsek | couzin");
    rejects("noise", "7", "[0, 6.28");
    rejects("speed", "-1", "[0, 100000]");
    rejects("interaction_radius", "nan", "finite");
    rejects("noise_seed", "1.5", "whole number");
    rejects("repulsion_radius", "7", "attraction_radius = 6");
    rejects("turn_rate", "4", "[0, 3.14");
    rejects("informed_weight", "-0.5", "[0, 1000]");
    rejects("attraction_radius", "-1", "[0, 100000]");
}

} // namespace
} // namespace boids

namespace boids {
namespace {

TEST(VicsekModel, PresetsCarryThePapersSettings) {
    const Scenario v = load_preset("vicsek");
    EXPECT_EQ(v.params.model, Model::Vicsek);
    EXPECT_EQ(v.params.boundary, Boundary::Wrap);
    EXPECT_EQ(v.params.heading.speed, 0.03);
    EXPECT_EQ(get_number(v.params, "interaction_radius"), 1);
    EXPECT_EQ(static_cast<double>(v.agents.boids) / (v.params.width * v.params.height), 4.0) << "density 4";
    const Scenario c = load_preset("couzin");
    EXPECT_EQ(c.params.model, Model::Couzin);
    EXPECT_EQ(get_number(c.params, "repulsion_radius"), 1);
    EXPECT_EQ(get_number(c.params, "attraction_radius"), 6);
    EXPECT_EQ(get_number(c.params, "informed_weight"), 0.5);
    EXPECT_GT(c.agents.scouts1, 0);
}

} // namespace
} // namespace boids
