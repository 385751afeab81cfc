#pragma once
// How many threads a step uses (internal): one rule for the plain path and the fast path.

#include <cstddef>

namespace boids {

/// Below this many agents a step runs on one thread: a step then takes microseconds and waking threads
/// (several fork/join points per step) costs more than it saves. Any thread count gives the same bits, so
/// this is purely a matter of speed.
inline constexpr std::size_t serial_below = 4096;

/// The threads a step of `agents` agents uses when `threads` are available.
inline int step_threads(std::size_t agents, int threads) {
    return agents < serial_below ? 1 : threads;
}

} // namespace boids
