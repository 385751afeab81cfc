#pragma once
// Counter-based random numbers for the stochastic models (internal).
//
// A draw is a pure function of (seed, step, agent, stream), so every agent's noise is the same whichever
// thread handles it and in whatever order: the stream cannot depend on the thread count.

#include <cmath>
#include <cstdint>

namespace boids::noise {

/// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche.
[[nodiscard]] constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// 64 random bits for one (seed, step, agent, stream) tuple.
[[nodiscard]] constexpr std::uint64_t bits(std::uint64_t seed, std::uint64_t step, std::uint64_t agent,
                                           std::uint64_t stream) {
    std::uint64_t h = mix(seed + 0x9e3779b97f4a7c15ULL);
    h = mix(h ^ (step + 0x632be59bd9b4e019ULL));
    h = mix(h ^ (agent + 0x85157af5ULL));
    return mix(h ^ stream);
}

/// Uniform in [0, 1) from the top 53 bits.
[[nodiscard]] constexpr double uniform01(std::uint64_t seed, std::uint64_t step, std::uint64_t agent,
                                         std::uint64_t stream) {
    return static_cast<double>(bits(seed, step, agent, stream) >> 11) * 0x1.0p-53;
}

/// Standard normal by Box-Muller from streams 2*stream and 2*stream + 1.
[[nodiscard]] inline double normal(std::uint64_t seed, std::uint64_t step, std::uint64_t agent,
                                   std::uint64_t stream) {
    const double u1 = 1.0 - uniform01(seed, step, agent, 2 * stream); // (0, 1]: log is finite
    const double u2 = uniform01(seed, step, agent, 2 * stream + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace boids::noise
