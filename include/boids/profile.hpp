#pragma once
/// Wall time of the step's phases, like Box2D's b2Profile.

namespace boids {

/// Milliseconds spent in each phase of the last step (see docs/ARCHITECTURE.md).
struct StepProfile {
    double grid_build_ms = 0.0; ///< wrap positions, bin agents into the spatial grids
    double neighbours_ms = 0.0; ///< neighbour pass: every agent's new velocity from the old state
    double integrate_ms = 0.0;  ///< positions advanced, buffers swapped
    double total_ms = 0.0;

    StepProfile& operator+=(const StepProfile& other) {
        grid_build_ms += other.grid_build_ms;
        neighbours_ms += other.neighbours_ms;
        integrate_ms += other.integrate_ms;
        total_ms += other.total_ms;
        return *this;
    }
};

} // namespace boids
