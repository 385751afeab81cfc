#pragma once
// Binning a flock into its grid's cells (internal; SpatialGrid::build), each position's line as
// detail::clamped_line gives it: one agent at a time by a guess and two comparisons with a table of where
// each line begins, or a plane's agents a vector at a time by a division per lane (grid_binning.cpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace boids {

/// One axis of a grid: its origin, its cell size and the inverse, its line count and where each line
/// begins (detail::line_bound_table, entry c + 1 for line c, with -infinity and +infinity around; bin_line
/// alone reads it).
struct BinningLine {
    double origin, cell, inverse;
    int count;
    const double* bound;
};

/// The line of position p: a multiplication guesses it to within one (the product and the quotient differ
/// by a few units in the last place), and two exact comparisons settle it. A NaN compares false
/// everywhere: line 0; +infinity reaches the table's +infinity past the last line, so the line is clamped
/// to the grid there too.
inline int bin_line(double p, const BinningLine& line) {
    const double guess = (p - line.origin) * line.inverse;
    const int g = guess >= 0.0 ? static_cast<int>(std::min(guess, line.count - 1.0)) : 0;
    const int c = g - 1 + (p >= line.bound[g + 1] ? 1 : 0) + (p >= line.bound[g + 2] ? 1 : 0);
    return std::clamp(c, 0, line.count - 1);
}

/// cell[i] = its row * columns + its column of the positions (x[i], y[i]), i in [0, n): a vector of
/// positions at a time.
void bin_plane(const float* x, const float* y, std::size_t n, const BinningLine& columns,
               const BinningLine& rows, std::uint32_t* cell);
void bin_plane(const double* x, const double* y, std::size_t n, const BinningLine& columns,
               const BinningLine& rows, std::uint32_t* cell);

} // namespace boids
