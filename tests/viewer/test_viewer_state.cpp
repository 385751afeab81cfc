#include "viewer_state.hpp"

#include <gtest/gtest.h>

namespace boids::viewer {
namespace {

TEST(MetricsHistory, KeepsTheLastSamplesInOrder) {
    MetricsHistory h;
    for (int i = 0; i < 350; ++i) {
        h.push(i / 1000.0, 0.5, 10, i, 4, 0.25);
    }
    ASSERT_EQ(h.polarization.size(), MetricsHistory::capacity);
    EXPECT_FLOAT_EQ(h.groups.front(), 50.0f); // the 50 oldest were dropped
    EXPECT_FLOAT_EQ(h.groups.back(), 349.0f);
    EXPECT_FLOAT_EQ(h.frac_right.back(), 0.25f);
    h.clear();
    EXPECT_TRUE(h.milling.empty());
}

TEST(SimRate, AnyWholeRateFromOneToAThousandOrMax) {
    EXPECT_EQ(parse_sim_rate("1"), SimRate{1});
    EXPECT_EQ(parse_sim_rate("10"), SimRate{10});
    EXPECT_EQ(parse_sim_rate("1000"), SimRate{1000});
    EXPECT_EQ(parse_sim_rate("max"), SimRate::Unlimited);
    for (const char* bad : {"0", "1001", "-5", "2.5", "", "60 ", "fast"}) {
        EXPECT_FALSE(parse_sim_rate(bad).has_value()) << bad;
    }
    EXPECT_EQ(steps_per_second(SimRate{10}), 10.0);
    EXPECT_EQ(steps_per_second(SimRate::Unlimited), 0.0);
    EXPECT_EQ(sim_rate_name(SimRate{10}), "10");
    EXPECT_EQ(sim_rate_name(SimRate::Unlimited), "max");
}

} // namespace

// The HUD and the grow search name what takes a frame's time: three steps of 2 ms against 5 ms of drawing
// is the step; one step of 0.03 ms against 80 ms of software drawing is the drawing.
TEST(ViewerState, TheBottleneckIsThePartThatCostsMorePerFrame) {
    EXPECT_EQ(frame_bottleneck(2.0, 3.0, 5.0), Bottleneck::Step);
    EXPECT_EQ(frame_bottleneck(0.03, 1.0, 80.0), Bottleneck::Drawing);
    EXPECT_STREQ(bottleneck_name(Bottleneck::Drawing), "drawing");
    EXPECT_STREQ(bottleneck_name(Bottleneck::Step), "the step");
}

// The HUD's step line says which path took the last step, once there is one.
TEST(ViewerState, TheStepLineNamesThePathThatTookTheLastStep) {
    StepProfile fast;
    fast.fast_steps = 1;
    EXPECT_EQ(step_path_note(fast, 12, "AVX2"), " (fast path, AVX2)");
    EXPECT_EQ(step_path_note(StepProfile{}, 12, "AVX2"), " (plain path)");
    EXPECT_EQ(step_path_note(StepProfile{}, 0, "AVX2"), "");
}

} // namespace boids::viewer
