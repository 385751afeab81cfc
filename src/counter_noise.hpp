#pragma once
// Counter-based random numbers for the stochastic models (internal).
//
// A draw is a pure function of (seed, step, agent, stream), so every agent's noise is the same whichever
// thread handles it and in whatever order: the stream cannot depend on the thread count. The function is
// SplitMix64's finaliser applied four times, to the seed, the step, the agent and the stream in turn; the
// first two are the same for every draw of a step (step_key) and the third for every stream of an agent
// (agent_key), so a model takes them once. A normal draw takes the engine's own logarithm and cosine, so
// that it too is the same with every C library.

#include "angle_math.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace boids::noise {

/// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche.
[[nodiscard]] constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// The key every draw of one (seed, step) starts from: a model takes it once per step, not per draw.
[[nodiscard]] constexpr std::uint64_t step_key(std::uint64_t seed, std::uint64_t step) {
    return mix(mix(seed + 0x9e3779b97f4a7c15ULL) ^ (step + 0x632be59bd9b4e019ULL));
}

/// An agent's key within a step: its draws of every stream start from it.
[[nodiscard]] constexpr std::uint64_t agent_key(std::uint64_t step_key, std::uint64_t agent) {
    return mix(step_key ^ (agent + 0x85157af5ULL));
}

/// Uniform in [0, 1) from the top 53 bits of one stream of an agent's key.
[[nodiscard]] constexpr double stream_uniform01(std::uint64_t agent_key, std::uint64_t stream) {
    return static_cast<double>(mix(agent_key ^ stream) >> 11) * 0x1.0p-53;
}

/// Uniform in [0, 1) for one (step key, agent, stream).
[[nodiscard]] constexpr double uniform01(std::uint64_t step_key, std::uint64_t agent, std::uint64_t stream) {
    return stream_uniform01(agent_key(step_key, agent), stream);
}

/// The constants of log_unit.
namespace log_constants {
/// ln 2 in two parts: the first with its low 20 bits zero, so that e * ln2_hi is exact for |e| < 2^20.
inline constexpr double ln2_hi = 0x1.62e42feep-1, ln2_lo = 0x1.a39ef35793c76p-33;
inline constexpr double sqrt_two = 0x1.6a09e667f3bcdp+0;
/// 2/3, 2/5, ..., 2/23: 2 atanh s = 2s + s z (2/3 + 2z/5 + ...) for z = s^2.
inline constexpr std::array<double, 11> series = [] {
    std::array<double, 11> c{};
    for (std::size_t k = 0; k < c.size(); ++k) {
        c[k] = 2.0 / static_cast<double>(2 * k + 3);
    }
    return c;
}();
} // namespace log_constants

/// ln x for a normal x in (0, 1] (every u1 Box-Muller takes), with the same bits on every machine and C
/// library, and in lanes (noise_lanes.cpp). x = 2^e m with m in [sqrt(1/2), sqrt(2)) (both exact), f = m - 1
/// (exact), s = f / (2 + f), and ln m = 2 atanh s = f - f^2/2 + s (f^2/2 + R), R = s^2 (2/3 + ...): the
/// arrangement of fdlibm's log, with |s| < 0.172, so that eleven terms of the series reach 2^-60. Within an
/// ulp of ln x (tests/engine/test_counter_noise.cpp).
[[nodiscard]] inline double log_unit(double x) {
    using namespace log_constants;
    const auto bits = std::bit_cast<std::uint64_t>(x);
    double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL); // [1, 2)
    double e = static_cast<double>(static_cast<std::int64_t>(bits >> 52) - 1023);
    if (m >= sqrt_two) {
        m *= 0.5;
        e += 1.0;
    }
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    const double r = z * angle::horner(z, series);
    const double half_square = 0.5 * f * f;
    return e * ln2_hi - ((half_square - (s * (half_square + r) + e * ln2_lo)) - f);
}

/// A standard normal by Box-Muller from u1 in (0, 1] and u2 in [0, 1), with the engine's own logarithm and
/// cosine (angle_math.hpp), so that the draw is the same with every C library.
[[nodiscard]] inline double gaussian(double u1, double u2) {
    return std::sqrt(-2.0 * log_unit(u1)) * angle::sin_cos(6.283185307179586 * u2).cos;
}

/// Box-Muller's u1 (in (0, 1]: its log is finite) and u2 from an agent's streams 2*stream and 2*stream + 1.
struct NormalDraw {
    double u1, u2;
};
[[nodiscard]] inline NormalDraw normal_draw(std::uint64_t step_key, std::uint64_t agent,
                                            std::uint64_t stream) {
    const std::uint64_t key = agent_key(step_key, agent);
    return {1.0 - stream_uniform01(key, 2 * stream), stream_uniform01(key, 2 * stream + 1)};
}

/// Standard normal by Box-Muller from an agent's streams 2*stream and 2*stream + 1.
[[nodiscard]] inline double normal(std::uint64_t step_key, std::uint64_t agent, std::uint64_t stream) {
    const NormalDraw draw = normal_draw(step_key, agent, stream);
    return gaussian(draw.u1, draw.u2);
}

} // namespace boids::noise
