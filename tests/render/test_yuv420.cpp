// MP4 frames leave the process as yuv420p: the conversion against the BT.601 formulas, the framebuffer read
// (orientation, the even top-left part of an odd size) through EGL, and a recorded MP4 decoded by ffmpeg
// against the picture the renderer drew.

#include "../support/process.hpp"
#include "image.hpp"
#include "offscreen_context.hpp"
#include "yuv420.hpp"

#include <epoxy/gl.h>
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using boids::render::RgbImage;
using boids::testing::run_in;

/// The planes of a yuv420p frame of an RGB picture by the textbook formulas (BT.601, limited range), in
/// doubles: Y per pixel, U and V from the mean colour of each 2 x 2 block.
struct Reference {
    int width, height;
    std::vector<double> y, u, v;
};

Reference reference(const RgbImage& image, int width, int height) {
    Reference r{width, height, {}, {}, {}};
    const auto luma = [](double red, double green, double blue) {
        return 16.0 + 219.0 * (0.299 * red + 0.587 * green + 0.114 * blue) / 255.0;
    };
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* p = image.pixel(x, y);
            r.y.push_back(luma(p[0], p[1], p[2]));
        }
    }
    for (int cy = 0; cy < height / 2; ++cy) {
        for (int cx = 0; cx < width / 2; ++cx) {
            double mean[3] = {0, 0, 0};
            for (int k = 0; k < 4; ++k) {
                const std::uint8_t* p = image.pixel(2 * cx + k % 2, 2 * cy + k / 2);
                for (int c = 0; c < 3; ++c) {
                    mean[c] += p[c] / 4.0;
                }
            }
            const double y_prime = 0.299 * mean[0] + 0.587 * mean[1] + 0.114 * mean[2];
            r.u.push_back(128.0 + 224.0 * (mean[2] - y_prime) / 1.772 / 255.0);
            r.v.push_back(128.0 + 224.0 * (mean[0] - y_prime) / 1.402 / 255.0);
        }
    }
    return r;
}

/// Every byte of `frame` within 1 of the reference rounded (the conversion's fixed point can land on the
/// other side of a half), and fewer than 1% not equal to it.
void expect_matches(std::span<const std::uint8_t> frame, const Reference& r) {
    ASSERT_EQ(frame.size(), r.y.size() + r.u.size() + r.v.size());
    std::size_t at = 0, off_by_one = 0;
    for (const std::vector<double>* plane : {&r.y, &r.u, &r.v}) {
        const char* name = plane == &r.y ? "Y" : plane == &r.u ? "U" : "V";
        for (std::size_t i = 0; i < plane->size(); ++i, ++at) {
            const long expected = std::lround((*plane)[i]);
            const long diff = std::abs(static_cast<long>(frame[at]) - expected);
            ASSERT_LE(diff, 1) << name << " sample " << i << ": " << int{frame[at]} << ", expected "
                               << (*plane)[i];
            off_by_one += diff;
        }
    }
    EXPECT_LE(off_by_one * 100, frame.size());
}

/// `image` as RGBA rows (the layout the framebuffer is read in).
std::vector<std::uint8_t> rgba_of(const RgbImage& image) {
    std::vector<std::uint8_t> rgba;
    for (std::size_t i = 0; i < image.rgb.size(); i += 3) {
        rgba.insert(rgba.end(), {image.rgb[i], image.rgb[i + 1], image.rgb[i + 2], 255});
    }
    return rgba;
}

fs::path tmp_dir() {
    return fs::path(BOIDS_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

} // namespace

TEST(Yuv420, PrimariesGetTheirStudioLevels) {
    // Black, white, red, green, blue in 2 x 2 blocks of one colour: the levels of BT.601 tables.
    const std::array<std::array<std::uint8_t, 3>, 5> colours = {
        {{0, 0, 0}, {255, 255, 255}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}}};
    const std::array<std::array<int, 3>, 5> yuv = {
        {{16, 128, 128}, {235, 128, 128}, {81, 90, 240}, {145, 54, 34}, {41, 240, 110}}};
    RgbImage image{10, 2, {}};
    for (int y = 0; y < 2; ++y) {
        for (const auto& c : colours) {
            image.rgb.insert(image.rgb.end(), {c[0], c[1], c[2], c[0], c[1], c[2]});
        }
    }
    const std::vector<std::uint8_t> rgba = rgba_of(image);
    std::vector<std::uint8_t> out(boids::render::yuv420p_bytes(10, 2));
    boids::render::rgba_to_yuv420p(rgba.data(), 40, 10, 2, out.data());
    for (std::size_t i = 0; i < colours.size(); ++i) {
        EXPECT_EQ(out[2 * i], yuv[i][0]) << "Y of colour " << i;
        EXPECT_EQ(out[10 + 2 * i], yuv[i][0]) << "Y of colour " << i << ", second row";
        EXPECT_EQ(out[20 + i], yuv[i][1]) << "U of colour " << i;
        EXPECT_EQ(out[25 + i], yuv[i][2]) << "V of colour " << i;
    }
}

// Widths that fill whole vectors, leave a tail, or are shorter than a vector; every instruction set this
// CPU runs (the conversion is dispatched to the best one).
TEST(Yuv420, RandomPicturesMatchTheFormulasOnEverySimdTargetWithRowsEitherWayUp) {
    std::mt19937 rng(7);
    std::vector<std::string> seen;
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        seen.emplace_back(hwy::TargetName(target));
        for (const auto& [width, height] : {std::pair{2, 2}, {30, 6}, {64, 48}, {66, 34}, {130, 18}}) {
            RgbImage image{width, height, {}};
            for (int i = 0; i < width * height * 3; ++i) {
                image.rgb.push_back(static_cast<std::uint8_t>(rng() >> 24));
            }
            const Reference expected = reference(image, width, height);
            const std::vector<std::uint8_t> rgba = rgba_of(image);
            std::vector<std::uint8_t> out(boids::render::yuv420p_bytes(width, height));
            const std::ptrdiff_t row = 4 * width;
            boids::render::rgba_to_yuv420p(rgba.data(), row, width, height, out.data());
            SCOPED_TRACE(seen.back() + " " + std::to_string(width) + "x" + std::to_string(height));
            expect_matches(out, expected);
            // The same picture stored bottom row first (as OpenGL reads it), walked with a negative stride.
            std::vector<std::uint8_t> upside_down;
            for (int y = height - 1; y >= 0; --y) {
                upside_down.insert(upside_down.end(), rgba.begin() + y * row, rgba.begin() + (y + 1) * row);
            }
            std::vector<std::uint8_t> again(out.size());
            boids::render::rgba_to_yuv420p(upside_down.data() + (height - 1) * row, -row, width, height,
                                           again.data());
            EXPECT_EQ(again, out);
        }
    }
    hwy::SetSupportedTargetsForTest(0);
    EXPECT_GE(seen.size(), 1u);
}

// The reader takes the picture's top-left even part from an odd-sized framebuffer, top row first: coloured
// rectangles cleared into a 37 x 27 framebuffer come out where the RGB read-back shows them.
TEST(Yuv420, TheReaderConvertsTheFramebufferAsItIsShown) {
    boids::render::OffscreenContext context(37, 27);
    glEnable(GL_SCISSOR_TEST);
    const struct {
        int x, y, w, h; // OpenGL's window coordinates: y up from the bottom row
        float r, g, b;
    } rects[] = {{0, 0, 37, 27, 0.05f, 0.06f, 0.09f}, {0, 20, 37, 7, 1.0f, 0.1f, 0.1f},
                 {3, 0, 11, 13, 0.1f, 0.9f, 0.3f},    {20, 9, 12, 10, 0.2f, 0.3f, 1.0f},
                 {36, 0, 1, 27, 1.0f, 1.0f, 1.0f},    {0, 0, 37, 1, 1.0f, 0.8f, 0.0f}};
    for (const auto& r : rects) {
        glScissor(r.x, r.y, r.w, r.h);
        glClearColor(r.r, r.g, r.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
    const RgbImage shown = context.read();
    boids::render::Yuv420Reader reader(36, 26);
    expect_matches(reader.read(context.height()), reference(shown, 36, 26));
}

// End to end: the first frame of a recorded MP4, decoded by ffmpeg to RGB, is the picture the renderer
// drew (the PNG of the same step), up to H.264's loss and the halved chroma. A wrong matrix, swapped
// chroma planes or channels, rows upside down, a shifted crop or a stream tagged with other colours than
// it holds each move the block means below by tens of levels.
TEST(Yuv420, AnMp4FrameDecodesToThePictureDrawn) {
    const fs::path dir = tmp_dir();
    // A small world at 3x: big arrows; a red predator, the green food marker, a stone obstacle.
    const std::string scene =
        "run --headless --steps 1 --boids 40 --predators 2 --seed 3 --set width=214 "
        "--set height=160 --set margin_left=20 --set margin_right=20 --set margin_top=20 "
        "--set margin_bottom=20 --food '60 60 30' --obstacle 'circle 150 100 25' "
        "--size 643x481 ";
    const std::string env = std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + BOIDS_EXE + " ";
    auto r = run_in(dir, env + scene + "--record drawn.png");
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_in(dir, env + scene + "--record x.mp4");
    ASSERT_EQ(r.code, 0) << r.err;
    // Tagged as what it holds, so that players do not guess BT.709 for a picture this size.
    r = run_in(dir, "ffprobe -v error -select_streams v:0 -show_entries "
                    "stream=pix_fmt,color_range,color_space,color_primaries -of csv=p=0 x.mp4");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "yuv420p,tv,smpte170m,smpte170m\n");
    r = run_in(dir, "ffmpeg -hide_banner -loglevel error -y -i x.mp4 -frames:v 1 decoded.png");
    ASSERT_EQ(r.code, 0) << r.err;
    const RgbImage drawn = boids::render::read_png((dir / "drawn.png").string());
    const RgbImage decoded = boids::render::read_png((dir / "decoded.png").string());
    ASSERT_EQ(decoded.width, 642);
    ASSERT_EQ(decoded.height, 480);
    // Means over 6 x 6 blocks, channel by channel; the blocks that are not plain background are compared.
    constexpr int block = 6;
    double worst = 0.0, total = 0.0;
    int compared = 0;
    for (int by = 0; by + block <= decoded.height; by += block) {
        for (int bx = 0; bx + block <= decoded.width; bx += block) {
            double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
            for (int y = by; y < by + block; ++y) {
                for (int x = bx; x < bx + block; ++x) {
                    for (int c = 0; c < 3; ++c) {
                        a[c] += drawn.pixel(x, y)[c] / double{block * block};
                        b[c] += decoded.pixel(x, y)[c] / double{block * block};
                    }
                }
            }
            if (std::abs(a[0] - 14) + std::abs(a[1] - 16) + std::abs(a[2] - 24) < 3) {
                continue; // background
            }
            ++compared;
            for (int c = 0; c < 3; ++c) {
                worst = std::max(worst, std::abs(a[c] - b[c]));
                total += std::abs(a[c] - b[c]);
            }
        }
    }
    ASSERT_GT(compared, 200);
    const double mean = total / (3.0 * compared);
    EXPECT_LT(mean, 3.0) << "mean difference of a block's channel";
    EXPECT_LT(worst, 20.0) << "largest difference of a block's channel";
}
