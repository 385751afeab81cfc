#pragma once
// The Vicsek and Couzin fast passes' layout (internal): the agents of a chunk of slots (slot_chunk_pass)
// in groups that share their candidates, each group's sums in SIMD lanes (heading_lanes_kernel.hpp), then
// each agent's steering as the policy's steer() does it. The agents of one grid cell ask the grid for the
// same runs of candidates; the groups are found by comparing the agents' query keys (not by assuming that
// the grid's binning and its queries agree), so an agent whose query differs from its cell-mates' simply
// starts a group of its own.

#include "heading_lanes_kernel.hpp"
#include "slot_order_pass.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace boids {

/// Calls `visit(group, runs)` for the groups of consecutive slots in [begin, end) whose agents have the
/// same candidate runs (candidate_runs), in slot order. Agents with the same query key (the agents of a
/// cell) have the same runs; the runs are asked for once per group.
template <class Real, class Visit>
void for_each_lane_group(const SpatialGrid<Real>& flock, std::uint32_t begin, std::uint32_t end,
                         Visit&& visit) {
    if (begin == end) {
        return;
    }
    const auto key = [&](std::uint32_t s) { return flock.query_key(flock.x(s), flock.y(s), Real(0)); };
    std::array<double, 3> group_key = key(begin);
    std::uint32_t first = begin;
    for (std::uint32_t s = begin + 1; s < end; ++s) {
        const std::array<double, 3> next = key(s);
        if (next != group_key) {
            visit(fast::LaneGroup{first, s - first}, candidate_runs(flock, flock.x(first), flock.y(first)));
            group_key = next;
            first = s;
        }
    }
    visit(fast::LaneGroup{first, end - first}, candidate_runs(flock, flock.x(first), flock.y(first)));
}

/// What a thread of a lane-group pass keeps from chunk to chunk: `count` columns of sums with an entry per
/// slot of a chunk, and a flag per slot.
template <int count>
struct LaneSumsScratch {
    std::vector<double> values = std::vector<double>(count * std::size_t{slot_chunk});
    std::vector<std::uint8_t> flags = std::vector<std::uint8_t>(slot_chunk);

    /// Column k from the chunk's `offset`-th slot.
    [[nodiscard]] double* column(int k, std::uint32_t offset) {
        return values.data() + static_cast<std::size_t>(k) * slot_chunk + offset;
    }
};

} // namespace boids
