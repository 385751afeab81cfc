// The frame hook: an outside controller changes a running viewer between steps (run under xvfb-run).

#include "panel_mapping.hpp"
#include "viewer.hpp"

#include "boids/control_protocol.hpp"
#include "boids/scenario.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;

TEST(FrameHook, RunsOncePerFrameBeforeTheStepsAndItsRequestsApply) {
    ViewerOptions o;
    o.scenario = load_preset("vga-predator");
    o.frames = 8;
    o.paused = true; // steps happen only when the hook asks
    o.window_width = 640;
    o.window_height = 480;
    int calls = 0;
    ViewerState seen_at_4;
    std::vector<std::string> replies;
    o.hook = [&](ViewerState& s, SimulationController& session) {
        ++calls;
        if (calls == 1) { // the control port's way: commands run against the viewer's session
            replies.push_back(execute_control_command(session, "set avoid_factor 0.1"));
            replies.push_back(execute_control_command(session, "stats"));
        }
        if (calls == 2) {
            EXPECT_EQ(apply_param_edit(s.params, "visual_range", 25.0), std::nullopt);
            EXPECT_EQ(apply_count_edit(s.counts, "boids", 100), std::nullopt);
            s.placements.push_back({Kind::Predator, 320.0, 240.0, 1});
            s.single_steps = 3;
        }
        if (calls == 3) {
            s.params.min_speed = 1000; // invalid: rejected whole, reported
        }
        if (calls == 4) {
            seen_at_4 = s;
        }
    };
    std::string why;
    ASSERT_TRUE(run_viewer(o, why)) << why;
    EXPECT_EQ(calls, 8);
    ASSERT_EQ(replies.size(), 2u);
    EXPECT_EQ(replies[0], "ok avoid_factor=0.1");
    EXPECT_EQ(replies[1].rfind("ok steps=0 paused=true agents=", 0), 0u) << replies[1];
    // Frame 2 applied the requests and took the steps; frame 3's observations show them.
    EXPECT_EQ(seen_at_4.stats.agents, (AgentCounts{100, 0, 0, 3}));
    EXPECT_EQ(seen_at_4.stats.steps_taken, 3);
    EXPECT_EQ(seen_at_4.params.visual_range, 25.0);
    EXPECT_EQ(seen_at_4.params.min_speed, 3.0);
    EXPECT_EQ(seen_at_4.params.avoid_factor, 0.1) << "the panel shows the port's change";
    EXPECT_NE(seen_at_4.last_error.find("min_speed"), std::string::npos) << seen_at_4.last_error;
    EXPECT_GE(seen_at_4.stats.frames, 3);
}

// Save scene in a real window writes the scene on screen with its camera; a scene opened with a camera shows
// it, so saving again writes the same view.
TEST(FrameHook, SaveSceneWritesTheSceneAndTheCameraOfTheWindow) {
    const auto dir = std::filesystem::temp_directory_path() / "boids_frame_hook_scene";
    std::filesystem::create_directories(dir);
    Scenario scene = load_preset("vga-scouts");
    scene.agents = {150, 10, 10, 1};
    scene.view.zoom = 2.5;
    scene.view.center_x = 250;
    scene.view.center_y = 200;
    ViewerOptions o;
    o.scenario = scene;
    o.frames = 4;
    o.window_width = 640;
    o.window_height = 480;
    const std::string saved = (dir / "saved.toml").string();
    int calls = 0;
    o.hook = [&](ViewerState& s, SimulationController&) {
        if (++calls == 1) {
            s.params.visual_range = 33;
            s.scene_file = saved;
            s.save_scene = true; // what the panel's button and Ctrl+S do
        }
    };
    std::string why;
    ASSERT_TRUE(run_viewer(o, why)) << why;
    const Scenario back = load_scenario_file(saved);
    EXPECT_EQ(back.view, scene.view);
    EXPECT_EQ(back.params.visual_range, 33.0);
    EXPECT_EQ(back.agents, scene.agents);
    EXPECT_EQ(back.seed, scene.seed);
}
