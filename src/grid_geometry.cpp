#include "boids/detail/grid_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace boids::detail {

namespace {

constexpr double cell_margin = 1.0 + 1e-6;

/// Cells per line for `extent` cut into cells of at least `cell` (at least one).
int cells_along(double extent, double cell) {
    const double n = std::floor(extent / cell);
    return static_cast<int>(std::clamp(n, 1.0, static_cast<double>(std::numeric_limits<int>::max() / 4)));
}

/// Cells of size `cell` covering `span` (at least one).
int cells_over(double span, double cell) {
    return static_cast<int>(
               std::min(std::floor(span / cell), static_cast<double>(std::numeric_limits<int>::max() / 4))) +
           1;
}

double count(const GridGeometry& g) {
    return static_cast<double>(g.nx) * g.ny * g.nz;
}

} // namespace

GridGeometry grid_geometry(double range, std::size_t members, bool wrap, double width, double height,
                           double depth, const MemberBox& box) {
    const bool three_d = depth > 0;
    // A grid without a range (the topological model's: its ring search looks for the k nearest wherever
    // they are) has about one member per cell, otherwise two cells per member at most. With fewer members
    // per cell the search steps over more cells (memory it waits for) for hardly fewer candidates.
    const double per_member = range > 0 ? 2.0 : 1.0;
    const double max_cells = std::max(16.0, per_member * static_cast<double>(members));
    // The shrink below assumes every axis is long; a flock strung out along one axis (or a torus much
    // longer than wide) can leave far more cells than that. Past this bound the cells grow further.
    const double hard_cap = 8.0 * max_cells;
    double cell = std::max(range * cell_margin, std::numeric_limits<double>::min());
    GridGeometry g;
    if (wrap) {
        g.nx = cells_along(width, cell);
        g.ny = cells_along(height, cell);
        g.nz = three_d ? cells_along(depth, cell) : 1;
        if (count(g) > max_cells) {
            const double shrink = three_d ? std::cbrt(count(g) / max_cells) : std::sqrt(count(g) / max_cells);
            g.nx = std::max(1, static_cast<int>(g.nx / shrink));
            g.ny = std::max(1, static_cast<int>(g.ny / shrink));
            g.nz = three_d ? std::max(1, static_cast<int>(g.nz / shrink)) : 1;
        }
        while (count(g) > hard_cap) { // halve the longest axis: cells still tile the torus exactly
            int& longest = g.nx >= g.ny && g.nx >= g.nz ? g.nx : (g.ny >= g.nz ? g.ny : g.nz);
            longest = std::max(1, longest / 2);
        }
        g.cell_w = width / g.nx;
        g.cell_h = height / g.ny;
        g.cell_d = three_d ? depth / g.nz : 1.0;
        return g;
    }
    const double span_x = box.hi[0] - box.lo[0], span_y = box.hi[1] - box.lo[1];
    const double span_z = three_d ? box.hi[2] - box.lo[2] : 0.0;
    const auto cells_for = [&](double side) {
        return three_d ? (span_x / side + 1.0) * (span_y / side + 1.0) * (span_z / side + 1.0)
                       : (span_x / side + 1.0) * (span_y / side + 1.0);
    };
    double covered = cells_for(cell);
    if (std::isinf(covered)) {
        // A grid without a range starts from a cell of no size, whose count overflows: start instead from
        // the longest span cut into max_cells, a finite count to shrink from below.
        cell = std::max(cell, std::max({span_x, span_y, span_z}) / max_cells);
        covered = cells_for(cell);
    }
    if (covered > max_cells) {
        cell *= three_d ? std::cbrt(covered / max_cells) : std::sqrt(covered / max_cells);
    }
    const auto lay_out = [&] {
        g.nx = cells_over(span_x, cell);
        g.ny = cells_over(span_y, cell);
        g.nz = three_d ? cells_over(span_z, cell) : 1;
    };
    lay_out();
    while (count(g) > hard_cap) {
        cell *= 2;
        lay_out();
    }
    g.origin_x = box.lo[0];
    g.origin_y = box.lo[1];
    g.cell_w = g.cell_h = cell;
    if (three_d) {
        g.origin_z = box.lo[2];
        g.cell_d = cell;
    }
    return g;
}

} // namespace boids::detail
