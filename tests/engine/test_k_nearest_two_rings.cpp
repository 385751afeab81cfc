// The topological fast pass's k-nearest search against k_nearest (the ring search it must reproduce), bit
// for bit, on every SIMD target: uniform flocks (where it answers from the 5 x 5 cells), crowds (where the
// ring search stops after one ring), sparse flocks and large k (where it goes on past two), ties, a torus'
// seams, an open grid's edges and grids too small for the block.

#include "boids/detail/neighbour_search.hpp"
#include "k_nearest_two_rings.hpp"

#include "../support/k_nearest_flocks.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <bit>
#include <cstdint>
#include <random>

namespace boids {
namespace {

using testing::on_every_target;
using testing::uniform;

/// The number of agents for which k_nearest_two_rings and k_nearest differ in any bit (count, slots,
/// indices or squared distances), over k in `ks`, on the SIMD target in force; and, for those with fewer than
/// k nearer than two rings, k_nearest_past_two_rings and k_nearest (counted in `past_two_rings`).
template <class Real>
int differences(const World<Real>& w, double side, bool wrap, std::initializer_list<int> ks,
                int* past_two_rings_count = nullptr) {
    int past_two_rings = 0;
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, 0, wrap, side, side, 1);
    int differ = 0;
    for (const int k : ks) {
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w.kind[i] == Kind::Predator) {
                continue;
            }
            const auto self = static_cast<std::uint32_t>(i);
            const auto s = static_cast<Real>(side);
            KNearest want, got;
            k_nearest(grid, w.x[i], w.y[i], self, k, wrap, s, s, want);
            const auto same_as_want = [&](const KNearest& got) {
                bool same = got.count == want.count;
                for (int m = 0; same && m < want.count; ++m) {
                    const FoundNeighbour &a = want.found[static_cast<std::size_t>(m)],
                                         &b = got.found[static_cast<std::size_t>(m)];
                    same = a.slot == b.slot && a.index == b.index &&
                           std::bit_cast<std::uint64_t>(a.distance2) ==
                               std::bit_cast<std::uint64_t>(b.distance2);
                }
                return same;
            };
            got.count = -1;
            k_nearest_two_rings(grid, w.x[i], w.y[i], self, k, wrap, s, s, got);
            differ += !same_as_want(got);
            // Fewer than k nearer than two rings anywhere (so in the 5 x 5 cells too): the search past them.
            const double two_rings = 2 * grid.min_cell();
            if (want.count < k ||
                want.found[static_cast<std::size_t>(k - 1)].distance2 >= two_rings * two_rings) {
                got.count = -1;
                k_nearest_past_two_rings(grid, w.x[i], w.y[i], self, k, wrap, s, s, got);
                differ += !same_as_want(got);
                ++past_two_rings;
            }
        }
    }
    if (past_two_rings_count != nullptr) {
        *past_two_rings_count = past_two_rings;
    }
    return differ;
}

TEST(KNearestTwoRings, GivesTheRingSearchsListOnATorus) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 1), 1000, true, {1, 7, 8, 9}), 0);
        EXPECT_EQ(differences(uniform<double>(3000, 1000, 2), 1000, true, {7, 16, 17}), 0);
    });
}

TEST(KNearestTwoRings, GivesTheRingSearchsListOnAnOpenPlane) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 3), 1000, false, {1, 7, 12}), 0);
        EXPECT_EQ(differences(uniform<double>(3000, 1000, 4), 1000, false, {7, 20}), 0);
    });
}

TEST(KNearestTwoRings, GivesTheRingSearchsListInCrowds) {
    testing::expect_crowds_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
}

TEST(KNearestTwoRings, GivesTheRingSearchsListWhenTheKthLiesBeyondTwoRings) {
    on_every_target([] {
        // k far above the ~12 agents two rings hold: the ring search goes on to ring 3 and beyond; k = 7 and
        // 12 stop at ring 3 for some agents and go on for others.
        int past = 0;
        EXPECT_EQ(differences(uniform<float>(1500, 1000, 7), 1000, true, {7, 12, 40, 64}, &past), 0);
        EXPECT_GT(past, 1500);
        EXPECT_EQ(differences(uniform<double>(1500, 1000, 8), 1000, false, {12, 40}, &past), 0);
        EXPECT_GT(past, 1500);
    });
}

TEST(KNearestTwoRings, TiesGoToTheLowerIndexAsInTheRingSearch) {
    testing::expect_ties_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
}

TEST(KNearestTwoRings, SmallGridsAndSmallFlocks) {
    testing::expect_small_flocks_as_the_ring_search(
        [](const auto& w, double side, bool wrap, std::initializer_list<int> ks) {
            return differences(w, side, wrap, ks);
        });
}

} // namespace
} // namespace boids
