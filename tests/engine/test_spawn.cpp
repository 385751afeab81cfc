#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids {
namespace {

TEST(Spawn, InsideTheMarginsWithSpeedInRangeAndUniformHeading) {
    const Params p;
    const World<double> w = spawn_world<double>(p, AgentCounts{4000, 30, 20, 3}, 7);
    EXPECT_EQ(w.counts(), (AgentCounts{4000, 30, 20, 3}));
    double sum_cos = 0, sum_sin = 0, min_x = 1e9, max_x = -1e9;
    for (std::size_t i = 0; i < w.size(); ++i) {
        EXPECT_GE(w.x[i], p.margin_left);
        EXPECT_LE(w.x[i], p.width - p.margin_right);
        EXPECT_GE(w.y[i], p.margin_top);
        EXPECT_LE(w.y[i], p.height - p.margin_bottom);
        const double speed = std::hypot(w.vx[i], w.vy[i]);
        EXPECT_GE(speed, p.min_speed - 1e-9);
        EXPECT_LE(speed, p.max_speed + 1e-9);
        sum_cos += w.vx[i] / speed;
        sum_sin += w.vy[i] / speed;
        min_x = std::min(min_x, w.x[i]);
        max_x = std::max(max_x, w.x[i]);
    }
    // Uniform headings: the mean unit vector of 4053 draws is ~1/sqrt(N) = 0.016 long.
    EXPECT_LT(std::hypot(sum_cos, sum_sin) / static_cast<double>(w.size()), 0.06);
    EXPECT_LT(min_x, p.margin_left + 5);
    EXPECT_GT(max_x, p.width - p.margin_right - 5);
    for (std::size_t i = 4000; i < 4030; ++i) {
        EXPECT_EQ(w.kind[i], Kind::Scout1);
        EXPECT_EQ(w.bias[i], p.scout1_bias);
    }
}

TEST(Spawn, SameSeedSameAgentsInBothPrecisions) {
    const Params p;
    const World<double> a = spawn_world<double>(p, AgentCounts{100, 0, 0, 1}, 5);
    const World<float> b = spawn_world<float>(p, AgentCounts{100, 0, 0, 1}, 5);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(static_cast<float>(a.x[i]), b.x[i]);
        EXPECT_EQ(static_cast<float>(a.vy[i]), b.vy[i]);
    }
}

TEST(Spawn, WrapWorldsUseTheWholeTorus) {
    Params p;
    p.boundary = Boundary::Wrap;
    const World<double> w = spawn_world<double>(p, AgentCounts{3000, 0, 0, 0}, 1);
    double min_x = 1e9;
    for (double x : w.x) {
        min_x = std::min(min_x, x);
    }
    EXPECT_LT(min_x, 5.0);
}

} // namespace
} // namespace boids
