#include "boids/detail/spatial_grid.hpp"

#include "boids/detail/cell_bounds.hpp"
#include "boids/detail/grid_geometry.hpp"

#include "boids/fix15.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

namespace boids {

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
                              double width, double height, double depth, int threads,
                              const detail::GridExtent* whole) {
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

    // Geometry (detail::grid_geometry, shared with the fast path): margin mode covers the members'
    // bounding box.
    detail::MemberBox box;
    if (!wrap && whole == nullptr) {
        bool first = true;
        for (std::uint32_t i : members_) {
            const std::array<double, 3> p{static_cast<double>(world.x[i]), static_cast<double>(world.y[i]),
                                          three_d_ ? static_cast<double>(world.z[i]) : 0.0};
            for (std::size_t a = 0; a < 3; ++a) {
                box.lo[a] = first ? p[a] : std::min(box.lo[a], p[a]);
                box.hi[a] = first ? p[a] : std::max(box.hi[a], p[a]);
            }
            first = false;
        }
    }
    const detail::GridGeometry g =
        whole != nullptr
            ? detail::grid_geometry(range, whole->members, wrap, width, height, depth, whole->box)
            : detail::grid_geometry(range, m, wrap, width, height, depth, box);
    origin_x_ = g.origin_x;
    origin_y_ = g.origin_y;
    origin_z_ = g.origin_z;
    cell_w_ = g.cell_w;
    cell_h_ = g.cell_h;
    cell_d_ = g.cell_d;
    nx_ = g.nx;
    ny_ = g.ny;
    nz_ = g.nz;

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

template class SpatialGrid<float>;
template class SpatialGrid<double>;
template class SpatialGrid<Fix15>;

} // namespace boids
