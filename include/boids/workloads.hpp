#pragma once
/// Benchmark scenes shared by `bench/`, tests and (later) `boids bench`.

#include "boids/scenario.hpp"

namespace boids {

/// Mean number of other boids within visual range in the W20 workload.
inline constexpr double w20_mean_neighbours = 20.0;

/// W20: the classic model with vga-predator's parameters (visual range 40, protected 8), no predators,
/// a square wrap world sized so that a boid has on average 20 others within visual range
/// (density 20 / (pi 40^2)), uniform random start. Wrap keeps the density uniform.
[[nodiscard]] Scenario w20_scenario(long long boids);

} // namespace boids
