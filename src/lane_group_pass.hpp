#pragma once
// The Vicsek and Couzin fast passes' layout (internal): the agents of a chunk of slots (slot_chunk_pass)
// in groups that share their candidates, each group's sums in SIMD lanes (heading_lanes_kernel.hpp), then
// each agent's steering as the policy's steer() does it. The agents of one grid cell ask the grid for the
// same runs of candidates; the groups are checked with the agents' query keys (not by assuming that the
// grid's binning and its queries agree), so an agent whose query differs from its cell-mates' simply
// starts a group of its own.

#include "heading_lanes_kernel.hpp"
#include "slot_order_pass.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace boids {

/// Stores the velocity of the agent in slot `s` as a heading model's fly() leaves it along `along`: fly()
/// sets the velocity alone, so the agent need not be gathered again.
template <class Policy, class Real, class Next>
void store_flight(const FastPass<Real, Next>& pass, const Policy& policy, std::uint32_t s,
                  angle::SinCos along) {
    Agent<Real> a{};
    a.index = pass.flock.agent(s);
    policy.fly(a, along);
    store_velocity(pass, a);
}

/// Whether a lane-group pass may put the agents of neighbouring cells of a row into one group, a tile of up
/// to `lanes` consecutive slots, and how many: 0 for a group per cell.
struct LaneTiling {
    std::uint32_t lanes = 0;
};

/// LaneTiling for a model whose tests take only candidates within range2 (its grid's range, at or above every
/// one of its own radii), in tiles of `lanes` agents (fast::tile_agents). A tile's agents lie in cells of one
/// row and take the union of their 3 x 3 blocks; a lane meets candidates of columns outside its own block
/// there, which the plain path never offers it, so tiles are made only where such a candidate lies beyond
/// range2 for certain: every query line wider than the range by more than the roundings of a float offset and
/// its square (2^-20 relative). An agent lies within its line's bounds (lines_box) and a candidate two lines
/// over (the shorter way round a torus) beyond the whole line between. Not in 3D, and not on a grid of fewer
/// than five columns or without lines_box.
template <class Real>
LaneTiling lane_tiling(const SpatialGrid<Real>& flock, double range2, std::size_t lanes) {
    const int columns = flock.columns();
    if (flock.three_d() || lanes < 2 || columns < 5 || !flock.lines_box(0, 0).known) {
        return {};
    }
    double narrowest = std::numeric_limits<double>::infinity();
    for (int c = 0; c < columns; ++c) {
        const auto box = flock.lines_box(c, 0);
        narrowest = std::min(narrowest, box.x1 - box.x0);
    }
    if (!(narrowest * narrowest * (1 - 0x1p-20) > range2)) {
        return {};
    }
    return {static_cast<std::uint32_t>(lanes)};
}

/// Calls `visit(group, runs)` for the groups of consecutive slots in [begin, end) whose agents have the
/// same candidate runs (candidate_runs), in slot order. Agents with the same query key have the same runs,
/// and the key is monotonic in each coordinate: when a cell's lowest and highest coordinates have the same
/// key, so do all its agents, which make one group. Most cells' agents lie within the query lines of the
/// cell itself (SpatialGrid::lines_box, by comparisons); the others' keys are computed. A cell whose
/// corners' keys differ splits where its agents' keys change. The runs are asked for once per group.
///
/// With `tiling` (lane_tiling), the agents of such cells of a row away from its ends go in tiles of
/// tiling.lanes consecutive slots instead (the last one of a row's stretch may hold fewer), whose runs are
/// the union of their cells' blocks (SpatialGrid::for_each_candidate_run_across): every vector of agents
/// full where a cell holds fewer agents than a vector has lanes, or a few more.
template <class Real, class Visit>
void for_each_lane_group(const SpatialGrid<Real>& flock, std::uint32_t begin, std::uint32_t end,
                         LaneTiling tiling, Visit&& visit) {
    const auto key = [&](Real x, Real y) { return flock.query_key(x, y, Real(0)); };
    const auto group = [&](std::uint32_t first, std::uint32_t last, const std::array<double, 3>& lines) {
        visit(fast::LaneGroup{first, last - first}, candidate_runs_of(flock, lines));
    };
    const auto columns = static_cast<std::size_t>(flock.columns());
    const std::span<const std::uint32_t> starts = flock.cell_starts();
    // The tile being filled: `count` slots from `first`, in cells of `row` from column `low` to `high`.
    struct Tile {
        std::uint32_t first = 0, count = 0;
        int row = 0, low = 0, high = 0;
    } tile;
    const auto finish_tile = [&] {
        if (tile.count > 0) {
            const std::array<double, 3> lines{static_cast<double>(tile.low), static_cast<double>(tile.row),
                                              0.0};
            visit(fast::LaneGroup{tile.first, tile.count},
                  candidate_runs_of(flock, lines, tile.high - tile.low));
            tile.count = 0;
        }
    };
    // The slots [s, stop) of the cell at (column, row) into tiles.
    const auto add_to_tiles = [&](std::uint32_t s, std::uint32_t stop, int column, int row) {
        if (tile.count > 0 && tile.row != row) {
            finish_tile();
        }
        while (s < stop) {
            if (tile.count == 0) {
                tile = {s, 0, row, column, column};
            }
            const std::uint32_t take = std::min(stop - s, tiling.lanes - tile.count);
            tile.count += take;
            tile.high = column;
            s += take;
            if (tile.count == tiling.lanes) {
                finish_tile();
            }
        }
    };
    // The cell of slot `begin`: the last whose first slot is not past it.
    auto cell =
        static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin());
    // The column and row of cell - 1, followed cell by cell rather than divided out for each.
    auto column = static_cast<int>((cell - 1) % columns), row = static_cast<int>((cell - 1) / columns);
    for (std::uint32_t s = begin; s < end;) {
        while (starts[cell] <= s) {
            ++cell; // starts[cell] ends the cell of slot s
            if (++column == static_cast<int>(columns)) {
                column = 0;
                ++row;
            }
        }
        const std::uint32_t stop = std::min(starts[cell], end);
        // The common case: the cell's own lines hold every agent (a test per agent, without a branch).
        if (!flock.three_d()) {
            if (const auto box = flock.lines_box(column, row); box.known) {
                bool held = true;
                for (std::uint32_t t = s; t < stop; ++t) {
                    held &= box.holds(flock.x(t), flock.y(t));
                }
                if (held) {
                    if (tiling.lanes > 0 && column >= 1 && column + 2 <= static_cast<int>(columns)) {
                        add_to_tiles(s, stop, column, row);
                    } else {
                        finish_tile();
                        group(s, stop, {static_cast<double>(column), static_cast<double>(row), 0.0});
                    }
                    s = stop;
                    continue;
                }
            }
        }
        finish_tile();
        Real x0 = flock.x(s), x1 = x0, y0 = flock.y(s), y1 = y0;
        for (std::uint32_t t = s + 1; t < stop; ++t) {
            x0 = std::min(x0, flock.x(t));
            x1 = std::max(x1, flock.x(t));
            y0 = std::min(y0, flock.y(t));
            y1 = std::max(y1, flock.y(t));
        }
        // Else the box's corners may share a key.
        if (const auto lines = key(x0, y0); lines == key(x1, y1)) {
            group(s, stop, lines);
        } else {
            std::uint32_t first = s;
            auto first_lines = key(flock.x(first), flock.y(first));
            for (std::uint32_t t = s + 1; t < stop; ++t) {
                const auto lines_t = key(flock.x(t), flock.y(t));
                if (lines_t != first_lines) {
                    group(first, t, first_lines);
                    first = t;
                    first_lines = lines_t;
                }
            }
            group(first, stop, first_lines);
        }
        s = stop;
    }
    finish_tile();
}

/// for_each_lane_group with a group per cell (or per query key).
template <class Real, class Visit>
void for_each_lane_group(const SpatialGrid<Real>& flock, std::uint32_t begin, std::uint32_t end,
                         Visit&& visit) {
    for_each_lane_group(flock, begin, end, LaneTiling{}, std::forward<Visit>(visit));
}

/// What a thread of a lane-group pass keeps from chunk to chunk: `count` columns of sums with an entry per
/// slot of a chunk, a flag per slot, and room for the chunk's groups.
template <int count>
struct LaneSumsScratch {
    std::vector<double> values = std::vector<double>(count * std::size_t{slot_chunk});
    std::vector<std::uint8_t> flags = std::vector<std::uint8_t>(slot_chunk);
    std::vector<fast::LaneGroupRuns> groups = [] {
        std::vector<fast::LaneGroupRuns> room;
        room.reserve(slot_chunk); // a group holds one slot at least
        return room;
    }();

    /// Column k from the chunk's `offset`-th slot.
    [[nodiscard]] double* column(int k, std::uint32_t offset) {
        return values.data() + static_cast<std::size_t>(k) * slot_chunk + offset;
    }
};

} // namespace boids
