#pragma once
/// Neighbour queries built on SpatialGrid that several models share (an engine internal).

#include "boids/detail/spatial_grid.hpp"

#include <array>
#include <cmath>
#include <cstdint>

namespace boids {

/// The largest k a k-nearest query supports.
inline constexpr int max_k_nearest = 64;

/// One neighbour found by a query: its grid slot, world index, and squared distance (in double, from the
/// scalar's minimum-image differences, so every precision ranks the same way).
struct FoundNeighbour {
    std::uint32_t slot;
    std::uint32_t index;
    double distance2;
};

/// The k nearest neighbours of a point, nearest first; ties go to the lower world index.
struct KNearest {
    std::array<FoundNeighbour, max_k_nearest> found{};
    int count = 0;
};

/// Adds a candidate to `out`, kept sorted nearest first (ties to the lower index) and at most k long.
void offer_nearest(KNearest& out, int k, const FoundNeighbour& candidate);

/// True when (x, y) lies in the 3 x 3 block of square cells of side `cell` (cells counted from the
/// origin, as PyNBoids' grid counts them) centred on the cell of (px, py). No block crosses a torus' seam.
bool in_cell_block(double px, double py, double x, double y, double cell);

/// in_cell_block around one point, for many (x, y), with the same answers at less cost: the point's lines,
/// floor(px / cell) and floor(py / cell), are taken once, and a candidate's by a floor without the C
/// library's call (the baseline x86-64 has no rounding instruction, and std::floor was most of a block
/// search's time). with_edges() goes further for a scan of many candidates: a line, floor(x / cell), never
/// decreases as x grows, so the block's columns are the doubles from one least x to another (and likewise
/// its rows), found once by detail::line_lower_bound; a candidate then costs four comparisons.
class CellBlock {
public:
    /// A cell of 0 or less: no block (nothing to take; contains() is not to be asked).
    CellBlock(double px, double py, double cell)
        : cell_(cell), column_(cell > 0 ? line(px / cell) : 0.0), row_(cell > 0 ? line(py / cell) : 0.0) {}

    /// The block with its edges found (where its lines lie within 2^30 and the point is finite).
    static CellBlock with_edges(double px, double py, double cell);

    [[nodiscard]] bool contains(double x, double y) const {
        if (edged_) {
            return x >= x_lo_ && x < x_hi_ && y >= y_lo_ && y < y_hi_;
        }
        return std::abs(line(x / cell_) - column_) <= 1 && std::abs(line(y / cell_) - row_) <= 1;
    }

private:
    /// floor(v), but for the sign of a zero (which no comparison above tells): truncated through a 64-bit
    /// integer, exactly, below 2^52; std::floor beyond, and for NaN.
    static double line(double v) {
        if (!(std::abs(v) < 0x1p52)) {
            return std::floor(v);
        }
        const auto t = static_cast<double>(static_cast<std::int64_t>(v));
        return t > v ? t - 1.0 : t;
    }

    double cell_, column_, row_;
    bool edged_ = false;
    double x_lo_ = 0, x_hi_ = 0, y_lo_ = 0, y_hi_ = 0;
};

/// Finds exactly the k nearest grid members to (px, py), excluding world index `self`, by searching rings
/// of cells outward until no unvisited cell can hold anything nearer than the k-th found. `wrap`, `width`
/// and `height` give the minimum image on a torus. 1 <= k <= max_k_nearest. `block_cell` > 0 takes only
/// members whose stored position lies in the 3 x 3 block of cells of that side around (px, py)
/// (in_cell_block), so fewer than k may be found.
template <class Real>
void k_nearest(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
               Real width, Real height, KNearest& out, double block_cell = 0.0);

} // namespace boids
