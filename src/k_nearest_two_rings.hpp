#pragma once
// The topological fast pass's k-nearest search (internal): k_nearest's answer, to the bit, from the 5 x 5
// cells around an agent taken at once.
//
// With about one agent per cell (the grid k_nearest asks for), the k = 7 nearest nearly always lie within
// two cells and farther than one: k_nearest then visits rings 0, 1 and 2 a cell at a time, offering each of
// ~25 candidates to its sorted list with a branch that cannot be predicted. This search reads the block's
// rows as runs of slots, takes their distances in SIMD lanes, drops those two rings away or farther, and
// ranks the rest at once, each by the count of those nearer, compared in lanes. Then it applies the ring
// search's stopping rule to what it found: a k-th nearer than one ring, it takes the 3 x 3 cells' own list
// where that one's k-th is nearer than one ring too; fewer than k nearer than two rings, the 7 x 7 cells'
// k nearer than three, and past that k_nearest itself.

#include "boids/detail/neighbour_search.hpp"

#include <cstdint>

namespace boids {

/// k_nearest(grid, px, py, self, k, wrap, width, height, out) with block_cell 0: the same list, in the same
/// order, on any grid (a 3D grid, or one of fewer than 5 x 5 cells, takes k_nearest).
void k_nearest_two_rings(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                         bool wrap, float width, float height, KNearest& out);
void k_nearest_two_rings(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self, int k,
                         bool wrap, double width, double height, KNearest& out);

/// k_nearest_two_rings for an agent that has fewer than k others nearer than two rings in its 5 x 5 cells
/// (as a tile of k_nearest_tiles finds): the same list, without looking for them there again.
void k_nearest_past_two_rings(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                              bool wrap, float width, float height, KNearest& out);
void k_nearest_past_two_rings(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self,
                              int k, bool wrap, double width, double height, KNearest& out);

} // namespace boids
