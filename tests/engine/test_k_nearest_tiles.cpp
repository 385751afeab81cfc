// The topological fast pass's tiled k-nearest search against k_nearest (the ring search it must
// reproduce), slot for slot, on every SIMD target: uniform flocks (where the lanes answer), crowds, sparse
// flocks and k beyond the lanes (where agents go one by one), ties, a torus' seams, an open grid's edges,
// grids too small for the block, and ranges of slots that start and end anywhere.

#include "boids/detail/neighbour_search.hpp"
#include "k_nearest_tiles.hpp"

#include "../support/k_nearest_flocks.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace boids {
namespace {

using testing::on_every_target;
using testing::uniform;

/// The number of agents whose k_nearest_tiles list differs from k_nearest's (in count or any slot), over k
/// in `ks`, the grid's slots taken in ranges of `range` slots, on the SIMD target in force.
template <class Real>
int differences(const World<Real>& w, double side, bool wrap, std::initializer_list<int> ks,
                std::uint32_t range = 256) {
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, 0, wrap, side, side, 1);
    const auto s = static_cast<Real>(side);
    const auto slots = static_cast<std::uint32_t>(grid.size());
    std::vector<double> column(slots), row(slots);
    slot_lines(grid, 0, slots, column.data(), row.data());
    for (std::uint32_t slot = 0; slot < slots; ++slot) { // the grid's own formula, in lanes
        const detail::GridGeometry g = grid.geometry();
        EXPECT_EQ(column[slot],
                  detail::clamped_line(static_cast<double>(grid.x(slot)), g.origin_x, g.cell_w, g.nx));
        EXPECT_EQ(row[slot],
                  detail::clamped_line(static_cast<double>(grid.y(slot)), g.origin_y, g.cell_h, g.ny));
    }
    int differ = 0;
    for (const int k : ks) {
        // Each range's lists take range x k entries, a level of the range's agents after another.
        const std::size_t ranges = (slots + range - 1) / range;
        std::vector<std::uint32_t> nearest(ranges * range * static_cast<std::size_t>(k));
        std::vector<int> count(slots, -1);
        for (std::uint32_t begin = 0; begin < slots; begin += range) {
            const std::uint32_t end = std::min(slots, begin + range);
            k_nearest_tiles(grid, {column.data(), row.data()}, begin, end, k, wrap, s, s,
                            nearest.data() + std::size_t{begin} * k, range, count.data() + begin);
        }
        for (std::uint32_t slot = 0; slot < slots; ++slot) {
            KNearest want;
            k_nearest(grid, grid.x(slot), grid.y(slot), grid.agent(slot), k, wrap, s, s, want);
            bool same = count[slot] == want.count;
            for (int m = 0; same && m < want.count; ++m) {
                const std::uint32_t begin = slot / range * range; // the range's lists, a level at a time
                same =
                    nearest[std::size_t{begin} * k + static_cast<std::size_t>(m) * range + (slot - begin)] ==
                    want.found[static_cast<std::size_t>(m)].slot;
            }
            differ += !same;
        }
    }
    return differ;
}

TEST(KNearestTiles, GivesTheRingSearchsListsOnATorus) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 1), 1000, true, {1, 2, 7, 8, 9}), 0);
        EXPECT_EQ(differences(uniform<double>(3000, 1000, 2), 1000, true, {5, 7, 16}), 0);
    });
}

TEST(KNearestTiles, GivesTheRingSearchsListsOnAnOpenPlane) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 3), 1000, false, {1, 7, 12}), 0);
        EXPECT_EQ(differences(uniform<double>(3000, 1000, 4), 1000, false, {3, 7, 8}), 0);
    });
}

TEST(KNearestTiles, GivesTheRingSearchsListsInCrowds) {
    testing::expect_crowds_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
}

TEST(KNearestTiles, GivesTheRingSearchsListsWhenTheKthLiesBeyondTwoRings) {
    on_every_target([] {
        // Sparse flocks: two rings hold ~12 agents, so k = 8 often reaches past them.
        EXPECT_EQ(differences(uniform<float>(1500, 1000, 7), 1000, true, {8, 40}), 0);
        EXPECT_EQ(differences(uniform<double>(1500, 1000, 8), 1000, false, {8}), 0);
    });
}

TEST(KNearestTiles, TiesGoToTheLowerIndexAsInTheRingSearch) {
    testing::expect_ties_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
}

TEST(KNearestTiles, SmallGridsSmallFlocksAndRangesOfAnyLength) {
    testing::expect_small_flocks_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
    on_every_target([] {
        for (const std::uint32_t range : {1u, 3u, 7u, 100u}) {
            SCOPED_TRACE(range);
            EXPECT_EQ(differences(uniform<float>(2000, 1000, 21), 1000, true, {7}, range), 0);
        }
    });
}

} // namespace
} // namespace boids
