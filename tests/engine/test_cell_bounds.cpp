#include "boids/detail/cell_bounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

namespace boids::detail {
namespace {

/// SpatialGrid::cell_of's line index along one axis.
double clamped_line(double p, double origin, double cell, int n) {
    return std::clamp(unclamped_line(p, origin, cell), 0.0, n - 1.0);
}

/// Every entry of the table is the exact boundary: the index at the entry is at least its line, one unit
/// in the last place below it is not; and a position binned from any cell next to its own by the table's
/// rule lands in SpatialGrid's cell.
template <class Real>
void expect_exact_bounds(double origin, double cell, int n) {
    SCOPED_TRACE(testing::Message() << "origin " << origin << " cell " << cell << " n " << n);
    const std::vector<Real> table = line_bound_table<Real>(origin, cell, n, 16);
    ASSERT_EQ(table.size(), static_cast<std::size_t>(n) + 3 + 16);
    const Real inf = std::numeric_limits<Real>::infinity();
    EXPECT_EQ(table[0], -inf);
    EXPECT_EQ(table[1], -inf);
    for (std::size_t i = static_cast<std::size_t>(n) + 1; i < table.size(); ++i) {
        EXPECT_EQ(table[i], inf);
    }
    for (int c = 1; c < n; ++c) {
        const Real bound = table[static_cast<std::size_t>(c) + 1];
        EXPECT_EQ(clamped_line(static_cast<double>(bound), origin, cell, n), c) << "cell " << c;
        EXPECT_EQ(clamped_line(static_cast<double>(std::nextafter(bound, -inf)), origin, cell, n), c - 1)
            << "cell " << c;
        EXPECT_LT(table[static_cast<std::size_t>(c)], bound);
    }
    // The kernel's rule, from each old cell to positions in and around it (bounds and their neighbours
    // included), against the division.
    std::mt19937 rng(7);
    for (int old = 0; old < n; ++old) {
        const auto entry = [&](int i) { return table[static_cast<std::size_t>(i)]; };
        std::vector<Real> probes;
        for (int i = old; i <= old + 3; ++i) {
            const Real b = entry(i);
            if (std::isfinite(b)) {
                probes.insert(probes.end(), {b, std::nextafter(b, -inf), std::nextafter(b, inf)});
            }
        }
        const double lo = origin + (old - 1) * cell, hi = origin + (old + 2) * cell;
        std::uniform_real_distribution<double> within(lo, hi);
        for (int k = 0; k < 50; ++k) {
            probes.push_back(static_cast<Real>(within(rng)));
        }
        for (const Real x : probes) {
            if (!(x >= entry(old) && x < entry(old + 3))) {
                continue; // the kernel bins this one by division
            }
            const int binned = old - 1 + (x >= entry(old + 1)) + (x >= entry(old + 2));
            EXPECT_EQ(binned, clamped_line(static_cast<double>(x), origin, cell, n))
                << "x " << x << " old " << old;
        }
    }
}

TEST(CellBounds, EveryBoundIsExactInFloatAndDouble) {
    // W20's torus widths cut into cells of at least 40 (cells of 40.6..., not representable), a cell of
    // exactly 40, thirds, a far origin (large units in the last place) and lines of one or two cells.
    for (const auto& [origin, cell, n] :
         {std::tuple{0.0, 1585.3 / 39, 39}, std::tuple{0.0, 40.0, 25}, std::tuple{0.0, 1.0 / 3.0, 60},
          std::tuple{-37.25, 7.1, 9}, std::tuple{2.0e6, 41.3, 30}, std::tuple{0.0, 50.0, 1},
          std::tuple{0.0, 50.0, 2}, std::tuple{0.0, 15853.0 / 396, 396}}) {
        expect_exact_bounds<float>(origin, cell, n);
        expect_exact_bounds<double>(origin, cell, n);
    }
}

} // namespace
} // namespace boids::detail
