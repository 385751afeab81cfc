#include "boids/detail/spatial_grid.hpp"

#include "boids/detail/cell_bounds.hpp"
#include "boids/detail/grid_geometry.hpp"

#include "boids/fix15.hpp"
#include "cell_cursors.hpp"
#include "grid_binning.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <omp.h>
#include <type_traits>

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
template <bool kVelocity>
inline void SpatialGrid<Real>::copy_member(const World<Real>& world, std::size_t slot, std::uint32_t i) {
    x_[slot] = world.x[i];
    y_[slot] = world.y[i];
    if (three_d_) {
        z_[slot] = world.z[i];
    }
    if constexpr (kVelocity) {
        vx_[slot] = world.vx[i];
        vy_[slot] = world.vy[i];
        if (three_d_) {
            vz_[slot] = world.vz[i];
        }
    }
}

template <class Real>
void SpatialGrid<Real>::build(const World<Real>& world, GridMembers members, double range, bool wrap,
                              double width, double height, double depth, int threads, bool positions_only,
                              const detail::GridExtent* whole) {
    const std::size_t n = world.size();
    const bool want_predators = members == GridMembers::Predators;
    const auto member = [&](std::size_t i) { return (world.kind[i] == Kind::Predator) == want_predators; };
    wrap_ = wrap;
    three_d_ = depth > 0;
    assert(!three_d_ || world.z.size() == world.size());
    nz_ = 1;
    origin_z_ = 0.0;
    cell_d_ = 1.0;
    threads = std::max(threads, 1);

    // Geometry (detail::grid_geometry, shared with the fast path): margin mode covers the members'
    // bounding box (min and max are exact in any order); a torus needs only the member count.
    std::size_t m = 0;
    constexpr double big = std::numeric_limits<double>::max();
    double lo_x = big, lo_y = big, lo_z = big, hi_x = -big, hi_y = -big, hi_z = -big;
    const bool three_d = three_d_;
    if (wrap) {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : m)
        for (std::size_t i = 0; i < n; ++i) {
            m += member(i) ? 1 : 0;
        }
    } else {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : m)                             \
    reduction(min : lo_x, lo_y, lo_z) reduction(max : hi_x, hi_y, hi_z)
        for (std::size_t i = 0; i < n; ++i) {
            if (!member(i)) {
                continue;
            }
            ++m;
            const double x = static_cast<double>(world.x[i]), y = static_cast<double>(world.y[i]);
            const double z = three_d ? static_cast<double>(world.z[i]) : 0.0;
            lo_x = std::min(lo_x, x), hi_x = std::max(hi_x, x);
            lo_y = std::min(lo_y, y), hi_y = std::max(hi_y, y);
            lo_z = std::min(lo_z, z), hi_z = std::max(hi_z, z);
        }
    }
    detail::MemberBox box;
    if (!wrap && m > 0) {
        box.lo = {lo_x, lo_y, lo_z};
        box.hi = {hi_x, hi_y, hi_z};
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
    const std::size_t cells = g.cell_count();

    // Binning: cell_of divides and floors each coordinate. One agent at a time, with a table of where each
    // line's cells begin (detail::line_bound_table), a multiplication guesses the line to within one (the
    // product and the quotient differ by a few units in the last place), and two exact comparisons settle
    // it: the same cell, at a fraction of the cost. The tables take a little work per line, so a grid with
    // far more lines than members (a flock strung out along one axis) bins with cell_of. A vector of agents
    // at a time (bin_plane), the division per lane costs less than gathering each lane's bounds.
    const std::size_t lines = static_cast<std::size_t>(nx_) + static_cast<std::size_t>(ny_) +
                              (three_d_ ? static_cast<std::size_t>(nz_) : 0);
    const bool tabled = lines <= m / 4;
    // Where each query line begins (lines_box): the binning table's bounds, and the first and the last
    // line's. Kept with the tables alone; without them lines_box is not known.
    const auto query_bounds = [](const std::vector<double>& table, double origin, double cell, int n) {
        std::vector<double> bounds(static_cast<std::size_t>(n) + 1);
        bounds[0] = detail::line_lower_bound<double>(origin, cell, 0);
        for (std::size_t c = 1; c < bounds.size() - 1; ++c) {
            bounds[c] = table[c + 1];
        }
        bounds.back() = detail::line_lower_bound<double>(origin, cell, n);
        return bounds;
    };
    query_bound_x_.clear();
    query_bound_y_.clear();
    if (tabled) {
        bound_x_ = detail::line_bound_table<double>(origin_x_, cell_w_, nx_, 0);
        bound_y_ = detail::line_bound_table<double>(origin_y_, cell_h_, ny_, 0);
        bound_z_ =
            three_d_ ? detail::line_bound_table<double>(origin_z_, cell_d_, nz_, 0) : std::vector<double>{};
        query_bound_x_ = query_bounds(bound_x_, origin_x_, cell_w_, nx_);
        query_bound_y_ = query_bounds(bound_y_, origin_y_, cell_h_, ny_);
    }
    const BinningLine column_line{origin_x_, cell_w_, 1.0 / cell_w_, nx_, bound_x_.data()};
    const BinningLine row_line{origin_y_, cell_h_, 1.0 / cell_h_, ny_, bound_y_.data()};
    const BinningLine layer_line{origin_z_, cell_d_, 1.0 / cell_d_, nz_, bound_z_.data()};
    const auto bin = [&](std::size_t i) -> std::size_t {
        const double x = static_cast<double>(world.x[i]), y = static_cast<double>(world.y[i]);
        const double z = three_d_ ? static_cast<double>(world.z[i]) : 0.0;
        if (!tabled) {
            return cell_of(x, y, z);
        }
        const auto line = [](double p, const BinningLine& l) {
            return static_cast<std::size_t>(bin_line(p, l));
        };
        const std::size_t layer = three_d_ ? line(z, layer_line) : 0;
        return (layer * static_cast<std::size_t>(ny_) + line(y, row_line)) * static_cast<std::size_t>(nx_) +
               line(x, column_line);
    };
    // A plane whose agents are (nearly) all members bins a vector of them at a time, the few others marked
    // after; a grid of few members (the predators') bins those alone.
    constexpr bool in_lanes = std::is_same_v<Real, float> || std::is_same_v<Real, double>;
    const bool binned_in_lanes = in_lanes && !three_d_ && 2 * m >= n;

    // Stable counting sort, in parallel: thread t bins the t-th share of the world (in world order) into its
    // own counters; a prefix sum in (cell, thread) order turns them into scatter cursors, so members keep
    // their world order within a cell (which fixes the order of every neighbour sum) whatever the threads.
    constexpr std::uint32_t outside = std::numeric_limits<std::uint32_t>::max(); // not a member
    slot_cell_.resize(n);
    counters_.resize(static_cast<std::size_t>(threads) * cells);
    chunk_total_.resize(static_cast<std::size_t>(threads));
    cell_start_.resize(cells + 1);
    const bool everything = !positions_only;
    agent_.resize(everything ? m : 0);
    x_.resize(m);
    y_.resize(m);
    z_.resize(three_d_ ? m : 0);
    vx_.resize(everything ? m : 0);
    vy_.resize(everything ? m : 0);
    vz_.resize(everything && three_d_ ? m : 0);
    // Few members (the predators' grid: often none, or a handful among the flock): listed first, in world
    // order, so that the binning, the counting and the scatter visit them alone instead of every agent.
    // The same grid as the sort below: its members keep their world order within a cell.
    if (m * 8 <= n) {
        std::uint32_t* const index = slot_cell_.data(); // the members' world indices, then their cells
        std::uint32_t* const cell_of_member = index + m;
        std::size_t k = 0;
        for (std::size_t i = 0; k < m; ++i) {
            index[k] = static_cast<std::uint32_t>(i);
            k += member(i) ? 1 : 0;
        }
        std::uint32_t* const cursor = counters_.data();
        std::fill(cursor, cursor + cells, 0u);
        for (k = 0; k < m; ++k) {
            cell_of_member[k] = static_cast<std::uint32_t>(bin(index[k]));
            ++cursor[cell_of_member[k]];
        }
        detail::prefix_cursors(
            cells, 1, cell_start_.data(), chunk_total_.data(),
            [&](std::size_t c, std::size_t) -> std::uint32_t& { return cursor[c]; },
            [](std::size_t, std::size_t, std::uint32_t) {}); // outside a team: one thread, no barriers
        for (k = 0; k < m; ++k) {
            const std::uint32_t s = cursor[cell_of_member[k]]++, i = index[k];
            if (everything) {
                agent_[s] = i;
                copy_member<true>(world, s, i);
            } else {
                copy_member<false>(world, s, i);
            }
        }
        members_ = m;
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        const auto nt = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t begin = n * t / nt, end = n * (t + 1) / nt;
        std::uint32_t* const counter = counters_.data() + t * cells;
        std::fill(counter, counter + cells, 0u);
        // Binned first, then counted: with many cells a counter is a cache miss away, so the counting (and
        // the scatter below) fetches the counter of the member 16 ahead while it counts this one.
        if (!binned_in_lanes) {
            for (std::size_t i = begin; i < end; ++i) {
                slot_cell_[i] = member(i) ? static_cast<std::uint32_t>(bin(i)) : outside;
            }
        } else if constexpr (in_lanes) {
            bin_plane(world.x.data() + begin, world.y.data() + begin, end - begin, column_line, row_line,
                      slot_cell_.data() + begin);
            for (std::size_t i = begin; i < end && m < n; ++i) {
                if (!member(i)) {
                    slot_cell_[i] = outside;
                }
            }
        }
        constexpr std::size_t ahead = 16;
        for (std::size_t i = begin; i < end; ++i) {
            if (i + ahead < end && slot_cell_[i + ahead] != outside) {
                __builtin_prefetch(counter + slot_cell_[i + ahead], 1);
            }
            const std::uint32_t c = slot_cell_[i];
            if (c != outside) {
                ++counter[c];
            }
        }
#pragma omp barrier
        detail::prefix_cursors(
            cells, nt, cell_start_.data(), chunk_total_.data(),
            [&](std::size_t c, std::size_t u) -> std::uint32_t& { return counters_[u * cells + c]; },
            [](std::size_t, std::size_t, std::uint32_t) {});
        for (std::size_t i = begin; i < end; ++i) {
            if (i + ahead < end && slot_cell_[i + ahead] != outside) {
                __builtin_prefetch(counter + slot_cell_[i + ahead], 1);
            }
            const std::uint32_t c = slot_cell_[i];
            if (c == outside) {
                continue;
            }
            const std::uint32_t s = counter[c]++;
            if (everything) {
                agent_[s] = static_cast<std::uint32_t>(i);
                continue;
            }
            x_[s] = world.x[i];
            y_[s] = world.y[i];
            if (three_d_) {
                z_[s] = world.z[i];
            }
        }
        if (everything) {
            // Scattering one array and gathering the others in slot order is cheaper than scattering all
            // of them: a load that misses the cache waits alone, a store that misses holds up the stores
            // behind it.
#pragma omp barrier
            const std::size_t first = m * t / nt, last = m * (t + 1) / nt;
            for (std::size_t s = first; s < last; ++s) {
                copy_member<true>(world, s, agent_[s]);
            }
        }
    }
    assert(cell_start_.back() == m);
    members_ = m;
}

template class SpatialGrid<float>;
template class SpatialGrid<double>;
template class SpatialGrid<Fix15>;

} // namespace boids
