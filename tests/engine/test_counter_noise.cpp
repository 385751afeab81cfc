// The stochastic models' noise (src/counter_noise.hpp): the engine's own logarithm against the C library's
// long double one, the Gaussian draw's moments, and the Gaussians and the uniform draws in SIMD lanes
// (src/noise_lanes.cpp) against the scalar draws, to the bit, on every SIMD target of this CPU.

#include "counter_noise.hpp"
#include "noise_lanes.hpp"

#include "../support/ulps.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace boids {
namespace {

using testing::ulps;

/// Box-Muller's u1 as the draws make it (1 - k 2^-53: every double in (0, 1] it takes is a multiple of
/// 2^-53), at random and at the ends, and around sqrt(1/2), where log_unit halves its mantissa.
std::vector<double> unit_draws() {
    std::mt19937_64 rng(21);
    std::vector<double> u;
    for (int i = 0; i < 400000; ++i) {
        u.push_back(1.0 - static_cast<double>(rng() >> 11) * 0x1.0p-53);
    }
    for (int e = 0; e <= 53; ++e) { // powers of two and their neighbours, down to the least draw
        const double p = std::ldexp(1.0, -e);
        u.insert(u.end(), {p, std::nextafter(p, 0.0), std::nextafter(p, 2.0)});
    }
    for (double m = std::sqrt(0.5); m > 1e-15; m /= 2) {
        u.insert(u.end(), {m, std::nextafter(m, 0.0), std::nextafter(m, 1.0)});
    }
    u.erase(std::remove_if(u.begin(), u.end(), [](double x) { return !(x > 0.0 && x <= 1.0); }), u.end());
    return u;
}

TEST(CounterNoise, LogIsWithinAnUlpOfTheTruth) {
    double worst = 0;
    for (const double x : unit_draws()) {
        const double got = noise::log_unit(x);
        if (x == 1.0) {
            EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(0.0));
            continue;
        }
        worst = std::max(worst, ulps(got, std::log(static_cast<long double>(x))));
    }
    EXPECT_LE(worst, 1.0);
    EXPECT_GT(worst, 0.0); // the truth is not a double: some rounding shows
}

TEST(CounterNoise, NormalDrawsHaveTheStandardMoments) {
    const std::uint64_t key = noise::step_key(7, 3);
    const int n = 400000;
    double sum = 0, squares = 0, fourth = 0;
    for (int i = 0; i < n; ++i) {
        const double z = noise::normal(key, static_cast<std::uint64_t>(i), 0);
        sum += z;
        squares += z * z;
        fourth += z * z * z * z;
    }
    EXPECT_NEAR(sum / n, 0.0, 0.01);
    EXPECT_NEAR(squares / n, 1.0, 0.01);
    EXPECT_NEAR(fourth / n, 3.0, 0.05);
}

TEST(CounterNoise, LanesGiveTheScalarBitsOnEverySimdTarget) {
    const std::vector<double> u1 = unit_draws();
    std::mt19937_64 rng(22);
    std::vector<double> u2(u1.size());
    for (double& u : u2) {
        u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    }
    u2.front() = 0.0;
    u2.back() = std::nextafter(1.0, 0.0);
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        for (const std::size_t n : {u1.size(), std::size_t{5}, std::size_t{1}}) { // a partial last vector too
            std::vector<double> out(n);
            noise::gaussian_lanes(u1.data(), u2.data(), n, out.data());
            std::size_t differ = 0;
            for (std::size_t i = 0; i < n; ++i) {
                differ += std::bit_cast<std::uint64_t>(out[i]) !=
                          std::bit_cast<std::uint64_t>(noise::gaussian(u1[i], u2[i]));
            }
            EXPECT_EQ(differ, 0u) << n;
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(CounterNoise, DrawsInLanesGiveTheScalarBitsOnEverySimdTarget) {
    std::mt19937_64 rng(23);
    std::vector<std::uint32_t> ids{0, 1, 2, 0x85157af5u, 0xffffffffu, 0x7ffffffau};
    while (ids.size() < 1000) {
        ids.push_back(static_cast<std::uint32_t>(rng()));
    }
    const std::uint64_t keys[] = {0, ~std::uint64_t{0}, noise::step_key(7, 3), rng()};
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        for (const std::uint64_t key : keys) {
            for (const std::size_t n : {ids.size(), std::size_t{13}, std::size_t{1}}) { // partial vectors
                for (const std::uint64_t stream : {0, 1, 5}) {
                    std::vector<double> u1(n), u2(n), u(n);
                    noise::normal_draw_lanes(key, ids.data(), n, stream, u1.data(), u2.data());
                    noise::uniform_lanes(key, ids.data(), n, stream, u.data());
                    std::size_t differ = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        const noise::NormalDraw draw = noise::normal_draw(key, ids[i], stream);
                        differ +=
                            std::bit_cast<std::uint64_t>(u1[i]) != std::bit_cast<std::uint64_t>(draw.u1);
                        differ +=
                            std::bit_cast<std::uint64_t>(u2[i]) != std::bit_cast<std::uint64_t>(draw.u2);
                        differ += std::bit_cast<std::uint64_t>(u[i]) !=
                                  std::bit_cast<std::uint64_t>(noise::uniform01(key, ids[i], stream));
                    }
                    EXPECT_EQ(differ, 0u) << "key " << key << ", n " << n << ", stream " << stream;
                }
            }
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

} // namespace
} // namespace boids
