// Grid k-nearest against brute force, ties included.

#include "boids/detail/neighbour_search.hpp"

#include "boids/detail/cell_bounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace boids {
namespace {

std::vector<std::uint32_t> brute_force(const World<double>& w, std::size_t i, int k, bool wrap, double side) {
    std::vector<std::pair<double, std::uint32_t>> all;
    for (std::size_t j = 0; j < w.size(); ++j) {
        if (j == i || w.kind[j] == Kind::Predator) {
            continue;
        }
        double dx = w.x[i] - w.x[j], dy = w.y[i] - w.y[j];
        if (wrap) {
            dx = dx > side / 2 ? dx - side : (dx < -side / 2 ? dx + side : dx);
            dy = dy > side / 2 ? dy - side : (dy < -side / 2 ? dy + side : dy);
        }
        all.emplace_back(dx * dx + dy * dy, static_cast<std::uint32_t>(j));
    }
    std::sort(all.begin(), all.end()); // by distance, then index
    std::vector<std::uint32_t> out;
    for (int m = 0; m < k && m < static_cast<int>(all.size()); ++m) {
        out.push_back(all[static_cast<std::size_t>(m)].second);
    }
    return out;
}

void expect_grid_matches_brute_force(const World<double>& w, double side, bool wrap, double cell_range) {
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, cell_range, wrap, side, side, 2);
    for (int k : {1, 7, 20}) {
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w.kind[i] == Kind::Predator) {
                continue;
            }
            KNearest found;
            k_nearest(grid, w.x[i], w.y[i], static_cast<std::uint32_t>(i), k, wrap, side, side, found);
            std::vector<std::uint32_t> got;
            for (int m = 0; m < found.count; ++m) {
                got.push_back(found.found[static_cast<std::size_t>(m)].index);
            }
            ASSERT_EQ(got, brute_force(w, i, k, wrap, side)) << "agent " << i << " k " << k;
        }
    }
}

World<double> random_world(int n, double side, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, side);
    World<double> w;
    for (int i = 0; i < n; ++i) {
        w.add(i % 25 == 0 ? Kind::Predator : Kind::Boid, u(rng), u(rng), 0, 0, 0);
    }
    return w;
}

TEST(KNearest, MatchesBruteForceOnAnOpenPlane) {
    World<double> w = random_world(700, 600, 1);
    w.add(Kind::Boid, 5000, -3000, 0, 0, 0); // far away: its nearest are the flock's edge
    expect_grid_matches_brute_force(w, 600, false, 0);
    expect_grid_matches_brute_force(w, 600, false, 40);
}

TEST(KNearest, MatchesBruteForceOnATorus) {
    expect_grid_matches_brute_force(random_world(700, 600, 2), 600, true, 0);
    expect_grid_matches_brute_force(random_world(60, 100, 3), 100, true, 45); // 2 x 2 cells
}

TEST(KNearest, TiesGoToTheLowerIndex) {
    World<double> w; // a lattice: many equal distances
    for (int i = 0; i < 15; ++i) {
        for (int j = 0; j < 15; ++j) {
            w.add(Kind::Boid, 10.0 * i + 5, 10.0 * j + 5, 0, 0, 0);
        }
    }
    expect_grid_matches_brute_force(w, 150, false, 0);
    expect_grid_matches_brute_force(w, 150, true, 0);
    expect_grid_matches_brute_force(w, 150, true, 30);
}

TEST(KNearest, FewerAgentsThanK) {
    World<double> w;
    w.add(Kind::Boid, 1, 1, 0, 0, 0);
    w.add(Kind::Boid, 2, 2, 0, 0, 0);
    w.add(Kind::Predator, 1.5, 1.5, 0, 0, 0);
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 0, false, 10, 10, 1);
    KNearest found;
    k_nearest(grid, 1.0, 1.0, 0, 7, false, 10.0, 10.0, found);
    ASSERT_EQ(found.count, 1);
    EXPECT_EQ(found.found[0].index, 1u);
    EXPECT_DOUBLE_EQ(found.found[0].distance2, 2.0);
}

} // namespace
} // namespace boids

namespace boids {
namespace {

// CellBlock answers as in_cell_block does, by its lines and by its edges, at random and on every edge of a
// block (the least x of each line and the double below it), for cells that divide evenly and that do not,
// negative positions, and a point whose lines lie beyond the edges' reach.
TEST(CellBlock, AnswersAsInCellBlock) {
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> u(-500.0, 1500.0);
    int checked = 0, inside = 0;
    for (const double cell : {100.0, 0.1, 33.7, 1e-3}) {
        for (int q = 0; q < 200; ++q) {
            const double px = u(rng) * cell / 100, py = u(rng) * cell / 100;
            const CellBlock lines(px, py, cell), edges = CellBlock::with_edges(px, py, cell);
            std::vector<double> xs;
            for (int i = 0; i < 40; ++i) {
                xs.push_back(px + (u(rng) - 500.0) * cell / 200);
            }
            for (int c = -2; c <= 3; ++c) { // the edges of the lines around the point's
                const double edge =
                    detail::line_lower_bound<double>(0.0, cell, static_cast<int>(std::floor(px / cell)) + c);
                xs.insert(xs.end(), {edge, std::nextafter(edge, -INFINITY)});
            }
            for (const double x : xs) {
                for (const double y : {py, x - px + py, std::nextafter(py, -INFINITY)}) {
                    const bool want = in_cell_block(px, py, x, y, cell);
                    ASSERT_EQ(lines.contains(x, y), want) << cell << " " << px << " " << x;
                    ASSERT_EQ(edges.contains(x, y), want) << cell << " " << px << " " << x;
                    ++checked;
                    inside += want;
                }
            }
        }
    }
    EXPECT_GT(inside, checked / 10); // both answers are common
    EXPECT_LT(inside, checked * 9 / 10);
    // Lines beyond the edges' reach, and a NaN: in_cell_block's answers still.
    const CellBlock far = CellBlock::with_edges(1e300, 5.0, 1.0);
    EXPECT_EQ(far.contains(1e300, 5.0), in_cell_block(1e300, 5.0, 1e300, 5.0, 1.0));
    EXPECT_FALSE(CellBlock::with_edges(1.0, 1.0, 1.0).contains(NAN, 1.0));
    EXPECT_FALSE(CellBlock(1.0, 1.0, 1.0).contains(1.0, NAN));
}

} // namespace
} // namespace boids
