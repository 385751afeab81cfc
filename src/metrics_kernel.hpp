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

/// For every slot s of the grid lines [line_begin, line_end) (line = layer * ny + row), against the forward
/// half of its neighbours (its cell's later slots, and the cells after its own in the 3 x 3 (x 3) block:
/// the next column; the next row; in 3D, the next layer): lowers nearest2[s] and nearest2[t] to the squared
/// distance between s and t where it is smaller, and unites s and t in `sets` where t is closer than the
/// link range. Every pair of neighbours is met from one of its two slots, so once every line is done
/// (nearest2 starting at infinity), nearest2[s] is the squared distance from s to its nearest other slot in
/// the 3 x 3 (x 3) cells around it. The lines of one call write nearest2 in their own rows and in the row
/// after them (in 3D, their own layers and the layer after them): calls on other lines may run at the same
/// time when neither writes the other's. With `owned`, the calling thread alone touches the sets of those
/// slots while the call runs (no link has yet joined them to slots beyond), and reads and links them with
/// plain loads and stores; otherwise other threads may link at the same time.
///
/// Distances are computed in double exactly as the plain scan computes them (the same differences, minimum
/// images and sums of squares; a difference is the negative of the reverse one, so a pair's distance is the
/// same bits from either end), and a minimum and a set of links do not depend on the order they are found
/// in: the results are the plain scan's, on every instruction set.
void metrics_lines(const MetricsFlock<float>& flock, int line_begin, int line_end, bool owned,
                   detail::ConcurrentUnionFind& sets, double* nearest2);
void metrics_lines(const MetricsFlock<double>& flock, int line_begin, int line_end, bool owned,
                   detail::ConcurrentUnionFind& sets, double* nearest2);

/// For every slot s in [slot_begin, slot_end) whose nearest2[s] is not below the grid's range (squared):
/// nearest2[s] = the squared distance to the nearest other slot of the whole grid (infinity if there is
/// none), searched exhaustively, as the plain scan does for an agent with no neighbour in range.
void metrics_isolated(const MetricsFlock<float>& flock, std::size_t slot_begin, std::size_t slot_end,
                      double* nearest2);
void metrics_isolated(const MetricsFlock<double>& flock, std::size_t slot_begin, std::size_t slot_end,
                      double* nearest2);

} // namespace boids::fast
