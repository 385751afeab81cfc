// Recording without a display: `boids run --headless --record` renders offscreen through EGL (Mesa) and
// pipes frames to ffmpeg; the file is checked with ffprobe.

#include "../support/process.hpp"
#include "flock_renderer.hpp"
#include "image.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace {

namespace fs = std::filesystem;
using boids::testing::run_in;

fs::path tmp_dir() {
    return fs::path(BOIDS_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

/// The boids executable with no display in its environment, as on a server.
std::string headless_boids(const std::string& args) {
    return std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + BOIDS_EXE + " " + args;
}

} // namespace

TEST(HeadlessRecording, ADisplayThatCannotBeOpenedIsNoDisplay) {
    // DISPLAY set, but no X server there (an ssh session without forwarding, a stale variable): SDL would
    // fall back to an invisible offscreen window; the viewer says there is no display instead.
    const fs::path dir = tmp_dir();
    fs::create_directories(dir);
    const auto r = run_in(dir, std::string("env -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER DISPLAY=:4242 ") +
                                   BOIDS_EXE + " view --frames 2");
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("no display can be opened (DISPLAY=':4242'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("boids run --headless"), std::string::npos) << r.err;
}

TEST(HeadlessRecording, Mp4HasOneFramePerStepAndFfprobeAcceptsIt) {
    const fs::path dir = tmp_dir();
    const auto r =
        run_in(dir, headless_boids("run --headless --steps 30 --boids 300 --size 320x240 --record x.mp4"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("recorded      30 frames (320x240) to x.mp4"), std::string::npos) << r.out;
    const auto probe = run_in(dir, "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                   "stream=codec_name,width,height,nb_read_frames -of csv=p=0 x.mp4");
    ASSERT_EQ(probe.code, 0) << probe.err;
    EXPECT_EQ(probe.out, "h264,320,240,30\n");
}

TEST(HeadlessRecording, GifAndFrameStride) {
    const fs::path dir = tmp_dir();
    const auto r = run_in(
        dir, headless_boids("run --headless --steps 20 --record-every 5 --size 160x120 --record x.gif"));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto probe = run_in(dir, "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                   "stream=codec_name,nb_read_frames -of csv=p=0 x.gif");
    ASSERT_EQ(probe.code, 0) << probe.err;
    EXPECT_EQ(probe.out, "gif,4\n");
}

/// The video's duration in seconds, as ffprobe reads it.
double duration_of(const fs::path& dir, const std::string& file) {
    const auto probe = run_in(dir, "ffprobe -v error -show_entries format=duration -of csv=p=0 " + file);
    EXPECT_EQ(probe.code, 0) << probe.err;
    return std::stod(probe.out.empty() ? "0" : probe.out);
}

// A video plays at the rate the flock flies in the viewer (the scene's: Downey's 10 steps per second),
// divided by the steps per frame, unless --fps says otherwise.
TEST(HeadlessRecording, AVideoPlaysAtTheScenesRateOrTheStatedFps) {
    const fs::path dir = tmp_dir();
    auto r = run_in(
        dir, headless_boids("run --headless --preset downey-2d --steps 40 --size 160x120 --record a.mp4"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(duration_of(dir, "a.mp4"), 4.0, 0.05);
    r = run_in(dir,
               headless_boids("run --headless --preset downey-2d --steps 40 --record-every 4 --size 160x120 "
                              "--record b.mp4"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(duration_of(dir, "b.mp4"), 4.0, 0.05);
    r = run_in(dir,
               headless_boids(
                   "run --headless --preset downey-2d --steps 40 --fps 20 --size 160x120 --record c.mp4"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(duration_of(dir, "c.mp4"), 2.0, 0.05);
    r = run_in(dir, headless_boids("run --headless --steps 3 --fps 0 --record d.mp4"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--fps"), std::string::npos) << r.err;
}

// A GIF gets its own palette per frame: five seconds of the lab's predator scene at 640 x 480 stay small
// (an ffmpeg default, dithered to one fixed palette, made 3.3 s of it 40 MB).
TEST(HeadlessRecording, AFiveSecondGifOfThePredatorSceneIsSmall) {
    const fs::path dir = tmp_dir();
    const auto r =
        run_in(dir, headless_boids("run --headless --preset vga-predator --steps 150 --size 640x480 "
                                   "--record x.gif"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(duration_of(dir, "x.gif"), 5.0, 0.05);
    EXPECT_LT(fs::file_size(dir / "x.gif"), 8u << 20);
}

TEST(HeadlessRecording, PngShowsTheFinalFlock) {
    const fs::path dir = tmp_dir();
    const auto r =
        run_in(dir, headless_boids("run --headless --steps 5 --boids 400 --predators 0 --size 640x480 "
                                   "--record final.png"));
    ASSERT_EQ(r.code, 0) << r.err;
    const boids::render::RgbImage image = boids::render::read_png((dir / "final.png").string());
    ASSERT_EQ(image.width, 640);
    ASSERT_EQ(image.height, 480);
    long long background = 0, saturated = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const auto* p = image.pixel(x, y);
            const auto* bg = boids::render::background_rgb;
            background += p[0] == bg[0] && p[1] == bg[1] && p[2] == bg[2];
            const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
            saturated += hi - lo > 100;
        }
    }
    EXPECT_GT(background, image.width * image.height * 8 / 10);
    EXPECT_GT(saturated, 400 * 10); // each boid is ~25 pixels at this scale; some overlap
    EXPECT_LT(saturated, 400 * 60);
}

TEST(HeadlessRecording, BadTargetsAreRejectedWithExitCode2) {
    const fs::path dir = tmp_dir();
    auto r = run_in(dir, headless_boids("run --headless --steps 3 --record x.avi"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--record = 'x.avi' is invalid: expected a file name ending in .mp4 or .gif"),
              std::string::npos)
        << r.err;
    r = run_in(dir, headless_boids("run --headless --steps 3 --size 10x10 --record x.mp4"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
    // Without ffmpeg on PATH: a clear message, exit 2, no file.
    r = run_in(dir, std::string("env -u DISPLAY PATH=/nonexistent ") + BOIDS_EXE +
                        " run --headless --steps 3 --record y.mp4");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ffmpeg is not installed"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "y.mp4"));
}

TEST(HeadlessRecording, NoArgumentsWithoutADisplaySaysSoAndRecordsTheMainJob) {
    const fs::path dir = tmp_dir();
    fs::remove(dir / "boids.mp4");
    const auto r = run_in(dir, headless_boids(""));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(
        r.out.rfind("boids: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the default scene runs "
                    "headless and is recorded to boids.mp4\n",
                    0),
        0u)
        << r.out;
    for (const char* part : {"vga-predator", "steps         1000", "500 boids", "2 predators", "steps/s",
                             "mean speed", "polarization", "state hash"}) {
        EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("recorded      250 frames (640x480) to boids.mp4"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(dir / "boids.mp4"));
}

/// Coloured pixels (channels spread by more than `spread`: the heading hues, not the grey scene) inside and
/// outside the box [x0, x1] x [y0, y1] of a dense flock's one-frame recording made by `run_args`.
std::pair<long long, long long> coloured_in_box(const std::string& run_args, int spread, int x0, int x1,
                                                int y0, int y1) {
    const fs::path dir = tmp_dir();
    const auto r = run_in(dir, headless_boids(run_args + " --record dense.png"));
    EXPECT_EQ(r.code, 0) << r.err;
    const boids::render::RgbImage image = boids::render::read_png((dir / "dense.png").string());
    long long inside = 0, outside = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const auto* p = image.pixel(x, y);
            const bool coloured = std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > spread;
            const bool in_box = x >= x0 && x <= x1 && y >= y0 && y <= y1;
            (in_box ? inside : outside) += coloured;
        }
    }
    return {inside, outside};
}

// Level of detail: a flock with fewer than 16 pixels per agent in view is one image, a dot per agent in its
// heading colour, in the box it was spawned in (the margins) and nowhere else.
TEST(HeadlessRecording, ADenseFlockIsDrawnAsDotsWhereItIs) {
    // The world (640 x 480) fills the frame at half scale; boids spawn inside the 100-pixel margins.
    const auto [inside, outside] = coloured_in_box(
        "run --headless --steps 0 --boids 20000 --predators 0 --size 320x240", 100, 49, 271, 49, 191);
    EXPECT_GT(inside, 220 * 140 / 3) << "20,000 dots in the box's 31,000 pixels";
    EXPECT_EQ(outside, 0);
}

TEST(HeadlessRecording, ADense3DFlockIsDrawnAsDotsInsideItsBox) {
    // The default camera shows the world box at x 55-260, y 45-228 of the frame (its grey edges are not
    // coloured); the flock spawns inside its margins, so every coloured dot lies within the box's outline.
    const auto [inside, outside] = coloured_in_box(
        "run --headless --steps 0 --boids 20000 --predators 0 --set dimensions=3 --size 320x240", 60, 50, 265,
        40, 233);
    EXPECT_GT(inside, 5000) << "20,000 dots, the nearest one kept per pixel";
    EXPECT_EQ(outside, 0);
}
