#pragma once
/// Where the cells of a grid line begin, as positions of the simulation's scalar type. Internal: used by
/// the fast step to bin positions with comparisons instead of divisions, and by its tests.

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace boids::detail {

/// SpatialGrid's line index of a position before clamping: floor((p - origin) / cell), in double.
inline double unclamped_line(double p, double origin, double cell) {
    return std::floor((p - origin) / cell);
}

/// The least position x of type Real whose line index (SpatialGrid::cell_of: unclamped_line clamped to
/// [0, n - 1]) is at least c, for 1 <= c <= n - 1. The index is a non-decreasing function of x (rounding,
/// division by a positive cell and floor all preserve order), so the boundary is one Real value, found by
/// stepping from the nearest guess: at most a few units in the last place away.
template <class Real>
Real line_lower_bound(double origin, double cell, int c) {
    const double target = c;
    const Real up = std::numeric_limits<Real>::infinity();
    Real x = static_cast<Real>(origin + target * cell);
    while (unclamped_line(static_cast<double>(x), origin, cell) >= target) {
        x = std::nextafter(x, -up);
    }
    while (unclamped_line(static_cast<double>(x), origin, cell) < target) {
        x = std::nextafter(x, up);
    }
    return x;
}

/// The table the fast kernel bins with, for a line of n cells: entry i is the least position whose index
/// is at least i - 1, so entries 0 and 1 are -infinity (every position is in cell 0 or later), entries 2
/// to n are line_lower_bound(2 - 1 ... n - 1), and the rest, up to `padding` past entry n + 2, are
/// +infinity (no position is in cell n). A position x of cell c (entries c + 1 <= x < c + 2) that moved
/// less than a cell is in cell c - 1 + (x >= entry[c + 1]) + (x >= entry[c + 2]), which holds whenever
/// entry[c] <= x < entry[c + 3].
template <class Real>
std::vector<Real> line_bound_table(double origin, double cell, int n, std::size_t padding) {
    const Real inf = std::numeric_limits<Real>::infinity();
    std::vector<Real> table(static_cast<std::size_t>(n) + 3 + padding, inf);
    table[0] = table[1] = -inf;
    for (int c = 1; c < n; ++c) {
        table[static_cast<std::size_t>(c) + 1] = line_lower_bound<Real>(origin, cell, c);
    }
    return table;
}

} // namespace boids::detail
