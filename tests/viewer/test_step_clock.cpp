// Fixed-rate stepping: steps follow real time, and a slow step drops its backlog instead of spiralling.

#include "step_clock.hpp"

#include <gtest/gtest.h>

using boids::viewer::StepClock;

TEST(StepClock, ThirtyStepsPerSecondWhateverTheFrameRate) {
    for (double fps : {15.0, 30.0, 60.0, 144.0}) {
        StepClock clock;
        long long steps = 0;
        for (int frame = 0; frame < static_cast<int>(fps * 10); ++frame) {
            const auto b = clock.advance(1.0 / fps, 30.0);
            EXPECT_FALSE(b.dropped) << fps;
            steps += b.steps;
        }
        EXPECT_NEAR(static_cast<double>(steps), 300.0, 1.0) << fps;
    }
}

TEST(StepClock, AnyRateFromOneToAThousand) {
    for (double rate : {1.0, 10.0, 60.0, 1000.0}) { // the slowest, Downey's, PyNBoids', the fastest
        StepClock clock;
        long long steps = 0;
        for (int frame = 0; frame < 600; ++frame) { // 10 s at 60 frames per second
            const auto b = clock.advance(1.0 / 60.0, rate);
            EXPECT_FALSE(b.dropped) << rate;
            steps += b.steps;
        }
        EXPECT_NEAR(static_cast<double>(steps), 10 * rate, 1.0) << rate;
    }
}

TEST(StepClock, ASlowFrameDropsTheBacklogAndSaysSo) {
    StepClock clock(0.1);
    const auto b = clock.advance(2.0, 30.0); // a 2 s hiccup would be 60 steps
    EXPECT_TRUE(b.dropped);
    EXPECT_LE(b.steps, 5); // 1 + 0.1 s of backlog at 30 steps/s, no catching up
    const auto next = clock.advance(1.0 / 30.0, 30.0);
    EXPECT_FALSE(next.dropped);
    EXPECT_LE(next.steps, 2);
}

TEST(StepClock, ResetForgetsAccumulatedTime) {
    StepClock clock;
    (void)clock.advance(0.02, 30.0); // 0.6 of a step
    clock.reset();
    EXPECT_EQ(clock.advance(0.02, 30.0).steps, 0);
}
