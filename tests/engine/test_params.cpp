#include "boids/error.hpp"
#include "boids/params.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace boids {
namespace {

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(Params, DefaultsAreTheVgaPredatorPresetAndValid) {
    const Params p;
    EXPECT_EQ(p.width, 640);
    EXPECT_EQ(p.height, 480);
    EXPECT_EQ(p.visual_range, 40);
    EXPECT_EQ(p.protected_range, 8);
    EXPECT_EQ(p.centering_factor, 0.0005);
    EXPECT_EQ(p.avoid_factor, 0.05);
    EXPECT_EQ(p.matching_factor, 0.05);
    EXPECT_EQ(p.turn_factor, 0.2);
    EXPECT_EQ(p.max_speed, 6);
    EXPECT_EQ(p.min_speed, 3);
    EXPECT_EQ(p.predator_range, 100);
    EXPECT_EQ(p.predator_turn_factor, 0.5);
    EXPECT_EQ(p.max_bias, 0.01);
    EXPECT_EQ(p.bias_increment, 0.00004);
    EXPECT_EQ(p.scout1_bias, 0.001);
    EXPECT_EQ(p.boundary, Boundary::Margin);
    EXPECT_NO_THROW(validate(p));
}

TEST(Params, SetAndGetEveryKeyRoundTrips) {
    Params p;
    for (const ParamInfo& info : param_table()) {
        const std::string before = get_param(p, info.key);
        set_param(p, info.key, before);
        EXPECT_EQ(get_param(p, info.key), before) << info.key;
    }
    set_param(p, "visual_range", "33.25");
    EXPECT_EQ(p.visual_range, 33.25);
    EXPECT_EQ(get_param(p, "visual_range"), "33.25");
    set_param(p, "boundary", "wrap");
    EXPECT_EQ(p.boundary, Boundary::Wrap);
    set_param(p, "dynamic_bias", "true");
    EXPECT_TRUE(p.dynamic_bias);
    set_param(p, "margin", "20");
    EXPECT_EQ(p.margin_left, 20);
    EXPECT_EQ(p.margin_right, 20);
    EXPECT_EQ(p.margin_top, 20);
    EXPECT_EQ(p.margin_bottom, 20);
}

TEST(Params, RejectsBadValuesNamingFieldValueAndRange) {
    Params p;
    const Params before = p;
    std::string m = message_of([&] { set_param(p, "visual_range", "-1"); });
    EXPECT_NE(m.find("visual_range"), std::string::npos) << m;
    EXPECT_NE(m.find("-1"), std::string::npos) << m;
    EXPECT_NE(m.find("[0, 100000]"), std::string::npos) << m;
    for (const char* bad : {"abc", "nan", "inf", "-inf", "", "1x", "1e999"}) {
        m = message_of([&] { set_param(p, "avoid_factor", bad); });
        EXPECT_NE(m.find("avoid_factor"), std::string::npos) << bad << ": " << m;
    }
    m = message_of([&] { set_param(p, "no_such_key", "1"); });
    EXPECT_NE(m.find("no_such_key"), std::string::npos) << m;
    m = message_of([&] { set_param(p, "boundary", "sphere"); });
    EXPECT_NE(m.find("margin | wrap"), std::string::npos) << m;
    m = message_of([&] { set_param(p, "dynamic_bias", "maybe"); });
    EXPECT_NE(m.find("dynamic_bias"), std::string::npos) << m;
    EXPECT_EQ(p, before) << "a rejected value must leave the parameters unchanged";
}

TEST(Params, ValidateChecksCrossFieldConstraints) {
    Params p;
    p.min_speed = 7; // above max_speed 6
    std::string m = message_of([&] { validate(p); });
    EXPECT_NE(m.find("min_speed"), std::string::npos) << m;
    EXPECT_NE(m.find("max_speed"), std::string::npos) << m;

    p = Params{};
    p.margin_left = p.margin_right = 320; // nothing left of a 640 wide world
    m = message_of([&] { validate(p); });
    EXPECT_NE(m.find("width"), std::string::npos) << m;

    p = Params{};
    p.margin_top = 300;
    p.margin_bottom = 200;
    m = message_of([&] { validate(p); });
    EXPECT_NE(m.find("height"), std::string::npos) << m;

    p = Params{};
    p.protected_range = -2; // set directly, bypassing set_param
    m = message_of([&] { validate(p); });
    EXPECT_NE(m.find("protected_range"), std::string::npos) << m;
}

} // namespace
} // namespace boids
