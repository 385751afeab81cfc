#pragma once
// The SIMD neighbour scan of the metrics (internal): every flocking agent's nearest other agent and the
// links that make groups, over a grid's slots in cell order. Compiled once per instruction set by Highway,
// like the fast step's kernel; metrics.cpp keeps the plain scan as the readable reference it is tested
// against (tests/engine/test_metrics_kernel.cpp).

#include "concurrent_union_find.hpp"

#include <cstddef>
#include <cstdint>

namespace boids::fast {

/// A grid of agents as SpatialGrid holds them: slots in cell order, cells numbered
/// (layer * ny + row) * nx + col, the slots of cell k being [cell_start[k], cell_start[k + 1]).
template <class Real>
struct MetricsFlock {
    const Real* x = nullptr;
    const Real* y = nullptr;
    const Real* z = nullptr; ///< nullptr in a planar grid
    const std::uint32_t* cell_start = nullptr;
    std::size_t slots = 0;
    int nx = 1, ny = 1, nz = 1;
    bool wrap = false;                             ///< minimum-image distances, and the grid a torus
    double width = 0.0, height = 0.0, depth = 0.0; ///< the torus' periods (wrap only)
    /// Wrap only: every slot lies inside the torus ([0, width) x [0, height) x [0, depth)) and the grid
    /// has at least 6 cells along each axis (then only cells at a seam need minimum images).
    bool inside = false;
    double link2 = 0.0;  ///< pairs closer than the link range (squared) are united
    double range2 = 0.0; ///< the grid's range, squared: an agent with nothing closer is searched exhaustively
};

/// For every slot s of the grid lines [line_begin, line_end) (line = layer * ny + row): nearest[s] = the
/// distance to the nearest other slot (0 if there is none), and sets.unite(s, t) for every later slot t
/// closer than the link range. Distances are computed in double exactly as the plain scan computes them
/// (the same differences, minimum images and sums of squares), and a minimum and a set of links do not
/// depend on the order they are found in: the results are the plain scan's, on every instruction set.
void metrics_lines(const MetricsFlock<float>& flock, int line_begin, int line_end,
                   detail::ConcurrentUnionFind& sets, double* nearest);
void metrics_lines(const MetricsFlock<double>& flock, int line_begin, int line_end,
                   detail::ConcurrentUnionFind& sets, double* nearest);

} // namespace boids::fast
