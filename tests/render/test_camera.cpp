// World <-> pixel mapping: fit, zoom about the cursor, pan.

#include "camera.hpp"

#include <gtest/gtest.h>

using boids::render::Camera;

TEST(Camera, TheWholeWorldFitsCentred) {
    const Camera c;
    const auto t = c.transform(640, 480, 800, 600);
    EXPECT_NEAR(t.to_pixel_x(320), 400, 1e-9);
    EXPECT_NEAR(t.to_pixel_y(240), 300, 1e-9);
    EXPECT_GE(t.to_pixel_x(0), 0);
    EXPECT_LE(t.to_pixel_x(640), 800);
    EXPECT_GE(t.to_pixel_y(0), 0);
    EXPECT_LE(t.to_pixel_y(480), 600);
}

TEST(Camera, ZoomKeepsThePointUnderTheCursor) {
    Camera c;
    const auto before = c.transform(640, 480, 800, 600);
    const double wx = before.to_world_x(100), wy = before.to_world_y(500);
    c.zoom_at(2.5, 100, 500, 640, 480, 800, 600);
    const auto after = c.transform(640, 480, 800, 600);
    EXPECT_NEAR(after.scale, before.scale * 2.5, 1e-9);
    EXPECT_NEAR(after.to_pixel_x(wx), 100, 1e-9);
    EXPECT_NEAR(after.to_pixel_y(wy), 500, 1e-9);
}

TEST(Camera, PanMovesTheWorldWithTheMouse) {
    Camera c;
    const auto before = c.transform(640, 480, 800, 600);
    c.pan_pixels(30, -20, 640, 480, 800, 600);
    const auto after = c.transform(640, 480, 800, 600);
    EXPECT_NEAR(after.to_pixel_x(100) - before.to_pixel_x(100), 30, 1e-9);
    EXPECT_NEAR(after.to_pixel_y(100) - before.to_pixel_y(100), -20, 1e-9);
}
