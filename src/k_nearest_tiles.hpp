#pragma once
// The topological fast pass's k-nearest search over tiles of agents (internal): for consecutive slots of a
// planar grid, k_nearest's lists, to the bit, with the agents of a tile in SIMD lanes.
//
// With about one agent per cell, an agent's k = 7 nearest nearly always lie within two cells and farther
// than one, so k_nearest takes them from the 5 x 5 cells around the agent's. Agents in consecutive slots of
// one row of cells share most of those cells: a tile of them (float lanes from float storage, double lanes
// otherwise; see splits_512_bit_operations) reads each shared candidate once, broadcast to every lane, and
// each lane keeps its own sorted list of the nearest in registers (a candidate sinks through it by min and
// max, no branch per lane). The candidates each lane may see are exactly its own 5 x 5 cells (a lane ignores
// the tile's other columns).
//
// A lane's list is k_nearest's when the lane's k-th lies within two cells and not within one, and no two of
// its distances tie or lie closer than a float's rounding could misorder (the lanes rank by distance and a
// candidate's place in the tile, not by world index), or when its k-th lies within one cell and all k lie in
// its 3 x 3 cells. Every other agent (fewer than k within two cells, a k-th within one with a neighbour
// beyond the 3 x 3 cells, such a tie, a crowd of more candidates than a tile lists, k above max_tile_k, a 3D
// grid or one of fewer than 5 x 5 cells) takes k_nearest_two_rings, which gives k_nearest's list in every
// case. Agents with fewer than k within two cells (the ring search goes on to ring 3) take tiles of their
// own over their 7 x 7 cells, those of a row close together, answered in the same way; the rest of them
// take k_nearest_past_two_rings, which does not look within two cells again.

#include "boids/detail/neighbour_search.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace boids {

/// Whether this CPU executes a 512-bit vector operation as two 256-bit halves (AMD's Zen 4): there a tile
/// takes half a vector on AVX-512, 8 agents in float lanes whose block lists 5 x 12 cells' candidates, 7.5
/// half-width candidate vectors per agent, where a tile of 16 lists 5 x 20 cells' in 6.25 whole ones per
/// agent (in double lanes 4 agents, 10 half-width vectors each, against 8 and 7.5 whole ones).
/// Elsewhere (Intel's AVX-512 cores, which issue a 512-bit operation as fast as a 256-bit one) a tile takes
/// a whole vector.
bool splits_512_bit_operations();

/// For tests: a tile's width on AVX-512 forced to half a vector (true) or a whole one (false); nullopt:
/// splits_512_bit_operations decides.
void force_half_tiles(std::optional<bool> half);

/// The largest k the tiles rank in lanes; larger k go agent by agent.
inline constexpr int max_tile_k = 8;

/// Each slot's grid column and row (detail::clamped_line of its position), as doubles: what the tiles
/// read of every candidate.
struct SlotLines {
    const double* column;
    const double* row;
};

/// SlotLines of slots [begin, end) of `grid` into column[s] and row[s], in lanes.
void slot_lines(const SpatialGrid<float>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                double* row);
void slot_lines(const SpatialGrid<double>& grid, std::uint32_t begin, std::uint32_t end, double* column,
                double* row);

/// The k nearest of every agent in slots [begin, end) of `grid` (a flock grid of ~1 agent per cell, whose
/// slot_lines are `lines`), as k_nearest lists them for the agent's own position and world index: agent
/// s's m-th nearest is slot nearest[m * stride + (s - begin)], for m < count[s - begin] (stride >= end -
/// begin: a level of every agent's list after another, as a chunk's lanes read them).
void k_nearest_tiles(const SpatialGrid<float>& grid, SlotLines lines, std::uint32_t begin, std::uint32_t end,
                     int k, bool wrap, float width, float height, std::uint32_t* nearest, std::size_t stride,
                     int* count);
void k_nearest_tiles(const SpatialGrid<double>& grid, SlotLines lines, std::uint32_t begin, std::uint32_t end,
                     int k, bool wrap, double width, double height, std::uint32_t* nearest,
                     std::size_t stride, int* count);

} // namespace boids
