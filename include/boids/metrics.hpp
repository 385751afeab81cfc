#pragma once
/// Whole-flock measures printed in run summaries.

#include "boids/world.hpp"

namespace boids {

/// Measures over the flocking agents (boids and scouts; predators excluded).
struct FlockSummary {
    double mean_speed = 0.0;   ///< pixels per step
    double polarization = 0.0; ///< norm of the mean unit velocity: 1 = all aligned, ~0 = disordered
    bool finite = true;        ///< false if any coordinate of any agent is NaN or infinite
};

template <class Real>
[[nodiscard]] FlockSummary summarize(const World<Real>& world);

} // namespace boids
