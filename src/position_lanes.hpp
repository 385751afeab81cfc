#pragma once
// Moving a flock's positions by its new velocities and wrapping them onto the torus a vector of agents at
// a time (internal; Simulation's integrate and grid phases): the sums and the wraps of
// classic::wrap_position, the same bits, without a branch per agent.

#include <cstddef>

namespace boids {

/// p[i] = p[i] + v[i] for i in [0, n) (v may be nullptr: no move), then, with `wrap`, each position onto
/// [0, length) as classic::wrap_position puts it.
void move_positions(float* p, const float* v, std::size_t n, bool wrap, float length);
void move_positions(double* p, const double* v, std::size_t n, bool wrap, double length);

} // namespace boids
