// The engine's own sine, cosine and arc tangent (src/angle_math.hpp) against the C library's long double
// functions, their exact values where there are some, and their SIMD lanes (src/angle_lanes.cpp) against
// the scalar functions, to the bit, on every SIMD target of this CPU.

#include "angle_lanes.hpp"
#include "angle_math.hpp"

#include "../support/ulps.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

namespace boids {
namespace {

using testing::ulps;

/// Angles as the heading models meet them (a mean heading plus noise: a few pi at most), and some further
/// out.
std::vector<double> angles() {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> near(-4.0 * std::numbers::pi, 4.0 * std::numbers::pi);
    std::uniform_real_distribution<double> far(-1.0e6, 1.0e6);
    std::vector<double> x;
    for (int i = 0; i < 400000; ++i) {
        x.push_back(near(rng));
    }
    for (int i = 0; i < 20000; ++i) {
        x.push_back(far(rng));
    }
    for (int k = -16; k <= 16; ++k) { // the doubles nearest the multiples of pi/4, where quadrants meet
        const double at = k * std::numbers::pi / 4.0;
        x.insert(x.end(), {at, std::nextafter(at, -INFINITY), std::nextafter(at, INFINITY)});
    }
    x.insert(x.end(), {1e-300, -1e-300, 1e-10, 0.5, 1.0});
    return x;
}

/// Points in every octant, on the axes and diagonals, of very different sizes.
void points(std::vector<double>& y, std::vector<double>& x) {
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> scale(-60, 60);
    for (int i = 0; i < 400000; ++i) {
        y.push_back(std::ldexp(unit(rng), scale(rng)));
        x.push_back(std::ldexp(unit(rng), scale(rng)));
    }
    for (int i = 0; i < 100000; ++i) { // sums of a few unit headings, as the models take them
        y.push_back(unit(rng) * 20.0);
        x.push_back(unit(rng) * 20.0);
    }
    for (const double a : {1.0, -1.0, 3.0, -3.0, 1e-200, -1e200}) {
        for (const double b : {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, a, -a}) {
            y.push_back(a);
            x.push_back(b);
            y.push_back(b);
            x.push_back(a);
        }
    }
}

TEST(AngleMath, SineAndCosineAreWithinAnUlpOfTheTruth) {
    double worst_sin = 0.0, worst_cos = 0.0;
    for (const double x : angles()) {
        const angle::SinCos sc = angle::sin_cos(x);
        if (std::fabs(x) < 1.0e5) {
            worst_sin = std::max(worst_sin, ulps(sc.sin, std::sin(static_cast<long double>(x))));
            worst_cos = std::max(worst_cos, ulps(sc.cos, std::cos(static_cast<long double>(x))));
        } else { // further out the reduction keeps about 2^-70 of the angle: an absolute error
            EXPECT_NEAR(sc.sin, std::sin(static_cast<long double>(x)), 1e-15) << x;
            EXPECT_NEAR(sc.cos, std::cos(static_cast<long double>(x)), 1e-15) << x;
        }
        EXPECT_LE(std::fabs(sc.sin), 1.0) << x;
        EXPECT_LE(std::fabs(sc.cos), 1.0) << x;
    }
    EXPECT_LE(worst_sin, 1.0);
    EXPECT_LE(worst_cos, 1.0);
    RecordProperty("worst_sin_ulps", std::to_string(worst_sin));
    RecordProperty("worst_cos_ulps", std::to_string(worst_cos));
}

TEST(AngleMath, ArcTangentIsWithinAnUlpOfTheTruth) {
    std::vector<double> y, x;
    points(y, x);
    double worst = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (y[i] == 0.0 && x[i] == 0.0) {
            continue;
        }
        worst = std::max(worst, ulps(angle::atan2(y[i], x[i]), std::atan2(static_cast<long double>(y[i]),
                                                                          static_cast<long double>(x[i]))));
    }
    EXPECT_LE(worst, 1.0);
    RecordProperty("worst_atan2_ulps", std::to_string(worst));
}

TEST(AngleMath, ExactWhereTheTruthIsADouble) {
    EXPECT_EQ(angle::sin_cos(0.0).sin, 0.0);
    EXPECT_EQ(angle::sin_cos(0.0).cos, 1.0);
    EXPECT_EQ(angle::atan2(0.0, 1.0), 0.0);
    EXPECT_EQ(angle::atan2(0.0, -1.0), std::numbers::pi);
    EXPECT_EQ(angle::atan2(-0.0, -1.0), -std::numbers::pi);
    EXPECT_EQ(angle::atan2(1.0, 0.0), std::numbers::pi / 2);
    EXPECT_EQ(angle::atan2(-5.0, 0.0), -std::numbers::pi / 2);
    EXPECT_EQ(angle::atan2(2.0, 2.0), std::numbers::pi / 4);
    EXPECT_EQ(angle::atan2(-2.0, -2.0), -3 * std::numbers::pi / 4);
    // As IEEE's atan2 at the origin: the sign of y, and pi when x is -0.
    EXPECT_TRUE(std::signbit(angle::atan2(-0.0, 0.0)));
    EXPECT_EQ(angle::atan2(0.0, 0.0), 0.0);
    EXPECT_EQ(angle::atan2(0.0, -0.0), std::numbers::pi);
    for (const double x : angles()) { // sin^2 + cos^2 stays 1, within the rounding of this sum
        const angle::SinCos sc = angle::sin_cos(x);
        EXPECT_NEAR(sc.sin * sc.sin + sc.cos * sc.cos, 1.0, 5e-16) << x;
    }
}

std::uint64_t bits(double x) {
    return std::bit_cast<std::uint64_t>(x);
}

TEST(AngleMath, LanesGiveTheScalarBitsOnEverySimdTarget) {
    std::vector<double> x = angles();
    x.push_back(0.25); // an odd count: a partial last vector
    std::vector<double> py, px;
    points(py, px);
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        std::vector<double> sin(x.size()), cos(x.size()), angle(py.size());
        angle::sin_cos_lanes(x.data(), x.size(), sin.data(), cos.data());
        angle::atan2_lanes(py.data(), px.data(), py.size(), angle.data());
        int differ = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const angle::SinCos sc = angle::sin_cos(x[i]);
            differ += bits(sin[i]) != bits(sc.sin) || bits(cos[i]) != bits(sc.cos);
        }
        for (std::size_t i = 0; i < py.size(); ++i) {
            differ += bits(angle[i]) != bits(angle::atan2(py[i], px[i]));
        }
        EXPECT_EQ(differ, 0) << "SIMD target " << hwy::TargetName(target);
    }
    hwy::SetSupportedTargetsForTest(0);
}

} // namespace
} // namespace boids
