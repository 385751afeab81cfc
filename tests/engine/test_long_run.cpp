#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids {
namespace {

TEST(LongRun, TenThousandStepsOfTwoThousandAgentsStayFiniteAndInBounds) {
    Params p;
    p.dynamic_bias = true;
    Simulation<float> sim(p, spawn_world<float>(p, AgentCounts{1900, 40, 40, 20}, 2026));
    for (int chunk = 0; chunk < 10; ++chunk) {
        sim.step(1000);
        const FlockSummary s = summarize(sim.world());
        ASSERT_TRUE(s.finite) << "after " << sim.steps_taken() << " steps";
        const World<float>& w = sim.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            const float speed = std::hypot(w.vx[i], w.vy[i]);
            ASSERT_LE(speed, p.max_speed * 1.0001f);
            ASSERT_GE(speed, p.min_speed * 0.9999f);
            // Margins turn everyone back: crowding and predators push some past the screen's edge,
            // but nobody runs away.
            ASSERT_GT(w.x[i], -p.width);
            ASSERT_LT(w.x[i], 2 * p.width);
            ASSERT_GT(w.y[i], -p.height);
            ASSERT_LT(w.y[i], 2 * p.height);
        }
    }
    EXPECT_EQ(sim.steps_taken(), 10000);
}

} // namespace
} // namespace boids
