#pragma once
/// Neighbour queries built on SpatialGrid that several models share (an engine internal).

#include "boids/detail/spatial_grid.hpp"

#include <array>
#include <cstdint>

namespace boids {

/// The largest k a k-nearest query supports.
inline constexpr int max_k_nearest = 64;

/// One neighbour found by a query: its grid slot, world index, and squared distance (in double, from the
/// scalar's minimum-image differences, so every precision ranks the same way).
struct FoundNeighbour {
    std::uint32_t slot;
    std::uint32_t index;
    double distance2;
};

/// The k nearest neighbours of a point, nearest first; ties go to the lower world index.
struct KNearest {
    std::array<FoundNeighbour, max_k_nearest> found{};
    int count = 0;
};

/// Adds a candidate to `out`, kept sorted nearest first (ties to the lower index) and at most k long.
void offer_nearest(KNearest& out, int k, const FoundNeighbour& candidate);

/// True when (x, y) lies in the 3 x 3 block of square cells of side `cell` (cells counted from the
/// origin, as PyNBoids' grid counts them) centred on the cell of (px, py). No block crosses a torus' seam.
bool in_cell_block(double px, double py, double x, double y, double cell);

/// Finds exactly the k nearest grid members to (px, py), excluding world index `self`, by searching rings
/// of cells outward until no unvisited cell can hold anything nearer than the k-th found. `wrap`, `width`
/// and `height` give the minimum image on a torus. 1 <= k <= max_k_nearest. `block_cell` > 0 takes only
/// members whose stored position lies in the 3 x 3 block of cells of that side around (px, py)
/// (in_cell_block), so fewer than k may be found.
template <class Real>
void k_nearest(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
               Real width, Real height, KNearest& out, double block_cell = 0.0);

} // namespace boids
