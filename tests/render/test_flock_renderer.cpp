// The scene around the flock, drawn by FlockRenderer in the viewer window (under Xvfb) and in headless
// recordings (EGL): obstacles, food sources and their range, the weighted model's carrot, the perching
// ledge. Screenshots are read back and checked pixel by pixel where the scene puts them.

#include "../support/process.hpp"
#include "camera.hpp"
#include "flock_renderer.hpp"
#include "image.hpp"
#include "orbit_camera.hpp"

#include "boids/scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using boids::Obstacle;
using boids::render::RgbImage;
using boids::testing::run_in;

constexpr int width = 800, height = 600;

fs::path tmp_dir() {
    return fs::path(BOIDS_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

/// A paused viewer window (the starting state, no step) of `args`, 3 frames, panel hidden, saved.
RgbImage window_screenshot(const std::string& args) {
    const fs::path dir = tmp_dir();
    const auto r =
        run_in(dir, std::string("xvfb-run -a -s '-screen 0 1280x1024x24' ") + BOIDS_EXE +
                        " view --paused --frames 3 --hide-panel --size 800x600 --screenshot s.png " + args);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    return boids::render::read_png((dir / "s.png").string());
}

/// A headless recording's final frame after `args`.
RgbImage headless_picture(const std::string& args) {
    const fs::path dir = tmp_dir();
    const auto r = run_in(dir, std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + BOIDS_EXE +
                                   " run --headless --size 800x600 --record h.png " + args);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    return boids::render::read_png((dir / "h.png").string());
}

/// Where world point (x, y) of a world of `world_w` x `world_h` lands in an 800 x 600 picture of it.
struct Projection {
    boids::render::ViewTransform view;
    Projection(double world_w, double world_h)
        : view(boids::render::Camera{}.transform(world_w, world_h, width, height)) {}
    [[nodiscard]] int px(double x) const { return static_cast<int>(std::lround(view.to_pixel_x(x))); }
    [[nodiscard]] int py(double y) const { return static_cast<int>(std::lround(view.to_pixel_y(y))); }
};

bool is(const std::uint8_t* p, const std::uint8_t rgb[3]) {
    return p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2];
}

/// The fraction of `points` (world) whose pixel has exactly the colour `rgb`.
double fraction_of_colour(const RgbImage& image, const Projection& at,
                          const std::vector<std::pair<double, double>>& points, const std::uint8_t rgb[3]) {
    int hits = 0;
    for (const auto& [x, y] : points) {
        hits += is(image.pixel(at.px(x), at.py(y)), rgb);
    }
    return static_cast<double>(hits) / static_cast<double>(points.size());
}

/// Points on a circle of radius `r` around (x, y), and for r > 0 its centre too when `with_centre`.
std::vector<std::pair<double, double>> circle_points(double x, double y, double r, bool with_centre) {
    std::vector<std::pair<double, double>> v;
    if (with_centre) {
        v.emplace_back(x, y);
    }
    for (int i = 0; i < 24; ++i) {
        const double a = 2 * std::numbers::pi * i / 24;
        v.emplace_back(x + r * std::cos(a), y + r * std::sin(a));
    }
    return v;
}

/// Points inside an obstacle (a grid in a rectangle, a few rings in a circle), and a ring just outside.
std::vector<std::pair<double, double>> inside(const Obstacle& o) {
    std::vector<std::pair<double, double>> v;
    if (o.shape == Obstacle::Shape::Circle) {
        for (double f : {0.25, 0.5, 0.8}) {
            const auto ring = circle_points(o.x, o.y, f * o.radius, v.empty());
            v.insert(v.end(), ring.begin(), ring.end());
        }
        return v;
    }
    for (int i = 1; i < 10; ++i) {
        for (int j = 1; j < 4; ++j) {
            v.emplace_back(o.x0 + (o.x1 - o.x0) * i / 10, o.y0 + (o.y1 - o.y0) * j / 4);
        }
    }
    return v;
}

std::vector<std::pair<double, double>> just_outside(const Obstacle& o) {
    if (o.shape == Obstacle::Shape::Circle) {
        return circle_points(o.x, o.y, o.radius + 6, false);
    }
    return {{o.x0 - 6, o.y0 - 6},          {(o.x0 + o.x1) / 2, o.y0 - 6}, {o.x1 + 6, (o.y0 + o.y1) / 2},
            {(o.x0 + o.x1) / 2, o.y1 + 6}, {o.x0 - 6, (o.y0 + o.y1) / 2}, {o.x1 + 6, o.y1 + 6}};
}

/// Every obstacle of `params` is filled with the obstacle colour where it is, and nothing next to it is.
void expect_obstacles_drawn(const RgbImage& image, const boids::Params& params) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    const Projection at(params.width, params.height);
    ASSERT_FALSE(params.obstacles.empty());
    for (const Obstacle& o : params.obstacles) {
        // A few starting boids may sit over an obstacle (spawning does not avoid them): nearly all.
        EXPECT_GE(fraction_of_colour(image, at, inside(o), boids::render::obstacle_rgb), 0.85)
            << boids::to_string(o);
        EXPECT_EQ(fraction_of_colour(image, at, just_outside(o), boids::render::obstacle_rgb), 0.0)
            << boids::to_string(o);
    }
}

/// The food marker (a disc of 5.5 pixels) at world point (x, y).
void expect_food_marker(const RgbImage& image, const Projection& at, double x, double y) {
    for (int dx = -3; dx <= 3; ++dx) {
        for (int dy = -3; dy <= 3; ++dy) {
            const std::uint8_t* p = image.pixel(at.px(x) + dx, at.py(y) + dy);
            EXPECT_TRUE(is(p, boids::render::food_rgb))
                << "at " << dx << ", " << dy << ": " << int{p[0]} << " " << int{p[1]} << " " << int{p[2]};
        }
    }
}

} // namespace

TEST(FlockRenderer, ObstaclesPresetInTheWindowShowsItsObstaclesWhereTheyAre) {
    const boids::Params params = boids::load_preset("obstacles").params;
    const RgbImage image = window_screenshot("--preset obstacles");
    expect_obstacles_drawn(image, params);
    // The food source starts at the first point of its path, drawn over the boids.
    expect_food_marker(image, Projection(params.width, params.height), 150, 150);
}

TEST(FlockRenderer, FoodSourceAndItsRangeInTheWindow) {
    // No agents, so every pixel is the scene's: the marker, the faint range, the background beyond.
    const RgbImage image = window_screenshot("--preset obstacles --boids 0 --predators 0");
    const Projection at(800, 600);
    expect_food_marker(image, at, 150, 150);
    const auto* bg = boids::render::background_rgb;
    // Inside the range (150) but away from the marker, the path, the obstacles and the HUD (top left):
    // the background tinted green.
    for (const auto& [x, y] : {std::pair{230.0, 230.0}, std::pair{60.0, 200.0}, std::pair{270.0, 180.0}}) {
        const std::uint8_t* p = image.pixel(at.px(x), at.py(y));
        EXPECT_GE(p[1], bg[1] + 6) << x << ", " << y;
        EXPECT_GT(p[1], p[0] + 6) << x << ", " << y;
        EXPECT_LE(p[0], bg[0] + 12) << x << ", " << y;
    }
    // Beyond the range: the plain background.
    for (const auto& [x, y] : {std::pair{100.0, 330.0}, std::pair{360.0, 200.0}}) {
        EXPECT_TRUE(is(image.pixel(at.px(x), at.py(y)), bg)) << x << ", " << y;
    }
    // And no food marker there.
    for (const auto& [x, y] : {std::pair{400.0, 300.0}, std::pair{650.0, 450.0}}) {
        EXPECT_FALSE(is(image.pixel(at.px(x), at.py(y)), boids::render::food_rgb)) << x << ", " << y;
    }
}

TEST(FlockRenderer, HeadlessRecordingDrawsTheSceneAndMovingFoodWhereItIsAtTheStep) {
    const boids::Params params = boids::load_preset("obstacles").params;
    const RgbImage image = headless_picture("--preset obstacles --steps 50");
    expect_obstacles_drawn(image, params);
    // The source moves 2 pixels per step along its loop: after 50 steps it is at (250, 150).
    const Projection at(params.width, params.height);
    ASSERT_EQ(params.food.size(), 1u);
    EXPECT_EQ(params.food[0].position(50), (std::pair{250.0, 150.0}));
    expect_food_marker(image, at, 250, 150);
    EXPECT_FALSE(is(image.pixel(at.px(150), at.py(150)), boids::render::food_rgb));
}

TEST(FlockRenderer, WeightedModelShowsItsCarrotWhereTheParametersPutIt) {
    const RgbImage image =
        headless_picture("--preset downey-2d --steps 1 --set carrot_x=1.5 --set carrot_y=2.5");
    const Projection at(4, 4);
    for (int dx = -4; dx <= 4; dx += 2) {
        for (int dy = -4; dy <= 4; dy += 2) {
            const std::uint8_t* p = image.pixel(at.px(1.5) + dx, at.py(2.5) + dy);
            EXPECT_TRUE(is(p, boids::render::carrot_rgb)) << dx << ", " << dy;
        }
    }
    // Not where the preset had it; and a classic scene has no carrot: its keys are refused there.
    EXPECT_FALSE(is(image.pixel(at.px(3), at.py(2)), boids::render::carrot_rgb));
    const auto classic =
        run_in(tmp_dir(), std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + BOIDS_EXE +
                              " run --headless --preset vga-predator --steps 1 --record h.png "
                              "--set carrot_x=320 --set carrot_y=240");
    EXPECT_EQ(classic.code, 2);
    EXPECT_NE(classic.err.find("carrot_x"), std::string::npos) << classic.err;
    EXPECT_NE(classic.err.find("classic"), std::string::npos) << classic.err;
}

TEST(FlockRenderer, PerchingShowsTheLedge) {
    // The default ledge: the bottom margin line (y = 380) between the side margins (100 and 540).
    const RgbImage image = headless_picture("--preset perching --steps 1 --boids 0");
    const Projection at(640, 480);
    int on_ledge = 0;
    for (double x = 110; x <= 530; x += 20) {
        on_ledge += is(image.pixel(at.px(x), at.py(380) + 2), boids::render::ledge_rgb);
        EXPECT_FALSE(is(image.pixel(at.px(x), at.py(380) + 12), boids::render::ledge_rgb));
    }
    EXPECT_EQ(on_ledge, 22);
    EXPECT_FALSE(is(image.pixel(at.px(60), at.py(380) + 2), boids::render::ledge_rgb)); // beyond its end
    // Without perching, no ledge.
    const RgbImage plain = headless_picture("--preset vga-predator --steps 1 --boids 0 --predators 0");
    EXPECT_FALSE(is(plain.pixel(at.px(320), at.py(380) + 2), boids::render::ledge_rgb));
}

// 3D (dimensions = 3): the orbit camera's starting view, headless and in the window.
namespace {

boids::render::OrbitFrame start_frame(double w, double h, double d) {
    return boids::render::OrbitCamera{}.frame(w, h, d, width, height);
}

} // namespace

TEST(FlockRenderer3D, Downey3dShowsTheCarrotWhereItProjectsAndTheFlockAroundIt) {
    const RgbImage image = headless_picture("--preset downey-3d --steps 200 --set carrot_z=3");
    const auto carrot = start_frame(4, 4, 4).project({3, 2, 3});
    ASSERT_TRUE(carrot);
    const int cx = static_cast<int>(std::lround(carrot->px)), cy = static_cast<int>(std::lround(carrot->py));
    EXPECT_TRUE(is(image.pixel(cx, cy), boids::render::carrot_rgb));
    // Boids (neither background, box grey nor carrot) gather within 120 pixels of it.
    int boid_pixels = 0;
    for (int y = std::max(0, cy - 120); y < std::min(height, cy + 120); ++y) {
        for (int x = std::max(0, cx - 120); x < std::min(width, cx + 120); ++x) {
            const std::uint8_t* p = image.pixel(x, y);
            const int spread = std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]});
            boid_pixels += spread > 60 && !is(p, boids::render::carrot_rgb);
        }
    }
    EXPECT_GT(boid_pixels, 30);
}

TEST(FlockRenderer3D, ASphereIsDrawnAsAWireFrameAroundItsProjectedCentre) {
    const RgbImage image = window_screenshot("--set dimensions=3 --boids 0 --predators 0 "
                                             "--obstacle 'sphere 320 240 240 80'");
    const auto frame = start_frame(640, 480, 480);
    const auto centre = frame.project({320, 240, 240});
    ASSERT_TRUE(centre);
    // The equator in the x-y plane faces the viewer: its leftmost and rightmost points are drawn.
    int rim_hits = 0;
    for (const double angle : {0.0, std::numbers::pi / 2, std::numbers::pi, 1.5 * std::numbers::pi}) {
        const auto p = frame.project({320 + 80 * std::cos(angle), 240 + 80 * std::sin(angle), 240});
        bool lit = false;
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                const std::uint8_t* q = image.pixel(static_cast<int>(std::lround(p->px)) + dx,
                                                    static_cast<int>(std::lround(p->py)) + dy);
                lit = lit || q[0] > 120;
            }
        }
        rim_hits += lit;
    }
    EXPECT_EQ(rim_hits, 4);
    const std::uint8_t* inside = image.pixel(static_cast<int>(std::lround(centre->px)) + 20,
                                             static_cast<int>(std::lround(centre->py)) + 7);
    EXPECT_TRUE(is(inside, boids::render::background_rgb)) << "a wire frame: the inside stays clear";
}
