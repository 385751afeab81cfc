#include "boids/detail/neighbour_search.hpp"

#include "boids/detail/cell_bounds.hpp"

#include "boids/fix15.hpp"
#include "k_nearest_distance.hpp"

#include <cassert>
#include <cmath>

namespace boids {

namespace {

/// True when a ranks before b: nearer, or as near with the lower index.
bool before(const FoundNeighbour& a, const FoundNeighbour& b) {
    return a.distance2 < b.distance2 || (a.distance2 == b.distance2 && a.index < b.index);
}

} // namespace

void offer_nearest(KNearest& out, int k, const FoundNeighbour& candidate) {
    if (out.count == k && !before(candidate, out.found[static_cast<std::size_t>(k - 1)])) {
        return;
    }
    // Insertion into the sorted list, dropping the last when full.
    int pos = out.count < k ? out.count++ : k - 1;
    while (pos > 0 && before(candidate, out.found[static_cast<std::size_t>(pos - 1)])) {
        out.found[static_cast<std::size_t>(pos)] = out.found[static_cast<std::size_t>(pos - 1)];
        --pos;
    }
    out.found[static_cast<std::size_t>(pos)] = candidate;
}

bool in_cell_block(double px, double py, double x, double y, double cell) {
    return std::abs(std::floor(x / cell) - std::floor(px / cell)) <= 1 &&
           std::abs(std::floor(y / cell) - std::floor(py / cell)) <= 1;
}

CellBlock CellBlock::with_edges(double px, double py, double cell) {
    CellBlock block(px, py, cell);
    constexpr double reach = 0x1p30; // line_lower_bound's int, and its guess c * cell, stay exact
    if (!(cell > 0 && std::abs(block.column_) < reach && std::abs(block.row_) < reach)) {
        return block;
    }
    // x lies in lines column - 1 to column + 1 exactly when it is at least the least x of line column - 1
    // and below the least x of line column + 2 (detail::unclamped_line with origin 0 is floor(x / cell)).
    const auto least = [cell](double line) {
        return detail::line_lower_bound<double>(0.0, cell, static_cast<int>(line));
    };
    block.x_lo_ = least(block.column_ - 1);
    block.x_hi_ = least(block.column_ + 2);
    block.y_lo_ = least(block.row_ - 1);
    block.y_hi_ = least(block.row_ + 2);
    block.edged_ = true;
    return block;
}

template <class Real>
void k_nearest(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
               Real width, Real height, KNearest& out, double block_cell) {
    assert(k >= 1 && k <= max_k_nearest);
    out.count = 0;
    const CellBlock block(static_cast<double>(px), static_cast<double>(py), block_cell);
    const auto offer = [&](std::uint32_t s) {
        const std::uint32_t j = grid.agent(s);
        if (j == self) {
            return;
        }
        const Real x = grid.x(s), y = grid.y(s);
        if (block_cell > 0 && !block.contains(static_cast<double>(x), static_cast<double>(y))) {
            return;
        }
        const double d2 = k_nearest_distance2(px, py, x, y, wrap, width, height);
        if (out.count == k && d2 > out.found[static_cast<std::size_t>(k - 1)].distance2) {
            return; // farther than the k-th found: most candidates, without a call
        }
        offer_nearest(out, k, FoundNeighbour{s, j, d2});
    };
    // A block reaches at most two cells from the point along each axis.
    const double block_reach = 2 * block_cell * std::sqrt(2.0);
    for (int ring = 0;; ++ring) {
        const bool any =
            grid.for_each_run_in_ring(px, py, Real(0), ring, [&](std::uint32_t begin, std::uint32_t end) {
                for (std::uint32_t s = begin; s < end; ++s) {
                    offer(s);
                }
            });
        if (!any) {
            return; // every cell visited
        }
        // Anything in ring+1 or beyond is at least ring * min_cell away.
        const double reach = ring * grid.min_cell();
        if (out.count == k && out.found[static_cast<std::size_t>(k - 1)].distance2 < reach * reach) {
            return;
        }
        if (block_cell > 0 && reach > block_reach) {
            return; // nothing beyond lies in the block
        }
    }
}

template void k_nearest(const SpatialGrid<float>&, float, float, std::uint32_t, int, bool, float, float,
                        KNearest&, double);
template void k_nearest(const SpatialGrid<double>&, double, double, std::uint32_t, int, bool, double, double,
                        KNearest&, double);
template void k_nearest(const SpatialGrid<Fix15>&, Fix15, Fix15, std::uint32_t, int, bool, Fix15, Fix15,
                        KNearest&, double);

} // namespace boids
