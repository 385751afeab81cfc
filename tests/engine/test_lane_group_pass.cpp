// The groups of the Vicsek, Couzin and weighted fast passes (src/lane_group_pass.hpp): consecutive slots
// whose agents the grid gives the same candidate runs, which the SIMD kernels (src/heading_lanes_kernel.cpp,
// src/weighted_lanes_kernel.cpp) take in lanes, and the tiles of several cells' agents whose runs hold each
// agent's own candidates in its order. Their sums against the plain path are tested in
// test_slot_order_pass.cpp.

#include "lane_group_pass.hpp"

#include "boids/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace boids {
namespace {

/// Agents spread over a side x side square, some on one spot, and (`outside`) some far outside it.
template <class Real>
World<Real> scattered(double side, bool outside) {
    World<Real> w;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, side);
    for (int i = 0; i < 1500; ++i) {
        w.add(Kind::Boid, Real(u(rng)), Real(u(rng)), Real(1), Real(0), Real(0));
    }
    for (int i = 0; i < 40; ++i) { // one spot: a cell with many agents
        w.add(Kind::Boid, Real(side / 3), Real(side / 3), Real(0), Real(1), Real(0));
    }
    for (int i = 0; outside && i < 6; ++i) { // outside the square, where a grid with its bounds clamps them
        w.add(Kind::Boid, Real(-10 * side - i), Real(side / 2), Real(1), Real(1), Real(0));
        w.add(Kind::Boid, Real(side / 2), Real(3 * side + i), Real(1), Real(1), Real(0));
    }
    return w;
}

/// The groups of [begin, end) tile it in order, and every agent's own query gives its group's runs.
/// Returns the number of groups.
template <class Real>
int expect_groups_share_runs(const SpatialGrid<Real>& grid, std::uint32_t begin, std::uint32_t end,
                             const std::string& what) {
    std::uint32_t next = begin;
    int groups = 0;
    for_each_lane_group(grid, begin, end, [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
        ++groups;
        EXPECT_EQ(group.first, next) << what;
        EXPECT_GT(group.count, 0u) << what;
        next = group.first + group.count;
        for (std::uint32_t s = group.first; s < next; ++s) {
            const fast::CandidateRuns own = candidate_runs(grid, grid.x(s), grid.y(s));
            ASSERT_EQ(own.count, runs.count) << what << ", slot " << s;
            for (int k = 0; k < runs.count; ++k) {
                EXPECT_EQ(own.begin[k], runs.begin[k]) << what << ", slot " << s;
                EXPECT_EQ(own.end[k], runs.end[k]) << what << ", slot " << s;
            }
        }
    });
    EXPECT_EQ(next, end) << what;
    return groups;
}

template <class Real>
void expect_lane_groups(bool wrap) {
    const double side = 300.0, range = 10.0;
    const World<Real> w = scattered<Real>(side, !wrap); // on a torus every position is inside
    // On the open plane, the extent of the square alone (as a grid over part of a flock is given the
    // whole flock's): the agents outside it are binned into its edge cells, where their queries differ
    // from their cell-mates'.
    detail::GridExtent square{w.size(), detail::MemberBox{{0, 0, 0}, {side, side, 0}}};
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, range, wrap, side, side, 0.0, 1, false, wrap ? nullptr : &square);
    const auto slots = static_cast<std::uint32_t>(grid.size());
    const std::string what =
        std::string(wrap ? "torus" : "open plane") + (sizeof(Real) == 4 ? ", f32" : ", f64");
    // The whole grid, the fast pass' chunks, and ranges that cut cells anywhere.
    const int whole = expect_groups_share_runs(grid, 0, slots, what);
    int cells = 0; // the non-empty cells
    const auto starts = grid.cell_starts();
    for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
        cells += starts[c + 1] > starts[c] ? 1 : 0;
    }
    if (wrap) {
        EXPECT_EQ(whole, cells) << what << ": a group per cell";
    } else {
        EXPECT_GT(whole, cells) << what << ": the clamped cells split where their agents' queries differ";
    }
    for (std::uint32_t begin = 0; begin < slots; begin += slot_chunk) {
        expect_groups_share_runs(grid, begin, std::min(begin + slot_chunk, slots), what + ", chunks");
    }
    for (std::uint32_t begin = 0; begin < slots; begin += 97) {
        expect_groups_share_runs(grid, begin, std::min(begin + 97, slots), what + ", ranges of 97");
    }
    expect_groups_share_runs(grid, 5, 5, what + ", empty");
}

TEST(LaneGroupPass, GroupsShareTheirAgentsCandidateRuns) {
    expect_lane_groups<float>(true);
    expect_lane_groups<float>(false);
    expect_lane_groups<double>(true);
    expect_lane_groups<double>(false);
}

/// The slots of `runs`, in order.
std::vector<std::uint32_t> slots_of(const fast::CandidateRuns& runs) {
    std::vector<std::uint32_t> slots;
    for (int k = 0; k < runs.count; ++k) {
        for (std::uint32_t s = runs.begin[k]; s < runs.end[k]; ++s) {
            slots.push_back(s);
        }
    }
    return slots;
}

/// The tiles of [begin, end) cover it in order with at most tiling.lanes agents each; each agent's own
/// candidates appear in the tile's runs in its own order, and every other candidate there lies beyond the
/// range, with room for a float offset's roundings, at its nearest image on a torus. Returns the number of
/// groups and, in `spanning`, the number of tiles whose agents lie in more than one cell.
template <class Real>
int expect_tiles_hold_own_candidates(const SpatialGrid<Real>& grid, LaneTiling tiling, double range2,
                                     std::uint32_t begin, std::uint32_t end, int& spanning,
                                     const std::string& what) {
    std::vector<std::uint32_t> cell_of(grid.size());
    const auto starts = grid.cell_starts();
    for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
        for (std::uint32_t s = starts[c]; s < starts[c + 1]; ++s) {
            cell_of[s] = static_cast<std::uint32_t>(c);
        }
    }
    const double width = grid.columns() * grid.cell_width(), height = grid.rows() * grid.cell_height();
    // The squared distance from slot a to slot b's nearest image.
    const auto distance2 = [&](std::uint32_t a, std::uint32_t b) {
        double dx = std::abs(static_cast<double>(grid.x(a)) - static_cast<double>(grid.x(b)));
        double dy = std::abs(static_cast<double>(grid.y(a)) - static_cast<double>(grid.y(b)));
        if (grid.wraps()) {
            dx = std::min(dx, width - dx);
            dy = std::min(dy, height - dy);
        }
        return dx * dx + dy * dy;
    };
    std::uint32_t next = begin;
    int groups = 0;
    for_each_lane_group(
        grid, begin, end, tiling, [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
            ++groups;
            EXPECT_EQ(group.first, next) << what;
            EXPECT_GT(group.count, 0u) << what;
            next = group.first + group.count;
            if (cell_of[group.first] != cell_of[next - 1]) {
                ++spanning;
                EXPECT_LE(group.count, tiling.lanes) << what << ": a tile holds at most tiling.lanes agents";
            }
            const std::vector<std::uint32_t> offered = slots_of(runs);
            for (std::uint32_t s = group.first; s < next; ++s) {
                const std::vector<std::uint32_t> own = slots_of(candidate_runs(grid, grid.x(s), grid.y(s)));
                std::vector<std::uint32_t> sorted_own = own;
                std::sort(sorted_own.begin(), sorted_own.end());
                std::vector<std::uint32_t> mine; // the tile's slots that are the agent's own candidates
                for (const std::uint32_t c : offered) {
                    if (std::binary_search(sorted_own.begin(), sorted_own.end(), c)) {
                        mine.push_back(c);
                    } else {
                        EXPECT_GT(distance2(s, c), range2 * (1 + 0x1p-20))
                            << what << ": slot " << s << " meets slot " << c << " within range";
                    }
                }
                EXPECT_EQ(mine, own) << what << ", slot " << s << ": its own candidates in its order";
            }
        });
    EXPECT_EQ(next, end) << what;
    return groups;
}

template <class Real>
void expect_lane_tiles(bool wrap) {
    // Cells of 10 (300 / 30) against a range of 9.9: a candidate two columns over lies beyond it.
    const double side = 300.0, range = 9.9, range2 = range * range;
    const World<Real> w = scattered<Real>(side, !wrap);
    detail::GridExtent square{w.size(), detail::MemberBox{{0, 0, 0}, {side, side, 0}}};
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, range, wrap, side, side, 0.0, 1, false, wrap ? nullptr : &square);
    const std::string what =
        std::string(wrap ? "torus" : "open plane") + (sizeof(Real) == 4 ? ", f32" : ", f64");
    const LaneTiling tiling = lane_tiling(grid, range2, 8);
    ASSERT_EQ(tiling.lanes, 8u) << what;
    const auto slots = static_cast<std::uint32_t>(grid.size());
    int spanning = 0;
    const int tiles = expect_tiles_hold_own_candidates(grid, tiling, range2, 0, slots, spanning, what);
    EXPECT_GT(spanning, 20) << what << ": tiles across cells";
    int cell_groups = 0;
    for_each_lane_group(grid, 0, slots, [&](fast::LaneGroup, const fast::CandidateRuns&) { ++cell_groups; });
    EXPECT_LT(tiles, cell_groups) << what << ": fewer, fuller groups";
    for (std::uint32_t begin = 0; begin < slots; begin += slot_chunk) {
        expect_tiles_hold_own_candidates(grid, tiling, range2, begin, std::min(begin + slot_chunk, slots),
                                         spanning, what + ", chunks");
    }
    for (std::uint32_t begin = 0; begin < slots; begin += 97) {
        expect_tiles_hold_own_candidates(grid, tiling, range2, begin, std::min(begin + 97, slots), spanning,
                                         what + ", ranges of 97");
    }
}

TEST(LaneGroupPass, TilesHoldEachAgentsOwnCandidatesInItsOrder) {
    expect_lane_tiles<float>(true);
    expect_lane_tiles<float>(false);
    expect_lane_tiles<double>(true);
    expect_lane_tiles<double>(false);
}

TEST(LaneGroupPass, TilesOnlyWhereEveryLineIsWiderThanTheRange) {
    // A grid's cells are a little wider than its range (by 1e-6); a model may test a wider one.
    const World<float> w = scattered<float>(300.0, false);
    SpatialGrid<float> grid;
    grid.build(w, GridMembers::Flocking, 9.9, true, 300.0, 300.0, 1); // 30 columns of 10
    ASSERT_EQ(grid.columns(), 30);
    EXPECT_EQ(lane_tiling(grid, 9.9 * 9.9, 8).lanes, 8u);
    EXPECT_EQ(lane_tiling(grid, 99.99, 8).lanes, 8u);
    EXPECT_EQ(lane_tiling(grid, 100.0, 8).lanes, 0u) << "cells exactly the range wide";
    EXPECT_EQ(lane_tiling(grid, 100.0 * (1 - 0x1p-22), 8).lanes, 0u) << "within a float offset's rounding";
    EXPECT_EQ(lane_tiling(grid, 9.9 * 9.9, 1).lanes, 0u) << "a lane to a vector";
    SpatialGrid<float> narrow;
    narrow.build(w, GridMembers::Flocking, 9.9, true, 40.0, 40.0, 1);
    ASSERT_EQ(narrow.columns(), 4);
    EXPECT_EQ(lane_tiling(narrow, 9.9 * 9.9, 8).lanes, 0u) << "four columns";
}

} // namespace
} // namespace boids
