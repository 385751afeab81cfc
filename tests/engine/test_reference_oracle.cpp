// The grid step against the brute-force oracle (reference_step, docs/MODEL.md §2 written plainly).
//
// Both paths classify every pair with the same arithmetic, so they differ only in the order of the
// neighbour sums (grid order vs index order). Each step is therefore compared from the same input state,
// with a tolerance far below anything a wrong neighbour set or a wrong rule would produce; a free-running
// comparison would instead measure the flock's chaos.

#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids {
namespace {

struct OracleCase {
    Boundary boundary;
    double fov_angle;
    const char* name;
    PredatorOrder predator_order = PredatorOrder::AfterEdges;
};

class GridMatchesOracle : public ::testing::TestWithParam<OracleCase> {};

TEST_P(GridMatchesOracle, EveryStepOfAThousandAgentFlock) {
    Params p;
    p.boundary = GetParam().boundary;
    p.fov_angle = GetParam().fov_angle;
    p.predator_order = GetParam().predator_order;
    p.dynamic_bias = true;
    p.width = 800;
    p.height = 600;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 60;
    // A weak turn and a high top speed make boids overshoot the margins and leave the world.
    p.turn_factor = 0.05;
    p.max_speed = 9;
    p.min_speed = 2;
    p.bias_increment = 0.0004; // fast enough that scouts hit both bias bounds within 100 steps
    World<double> world = spawn_world<double>(p, AgentCounts{1000, 40, 40, 6}, 11);
    // A few agents start far outside the world, one pair close together out there.
    world.add(Kind::Boid, -3000, 200, 1, 0, 0);
    world.add(Kind::Boid, -2990, 205, 1, 0, 0);
    world.add(Kind::Scout1, 5000, -4000, 0, 2, p.scout1_bias);
    world.add(Kind::Predator, 400, 2000, 0, -3, 0);

    long long outside_seen = 0, agents_compared = 0;
    for (int step = 0; step < 100; ++step) {
        World<double> expected = world;
        reference_step(expected, p);
        // The fast SIMD path (the default) and the plain grid path alike.
        Simulation<double> plain(p, world);
        plain.set_fast_path(false);
        plain.set_threads(2);
        plain.step();
        Simulation<double> sim(p, world);
        sim.set_threads(2);
        sim.step();
        // The fast path covers the plain classic model, its field of view and both predator orders.
        ASSERT_TRUE(sim.last_step_fast());
        const World<double>& got = sim.world();
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_NEAR(plain.world().x[i], expected.x[i], 1e-9)
                << "plain path, agent " << i << " step " << step;
            ASSERT_NEAR(plain.world().vx[i], expected.vx[i], 1e-9)
                << "plain path, agent " << i << " step " << step;
            ASSERT_EQ(got.kind[i], expected.kind[i]);
            const double tol = 1e-9;
            ASSERT_NEAR(got.x[i], expected.x[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.y[i], expected.y[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.vx[i], expected.vx[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.vy[i], expected.vy[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.bias[i], expected.bias[i], 1e-15) << "agent " << i << " step " << step;
            if (got.x[i] < 0 || got.x[i] > p.width || got.y[i] < 0 || got.y[i] > p.height) {
                ++outside_seen;
            }
            ++agents_compared;
        }
        world = got;
    }
    if (p.boundary == Boundary::Margin) {
        EXPECT_GT(outside_seen, 100) << "the test must exercise agents outside the world";
    }
    // The scouts' dynamic bias must have moved, or the test would not cover it.
    double max_bias = 0;
    for (std::size_t i = 0; i < world.size(); ++i) {
        max_bias = std::max(max_bias, world.bias[i]);
    }
    EXPECT_GT(max_bias, p.scout1_bias);
    EXPECT_EQ(agents_compared, 100 * 1090);
}

INSTANTIATE_TEST_SUITE_P(BoundariesAndFieldsOfView, GridMatchesOracle,
                         ::testing::Values(OracleCase{Boundary::Margin, 360, "margin"},
                                           OracleCase{Boundary::Wrap, 360, "wrap"},
                                           OracleCase{Boundary::Margin, 240, "margin_fov240"},
                                           OracleCase{Boundary::Wrap, 100, "wrap_fov100"},
                                           OracleCase{Boundary::Margin, 360, "margin_predators_first",
                                                      PredatorOrder::BeforeFlocking}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(GridMatchesOracle, SinglePrecisionStaysClose) {
    const Params p;
    World<float> world = spawn_world<float>(p, AgentCounts{500, 10, 10, 2}, 3);
    for (int step = 0; step < 20; ++step) {
        World<float> expected = world;
        reference_step(expected, p);
        Simulation<float> sim(p, world);
        sim.step();
        for (std::size_t i = 0; i < world.size(); ++i) {
            ASSERT_NEAR(sim.world().x[i], expected.x[i], 1e-3f);
            ASSERT_NEAR(sim.world().vx[i], expected.vx[i], 1e-3f);
        }
        world = sim.world();
    }
}

} // namespace
} // namespace boids
