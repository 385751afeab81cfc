// The grid step against the brute-force oracle (reference_step, docs/MODEL.md §2 written plainly).
//
// Both paths classify every pair with the same arithmetic, so they differ only in the order of the
// neighbour sums (grid order vs index order). Each step is therefore compared from the same input state,
// with a tolerance far below anything a wrong neighbour set or a wrong rule would produce; a free-running
// comparison would instead measure the flock's chaos.

#include "boids/detail/spatial_grid.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

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

/// One boid and three predators in range whose x offsets are +60, -60 and the smallest step below the
/// boid's x: summed in world order the tiny one is lost against 60 and the sum is 0 (no turn along x);
/// summed in the predator grid's block order (the row across the seam first, the tiny one's row last) it
/// survives, and the boid would turn. Every path sums them in world order, as the oracle does.
template <class Real>
void expect_predators_summed_in_world_order() {
    Params p;
    p.boundary = Boundary::Wrap;
    p.width = p.height = 1000;
    p.predator_range = 100;
    p.predator_turn_factor = 0.5;
    p.min_speed = 2;
    p.max_speed = 6;
    World<Real> world;
    const Real x = 1;
    world.add(Kind::Boid, x, 490, 0, 3, 0);
    world.add(Kind::Predator, std::nextafter(x, Real(0)), 510, 0, 1, 0); // in the row above the boid's
    world.add(Kind::Predator, 61, 490, 0, 1, 0);                         // offset -60
    world.add(Kind::Predator, 941, 490, 0, 1, 0);                        // offset +60 across the seam
    // The predator grid (a 4 x 4 torus of 250 px cells for so few members) visits them in the order 3, 2,
    // 1: the column across the seam first, then the boid's cell, then the row above.
    SpatialGrid<Real> grid;
    grid.build(world, GridMembers::Predators, p.predator_range, true, p.width, p.height, 1);
    std::vector<std::uint32_t> visited;
    grid.for_each_candidate(world.x[0], world.y[0],
                            [&](std::uint32_t s) { visited.push_back(grid.agent(s)); });
    ASSERT_EQ(visited, (std::vector<std::uint32_t>{3, 2, 1})) << "the scene no longer tests the order";
    World<Real> expected = world;
    reference_step(expected, p);
    ASSERT_EQ(expected.vx[0], Real(0)) << "the oracle's sum in world order is 0 along x";
    for (const bool fast : {false, true}) {
        for (const UpdateOrder update : {UpdateOrder::Synchronous, UpdateOrder::Sequential}) {
            Params q = p;
            q.update = update;
            Simulation<Real> sim(q, world);
            sim.set_fast_path(fast);
            sim.step();
            EXPECT_EQ(sim.last_step_fast(), fast && update == UpdateOrder::Synchronous);
            EXPECT_EQ(sim.world().vx[0], expected.vx[0])
                << (fast ? "fast" : "plain") << " path, "
                << (update == UpdateOrder::Sequential ? "sequential" : "synchronous") << " update";
            EXPECT_EQ(sim.world().vy[0], expected.vy[0]);
        }
    }
}

TEST(GridMatchesOracle, PredatorsInRangeSummedInWorldOrder) {
    expect_predators_summed_in_world_order<float>();
    expect_predators_summed_in_world_order<double>();
}

} // namespace
} // namespace boids
