#pragma once
/// Wall time of the step's phases, like Box2D's b2Profile, and whether the fast path took the step.

namespace boids {

/// Milliseconds spent in each phase of the last step (see docs/ARCHITECTURE.md), or of every step so far.
struct StepProfile {
    double grid_build_ms = 0.0; ///< wrap positions, bin agents into the spatial grids
    double neighbours_ms = 0.0; ///< neighbour pass: every agent's new velocity from the old state
    double integrate_ms = 0.0;  ///< positions advanced, buffers swapped
    double total_ms = 0.0;
    /// Steps the fast path took (the SIMD kernel, or a model's fast pass): 0 or 1 in one step's profile,
    /// so that a run's total says whether its scene stayed on the fast path.
    long long fast_steps = 0;

    StepProfile& operator+=(const StepProfile& other) {
        grid_build_ms += other.grid_build_ms;
        neighbours_ms += other.neighbours_ms;
        integrate_ms += other.integrate_ms;
        total_ms += other.total_ms;
        fast_steps += other.fast_steps;
        return *this;
    }
};

} // namespace boids
