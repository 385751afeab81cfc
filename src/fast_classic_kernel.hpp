#pragma once
// The SIMD neighbour pass of the fast classic step (internal), for 2D and 3D worlds. The flocking agents
// are given in cell order; the kernel puts the agents of a tile of cells in SIMD lanes and broadcasts
// every candidate neighbour to them. Compiled once per instruction set by Highway; the best one the CPU
// supports is chosen at run time.

#include "boids/detail/grid_geometry.hpp"
#include "boids/kind.hpp"
#include "classic_rules.hpp"
#include "food_rules.hpp"
#include "obstacle_rules.hpp"
#include "perch_rules.hpp"

#include <cstddef>
#include <cstdint>

namespace boids::fast {

/// A grid's placement: cell (col, row, layer) = (min((x - origin_x) / cell_w, nx - 1), same for y and z),
/// truncated, for positions >= the origin; cells are numbered (layer * ny + row) * nx + col. Computed in
/// double exactly as SpatialGrid::build does. A planar grid has one layer.
using CellGeometry = detail::GridGeometry;

/// Everything the neighbour pass reads and writes, for one step. Arrays in "slot" order are the
/// flocking agents sorted by cell (counting sort, world order within a cell); they are padded with
/// at least two vectors of zeros, so that two full-width loads from the last slot on are safe.
template <class Real>
struct FlockInCellOrder {
    classic::Constants<Real> c;

    // Grid: nx x ny x nz cells, numbered as in CellGeometry; slots of cell k are
    // [cell_start[k], cell_start[k + 1]). A "line" of cells is one row of one layer: line = layer * ny + row.
    int nx = 1, ny = 1, nz = 1;
    const std::uint32_t* cell_start = nullptr;

    // Old state of the flocking agents, slot order (read only).
    const Real* x = nullptr;
    const Real* y = nullptr;
    const Real* vx = nullptr;
    const Real* vy = nullptr;
    const Real* z = nullptr; // 3D only (c.three_d)
    const Real* vz = nullptr;
    // The world index of each slot (ties of Flake's line of sight; perching's ids).
    const std::uint32_t* agent = nullptr;

    // Predators' old positions (read only), in world order.
    const Real* predator_x = nullptr;
    const Real* predator_y = nullptr;
    const Real* predator_z = nullptr; // 3D only
    std::size_t predators = 0;

    // Kinds and biases in slot order, read only when the world holds scouts.
    const Kind* kind = nullptr;
    const Real* bias = nullptr;
    bool has_scouts = false;

    // New state, slot order (written; positions wrapped in wrap mode, bias only when has_scouts).
    Real* new_x = nullptr;
    Real* new_y = nullptr;
    Real* new_vx = nullptr;
    Real* new_vy = nullptr;
    Real* new_z = nullptr; // 3D only
    Real* new_vz = nullptr;
    Real* new_bias = nullptr;

    // Obstacles (docs/MODEL.md §3): `obstacles` reach boxes (obstacle_reach_boxes), and the parameters
    // that hold the obstacles themselves, their margin, turn factor and the depth. The lanes the boxes
    // cannot rule out take the plain path's functions (obstacle_rules.hpp), lane by lane.
    const ReachBox<Real>* obstacle_reach = nullptr;
    std::size_t obstacles = 0;
    const Params* params = nullptr;
    // Food (docs/MODEL.md §3): `food_sources` reach boxes (food_reach_boxes) at this step, `step`; the
    // sources themselves are in `params`. Lanes inside a box take seek_food, lane by lane.
    const ReachBox<Real>* food_reach = nullptr;
    std::size_t food_sources = 0;
    long long step = 0;
    // Perching (docs/MODEL.md §3), when `ledge` is set: every agent's rest in slot order, read from `rest`
    // and written to `new_rest`; the ids their rest times hash (`ids`, by world index, see `agent`;
    // nullptr: the world indices). `ledge_reach`: the ledge's span in x
    // and its height in y, rounded outward to Real (lo_y a part in 10^5 below the height).
    const Ledge* ledge = nullptr;
    const std::int32_t* rest = nullptr;
    std::int32_t* new_rest = nullptr;
    const std::uint32_t* ids = nullptr;
    ReachBox<Real> ledge_reach{};

    // When set, the cell of every agent's new position in `next_grid` (slot order, padded by a vector), for
    // the next step's sort: computed line by line while the new positions are still in cache. `next_grid`
    // must be this step's grid: an agent that leaves its cell gets moved_cell_flag added.
    std::uint32_t* new_cell = nullptr;
    CellGeometry next_grid{0.0, 0.0, 1.0, 1.0, 1, 1};
    // Required with new_cell: where next_grid's columns, rows and layers begin (detail::line_bound_table,
    // padded by a vector). An agent that moved less than a cell is binned by comparisons against its old
    // cell's and its neighbours' bounds, the others (a seam crossed) by division.
    const Real* col_bound = nullptr;
    const Real* row_bound = nullptr;
    const Real* layer_bound = nullptr; // 3D only
};

/// The largest visual or protected range the kernel takes with a field of view below 360 degrees: its cheap
/// view test needs squared distances far from overflow (the parameters' range_max is well below it).
inline constexpr double fast_path_view_range = 0x1p30;

/// Marks, in FlockInCellOrder::new_cell, an agent whose cell changes (cell indices stay below it).
inline constexpr std::uint32_t moved_cell_flag = 0x80000000u;

/// Neighbour pass (docs/MODEL.md §2.2-2.9) for the flocking agents of the grid lines [line_begin, line_end)
/// (rows of a planar grid; line = layer * ny + row in 3D).
void neighbour_lines(const FlockInCellOrder<float>& flock, int line_begin, int line_end);
void neighbour_lines(const FlockInCellOrder<double>& flock, int line_begin, int line_end);

/// Cell index of each of `count` positions; `z` is nullptr for a planar grid.
void cells_of(const float* x, const float* y, const float* z, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell);
void cells_of(const double* x, const double* y, const double* z, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell);

/// SIMD lanes of the dispatched kernel for this scalar (the padding the slot arrays need).
std::size_t simd_lanes_f32();
std::size_t simd_lanes_f64();

/// Name of the instruction set the dispatcher chose on this CPU ("AVX3" is AVX-512, "AVX2", "SSE4"...).
const char* simd_target_name();

} // namespace boids::fast
