#include "boids/spawn.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/hash.hpp"
#include "boids/obstacle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

namespace boids {
namespace {

Obstacle circle(double x, double y, double radius) {
    Obstacle o;
    o.x = x;
    o.y = y;
    o.radius = radius;
    return o;
}

Obstacle rect(double x0, double y0, double x1, double y1) {
    Obstacle o;
    o.shape = Obstacle::Shape::Rect;
    o.x0 = x0;
    o.y0 = y0;
    o.x1 = x1;
    o.y1 = y1;
    return o;
}

/// The stream spawn.hpp documents, drawn by hand for a 2D world: per agent x, y (again while inside an
/// obstacle), heading, speed, each uniform in [0, 1) from the top 53 bits of mt19937_64.
World<double> spawned_by_hand(const Params& p, long long boids, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    const auto u = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };
    const double x0 = p.margin_left, x1 = p.width - p.margin_right;
    const double y0 = p.margin_top, y1 = p.height - p.margin_bottom;
    World<double> w;
    for (long long i = 0; i < boids; ++i) {
        double x = 0, y = 0;
        for (bool inside = true; inside;) {
            x = x0 + (x1 - x0) * u();
            y = y0 + (y1 - y0) * u();
            inside = false;
            for (const Obstacle& o : p.obstacles) {
                inside = inside || !(surface_distance(o, x, y).distance > 0);
            }
        }
        const double heading = 2.0 * std::numbers::pi * u();
        const double speed = p.min_speed + (p.max_speed - p.min_speed) * u();
        w.add(Kind::Boid, x, y, speed * std::cos(heading), speed * std::sin(heading), 0);
    }
    return w;
}

bool same_bits(const World<double>& a, const World<double>& b) {
    const auto same = [](const std::vector<double>& u, const std::vector<double>& v) {
        return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
    };
    return a.kind == b.kind && same(a.x, b.x) && same(a.y, b.y) && same(a.vx, b.vx) && same(a.vy, b.vy) &&
           same(a.bias, b.bias);
}

// Obstacles must not change the worlds that have none: the same draws, to the bit.
TEST(Spawn, WithoutObstaclesTheStreamIsAsDocumented) {
    const Params p;
    EXPECT_TRUE(
        same_bits(spawn_world<double>(p, AgentCounts{3000, 0, 0, 0}, 9), spawned_by_hand(p, 3000, 9)));
}

TEST(Spawn, AnAgentDrawnInsideAnObstacleIsDrawnAgain) {
    Params p;
    p.obstacles = {circle(320, 240, 90), rect(120, 120, 260, 200), rect(400, 100, 420, 380)};
    const World<double> w = spawn_world<double>(p, AgentCounts{3000, 0, 0, 0}, 9);
    EXPECT_TRUE(same_bits(w, spawned_by_hand(p, 3000, 9)));
    EXPECT_FALSE(same_bits(w, spawn_world<double>(Params{}, AgentCounts{3000, 0, 0, 0}, 9)));
    // Obstacles that no first draw lands in (here: in the margins) change nothing.
    Params margins_only;
    margins_only.obstacles = {circle(30, 30, 25), rect(560, 0, 640, 480)};
    EXPECT_TRUE(same_bits(spawn_world<double>(margins_only, AgentCounts{3000, 0, 0, 0}, 9),
                          spawn_world<double>(Params{}, AgentCounts{3000, 0, 0, 0}, 9)));
}

template <class Real>
void expect_nobody_inside(const Params& p, const char* what) {
    const World<Real> w = spawn_world<Real>(p, AgentCounts{4000, 50, 50, 10}, 21);
    ASSERT_EQ(w.size(), 4110u);
    for (std::size_t i = 0; i < w.size(); ++i) {
        for (const Obstacle& o : p.obstacles) {
            const double x = ScalarTraits<Real>::to_double(w.x[i]), y = ScalarTraits<Real>::to_double(w.y[i]);
            ASSERT_GT(surface_distance(o, x, y).distance, 0.0)
                << what << ": agent " << i << " starts inside " << to_string(o);
        }
    }
    EXPECT_EQ(state_hash(spawn_world<Real>(p, AgentCounts{4000, 50, 50, 10}, 21)), state_hash(w))
        << what << ": the same seed must give the same world";
}

TEST(Spawn, NobodyStartsInsideAnObstacle) {
    Params p;
    // Half the spawning area and more: a big disc, a wall across it, a rectangle on a margin's edge.
    p.obstacles = {circle(320, 240, 120), rect(100, 300, 540, 340), rect(80, 80, 200, 160),
                   circle(540, 380, 40)};
    expect_nobody_inside<double>(p, "f64");
    expect_nobody_inside<float>(p, "f32");
    expect_nobody_inside<Fix15>(p, "fix15");
    p.boundary = Boundary::Wrap; // the whole torus is the spawning area
    expect_nobody_inside<float>(p, "f32 wrap");
}

TEST(Spawn, ObstaclesCoveringTheWholeAreaAreAnErrorNotAHang) {
    Params p;
    p.obstacles = {rect(0, 0, 330, 480), rect(320, 0, 640, 480)}; // together: the whole world
    EXPECT_THROW((void)spawn_world<double>(p, AgentCounts{10, 0, 0, 0}, 1), InputError);
    try {
        (void)spawn_world<float>(p, AgentCounts{10, 0, 0, 0}, 1);
        FAIL() << "no error";
    } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("obstacles"), std::string::npos) << message;
        EXPECT_NE(message.find("rect 0 0 330 480"), std::string::npos) << message;
    }
    // The world is left as it was, and an area with room still spawns.
    World<double> w = spawn_world<double>(Params{}, AgentCounts{5, 0, 0, 0}, 1);
    const World<double> before = w;
    Spawner spawner(3);
    EXPECT_THROW(spawner.spawn(w, p, Kind::Predator, 2), InputError);
    EXPECT_TRUE(same_bits(w, before));
    p.obstacles = {rect(0, 0, 330, 480), rect(320, 0, 639, 480)}; // a 1-pixel slit along the right edge
    p.boundary = Boundary::Wrap;
    const World<double> squeezed = spawn_world<double>(p, AgentCounts{20, 0, 0, 0}, 1);
    for (const double x : squeezed.x) {
        EXPECT_GT(x, 639.0);
    }
}

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
