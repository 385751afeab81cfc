// The "grow until the rate drops" search, fed synthetic measurements.

#include "grow_controller.hpp"

#include <gtest/gtest.h>

using boids::viewer::GrowController;

namespace {

/// A machine whose step rate is `capacity / flock` steps/s: it holds 30 steps/s up to capacity / 30.
double machine(long long flock, double capacity) {
    return capacity / static_cast<double>(flock);
}

/// Runs the search to the end; returns the answer and counts the measurements.
long long search(GrowController& g, double capacity, int& rounds) {
    long long flock = g.next_flock();
    rounds = 0;
    while (!g.finished() && rounds < 200) {
        flock = g.observe(flock, machine(flock, capacity));
        ++rounds;
    }
    return flock;
}

} // namespace

TEST(GrowController, FindsTheLargestFlockThatHoldsTheRateWithinTheResolution) {
    for (double capacity : {3.0e5, 3.0e6, 1.2e7, 1.0e8}) {
        GrowController g(30.0, 1000);
        int rounds = 0;
        const long long answer = search(g, capacity, rounds);
        ASSERT_TRUE(g.finished()) << capacity;
        const double exact = capacity / (0.95 * 30.0); // largest flock with rate >= 95% of target
        EXPECT_LE(answer, exact) << capacity;          // never reports a flock that missed
        EXPECT_GE(answer, exact / 1.05) << capacity;   // within the resolution
        EXPECT_EQ(answer, g.largest_held());
        EXPECT_LT(rounds, 30) << capacity;
    }
}

TEST(GrowController, DoublesWhileTheRateHolds) {
    GrowController g(60.0, 1000);
    EXPECT_EQ(g.next_flock(), 1000);
    EXPECT_EQ(g.observe(1000, 60.0), 2000);
    EXPECT_EQ(g.observe(2000, 59.0), 4000); // 59 >= 0.95 * 60 holds
    EXPECT_EQ(g.largest_held(), 2000);
    EXPECT_FALSE(g.finished());
}

TEST(GrowController, BisectsAfterTheFirstMiss) {
    GrowController g(30.0, 1000);
    g.observe(1000, 30.0);
    g.observe(2000, 30.0);
    const long long next = g.observe(4000, 20.0); // missed
    EXPECT_EQ(g.smallest_missed(), 4000);
    EXPECT_GT(next, 2000);
    EXPECT_LT(next, 4000);
}

TEST(GrowController, ShrinksWhenEvenTheStartMisses) {
    GrowController g(30.0, 100000);
    EXPECT_EQ(g.observe(100000, 5.0), 50000);
    EXPECT_EQ(g.largest_held(), 0);
}

TEST(GrowController, NoisyContradictionsDoNotStallTheSearch) {
    GrowController g(30.0, 1000);
    g.observe(1000, 30.0);
    g.observe(2000, 10.0); // miss
    g.observe(1500, 30.0); // hold
    g.observe(1800, 30.0); // hold
    g.observe(1000, 10.0); // a hiccup: a smaller flock missed
    EXPECT_LT(g.largest_held(), g.smallest_missed());
    int rounds = 0;
    while (!g.finished() && rounds++ < 100) {
        g.observe(g.next_flock(), machine(g.next_flock(), 30.0 * 1700));
    }
    EXPECT_TRUE(g.finished());
}
