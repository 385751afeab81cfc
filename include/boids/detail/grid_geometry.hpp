#pragma once
/// The geometry of the uniform neighbour grid, one definition shared by SpatialGrid (the plain path) and
/// the fast path, which must bin every agent into the same cell to sum its neighbours in the same order.
/// (An engine internal, public only because SpatialGrid is.)

#include <array>
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
/// `depth` > 0 makes a 3D grid. The cell count is capped near the member count in every case: beyond
/// that cells would be mostly empty, and the grid's memory would follow the space the agents span (which
/// input can make as large as it likes) instead of their number.
[[nodiscard]] GridGeometry grid_geometry(double range, std::size_t members, bool wrap, double width,
                                         double height, double depth, const MemberBox& box);

} // namespace boids::detail
