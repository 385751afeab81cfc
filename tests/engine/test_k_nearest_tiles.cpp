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
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace boids {
namespace {

using testing::on_every_target;
using testing::uniform;

/// The agents whose k_nearest_tiles list for `k` differs from k_nearest's (see differences), with the tiles'
/// width as forced.
template <class Real>
int differences_for(const SpatialGrid<Real>& grid, const std::vector<double>& column,
                    const std::vector<double>& row, Real s, bool wrap, int k, std::uint32_t range) {
    const auto slots = static_cast<std::uint32_t>(grid.size());
    int differ = 0;
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
            same = nearest[std::size_t{begin} * k + static_cast<std::size_t>(m) * range + (slot - begin)] ==
                   want.found[static_cast<std::size_t>(m)].slot;
        }
        differ += !same;
    }
    return differ;
}

/// The number of agents whose k_nearest_tiles list differs from k_nearest's (in count or any slot), over k
/// in `ks`, the grid's slots taken in ranges of `range` slots, on the SIMD target in force, with tiles of a
/// whole vector and of half a vector (AVX-512's two widths; the others have one) in turn.
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
    for (const bool half : {false, true}) {
        force_half_tiles(half);
        for (const int k : ks) {
            differ += differences_for(grid, column, row, s, wrap, k, range);
        }
    }
    force_half_tiles(std::nullopt);
    return differ;
}

TEST(KNearestTiles, GivesTheRingSearchsListsOnATorus) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 1), 1000, true, {1, 2, 6, 7, 8, 9}), 0);
        EXPECT_EQ(differences(uniform<double>(3000, 1000, 2), 1000, true, {5, 7, 16}), 0);
    });
}

TEST(KNearestTiles, GivesTheRingSearchsListsOnAnOpenPlane) {
    on_every_target([] {
        EXPECT_EQ(differences(uniform<float>(3000, 1000, 3), 1000, false, {1, 5, 7, 12}), 0);
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

/// `n` agents uniform in a square of `side` but for empty discs of radius `hole` around a few centres, one
/// of them on the square's corner (on a torus, across both seams): along a disc's rim, neighbours in a row
/// of cells have fewer than k within two rings, and share a tile past them.
template <class Real>
World<Real> with_holes(int n, double side, double hole, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, side);
    const double centres[][2] = {{0, 0}, {0.3 * side, 0.6 * side}, {0.7 * side, 0.25 * side}};
    World<Real> w;
    while (static_cast<int>(w.size()) < n) {
        const double x = u(rng), y = u(rng);
        const auto inside = [&](const double(&c)[2]) {
            const auto apart = [&](double d) { return std::min(std::abs(d), side - std::abs(d)); };
            return std::hypot(apart(x - c[0]), apart(y - c[1])) < hole;
        };
        if (std::none_of(std::begin(centres), std::end(centres), inside)) {
            w.add(Kind::Boid, static_cast<Real>(x), static_cast<Real>(y), Real(0), Real(0), 0);
        }
    }
    return w;
}

TEST(KNearestTiles, GivesTheRingSearchsListsAroundGapsInTheFlock) {
    on_every_target([] {
        EXPECT_EQ(differences(with_holes<float>(4000, 1000, 90, 21), 1000, true, {7, 8}), 0);
        EXPECT_EQ(differences(with_holes<float>(4000, 1000, 90, 22), 1000, false, {7}), 0);
        EXPECT_EQ(differences(with_holes<double>(4000, 1000, 90, 23), 1000, true, {7}), 0);
        EXPECT_EQ(differences(with_holes<double>(4000, 1000, 90, 24), 1000, false, {6, 7}), 0);
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

/// `n` agents on an open plane whose grid's binning rounds: agent 0 (A) has a neighbour B (agent 1) a hair
/// under `rings` rings away yet binned rings + 1 columns over, and C (agent 2), a little farther but within
/// those rings, `rings` rows on in A's column. The ring search, finding C within the rings, stops with their
/// cells and answers C. For one ring B lies in A's 5 x 5 cells, where the tiles rank, and is nearer. For two
/// it lies outside them, yet among the candidates of A's tile: agents 5 and 6 lie in A's row, 0.6 and 1.5
/// cells on towards B (A's first and second nearest, C its third), and their blocks reach B's column. A
/// grid's origin is its flock's least corner, and `(x - origin) / cell` rounds twice: B is the least
/// position of its column, A the greatest of its own. The keys' truncated distances (k_nearest_tiles.cpp)
/// tell B and C apart, so that no tie sends A to the ring search. Agents 3 and 4 set the corners; the others
/// keep rings + 2 cells away from A. Empty if no corner tried allows it.
World<double> binned_within_rings(int n, int rings) {
    const double hi = 1000.41;
    for (int attempt = 0; attempt < 20000; ++attempt) {
        const double lo = -1000.37 - 0.0731 * attempt;
        const World<double> rest = uniform<double>(4 * n, hi - lo, 3);
        const auto flock = [&](double xa, double ya, double xb, double yc, double reach, double cell = 0) {
            World<double> w;
            w.add(Kind::Boid, xa, ya, 0, 0, 0);
            w.add(Kind::Boid, xb, ya, 0, 0, 0);
            w.add(Kind::Boid, xa, yc, 0, 0, 0);
            w.add(Kind::Boid, lo, lo, 0, 0, 0);
            w.add(Kind::Boid, hi, hi, 0, 0, 0);
            if (rings == 2) {
                w.add(Kind::Boid, xa + 0.6 * cell, ya, 0, 0, 0);
                w.add(Kind::Boid, xa + 1.5 * cell, ya, 0, 0, 0);
            }
            for (std::size_t r = 0; r < rest.size() && static_cast<int>(w.size()) < n; ++r) {
                const double x = lo + rest.x[r], y = lo + rest.y[r];
                if (std::hypot(x - xa, y - ya) > reach) {
                    w.add(Kind::Boid, x, y, 0, 0, 0);
                }
            }
            return w;
        };
        SpatialGrid<double> probe; // an open plane's grid depends on its flock's box and size alone
        probe.build(flock(0, 0, 0, 0, 0), GridMembers::Flocking, 0, false, 0, 0, 1);
        const detail::GridGeometry g = probe.geometry();
        const double cell = g.cell_w, reach = rings * cell, reach2 = reach * reach;
        const auto column = [&](double x) { return detail::clamped_line(x, g.origin_x, cell, g.nx); };
        const auto first_in = [&](int m) { // the least position binned in column m or beyond
            double below = g.origin_x + (m - 1) * cell, at = g.origin_x + (m + 1) * cell;
            for (double mid = below + (at - below) / 2; mid != below && mid != at;
                 mid = below + (at - below) / 2) {
                (column(mid) >= m ? at : below) = mid;
            }
            return at;
        };
        // A key keeps a squared distance's bits above its lowest 12.
        const auto truncated = [](double d2) { return std::bit_cast<std::uint64_t>(d2) >> 12; };
        const double ya = g.origin_y + (g.ny / 2 + 0.5) * cell;
        for (int m = 3 + rings; m + 2 < g.nx; ++m) {
            const double xb = first_in(m), xa = std::nextafter(first_in(m - rings), lo);
            const double ab = xa - xb;
            if (column(xb) != m || column(xa) != m - rings - 1 || !(ab * ab < reach2)) {
                continue;
            }
            double yc = ya + reach;
            for (int ulps = 0; ulps < 64; ++ulps, yc = std::nextafter(yc, ya)) {
                const double ac = ya - yc;
                if (ac * ac < reach2 && truncated(ac * ac) > truncated(ab * ab)) {
                    return flock(xa, ya, xb, yc, reach + 2 * cell, cell);
                }
            }
        }
    }
    return {};
}

TEST(KNearestTiles, ANearestBinnedTwoColumnsOverIsLeftOutAsByTheRingSearch) {
    const World<double> w = binned_within_rings(100, 1);
    ASSERT_EQ(w.size(), 100u);
    const double side = 1000.41 + 1000.37; // k_nearest's torus, unused on an open plane
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 0, false, 0, 0, 1);
    std::uint32_t a = 0, c = 0;
    for (std::uint32_t slot = 0; slot < grid.size(); ++slot) {
        a = grid.agent(slot) == 0 ? slot : a;
        c = grid.agent(slot) == 2 ? slot : c;
    }
    KNearest want;
    k_nearest(grid, grid.x(a), grid.y(a), 0, 1, false, side, side, want);
    ASSERT_EQ(want.count, 1);
    ASSERT_EQ(want.found[0].slot, c) << "the ring search answers C, not the nearer B";
    on_every_target([&] { EXPECT_EQ(differences(w, side, false, {1, 2}), 0); });
}

/// As above, two rings on: B, three columns over, lies outside A's 5 x 5 cells yet nearer than two rings,
/// and A's lane must not take it from its tile's candidates (k_nearest_tiles.cpp, KeyLimits::surely).
TEST(KNearestTiles, ANeighbourBinnedThreeColumnsOverIsLeftOutAsByTheRingSearch) {
    const World<double> w = binned_within_rings(100, 2);
    ASSERT_EQ(w.size(), 100u);
    const double side = 1000.41 + 1000.37; // k_nearest's torus, unused on an open plane
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 0, false, 0, 0, 1);
    const detail::GridGeometry g = grid.geometry();
    std::uint32_t slot_of[3] = {};
    for (std::uint32_t slot = 0; slot < grid.size(); ++slot) {
        if (grid.agent(slot) < 3) {
            slot_of[grid.agent(slot)] = slot;
        }
    }
    const auto column = [&](std::uint32_t slot) {
        return detail::clamped_line(static_cast<double>(grid.x(slot)), g.origin_x, g.cell_w, g.nx);
    };
    ASSERT_EQ(column(slot_of[1]) - column(slot_of[0]), 3);
    KNearest want;
    k_nearest(grid, grid.x(slot_of[0]), grid.y(slot_of[0]), 0, 3, false, side, side, want);
    ASSERT_EQ(want.count, 3);
    ASSERT_EQ(want.found[2].slot, slot_of[2]) << "the ring search answers C third, not the nearer B";
    on_every_target([&] { EXPECT_EQ(differences(w, side, false, {3}), 0); });
}

/// A flock in which agent 0 (A) has B (agent 1) and C (agent 2) nearest, B nearer by a hair: their offsets,
/// in units of 2^-14 (exact in float), are (26050, 38367) and (6092, 45973), whose squares sum to 2150629189
/// and 2150629193. In float, with or without a fused multiply-add, C's squared distance rounds below B's, and
/// the two lie in neighbouring buckets of the tiles' float keys for any place bits up to 12: only keys two
/// buckets apart tell the order (k_nearest_tiles.cpp, KeyLimits).
World<float> misordered_by_floats() {
    World<float> w = uniform<float>(3000, 1000, 31);
    constexpr float unit = 0x1p-14f, x = 500.0f, y = 500.0f;
    const auto place = [&](std::size_t i, float dx, float dy) {
        w.kind[i] = Kind::Boid;
        w.x[i] = x + dx * unit;
        w.y[i] = y + dy * unit;
    };
    place(0, 0, 0);
    place(1, 26050, 38367);
    place(2, 6092, 45973);
    return w;
}

TEST(KNearestTiles, TwoDistancesAFloatMisordersGoToTheRingSearch) {
    const World<float> w = misordered_by_floats();
    const auto offset = [&](std::size_t i, int axis) {
        return axis == 0 ? w.x[0] - w.x[i] : w.y[0] - w.y[i];
    };
    const auto exact = [&](std::size_t i) {
        return static_cast<double>(offset(i, 0)) * offset(i, 0) +
               static_cast<double>(offset(i, 1)) * offset(i, 1);
    };
    const auto fused = [&](std::size_t i) {
        return std::fma(offset(i, 0), offset(i, 0), offset(i, 1) * offset(i, 1));
    };
    const auto unfused = [&](std::size_t i) {
        const float xx = offset(i, 0) * offset(i, 0), yy = offset(i, 1) * offset(i, 1);
        return xx + yy;
    };
    ASSERT_LT(exact(1), exact(2));
    ASSERT_GT(fused(1), fused(2));
    ASSERT_GT(unfused(1), unfused(2));
    SpatialGrid<float> grid;
    grid.build(w, GridMembers::Flocking, 0, true, 1000, 1000, 1);
    std::uint32_t a = 0;
    for (std::uint32_t slot = 0; slot < grid.size(); ++slot) {
        a = grid.agent(slot) == 0 ? slot : a;
    }
    KNearest want;
    k_nearest(grid, grid.x(a), grid.y(a), 0, 7, true, 1000.0f, 1000.0f, want);
    ASSERT_EQ(want.count, 7);
    ASSERT_EQ(grid.agent(want.found[0].slot), 1u) << "B nearest, then C";
    ASSERT_EQ(grid.agent(want.found[1].slot), 2u);
    on_every_target([&] { EXPECT_EQ(differences(w, 1000, true, {2, 7}), 0); });
}

} // namespace
} // namespace boids
