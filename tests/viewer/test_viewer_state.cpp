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
} // namespace boids::viewer
