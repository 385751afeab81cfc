// Mouse gestures without a window: clicks toggle the carrot (weighted model) or place agents, drags draw
// obstacles in world coordinates through the camera, right clicks remove them.

#include "apply_requests.hpp"
#include "pointer_tools.hpp"

#include "camera.hpp"

#include "boids/scenario.hpp"

#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;

namespace {

/// The world point under window pixel (px, py) of an 800 x 600 view of a 640 x 480 world, as the window
/// computes it: the default camera (the whole world in view), scale 1.2, offsets 16 and 12.
PointerPos at_pixel(double px, double py) {
    const render::Camera camera;
    return pointer_position(camera.transform(640, 480, 800, 600), px, py, 1.0);
}

/// The pixel of world point (x, y) in that view.
PointerPos at_world(double x, double y) {
    return at_pixel(16 + 1.2 * x, 12 + 1.2 * y);
}

void click(PointerTools& tools, ViewerState& state, MouseButton button, const PointerPos& at) {
    tools.press(state, button, at);
    tools.release(state, button, at, false);
}

void drag(PointerTools& tools, ViewerState& state, const PointerPos& from, const PointerPos& to, bool shift) {
    tools.press(state, MouseButton::Left, from);
    tools.move(state, to, shift);
    tools.release(state, MouseButton::Left, to, shift);
}

ViewerState weighted_scene() {
    ViewerState s;
    s.params = load_preset("vga-predator").params;
    s.params.model = Model::Weighted;
    s.counts = {50, 0, 0, 0};
    return s;
}

ViewerState classic_scene() {
    ViewerState s;
    s.params = load_preset("vga-predator").params;
    s.counts = {50, 0, 0, 2};
    return s;
}

/// The parameters a session flies after the pointer's edits of `edited` apply to a session started from
/// `before` (the viewer's state when the gesture began).
Params applied(const ViewerState& before, ViewerState& edited) {
    Scenario scene;
    scene.params = before.params;
    scene.agents = before.counts;
    SimulationController session(SimulationSetup{scene, std::nullopt, Precision::F64, 1});
    const SessionView seen{session.params(), session.counts(), session.paused()};
    apply_requests(edited, session, seen);
    return session.params();
}

} // namespace

TEST(PointerPosition, GoesThroughTheCamera) {
    const PointerPos p = at_pixel(400, 300); // the view's centre is the world's
    EXPECT_DOUBLE_EQ(p.wx, 320);
    EXPECT_DOUBLE_EQ(p.wy, 240);
    EXPECT_DOUBLE_EQ(p.world_per_pixel, 1 / 1.2);
    // Zoomed in 2x about the centre and on a 2x high-DPI screen: window pixels are half as many.
    render::Camera camera;
    camera.zoom_at(2.0, 800, 600, 640, 480, 1600, 1200);
    const PointerPos q = pointer_position(camera.transform(640, 480, 1600, 1200), 400 + 12, 300, 2.0);
    EXPECT_DOUBLE_EQ(q.wx, 320 + 24 / (2.4 * 2));
    EXPECT_DOUBLE_EQ(q.wy, 240);
}

TEST(PointerTools, ClickTogglesCarrotTrackingInTheWeightedModelAndTheCarrotFollows) {
    ViewerState s = weighted_scene();
    PointerTools tools;
    click(tools, s, MouseButton::Left, at_world(100, 50));
    EXPECT_TRUE(s.carrot_tracking);
    EXPECT_NEAR(get_number(s.params, "carrot_x"), 100, 1e-9); // the carrot jumps to the click
    EXPECT_NEAR(get_number(s.params, "carrot_y"), 50, 1e-9);
    EXPECT_TRUE(s.placements.empty()); // no predator in this model

    // Every frame it goes to the mouse; off the view (nullopt) it stays.
    tools.follow(s, at_world(300, 200));
    EXPECT_NEAR(get_number(s.params, "carrot_x"), 300, 1e-9);
    EXPECT_NEAR(get_number(s.params, "carrot_y"), 200, 1e-9);
    tools.follow(s, std::nullopt);
    EXPECT_NEAR(get_number(s.params, "carrot_x"), 300, 1e-9);

    click(tools, s, MouseButton::Left, at_world(10, 10));
    EXPECT_FALSE(s.carrot_tracking);
    EXPECT_NEAR(get_number(s.params, "carrot_x"), 300, 1e-9); // stopping leaves it where it was
    tools.follow(s, at_world(500, 400));
    EXPECT_NEAR(get_number(s.params, "carrot_x"), 300, 1e-9);
    EXPECT_NEAR(get_number(s.params, "carrot_y"), 200, 1e-9);
    EXPECT_TRUE(s.last_error.empty()) << s.last_error;
}

TEST(PointerTools, TheCarrotReachesTheSimulationThroughTheRequests) {
    ViewerState s = weighted_scene();
    const ViewerState before = s;
    PointerTools tools;
    click(tools, s, MouseButton::Left, at_world(200, 100));
    tools.follow(s, at_world(250, 120));
    const Params flown = applied(before, s);
    EXPECT_NEAR(get_number(flown, "carrot_x"), 250, 1e-9);
    EXPECT_NEAR(get_number(flown, "carrot_y"), 120, 1e-9);
}

TEST(PointerTools, OtherModelsKeepClickToPlaceAPredatorAndIgnoreTracking) {
    ViewerState s = classic_scene();
    PointerTools tools;
    const double carrot_x = get_number(s.params, "carrot_x");
    click(tools, s, MouseButton::Left, at_world(123, 45));
    EXPECT_FALSE(s.carrot_tracking);
    ASSERT_EQ(s.placements.size(), 1u);
    EXPECT_EQ(s.placements[0].kind, Kind::Predator);
    EXPECT_NEAR(s.placements[0].x, 123, 1e-9);
    EXPECT_NEAR(s.placements[0].y, 45, 1e-9);
    s.carrot_tracking = true; // e.g. left on from a weighted scene: the carrot is not the mouse's here
    tools.follow(s, at_world(300, 300));
    EXPECT_EQ(get_number(s.params, "carrot_x"), carrot_x);
}

TEST(PointerTools, ADragPansUnlessTheObstacleToolIsOn) {
    ViewerState s = classic_scene();
    PointerTools tools;
    tools.press(s, MouseButton::Left, at_pixel(100, 100));
    EXPECT_FALSE(tools.move(s, at_pixel(102, 101), false)); // within the click threshold
    EXPECT_TRUE(tools.move(s, at_pixel(150, 100), false));
    tools.release(s, MouseButton::Left, at_pixel(150, 100), false);
    EXPECT_TRUE(s.placements.empty()); // a drag is not a click
    EXPECT_TRUE(s.params.obstacles.empty());
    // The middle button always pans.
    tools.press(s, MouseButton::Middle, at_pixel(100, 100));
    EXPECT_TRUE(tools.move(s, at_pixel(101, 100), false));
    tools.release(s, MouseButton::Middle, at_pixel(101, 100), false);
    EXPECT_FALSE(tools.move(s, at_pixel(120, 100), false));
}

TEST(PointerTools, DragDrawsACircleFromItsCentreInWorldCoordinates) {
    ViewerState s = classic_scene();
    s.obstacle_tool = true;
    PointerTools tools;
    tools.press(s, MouseButton::Left, at_world(200, 150));
    EXPECT_FALSE(tools.move(s, at_world(230, 190), false)); // drawing, not panning
    ASSERT_TRUE(tools.preview());
    EXPECT_EQ(tools.preview()->shape, Obstacle::Shape::Circle);
    EXPECT_NEAR(tools.preview()->radius, 50, 1e-9);
    EXPECT_TRUE(s.params.obstacles.empty()); // only on release
    tools.release(s, MouseButton::Left, at_world(230, 190), false);
    EXPECT_FALSE(tools.preview());
    ASSERT_EQ(s.params.obstacles.size(), 1u);
    const Obstacle& o = s.params.obstacles[0];
    EXPECT_EQ(o.shape, Obstacle::Shape::Circle);
    EXPECT_NEAR(o.x, 200, 1e-9);
    EXPECT_NEAR(o.y, 150, 1e-9);
    EXPECT_NEAR(o.radius, 50, 1e-9);
    EXPECT_TRUE(s.placements.empty());
    EXPECT_TRUE(s.last_error.empty()) << s.last_error;
}

TEST(PointerTools, ShiftDragDrawsARectangleCornerToCorner) {
    ViewerState s = classic_scene();
    s.obstacle_tool = true;
    PointerTools tools;
    drag(tools, s, at_world(400, 300), at_world(250, 200), true); // any direction
    ASSERT_EQ(s.params.obstacles.size(), 1u);
    const Obstacle& o = s.params.obstacles[0];
    EXPECT_EQ(o.shape, Obstacle::Shape::Rect);
    EXPECT_NEAR(o.x0, 250, 1e-9);
    EXPECT_NEAR(o.y0, 200, 1e-9);
    EXPECT_NEAR(o.x1, 400, 1e-9);
    EXPECT_NEAR(o.y1, 300, 1e-9);
}

TEST(PointerTools, ObstaclesGoThroughValidation) {
    ViewerState s = classic_scene();
    s.obstacle_tool = true;
    PointerTools tools;
    drag(tools, s, at_world(100, 300), at_world(200, 300), true); // no height: rejected
    EXPECT_TRUE(s.params.obstacles.empty());
    EXPECT_NE(s.last_error.find("y0 < y1"), std::string::npos) << s.last_error;
    // A click with the tool draws nothing and places nothing.
    click(tools, s, MouseButton::Left, at_world(100, 100));
    EXPECT_TRUE(s.params.obstacles.empty());
    EXPECT_TRUE(s.placements.empty());
    // Drawn obstacles reach the simulation with the next requests.
    drag(tools, s, at_world(300, 200), at_world(300, 240), false);
    const Params flown = applied(classic_scene(), s);
    ASSERT_EQ(flown.obstacles.size(), 1u);
    EXPECT_NEAR(flown.obstacles[0].radius, 40, 1e-9);
}

TEST(PointerTools, RightClickOnAnObstacleRemovesItElsewhereAddsBoids) {
    ViewerState s = classic_scene();
    s.params.obstacles = {parse_obstacle("circle 200 200 40"), parse_obstacle("rect 180 180 300 220"),
                          parse_obstacle("circle 500 350 20")};
    PointerTools tools;
    // (190, 200) is in both the first circle and the rectangle: the topmost (drawn last) goes.
    click(tools, s, MouseButton::Right, at_world(190, 200));
    ASSERT_EQ(s.params.obstacles.size(), 2u);
    EXPECT_EQ(s.params.obstacles[0], parse_obstacle("circle 200 200 40"));
    EXPECT_EQ(s.params.obstacles[1], parse_obstacle("circle 500 350 20"));
    // Just outside a surface, within the pick tolerance (4 pixels = 3.33 world units here), counts.
    click(tools, s, MouseButton::Right, at_world(523, 350));
    ASSERT_EQ(s.params.obstacles.size(), 1u);
    EXPECT_TRUE(s.placements.empty());
    // Away from any obstacle: 50 boids there, obstacles unchanged.
    click(tools, s, MouseButton::Right, at_world(400, 100));
    ASSERT_EQ(s.params.obstacles.size(), 1u);
    ASSERT_EQ(s.placements.size(), 1u);
    EXPECT_EQ(s.placements[0].kind, Kind::Boid);
    EXPECT_EQ(s.placements[0].count, boids_per_right_click);
    EXPECT_NEAR(s.placements[0].x, 400, 1e-9);
}

TEST(PointerTools, AReleaseWithoutAPressOverTheViewDoesNothing) {
    // A press over the panel is not passed on; its release must not act as a click.
    ViewerState s = weighted_scene();
    PointerTools tools;
    tools.release(s, MouseButton::Left, at_world(100, 100), false);
    tools.release(s, MouseButton::Right, at_world(100, 100), false);
    EXPECT_FALSE(s.carrot_tracking);
    EXPECT_TRUE(s.placements.empty());
}

// 3D: the window passes the point on the plane facing the camera (PointerPos::wz); gestures keep the depth.
TEST(PointerTools3D, TheCarrotFollowsInDepthAndDragsDrawSpheres) {
    ViewerState s = weighted_scene();
    s.params.dimensions = 3;
    PointerTools tools;
    PointerPos at{100, 100, 200, 150, 1.0, 333};
    click(tools, s, MouseButton::Left, at);
    ASSERT_TRUE(s.carrot_tracking);
    EXPECT_DOUBLE_EQ(get_number(s.params, "carrot_z"), 333);
    at.wz = 120;
    tools.follow(s, at);
    EXPECT_DOUBLE_EQ(get_number(s.params, "carrot_z"), 120);

    ViewerState c = classic_scene();
    c.params.dimensions = 3;
    c.obstacle_tool = true;
    const PointerPos from{100, 100, 300, 200, 1.0, 240}, to{200, 100, 330, 200, 1.0, 280};
    drag(tools, c, from, to, false);
    ASSERT_EQ(c.params.obstacles.size(), 1u);
    const Obstacle& sphere = c.params.obstacles[0];
    ASSERT_TRUE(sphere.z.has_value());
    EXPECT_DOUBLE_EQ(*sphere.z, 240);
    EXPECT_DOUBLE_EQ(sphere.radius, 50); // (30, 0, 40) from the centre
    drag(tools, c, PointerPos{10, 10, 20, 20, 1.0, 240}, PointerPos{90, 90, 60, 90, 1.0, 240}, true);
    ASSERT_EQ(c.params.obstacles.size(), 2u) << c.last_error;
    EXPECT_FALSE(c.params.obstacles[1].z0.has_value()) << "a rectangle is a column through the depth";
    // A right click on the sphere's surface (in space) removes it; the column is not there.
    c.obstacle_tool = false;
    click(tools, c, MouseButton::Right, PointerPos{0, 0, 300, 200, 1.0, 290});
    ASSERT_EQ(c.params.obstacles.size(), 1u);
    EXPECT_EQ(c.params.obstacles[0].shape, Obstacle::Shape::Rect);
}
