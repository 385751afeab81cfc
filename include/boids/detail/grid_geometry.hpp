#pragma once
/// The geometry of the uniform neighbour grid, one definition shared by SpatialGrid (the plain path) and
/// the fast path, which must bin every agent into the same cell to sum its neighbours in the same order.
/// (An engine internal, public only because SpatialGrid is.)

#include <array>
#include <cmath>
#include <cstddef>

namespace boids::detail {

/// nx x ny x nz cells of cell_w x cell_h x cell_d from the origin; planar grids have nz = 1.
struct GridGeometry {
    double origin_x = 0.0, origin_y = 0.0, cell_w = 1.0, cell_h = 1.0;
    int nx = 1, ny = 1;
    double origin_z = 0.0, cell_d = 1.0;
    int nz = 1;

    [[nodiscard]] std::size_t cell_count() const {
        return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz);
    }
    bool operator==(const GridGeometry&) const = default;
};

/// The members' bounding box, per axis (x, y, z), for a grid in margin mode.
struct MemberBox {
    std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
};

/// What a grid's geometry depends on besides the ranges and the world's size: how many members it bins
/// and (margin mode) their bounding box. A grid over part of a flock (a rank's agents and their halo) is
/// given the whole flock's, so that it bins every agent into the same cell as one process would.
struct GridExtent {
    std::size_t members = 0;
    MemberBox box;
};

/// Cells are never smaller than `range` (with a relative margin of 1e-6, so that rounding in the cell
/// computation cannot put two agents closer than the range more than one cell apart). On a torus
/// (`wrap`) the grid tiles width x height (x depth); otherwise it covers `box`, the members' bounding box.
/// `depth` > 0 makes a 3D grid. The cell count is capped near the member count in every case (at about
/// one cell per member for a grid without a range, two with one): beyond
/// that cells would be mostly empty, and the grid's memory would follow the space the agents span (which
/// input can make as large as it likes) instead of their number.
[[nodiscard]] GridGeometry grid_geometry(double range, std::size_t members, bool wrap, double width,
                                         double height, double depth, const MemberBox& box);

/// The smallest side of a cell (of a box when `three_d`).
[[nodiscard]] inline double min_cell(const GridGeometry& g, bool three_d) {
    const double planar = g.cell_w < g.cell_h ? g.cell_w : g.cell_h;
    return three_d && g.cell_d < planar ? g.cell_d : planar;
}

/// std::fmin(std::fmax(f, lo), hi) for a line number (a NaN gives lo), without a call into the maths
/// library (GCC calls fmin and fmax unless NaNs are ruled out): grid queries run it for every agent.
[[nodiscard]] inline double clamp_line(double f, double lo, double hi) {
    const double above = f >= lo ? f : lo;
    return above > hi ? hi : above;
}

/// The line (column, row or layer) of n that holds position p, a point outside the grid taking the nearest.
[[nodiscard]] inline int clamped_line(double p, double origin, double cell, int n) {
    const double f = std::floor((p - origin) / cell);
    return static_cast<int>(clamp_line(f, 0.0, n - 1.0));
}

/// Calls fn(line, distance) for each distinct line of n within `ring` of line c, in ascending order; on a
/// torus (`wrap`) lines and distances wrap around.
template <class Fn>
void for_lines_within(int c, int ring, int n, bool wrap, Fn&& fn) {
    if (wrap && 2 * ring + 1 >= n) {
        for (int line = 0; line < n; ++line) {
            const int d = line > c ? line - c : c - line;
            fn(line, n - d < d ? n - d : d);
        }
        return;
    }
    for (int offset = -ring; offset <= ring; ++offset) {
        int line = c + offset;
        if (wrap) {
            line = line < 0 ? line + n : (line >= n ? line - n : line);
        } else if (line < 0 || line >= n) {
            continue;
        }
        fn(line, offset < 0 ? -offset : offset);
    }
}

/// Calls visit(cell) for every cell exactly `ring` cells away (Chebyshev distance on the grid, wrapped on a
/// torus) from the cell of (px, py, pz), in a fixed order: layers, then rows, then columns, each ascending.
/// Returns false once `ring` lies wholly outside the grid (so larger rings are empty too). A planar grid
/// (`three_d` false) ignores pz. This order is the one SpatialGrid's searches and the fast path's predators
/// share, so that sums over what they find are taken in the same order.
template <class Visit>
bool for_each_cell_in_ring(const GridGeometry& g, bool wrap, bool three_d, double px, double py, double pz,
                           int ring, Visit&& visit) {
    const int cx = clamped_line(px, g.origin_x, g.cell_w, g.nx);
    const int cy = clamped_line(py, g.origin_y, g.cell_h, g.ny);
    const int cz = three_d ? clamped_line(pz, g.origin_z, g.cell_d, g.nz) : 0;
    bool any = false;
    // Whether the columns within `ring` wrap onto each other (then each distinct column is visited once).
    const bool columns_overlap = wrap && 2 * ring + 1 >= g.nx;
    for_lines_within(cz, three_d ? ring : 0, g.nz, wrap, [&](int layer, int dlayer) {
        for_lines_within(cy, ring, g.ny, wrap, [&](int row, int drow) {
            const auto cell = [&](int col) {
                any = true;
                visit((static_cast<std::size_t>(layer) * static_cast<std::size_t>(g.ny) +
                       static_cast<std::size_t>(row)) *
                          static_cast<std::size_t>(g.nx) +
                      static_cast<std::size_t>(col));
            };
            const bool inner_row = drow < ring && (dlayer < ring || !three_d);
            if (inner_row && !columns_overlap) {
                // Only the two columns `ring` away lie on the ring: those for_lines_within would reach
                // first and last, without stepping over the ones between.
                for (const int offset : {-ring, ring}) {
                    int col = cx + offset;
                    if (wrap) {
                        col = col < 0 ? col + g.nx : (col >= g.nx ? col - g.nx : col);
                    } else if (col < 0 || col >= g.nx) {
                        continue;
                    }
                    cell(col);
                }
                return;
            }
            for_lines_within(cx, ring, g.nx, wrap, [&](int col, int dcol) {
                if (dcol < ring && inner_row) {
                    return; // inside: an earlier ring
                }
                cell(col);
            });
        });
    });
    return any;
}

/// Calls visit(cell) for every cell that can hold points within `range` of (px, py, pz), for ranges larger
/// than a cell too: rings 0 to ceil(range / min_cell) in turn, each cell once.
template <class Visit>
void for_each_cell_within(const GridGeometry& g, bool wrap, bool three_d, double px, double py, double pz,
                          double range, Visit&& visit) {
    const int rings = static_cast<int>(std::ceil(range / min_cell(g, three_d)));
    for (int ring = 0; ring <= rings; ++ring) {
        if (!for_each_cell_in_ring(g, wrap, three_d, px, py, pz, ring, visit)) {
            return;
        }
    }
}

} // namespace boids::detail
