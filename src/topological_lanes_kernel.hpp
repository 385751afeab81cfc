#pragma once
// The topological model's steering per agent in SIMD lanes (internal): Policy::bearings and
// Policy::new_heading over a chunk of agents, with their arithmetic (IEEE operations in their order, their
// branches as selects), compiled for every instruction set Highway targets and dispatched at run time.
// The arc tangents between the two are angle::atan2_lanes'.

#include <cstddef>
#include <cstdint>

namespace boids::fast {

/// What topological::Policy's bearings and new_heading take besides an agent and its sums.
struct TopologicalSteering {
    double too_close;      ///< TopologicalParams::too_close()
    double align_within;   ///< TopologicalParams::align_within()
    double tolerance;      ///< 0.5 + adherence * 5 / 1000 (degrees)
    double turn_rate;      ///< base_turn_rate * frame_time (degrees per step)
    double edge_turn_rate; ///< degrees per step at the very edge
    bool positive_range;   ///< headings in [0, 360)
    bool margins;          ///< neither wrap: the margins turn the agents
    double width, height, margin_left, margin_top, margin_right, margin_bottom;
};

/// One chunk's columns, an entry per agent: what its sums and position give (count, x_sum, y_sum,
/// nearest_dx, nearest_dy, x, y; count as a double), what bearings gives (aim_y, aim_x, target_distance,
/// flee as 1 or 0), and the arc tangents new_heading takes (own and aim, in radians).
struct TopologicalColumns {
    const double *count, *x_sum, *y_sum, *nearest_dx, *nearest_dy, *x, *y;
    const double *s_sin_sum, *s_cos_sum; ///< the sums' sine and cosine sums
    double *aim_y, *aim_x, *target_distance, *flee;
    const double *own_angle, *aim_angle;
};

/// What Policy::accumulate reads of a chunk of agents (slots [first, first + n)) and their nearest: the
/// grid's columns, each slot's unit heading, the torus, and each agent's list (its m-th nearest is slot
/// nearest[m * stride + i] for the chunk's i-th agent, m < count[i]).
template <class Real>
struct TopologicalNeighbours {
    const Real *x, *y, *vx, *vy; ///< the grid's columns, by slot
    const double *ux, *uy;       ///< each slot's unit heading
    bool wrap;
    Real width, height, half_width, half_height;
    const std::uint32_t* nearest;
    std::size_t stride;
    const int* count;
    int k; ///< the longest list
};

/// What the sums give each agent of the chunk: Policy::Sums' count (as a double), x_sum, y_sum,
/// nearest_dx and nearest_dy, sin_sum and cos_sum; and its position and velocity as doubles.
struct TopologicalSums {
    double *count, *x_sum, *y_sum, *nearest_dx, *nearest_dy, *x, *y, *sin_sum, *cos_sum, *vy, *vx;
};

/// Policy::accumulate over each agent's nearest, nearest first, for the chunk's agents from slot `first`.
void topological_sums(const TopologicalNeighbours<float>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out);
void topological_sums(const TopologicalNeighbours<double>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out);

/// Policy::bearings for agents [0, n): aim_y, aim_x, target_distance and flee.
void topological_bearings(const TopologicalSteering& steering, const TopologicalColumns& columns,
                          std::size_t n);

/// radians(Policy::new_heading) for agents [0, n), given their bearings and arc tangents.
void topological_new_heading(const TopologicalSteering& steering, const TopologicalColumns& columns,
                             std::size_t n, double* radians_now);

} // namespace boids::fast
