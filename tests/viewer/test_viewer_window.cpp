// The real viewer window under Xvfb (software OpenGL): screenshots are checked pixel by pixel.

#include "../support/process.hpp"
#include "flock_renderer.hpp"
#include "image.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using boids::render::RgbImage;
using boids::testing::run_in;

fs::path tmp_dir() {
    return fs::path(BOIDS_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

std::string under_xvfb(const std::string& args) {
    return std::string("xvfb-run -a -s '-screen 0 1280x1024x24' ") + BOIDS_EXE + " " + args;
}

bool saturated(const std::uint8_t* p) {
    const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
    return hi - lo > 100;
}

bool is_background(const std::uint8_t* p) {
    const auto* bg = boids::render::background_rgb;
    return std::abs(p[0] - bg[0]) <= 2 && std::abs(p[1] - bg[1]) <= 2 && std::abs(p[2] - bg[2]) <= 2;
}

/// A paused viewer (the spawned state, no step) of `boids` boids spawned below the HUD, 3 frames, saved.
RgbImage screenshot(const std::string& name, long long boids, const std::string& extra = "--hide-panel") {
    const fs::path dir = tmp_dir();
    const auto r = run_in(dir, under_xvfb("view --paused --frames 3 --size 800x600 --predators 0 --boids " +
                                          std::to_string(boids) +
                                          " --set margin_top=160 --set margin_bottom=40 --set margin_left=40 "
                                          "--set margin_right=40 --screenshot " +
                                          name + " " + extra));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("screenshot written to " + name + " (800x600)"), std::string::npos) << r.out;
    return boids::render::read_png((dir / name).string());
}

/// Saturated pixels below the HUD (y >= 200): the boids, coloured by heading.
long long lit_boid_pixels(const RgbImage& image) {
    long long n = 0;
    for (int y = 200; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            n += saturated(image.pixel(x, y));
        }
    }
    return n;
}

} // namespace

TEST(ViewerWindow, ScreenshotHasTheSizeTheBackgroundTheBoidsAndTheHud) {
    const RgbImage none = screenshot("none.png", 0);
    const RgbImage some = screenshot("some.png", 200);
    const RgbImage more = screenshot("more.png", 400);
    for (const RgbImage* image : {&none, &some, &more}) {
        ASSERT_EQ(image->width, 800);
        ASSERT_EQ(image->height, 600);
        long long background = 0;
        for (int y = 0; y < image->height; ++y) {
            for (int x = 0; x < image->width; ++x) {
                background += is_background(image->pixel(x, y));
            }
        }
        EXPECT_GT(background, 800 * 600 * 7 / 10); // the background dominates
        // The HUD (top left) has text: many pixels far from the background.
        long long hud = 0;
        for (int y = 8; y < 100; ++y) {
            for (int x = 8; x < 300; ++x) {
                const auto* p = image->pixel(x, y);
                hud += std::max({p[0], p[1], p[2]}) > 120;
            }
        }
        EXPECT_GT(hud, 500);
    }
    // Lit pixels follow the boid count: an arrow is 0.35 * (8 px * scale 1.2)^2 ~ 32 pixels here.
    const long long n0 = lit_boid_pixels(none), n200 = lit_boid_pixels(some), n400 = lit_boid_pixels(more);
    EXPECT_LT(n0, 50);
    EXPECT_GT(n200, 200 * 20);
    EXPECT_LT(n200, 200 * 50);
    EXPECT_GT(n400, 400 * 20);
    EXPECT_LT(n400, 400 * 50);
    const double ratio = static_cast<double>(n400) / static_cast<double>(n200);
    EXPECT_GT(ratio, 1.6);
    EXPECT_LT(ratio, 2.2);
}

TEST(ViewerWindow, PanelIsDrawnOnTheRight) {
    const RgbImage image = screenshot("panel.png", 100, "");
    // The panel (300 px wide in an 800 px window) covers the right of the window: few background pixels.
    long long background = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 520; x < image.width; ++x) {
            background += is_background(image.pixel(x, y));
        }
    }
    EXPECT_LT(background, 280 * 600 / 10);
}

TEST(ViewerWindow, RecordsAVideoOfTheWindow) {
    const fs::path dir = tmp_dir();
    const auto r = run_in(dir, under_xvfb("view --frames 12 --size 640x480 --record v.mp4"));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const auto probe = run_in(dir, "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                   "stream=width,height,nb_read_frames -of csv=p=0 v.mp4");
    ASSERT_EQ(probe.code, 0) << probe.err;
    EXPECT_EQ(probe.out.rfind("640,480,", 0), 0u) << probe.out; // frames: one per step (below)
}

TEST(ViewerWindow, BadOptionsAndNoDisplayAreClearErrors) {
    const fs::path dir = tmp_dir();
    auto r = run_in(dir, std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + BOIDS_EXE + " view --frames 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
    r = run_in(dir, under_xvfb("view --rate 1001"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--rate = '1001' is invalid: allowed values are a whole number of steps per second "
                         "from 1 to 1000 | max"),
              std::string::npos)
        << r.err;
    r = run_in(dir, under_xvfb("view --screenshot x.png"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--frames"), std::string::npos) << r.err;
    r = run_in(dir, under_xvfb("view --frames 2 --set visual_range=-1"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("visual_range"), std::string::npos) << r.err;
}

// `boids view FILE` opens a saved scene with its camera: zoomed in 4x on the world's centre, the boids
// spawned there fill more of the picture than the whole-world view of the same scene shows.
TEST(ViewerWindow, ViewOpensASavedSceneWithItsCamera) {
    const fs::path dir = tmp_dir();
    fs::create_directories(dir);
    const std::string scene = "seed = 5\n[agents]\nboids = 300\n[params]\nmargin = 200\n";
    std::ofstream(dir / "whole.toml") << scene;
    std::ofstream(dir / "zoomed.toml") << scene << "[view]\nzoom = 4\ncenter_x = 320\ncenter_y = 240\n";
    long long lit[2] = {0, 0};
    int i = 0;
    for (const std::string name : {"whole", "zoomed"}) {
        const auto r = run_in(dir, under_xvfb("view " + name + ".toml --paused --frames 3 --size 800x600 " +
                                              "--hide-panel --screenshot " + name + ".png"));
        EXPECT_EQ(r.code, 0) << r.out << r.err;
        const RgbImage image = boids::render::read_png((dir / (name + ".png")).string());
        for (int y = 0; y < image.height; ++y) {
            for (int x = 0; x < image.width; ++x) {
                lit[i] += saturated(image.pixel(x, y));
            }
        }
        ++i;
    }
    EXPECT_GT(lit[1], 4 * lit[0]) << "whole " << lit[0] << ", zoomed " << lit[1];
}

// The viewer's video plays at the rate the flock flew: one video frame per step at 50 steps per second,
// however many frames the window drew. The window draws as fast as it can under Xvfb (2.4 ms a frame on a
// Zen 5 core), so 300 frames span several steps' time where 40 frames at 10 steps per second could end
// before the first step.
TEST(ViewerWindow, ItsVideoPlaysAtTheRateTheFlockFlew) {
    const fs::path dir = tmp_dir();
    const auto r = run_in(dir, under_xvfb("view --preset vga-scouts --rate 50 --frames 300 --size 320x240 "
                                          "--hide-panel --record v.mp4"));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const auto at = r.out.find(" steps,");
    ASSERT_NE(at, std::string::npos) << r.out;
    const long long steps = std::stoll(r.out.substr(r.out.rfind(' ', at - 1) + 1));
    ASSERT_GT(steps, 0) << r.out;
    const auto probe = run_in(dir, "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                   "stream=nb_read_frames,r_frame_rate -of csv=p=0 v.mp4");
    ASSERT_EQ(probe.code, 0) << probe.err;
    EXPECT_EQ(probe.out, "50/1," + std::to_string(steps) + "\n") << r.out;
}
