// The control protocol against a viewer's requests (`boids view --control`), without a window.

#include "viewer_control.hpp"

#include <gtest/gtest.h>

namespace boids::viewer {
namespace {

TEST(ViewerControl, EveryCommandIsAnsweredAndActsOnTheRequests) {
    ViewerState state;
    state.counts = AgentCounts{100, 0, 0, 1};
    EXPECT_EQ(execute_viewer_command(state, "set visual_range 30"), "ok visual_range=30");
    EXPECT_EQ(state.params.visual_range, 30);
    EXPECT_EQ(execute_viewer_command(state, "get visual_range"), "ok visual_range=30");
    EXPECT_NE(execute_viewer_command(state, "params").find("visual_range=30"), std::string::npos);
    EXPECT_EQ(execute_viewer_command(state, "pause"), "ok paused=true");
    EXPECT_TRUE(state.paused);
    EXPECT_EQ(execute_viewer_command(state, "resume"), "ok paused=false");
    EXPECT_EQ(execute_viewer_command(state, "step 5"), "ok queued=5");
    EXPECT_EQ(state.single_steps, 5);
    EXPECT_EQ(execute_viewer_command(state, "spawn boid 50"), "ok boids=150");
    EXPECT_EQ(execute_viewer_command(state, "remove predator 9"), "ok predators=0");
    EXPECT_EQ(state.counts, (AgentCounts{150, 0, 0, 0}));
    EXPECT_EQ(execute_viewer_command(state, "reset"), "ok reset");
    EXPECT_TRUE(state.reset);
    state.stats.steps_taken = 42;
    EXPECT_EQ(execute_viewer_command(state, "stats").rfind("ok steps=42 boids=", 0), 0u);
    EXPECT_EQ(execute_viewer_command(state, "quit"), "ok quit");
    EXPECT_TRUE(state.quit);
}

TEST(ViewerControl, BadCommandsChangeNothing) {
    ViewerState state;
    const ViewerState before = state;
    for (const char* line : {"set visual_range -4", "set visual_range abc", "set nosuch 1", "get nosuch",
                             "step 0", "step x", "spawn dragon 3", "spawn boid -1", "remove boid many",
                             "frobnicate", "", "set min_speed 99", "set visual_range"}) {
        const std::string reply = execute_viewer_command(state, line);
        EXPECT_EQ(reply.rfind("error ", 0), 0u) << line << " -> " << reply;
        EXPECT_EQ(reply.find('\n'), std::string::npos);
    }
    EXPECT_EQ(state.params, before.params);
    EXPECT_EQ(state.counts, before.counts);
    EXPECT_EQ(state.single_steps, 0);
    EXPECT_FALSE(state.quit);
}

} // namespace
} // namespace boids::viewer

TEST(ViewerControl, QueuedStepsAreBoundedByTheirWorkLikeTheHeadlessPort) {
    boids::viewer::ViewerState s;
    s.stats.agents.boids = 1'000'000; // 10^7 agent-steps: ten steps of a million boids at most
    EXPECT_EQ(boids::viewer::execute_viewer_command(s, "step 6"), "ok queued=6");
    const std::string refused = boids::viewer::execute_viewer_command(s, "step 6");
    EXPECT_EQ(refused.rfind("error ", 0), 0u) << refused;
    EXPECT_NE(refused.find("step N"), std::string::npos) << refused;
    EXPECT_EQ(s.single_steps, 6);
    EXPECT_EQ(boids::viewer::execute_viewer_command(s, "step 4"), "ok queued=10");
}
