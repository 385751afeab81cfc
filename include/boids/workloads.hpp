#pragma once
/// Benchmark scenes shared by `bench/`, tests and (later) `boids bench`.

#include "boids/scenario.hpp"

#include <vector>

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

/// Every model and every extension of the classic model at W20's neighbour count, for the every-model
/// table (`boids bench --models`, docs/PERFORMANCE.md): the cost of each per boid-step next to the classic
/// model's. Each scene is a square wrap world (no margins), a synchronous update and a uniform random
/// start, sized so that a boid has on average w20_mean_neighbours others within its model's link_range()
/// (the classic visual range, the topological model's 5 body lengths, the weighted center radius, the
/// Vicsek interaction radius, the Couzin attraction radius); the model's own parameters are its
/// preset's. The first scene is W20 itself; then the topological (k = 7), weighted, Vicsek and Couzin
/// models; then W20 with one classic extension each: field of view 270 degrees, obstacles, food, line of
/// sight, perching, gravity, and predators chasing and pursuing (with W20 plus predators as they fly
/// without an extension, on the fast path). The scene's name labels its row; its description says how
/// it is set up.
[[nodiscard]] std::vector<Scenario> w20_every_model(long long boids);

/// The mean number of other flocking agents (boids and scouts) within link_range(params) of a flocking
/// agent (minimum image on a torus): the neighbour count the every-model scenes are sized for.
template <class Real>
[[nodiscard]] double mean_neighbours(const World<Real>& world, const Params& params);

} // namespace boids
