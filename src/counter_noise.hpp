#pragma once
// Counter-based random numbers for the stochastic models (internal).
//
// A draw is a pure function of (seed, step, agent, stream), so every agent's noise is the same whichever
// thread handles it and in whatever order: the stream cannot depend on the thread count. The function is
// SplitMix64's finaliser applied four times, to the seed, the step, the agent and the stream in turn; the
// first two are the same for every draw of a step (step_key) and the third for every stream of an agent
// (agent_key), so a model takes them once.

#include <cmath>
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

/// Standard normal by Box-Muller from an agent's streams 2*stream and 2*stream + 1.
[[nodiscard]] inline double normal(std::uint64_t step_key, std::uint64_t agent, std::uint64_t stream) {
    const std::uint64_t key = agent_key(step_key, agent);
    const double u1 = 1.0 - stream_uniform01(key, 2 * stream); // (0, 1]: log is finite
    const double u2 = stream_uniform01(key, 2 * stream + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace boids::noise
