// The cell-lanes baseline (bench/cell_lanes_baseline.hpp) computes the classic model's step: against the
// plain path from the same state, on every SIMD target this CPU runs. Its sums run in another order, so
// the comparison allows for rounding, not for a rule computed otherwise.

#include "cell_lanes_baseline.hpp"

#include "boids/error.hpp"
#include "boids/fast_path.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace boids {
namespace {

/// The largest difference between two worlds' positions (the shorter way round the torus) and velocities.
struct Apart {
    double position = 0, velocity = 0;
};

Apart apart(const World<float>& a, const World<float>& b, double width, double height) {
    Apart most;
    const auto around = [](double d, double length) {
        d = std::abs(d);
        return std::min(d, length - d);
    };
    for (std::size_t i = 0; i < a.x.size(); ++i) {
        most.position =
            std::max({most.position, around(a.x[i] - b.x[i], width), around(a.y[i] - b.y[i], height)});
        most.velocity = std::max({most.velocity, std::abs(static_cast<double>(a.vx[i]) - b.vx[i]),
                                  std::abs(static_cast<double>(a.vy[i]) - b.vy[i])});
    }
    return most;
}

class CellLanesBaselineTest : public ::testing::Test {
protected:
    void TearDown() override { set_fast_path_target("auto"); }
};

TEST_F(CellLanesBaselineTest, StepsAsThePlainPathOnEverySimdTarget) {
    const Scenario s = w20_scenario(6'000);
    Simulation<float> plain(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    plain.set_fast_path(false);
    plain.step(10); // a flock under way: neighbours in both ranges, speeds at both limits
    const World<float> start = plain.world();
    plain.step();
    const World<float> once = plain.world();
    plain.step();
    const World<float> twice = plain.world();
    for (const std::string& target : fast_path_targets()) {
        SCOPED_TRACE(target);
        set_fast_path_target(target);
        bench::CellLanesBaseline baseline(s.params, start);
        baseline.step();
        const Apart first = apart(baseline.world(), once, s.params.width, s.params.height);
        EXPECT_LT(first.position, 1e-3);
        EXPECT_LT(first.velocity, 1e-3);
        // The second step reads the state in the order the first one sorted it.
        baseline.step();
        const Apart second = apart(baseline.world(), twice, s.params.width, s.params.height);
        EXPECT_LT(second.position, 2e-3);
        EXPECT_LT(second.velocity, 2e-3);
    }
}

TEST_F(CellLanesBaselineTest, TakesOnlyTheLabsRulesOnATorus) {
    const Scenario s = w20_scenario(1'000);
    const World<float> world = spawn_world<float>(s.params, s.agents, s.seed);
    Params margins = s.params;
    margins.boundary = Boundary::Margin;
    EXPECT_THROW(bench::CellLanesBaseline(margins, world), InputError);
    Params view = s.params;
    view.fov_angle = 270;
    EXPECT_THROW(bench::CellLanesBaseline(view, world), InputError);
    Params tiny = s.params;
    tiny.width = 2 * tiny.visual_range;
    EXPECT_THROW(bench::CellLanesBaseline(tiny, world), InputError);
}

} // namespace
} // namespace boids
