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

/// W20 in 3D: the same parameters in a cubic wrap world (dimensions = 3) at the density that gives the same
/// mean neighbour count, 20 / (4/3 pi 40^3).
[[nodiscard]] Scenario w20_3d_scenario(long long boids);

/// The lab's challenge scene: the default `vga-predator` preset (margin boundary, 2 predators) grown to
/// `boids` boids at the preset's own density. The area inside the 100 px margins scales with the boid
/// count (500 boids per 440 x 280 px, aspect kept), so the margins, ranges and speeds are unchanged and
/// a boid sees as many neighbours as in the 640 x 480 original; the predator count stays 2.
[[nodiscard]] Scenario vga_predator_at_density(long long boids);

} // namespace boids
