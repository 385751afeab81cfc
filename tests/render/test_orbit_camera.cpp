// The 3D view's camera without GL: projection, the matrix the shaders use, picking, rotation and zoom.

#include "orbit_camera.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace boids::render {
namespace {

constexpr double W = 640, H = 480, D = 480, VW = 800, VH = 600;

/// Where the shaders' matrix puts a world point, in window pixels (y down).
ScreenPoint through_matrix(const OrbitFrame& f, Vec3 p) {
    const auto& m = f.view_projection;
    double clip[4];
    for (int r = 0; r < 4; ++r) {
        clip[r] = m[static_cast<std::size_t>(r)] * p.x + m[static_cast<std::size_t>(4 + r)] * p.y +
                  m[static_cast<std::size_t>(8 + r)] * p.z + m[static_cast<std::size_t>(12 + r)];
    }
    return {(clip[0] / clip[3] + 1) / 2 * f.view_w, (1 - clip[1] / clip[3]) / 2 * f.view_h, clip[3]};
}

TEST(OrbitCamera, TheBoxCentreIsTheViewCentreAndTheWholeBoxIsInView) {
    const OrbitFrame f = OrbitCamera{}.frame(W, H, D, VW, VH);
    const auto centre = f.project({W / 2, H / 2, D / 2});
    ASSERT_TRUE(centre);
    EXPECT_NEAR(centre->px, VW / 2, 1e-9);
    EXPECT_NEAR(centre->py, VH / 2, 1e-9);
    for (int i = 0; i < 8; ++i) {
        const auto p = f.project({(i & 1) ? W : 0.0, (i & 2) ? H : 0.0, (i & 4) ? D : 0.0});
        ASSERT_TRUE(p);
        EXPECT_GE(p->px, 0);
        EXPECT_LE(p->px, VW);
        EXPECT_GE(p->py, 0);
        EXPECT_LE(p->py, VH);
        EXPECT_GT(p->depth, f.near_depth - 1e-9);
        EXPECT_LT(p->depth, f.far_depth + 1e-9);
    }
}

TEST(OrbitCamera, TheShadersMatrixAgreesWithProject) {
    OrbitCamera camera;
    camera.rotate_pixels(130, -40);
    camera.zoom(1.7);
    const OrbitFrame f = camera.frame(W, H, D, VW, VH);
    for (const Vec3 p : {Vec3{10, 20, 30}, Vec3{600, 50, 400}, Vec3{320, 470, 5}}) {
        const auto a = f.project(p);
        ASSERT_TRUE(a);
        const ScreenPoint b = through_matrix(f, p);
        EXPECT_NEAR(a->px, b.px, 1e-3);
        EXPECT_NEAR(a->py, b.py, 1e-3);
        EXPECT_NEAR(a->depth, b.depth, 1e-3);
    }
}

TEST(OrbitCamera, StartingFrontOnAxesMatchThe2DView) {
    OrbitCamera camera;
    camera.rotate_pixels(camera.yaw() / 0.008, -camera.pitch() / 0.008); // back to yaw 0, pitch 0
    const OrbitFrame f = camera.frame(W, H, D, VW, VH);
    const auto left = f.project({0, H / 2, D / 2}), right = f.project({W, H / 2, D / 2});
    const auto top = f.project({W / 2, 0, D / 2}), bottom = f.project({W / 2, H, D / 2});
    EXPECT_LT(left->px, right->px) << "x grows to the right";
    EXPECT_LT(top->py, bottom->py) << "y grows downward, as on screen";
    EXPECT_LT(f.project({W / 2, H / 2, 0})->depth, f.project({W / 2, H / 2, D})->depth) << "z goes away";
}

TEST(OrbitCamera, PickingInvertsProjectionOnThePlaneThroughAPoint) {
    OrbitCamera camera;
    camera.rotate_pixels(-200, 60);
    const OrbitFrame f = camera.frame(W, H, D, VW, VH);
    const Vec3 carrot{100, 300, 50};
    const auto at = f.project(carrot);
    const Vec3 back = f.unproject(at->px, at->py, carrot);
    EXPECT_NEAR(back.x, carrot.x, 1e-6);
    EXPECT_NEAR(back.y, carrot.y, 1e-6);
    EXPECT_NEAR(back.z, carrot.z, 1e-6);
    // A pixel to the right lands world_per_pixel away, in the plane facing the camera.
    const Vec3 next = f.unproject(at->px + 1, at->py, carrot);
    const Vec3 step = next - back;
    EXPECT_NEAR(std::sqrt(step.dot(step)), f.world_per_pixel(carrot),
                1e-6 * f.world_per_pixel(carrot) + 1e-9);
    EXPECT_NEAR(step.dot(f.forward), 0.0, 1e-9);
}

TEST(OrbitCamera, DragRotatesWheelZoomsAndPitchStopsShortOfThePoles) {
    OrbitCamera camera;
    const double yaw = camera.yaw();
    camera.rotate_pixels(100, 0);
    EXPECT_NE(camera.yaw(), yaw);
    camera.rotate_pixels(0, 1e6);
    EXPECT_LT(camera.pitch(), 1.5 + 1e-12);
    const OrbitFrame before = OrbitCamera{}.frame(W, H, D, VW, VH);
    OrbitCamera closer;
    closer.zoom(2.0);
    const OrbitFrame after = closer.frame(W, H, D, VW, VH);
    const Vec3 corner{W, H, D};
    const auto a = before.project(corner), b = after.project(corner);
    EXPECT_GT(std::hypot(b->px - VW / 2, b->py - VH / 2), std::hypot(a->px - VW / 2, a->py - VH / 2));
}

} // namespace
} // namespace boids::render
