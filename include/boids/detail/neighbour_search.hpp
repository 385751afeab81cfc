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

/// Finds exactly the k nearest grid members to (px, py), excluding world index `self`, by searching rings
/// of cells outward until no unvisited cell can hold anything nearer than the k-th found. `wrap`, `width`
/// and `height` give the minimum image on a torus. 1 <= k <= max_k_nearest.
template <class Real>
void k_nearest(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
               Real width, Real height, KNearest& out);

} // namespace boids
