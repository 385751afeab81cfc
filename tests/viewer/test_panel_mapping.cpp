// The panel's sliders and how an edit becomes a validated parameter change, without a window.

#include "panel_mapping.hpp"

#include "boids/params.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace boids;
using namespace boids::viewer;

TEST(PanelMapping, EveryNumericParameterHasOneSliderWithinItsAllowedRange) {
    std::set<std::string> keys;
    for (const SliderSpec& s : parameter_sliders()) {
        EXPECT_TRUE(keys.insert(std::string(s.key)).second) << "duplicate slider " << s.key;
        EXPECT_LT(s.min, s.max) << s.key;
    }
    std::size_t numbers = 0;
    for (const ParamInfo& info : param_table()) {
        if (info.kind != std::string_view("number")) {
            continue; // switches and choices have their own controls
        }
        ++numbers;
        const SliderSpec* s = find_slider(info.key);
        ASSERT_NE(s, nullptr) << "no slider for " << info.key;
        EXPECT_GE(s->min, info.min) << info.key;
        EXPECT_LE(s->max, info.max) << info.key;
    }
    EXPECT_EQ(keys.size(), numbers);
}

TEST(PanelMapping, LabRangesAndLogScaleForTheFactors) {
    const auto expect = [](const char* key, double lo, double hi, bool log) {
        const SliderSpec* s = find_slider(key);
        ASSERT_NE(s, nullptr) << key;
        EXPECT_EQ(s->min, lo) << key;
        EXPECT_EQ(s->max, hi) << key;
        EXPECT_EQ(s->logarithmic, log) << key;
    };
    // The ECE 4760 lab page's ranges (docs/MODEL.md §2.1).
    expect("protected_range", 0, 100, false);
    expect("visual_range", 0, 200, false);
    expect("centering_factor", 0.0002, 1, true);
    expect("avoid_factor", 0.01, 1, true);
    expect("matching_factor", 0.01, 1, true);
    // No lab range: param_table()'s, on a log scale.
    expect("predator_range", 0, 1e5, true);
    expect("turn_factor", 0, 1000, true);
    expect("predator_turn_factor", 0, 1000, true);
    expect("scout1_bias", 0, 1, true);
}

TEST(PanelMapping, AnEditChangesExactlyThatParameter) {
    Params p;
    const Params before = p;
    EXPECT_EQ(apply_param_edit(p, "visual_range", 55.5), std::nullopt);
    EXPECT_EQ(p.visual_range, 55.5);
    Params expected = before;
    expected.visual_range = 55.5;
    EXPECT_EQ(p, expected);
    EXPECT_EQ(slider_value(p, "visual_range"), 55.5);
    // Shortest round-trip text: the double arrives bit-exact.
    EXPECT_EQ(apply_param_edit(p, "centering_factor", 0.1 + 0.2), std::nullopt);
    EXPECT_EQ(p.centering_factor, 0.1 + 0.2);
}

TEST(PanelMapping, SwitchesAcceptTheirWordsOnly) {
    Params p;
    EXPECT_EQ(apply_param_edit(p, "boundary", std::string_view("wrap")), std::nullopt);
    EXPECT_EQ(p.boundary, Boundary::Wrap);
    EXPECT_EQ(apply_param_edit(p, "dynamic_bias", std::string_view("true")), std::nullopt);
    EXPECT_TRUE(p.dynamic_bias);
    const Params before = p;
    const auto error = apply_param_edit(p, "boundary", std::string_view("bounce"));
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("margin | wrap"), std::string::npos) << *error;
    EXPECT_EQ(p, before);
}

TEST(PanelMapping, RejectedEditsLeaveTheParametersUnchangedAndSayWhy) {
    Params p;
    const Params before = p;
    // Cross-field: min_speed above max_speed.
    auto error = apply_param_edit(p, "min_speed", 7.0);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("min_speed"), std::string::npos) << *error;
    EXPECT_NE(error->find("max_speed"), std::string::npos) << *error;
    EXPECT_EQ(p, before);
    // Out of the allowed range (typed with ctrl+click).
    error = apply_param_edit(p, "avoid_factor", 2.0);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("avoid_factor"), std::string::npos) << *error;
    EXPECT_EQ(p, before);
    // Margins that leave no room inside the world.
    error = apply_param_edit(p, "margin_left", 600.0);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("width"), std::string::npos) << *error;
    EXPECT_EQ(p, before);
    // Not a number.
    EXPECT_TRUE(apply_param_edit(p, "visual_range", std::numeric_limits<double>::quiet_NaN()));
    EXPECT_TRUE(apply_param_edit(p, "visual_range", std::numeric_limits<double>::infinity()));
    EXPECT_EQ(p, before);
    // Unknown key.
    EXPECT_TRUE(apply_param_edit(p, "no_such_key", 1.0));
    EXPECT_EQ(p, before);
}

TEST(PanelMapping, CountEdits) {
    AgentCounts c{10, 1, 2, 3};
    EXPECT_EQ(apply_count_edit(c, "boids", 5000), std::nullopt);
    EXPECT_EQ(c, (AgentCounts{5000, 1, 2, 3}));
    EXPECT_EQ(count_value(c, "predators"), 3);
    EXPECT_TRUE(apply_count_edit(c, "boids", -1));
    EXPECT_TRUE(apply_count_edit(c, "dragons", 1));
    EXPECT_EQ(c, (AgentCounts{5000, 1, 2, 3}));
    ASSERT_EQ(count_sliders().size(), 4u);
    for (const SliderSpec& s : count_sliders()) {
        EXPECT_EQ(s.min, 0) << s.key;
        EXPECT_NO_THROW((void)count_value(c, s.key));
    }
}

TEST(PanelMapping, ObstacleEditsAreValidatedWithTheOtherParameters) {
    Params p;
    const Params before = p;
    EXPECT_EQ(apply_obstacles_edit(p, {parse_obstacle("circle 100 100 20"), parse_obstacle("rect 1 2 3 4")}),
              std::nullopt);
    ASSERT_EQ(p.obstacles.size(), 2u);
    EXPECT_EQ(p.obstacles[1], parse_obstacle("rect 1 2 3 4"));
    // A circle without radius is refused whole: the two good obstacles stay, nothing else changes.
    Obstacle dot;
    dot.x = 5;
    dot.y = 5;
    const Params with_two = p;
    const auto error = apply_obstacles_edit(p, {parse_obstacle("circle 300 300 10"), dot});
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("obstacle 2"), std::string::npos) << *error;
    EXPECT_NE(error->find("radius"), std::string::npos) << *error;
    EXPECT_EQ(p, with_two);
    // Clearing.
    EXPECT_EQ(apply_obstacles_edit(p, {}), std::nullopt);
    EXPECT_EQ(p, before);
}
