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

} // namespace
} // namespace boids::viewer
