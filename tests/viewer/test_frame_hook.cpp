// The frame hook: an outside controller changes a running viewer between steps (run under xvfb-run).

#include "panel_mapping.hpp"
#include "viewer.hpp"

#include "boids/control_protocol.hpp"
#include "boids/scenario.hpp"

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
