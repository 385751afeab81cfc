// The split of space among ranks: every point has one owner, the halo search finds every rank a point
// is within reach of, and the interior box it skips holds no point another rank needs.
#include "mpi/decomposition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace {

using boids::mpi::Decomposition;
using boids::mpi::Space;
using Point = std::array<double, 3>;

std::vector<Point> random_points(const Space& space, std::size_t n, std::mt19937_64& rng, double spill) {
    std::vector<Point> points(n, Point{0, 0, 0});
    for (Point& p : points) {
        for (int a = 0; a < space.dimensions; ++a) {
            const double size = space.size[static_cast<std::size_t>(a)];
            p[static_cast<std::size_t>(a)] =
                std::uniform_real_distribution<double>(-spill, size + spill)(rng);
        }
    }
    return points;
}

/// The ranks owning a probe within `reach` of p along every axis (on the torus, through the periodic
/// images): a brute-force answer for the halo search.
std::vector<bool> owners_within_reach(const Space& space, const Point& p, double reach,
                                      const std::vector<Point>& probes, const std::vector<int>& probe_owner,
                                      int ranks) {
    std::vector<bool> near_rank(static_cast<std::size_t>(ranks), false);
    for (std::size_t k = 0; k < probes.size(); ++k) {
        bool near = true;
        for (int a = 0; a < space.dimensions && near; ++a) {
            const auto ua = static_cast<std::size_t>(a);
            double gap = std::abs(p[ua] - probes[k][ua]);
            if (space.wrap) {
                gap = std::min(gap, space.size[ua] - gap);
            }
            near = gap < reach;
        }
        if (near) {
            near_rank[static_cast<std::size_t>(probe_owner[k])] = true;
        }
    }
    return near_rank;
}

void check_interior(const Space& space, int ranks, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const double spill = space.wrap ? 0.0 : 50.0; // margin mode: agents may leave the world
    std::vector<Point> agents = random_points(space, 2000, rng, 0.0);
    // A crowded corner, so the cuts are uneven.
    for (std::size_t i = 0; i < 800; ++i) {
        agents[i][0] *= 0.2;
        agents[i][1] *= 0.3;
    }
    const Decomposition d = Decomposition::balanced(space, ranks, agents);
    const double reach = 40;
    const std::vector<Point> probes = random_points(space, 6000, rng, spill);
    std::vector<int> probe_owner;
    for (const Point& q : probes) {
        probe_owner.push_back(d.owner(q));
    }
    const std::vector<Point> points = random_points(space, 1500, rng, spill);
    long long interior = 0;
    for (const Point& p : points) {
        const int self = d.owner(p);
        ASSERT_GE(self, 0);
        ASSERT_LT(self, ranks);
        std::vector<int> found;
        d.ranks_near(p, reach, self, [&](int r) { found.push_back(r); });
        const std::vector<bool> near = owners_within_reach(space, p, reach, probes, probe_owner, ranks);
        const bool inside = d.interior(self, reach).contains(p);
        interior += inside ? 1 : 0;
        for (int r = 0; r < ranks; ++r) {
            if (r == self || !near[static_cast<std::size_t>(r)]) {
                continue;
            }
            // Every rank owning space within reach is found by the halo search, and is never near a point
            // of the interior box.
            EXPECT_NE(std::find(found.begin(), found.end(), r), found.end())
                << "rank " << r << " is within reach of a point of rank " << self << " but not found";
            EXPECT_FALSE(inside) << "rank " << r << " owns space within reach of an interior point of rank "
                                 << self;
        }
        if (inside) {
            EXPECT_TRUE(found.empty())
                << "a point inside rank " << self << "'s interior is near another rank";
        }
    }
    EXPECT_GT(interior, 50) << "the interior boxes should hold some of the points";
}

TEST(Decomposition, InteriorPointsAreNearNoOtherRankOnATorus) {
    check_interior(Space{{1000, 800, 0}, 2, true}, 4, 1);
    check_interior(Space{{1000, 800, 0}, 2, true}, 2, 2);
    check_interior(Space{{600, 500, 400}, 3, true}, 5, 3);
}

TEST(Decomposition, InteriorPointsAreNearNoOtherRankWithMargins) {
    check_interior(Space{{1000, 800, 0}, 2, false}, 3, 4);
    check_interior(Space{{600, 500, 400}, 3, false}, 4, 5);
}

} // namespace
