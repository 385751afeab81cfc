#include "boids/spatial_grid.hpp"

#include "boids/detail/cell_bounds.hpp"

#include "boids/fix15.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

namespace boids {

namespace {

/// Cells slightly larger than the range, so that rounding in the cell computation can never put two
/// agents closer than the range more than one cell apart.
constexpr double cell_margin = 1.0 + 1e-6;

/// Cells per line for `extent` cut into cells of at least `cell` (at least one).
int cells_along(double extent, double cell) {
    const double n = std::floor(extent / cell);
    return static_cast<int>(std::clamp(n, 1.0, static_cast<double>(std::numeric_limits<int>::max() / 4)));
}

} // namespace

template <class Real>
std::size_t SpatialGrid<Real>::cell_of(double px, double py, double pz) const {
    const auto line = [](double p, double origin, double cell, int n) {
        const double f = detail::unclamped_line(p, origin, cell); // the fast path bins with its bounds
        return static_cast<std::size_t>(std::clamp(f, 0.0, n - 1.0));
    };
    const std::size_t layer = three_d_ ? line(pz, origin_z_, cell_d_, nz_) : 0;
    return (layer * static_cast<std::size_t>(ny_) + line(py, origin_y_, cell_h_, ny_)) *
               static_cast<std::size_t>(nx_) +
           line(px, origin_x_, cell_w_, nx_);
}

template <class Real>
void SpatialGrid<Real>::build(const World<Real>& world, GridMembers members, double range, bool wrap,
                              double width, double height, double depth, int threads) {
    members_.clear();
    const bool want_predators = members == GridMembers::Predators;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if ((world.kind[i] == Kind::Predator) == want_predators) {
            members_.push_back(static_cast<std::uint32_t>(i));
        }
    }
    const std::size_t m = members_.size();
    wrap_ = wrap;
    three_d_ = depth > 0;
    assert(!three_d_ || world.z.size() == world.size());
    nz_ = 1;
    origin_z_ = 0.0;
    cell_d_ = 1.0;

    // Geometry. The cell count is capped near the member count: beyond that, cells would be mostly empty
    // and the grid's memory would follow the area the agents span instead of their number.
    const double max_cells = std::max(16.0, 2.0 * static_cast<double>(m));
    double cell = std::max(range * cell_margin, std::numeric_limits<double>::min());
    if (three_d_) {
        geometry_3d(world, cell, max_cells, wrap, width, height, depth);
    } else if (wrap) {
        origin_x_ = origin_y_ = 0.0;
        nx_ = cells_along(width, cell);
        ny_ = cells_along(height, cell);
        if (static_cast<double>(nx_) * ny_ > max_cells) {
            const double shrink = std::sqrt(static_cast<double>(nx_) * ny_ / max_cells);
            nx_ = std::max(1, static_cast<int>(nx_ / shrink));
            ny_ = std::max(1, static_cast<int>(ny_ / shrink));
        }
        cell_w_ = width / nx_;
        cell_h_ = height / ny_;
    } else {
        double min_x = 0.0, max_x = 0.0, min_y = 0.0, max_y = 0.0;
        if (m > 0) {
            min_x = max_x = static_cast<double>(world.x[members_[0]]);
            min_y = max_y = static_cast<double>(world.y[members_[0]]);
        }
        for (std::uint32_t i : members_) {
            min_x = std::min(min_x, static_cast<double>(world.x[i]));
            max_x = std::max(max_x, static_cast<double>(world.x[i]));
            min_y = std::min(min_y, static_cast<double>(world.y[i]));
            max_y = std::max(max_y, static_cast<double>(world.y[i]));
        }
        const double span_x = max_x - min_x, span_y = max_y - min_y;
        const double area_cells = (span_x / cell + 1.0) * (span_y / cell + 1.0);
        if (area_cells > max_cells) {
            cell *= std::sqrt(area_cells / max_cells);
        }
        origin_x_ = min_x;
        origin_y_ = min_y;
        nx_ = static_cast<int>(std::floor(span_x / cell)) + 1;
        ny_ = static_cast<int>(std::floor(span_y / cell)) + 1;
        cell_w_ = cell_h_ = cell;
    }

    const std::size_t cells =
        static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_) * static_cast<std::size_t>(nz_);
    slot_cell_.resize(m);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t k = 0; k < m; ++k) {
        const std::uint32_t i = members_[k];
        slot_cell_[k] = static_cast<std::uint32_t>(cell_of(static_cast<double>(world.x[i]),
                                                           static_cast<double>(world.y[i]),
                                                           three_d_ ? static_cast<double>(world.z[i]) : 0.0));
    }

    // Counting sort: histogram, exclusive prefix sum, stable scatter (members stay in world order
    // within a cell, which fixes the order of every neighbour sum).
    cell_start_.assign(cells + 1, 0);
    for (std::size_t k = 0; k < m; ++k) {
        ++cell_start_[slot_cell_[k] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) {
        cell_start_[c + 1] += cell_start_[c];
    }
    agent_.resize(m);
    x_.resize(m);
    y_.resize(m);
    vx_.resize(m);
    vy_.resize(m);
    z_.resize(three_d_ ? m : 0);
    vz_.resize(three_d_ ? m : 0);
    std::vector<std::uint32_t>& cursor = slot_cell_; // reuse: cell of member k becomes its slot
    {
        std::vector<std::uint32_t> next(cell_start_.begin(), cell_start_.end() - 1);
        for (std::size_t k = 0; k < m; ++k) {
            cursor[k] = next[slot_cell_[k]]++;
        }
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t k = 0; k < m; ++k) {
        const std::uint32_t i = members_[k];
        const std::uint32_t s = cursor[k];
        agent_[s] = i;
        x_[s] = world.x[i];
        y_[s] = world.y[i];
        vx_[s] = world.vx[i];
        vy_[s] = world.vy[i];
        if (three_d_) {
            z_[s] = world.z[i];
            vz_[s] = world.vz[i];
        }
    }
    assert(cell_start_.back() == m);
}

template <class Real>
void SpatialGrid<Real>::geometry_3d(const World<Real>& world, double cell, double max_cells, bool wrap,
                                    double width, double height, double depth) {
    if (wrap) {
        origin_x_ = origin_y_ = origin_z_ = 0.0;
        nx_ = cells_along(width, cell);
        ny_ = cells_along(height, cell);
        nz_ = cells_along(depth, cell);
        const double count = static_cast<double>(nx_) * ny_ * nz_;
        if (count > max_cells) {
            const double shrink = std::cbrt(count / max_cells);
            nx_ = std::max(1, static_cast<int>(nx_ / shrink));
            ny_ = std::max(1, static_cast<int>(ny_ / shrink));
            nz_ = std::max(1, static_cast<int>(nz_ / shrink));
        }
        cell_w_ = width / nx_;
        cell_h_ = height / ny_;
        cell_d_ = depth / nz_;
        return;
    }
    std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
    bool first = true;
    for (std::uint32_t i : members_) {
        const std::array<double, 3> p{static_cast<double>(world.x[i]), static_cast<double>(world.y[i]),
                                      static_cast<double>(world.z[i])};
        for (std::size_t a = 0; a < 3; ++a) {
            lo[a] = first ? p[a] : std::min(lo[a], p[a]);
            hi[a] = first ? p[a] : std::max(hi[a], p[a]);
        }
        first = false;
    }
    const double volume_cells =
        ((hi[0] - lo[0]) / cell + 1.0) * ((hi[1] - lo[1]) / cell + 1.0) * ((hi[2] - lo[2]) / cell + 1.0);
    if (volume_cells > max_cells) {
        cell *= std::cbrt(volume_cells / max_cells);
    }
    origin_x_ = lo[0];
    origin_y_ = lo[1];
    origin_z_ = lo[2];
    nx_ = static_cast<int>(std::floor((hi[0] - lo[0]) / cell)) + 1;
    ny_ = static_cast<int>(std::floor((hi[1] - lo[1]) / cell)) + 1;
    nz_ = static_cast<int>(std::floor((hi[2] - lo[2]) / cell)) + 1;
    cell_w_ = cell_h_ = cell_d_ = cell;
}

template class SpatialGrid<float>;
template class SpatialGrid<double>;
template class SpatialGrid<Fix15>;

} // namespace boids
