#include "grid_binning.hpp"

#include "boids/detail/cell_bounds.hpp"
#include "boids/detail/grid_geometry.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace boids {
namespace {

/// Positions along one axis of `n` lines from `origin`: each line's edge and the values just beside it,
/// points outside the grid both ways, the infinities and NaN, and random points.
template <class Real>
std::vector<Real> probes(double origin, double cell, int n, unsigned seed) {
    std::vector<Real> out;
    for (int c = 0; c <= n; ++c) {
        const Real edge = detail::line_lower_bound<Real>(origin, cell, c);
        for (const Real p : {std::nextafter(edge, Real(-1e30)), edge, std::nextafter(edge, Real(1e30))}) {
            out.push_back(p);
        }
    }
    constexpr Real inf = std::numeric_limits<Real>::infinity();
    for (const Real p : {Real(origin - 3 * cell), Real(origin + (n + 3) * cell), inf, -inf,
                         std::numeric_limits<Real>::quiet_NaN(), Real(-0.0), Real(0.0)}) {
        out.push_back(p);
    }
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(origin - cell, origin + (n + 1) * cell);
    while (out.size() < 301) { // an odd count: a partial last vector on every target
        out.push_back(static_cast<Real>(u(rng)));
    }
    return out;
}

// The plane's cells a vector of agents at a time are the lines detail::clamped_line gives each coordinate
// (SpatialGrid::cell_of's division and floor, a NaN taking line 0, clamped to the grid), on every SIMD
// target and for every count of agents a last vector may hold; and the table's one agent at a time
// (bin_line), which the grid takes elsewhere, agrees.
template <class Real>
void expect_lines_of_the_formula(double origin, double cell_w, int columns, double cell_h, int rows) {
    std::vector<Real> x = probes<Real>(origin, cell_w, columns, 3);
    std::vector<Real> y = probes<Real>(origin, cell_h, rows, 4);
    std::mt19937 rng(7);
    std::shuffle(y.begin(), y.end(), rng); // every x with some y, edges against random points too
    const std::vector<double> bound_x = detail::line_bound_table<double>(origin, cell_w, columns, 0);
    const std::vector<double> bound_y = detail::line_bound_table<double>(origin, cell_h, rows, 0);
    const BinningLine column_line{origin, cell_w, 1.0 / cell_w, columns, bound_x.data()};
    const BinningLine row_line{origin, cell_h, 1.0 / cell_h, rows, bound_y.data()};
    std::vector<std::uint32_t> expected(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const int c = detail::clamped_line(static_cast<double>(x[i]), origin, cell_w, columns);
        const int r = detail::clamped_line(static_cast<double>(y[i]), origin, cell_h, rows);
        expected[i] = static_cast<std::uint32_t>(r * columns + c);
        ASSERT_EQ(bin_line(static_cast<double>(x[i]), column_line), c) << x[i];
        ASSERT_EQ(bin_line(static_cast<double>(y[i]), row_line), r) << y[i];
    }
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (std::size_t count = 0; count <= 17; ++count) { // every partial vector up to 16 lanes
            std::vector<std::uint32_t> cell(count + 1, 12345u);
            bin_plane(x.data(), y.data(), count, column_line, row_line, cell.data());
            for (std::size_t i = 0; i < count; ++i) {
                ASSERT_EQ(cell[i], expected[i])
                    << "SIMD target " << hwy::TargetName(target) << ", " << x[i] << ", " << y[i];
            }
            ASSERT_EQ(cell[count], 12345u) << "written past the count, " << hwy::TargetName(target);
        }
        std::vector<std::uint32_t> cell(x.size());
        bin_plane(x.data(), y.data(), x.size(), column_line, row_line, cell.data());
        for (std::size_t i = 0; i < x.size(); ++i) {
            ASSERT_EQ(cell[i], expected[i])
                << "SIMD target " << hwy::TargetName(target) << ", " << x[i] << ", " << y[i];
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(GridBinning, PlaneCellsAreTheFormulasOnEverySimdTarget) {
    expect_lines_of_the_formula<float>(0.0, 40.0, 25, 40.0, 19);
    expect_lines_of_the_formula<double>(0.0, 40.0, 25, 40.0, 19);
    // A cell of no short binary form and an origin off zero (margin mode covers the flock's box).
    expect_lines_of_the_formula<float>(-13.7, 1.0 / 3.0, 31, 0.7, 12);
    expect_lines_of_the_formula<double>(-13.7, 1.0 / 3.0, 31, 0.7, 12);
}

} // namespace
} // namespace boids
