#pragma once
/// (An engine internal: Simulation owns two grids, so the type is visible; programs do not use it.)
/// A uniform grid over agent positions, built by counting sort, so that a neighbour query visits only
/// the 3 x 3 cells (3 x 3 x 3 in 3D) around a point instead of every agent.

#include "boids/detail/grid_geometry.hpp"
#include "boids/detail/uninitialized_vector.hpp"
#include "boids/world.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace boids {

/// Which agents of a world a grid holds.
enum class GridMembers { Flocking, Predators };

/// Agents binned into square-ish cells no smaller than a query range. Within a cell, agents keep their
/// world order (the scatter is stable), and a query visits cells in a fixed order, so every sum over
/// the candidates a query yields is taken in the same order whatever the thread count.
///
/// Slots are the agents in cell order; the grid keeps copies of their positions and velocities so a
/// query reads contiguous memory.
template <class Real>
class SpatialGrid {
public:
    /// Bins the chosen agents. `range` is the largest distance a query must find. In wrap mode the grid
    /// tiles the torus [0, width) x [0, height) (positions must already be wrapped into it); otherwise it
    /// covers the agents' bounding box, wherever they are. The number of cells is capped near the number
    /// of agents, so far-flung agents cost memory proportional to N, not to the area they span.
    void build(const World<Real>& world, GridMembers members, double range, bool wrap, double width,
               double height, int threads) {
        build(world, members, range, wrap, width, height, 0.0, threads);
    }

    /// The same for a 3D world when `depth` > 0 (the world must have z): cells are boxes and the torus
    /// (wrap) is [0, width) x [0, height) x [0, depth). With depth 0 the grid is planar. With
    /// `positions_only` the grid copies the members' positions alone (agent(), vx(), vy() and vz() must not
    /// be called): a third or less of the scattered stores. `whole`, when given, replaces the members'
    /// count and bounding box in the geometry (a grid over part of a flock laid out as the whole flock's
    /// grid; see detail::GridExtent).
    void build(const World<Real>& world, GridMembers members, double range, bool wrap, double width,
               double height, double depth, int threads, bool positions_only = false,
               const detail::GridExtent* whole = nullptr);

    /// The number of members (slots).
    [[nodiscard]] std::size_t size() const { return members_; }
    /// True for a grid of boxes (built with depth > 0).
    [[nodiscard]] bool three_d() const { return three_d_; }

    /// Calls `visit(slot)` for every slot in the cells that can hold agents within `range` of (px, py, pz)
    /// (pz is ignored by a planar grid), each slot once, in a fixed order: layers, then rows, then columns
    /// of the 3 x 3 (x 3) block, then cell order.
    template <class Visit>
    void for_each_candidate(Real px, Real py, Real pz, Visit&& visit) const {
        for_each_candidate_run(px, py, pz, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t s = begin; s < end; ++s) {
                visit(s);
            }
        });
    }

    /// The slots of for_each_candidate, in the same order, as runs of consecutive slots: calls
    /// `visit(begin, end)` for each non-empty run [begin, end). Cells whose slots follow one another (the
    /// columns of a row, away from a torus' seam) make one run; there is never more than one run per cell.
    template <class Visit>
    void for_each_candidate_run(Real px, Real py, Real pz, Visit&& visit) const {
        for_each_candidate_run_of(query_key(px, py, pz), std::forward<Visit>(visit));
    }

    /// for_each_candidate_run of a query whose query_key is `key`: the runs depend on the position through
    /// its key alone.
    template <class Visit>
    void for_each_candidate_run_of(const std::array<double, 3>& key, Visit&& visit) const {
        if (members_ == 0) {
            return;
        }
        std::array<int, 3> cols{}, rows{}, layers{0, 0, 0};
        const int ncols = neighbour_lines(key[0], nx_, cols);
        const int nrows = neighbour_lines(key[1], ny_, rows);
        const int nlayers = three_d_ ? neighbour_lines(key[2], nz_, layers) : 1;
        SlotRuns<Visit> runs{visit};
        for (int l = 0; l < nlayers; ++l) {
            const std::size_t layer_base = static_cast<std::size_t>(layers[l]) *
                                           static_cast<std::size_t>(ny_) * static_cast<std::size_t>(nx_);
            for (int r = 0; r < nrows; ++r) {
                const std::size_t row_base =
                    layer_base + static_cast<std::size_t>(rows[r]) * static_cast<std::size_t>(nx_);
                for (int c = 0; c < ncols; ++c) {
                    runs.add(cell_start_, row_base + static_cast<std::size_t>(cols[c]));
                }
            }
        }
        runs.finish();
    }

    /// The runs of the queries of a planar grid on one row whose columns run from key[0] to key[0] + more:
    /// the rows of for_each_candidate_run_of(key), in its order, each from column key[0] - 1 to key[0] +
    /// more + 1. Restricted to one query's three columns, the slots are that query's candidates in its
    /// order. The columns must lie within the grid, 1 to columns() - 2, so that none wraps.
    template <class Visit>
    void for_each_candidate_run_across(const std::array<double, 3>& key, int more, Visit&& visit) const {
        if (members_ == 0) {
            return;
        }
        std::array<int, 3> rows{};
        const int nrows = neighbour_lines(key[1], ny_, rows);
        const int first = static_cast<int>(key[0]) - 1, last = static_cast<int>(key[0]) + more + 1;
        SlotRuns<Visit> runs{visit};
        for (int r = 0; r < nrows; ++r) { // a row's cells from first to last: one span of slots
            const std::size_t row_base = static_cast<std::size_t>(rows[r]) * static_cast<std::size_t>(nx_);
            runs.add(cell_start_[row_base + static_cast<std::size_t>(first)],
                     cell_start_[row_base + static_cast<std::size_t>(last) + 1]);
        }
        runs.finish();
    }

    /// Planar query (a 2D grid).
    template <class Visit>
    void for_each_candidate(Real px, Real py, Visit&& visit) const {
        for_each_candidate(px, py, Real(0), std::forward<Visit>(visit));
    }

    /// Calls `visit(slot)` for every slot in the cells exactly `ring` cells away (Chebyshev distance on the
    /// grid, wrapped on a torus) from the cell of (px, py), in a fixed order. Returns false once `ring`
    /// lies wholly outside the grid (so larger rings are empty too). Agents in ring r+1 and beyond are at
    /// least r * min_cell() away from any point of ring 0's cell.
    template <class Visit>
    bool for_each_in_ring(Real px, Real py, Real pz, int ring, Visit&& visit) const {
        return detail::for_each_cell_in_ring(geometry(), wrap_, three_d_, static_cast<double>(px),
                                             static_cast<double>(py), static_cast<double>(pz), ring,
                                             [&](std::size_t cell) { visit_cell(cell, visit); });
    }

    /// Planar ring (a 2D grid).
    template <class Visit>
    bool for_each_in_ring(Real px, Real py, int ring, Visit&& visit) const {
        return for_each_in_ring(px, py, Real(0), ring, std::forward<Visit>(visit));
    }

    /// The slots of for_each_in_ring, in the same order, as runs of consecutive slots: calls
    /// `visit(begin, end)` for each non-empty run [begin, end). The cells of a ring's row whose slots follow
    /// one another make one run: with about one agent per cell (the k-nearest grid's), a loop per cell
    /// would mostly run zero, one or two times, a count its branch cannot predict.
    template <class Visit>
    bool for_each_run_in_ring(Real px, Real py, Real pz, int ring, Visit&& visit) const {
        SlotRuns<Visit> runs{visit};
        const bool any = detail::for_each_cell_in_ring(
            geometry(), wrap_, three_d_, static_cast<double>(px), static_cast<double>(py),
            static_cast<double>(pz), ring, [&](std::size_t cell) { runs.add(cell_start_, cell); });
        runs.finish();
        return any;
    }

    /// Calls `visit(slot)` for every slot in the cells that can hold agents within `range` of (px, py, pz),
    /// for ranges larger than a cell (rings out to ceil(range / cell)); each slot once, in a fixed order.
    template <class Visit>
    void for_each_within(Real px, Real py, Real pz, double range, Visit&& visit) const {
        if (members_ == 0) {
            return;
        }
        detail::for_each_cell_within(geometry(), wrap_, three_d_, static_cast<double>(px),
                                     static_cast<double>(py), static_cast<double>(pz), range,
                                     [&](std::size_t cell) { visit_cell(cell, visit); });
    }

    /// Planar search (a 2D grid).
    template <class Visit>
    void for_each_within(Real px, Real py, double range, Visit&& visit) const {
        for_each_within(px, py, Real(0), range, std::forward<Visit>(visit));
    }

    /// The smallest side of a cell.
    [[nodiscard]] double min_cell() const { return detail::min_cell(geometry(), three_d_); }

    /// The grid's placement and cells (detail::GridGeometry).
    [[nodiscard]] detail::GridGeometry geometry() const {
        return {origin_x_, origin_y_, cell_w_, cell_h_, nx_, ny_, origin_z_, cell_d_, nz_};
    }

    /// World index of the agent in a slot.
    [[nodiscard]] std::uint32_t agent(std::uint32_t slot) const { return agent_[slot]; }
    /// Position and velocity of a slot's agent, copied in cell order when the grid was built.
    [[nodiscard]] Real x(std::uint32_t slot) const { return x_[slot]; }
    [[nodiscard]] Real y(std::uint32_t slot) const { return y_[slot]; }
    [[nodiscard]] Real vx(std::uint32_t slot) const { return vx_[slot]; }
    [[nodiscard]] Real vy(std::uint32_t slot) const { return vy_[slot]; }
    /// z and vz of a slot; 0 in a planar grid.
    [[nodiscard]] Real z(std::uint32_t slot) const { return three_d_ ? z_[slot] : Real(0); }
    [[nodiscard]] Real vz(std::uint32_t slot) const { return three_d_ ? vz_[slot] : Real(0); }

    /// The slots' coordinates (z: empty in a planar grid) and the cells' first slots (cells + 1 offsets,
    /// cells numbered (layer * rows + row) * columns + column), for a kernel that reads the grid whole.
    [[nodiscard]] std::span<const Real> xs() const { return x_; }
    [[nodiscard]] std::span<const Real> ys() const { return y_; }
    [[nodiscard]] std::span<const Real> zs() const { return z_; }
    /// The slots' velocities along x and y, likewise.
    [[nodiscard]] std::span<const Real> vxs() const { return vx_; }
    [[nodiscard]] std::span<const Real> vys() const { return vy_; }
    [[nodiscard]] std::span<const std::uint32_t> cell_starts() const { return cell_start_; }
    /// The slots' world indices (agent()), for a kernel that reads them in lanes.
    [[nodiscard]] std::span<const std::uint32_t> agents() const { return agent_; }
    /// True for a torus (built with wrap).
    [[nodiscard]] bool wraps() const { return wrap_; }

    /// Where a query at (px, py, pz) stands: the line (unclamped, as a double) of each coordinate. Two
    /// queries with equal keys visit the same runs of slots (for_each_candidate_run), which depend on the
    /// position through these lines alone.
    [[nodiscard]] std::array<double, 3> query_key(Real px, Real py, Real pz) const {
        return {query_line(static_cast<double>(px), origin_x_, cell_w_),
                query_line(static_cast<double>(py), origin_y_, cell_h_),
                three_d_ ? query_line(static_cast<double>(pz), origin_z_, cell_d_) : 0.0};
    }

    /// The box [x0, x1) x [y0, y1) of the positions whose query lines are `column` and `row` (query_key's
    /// first two entries), told by comparisons with where those lines begin and end: a group of agents it
    /// holds shares its candidate runs, without a division. Not `known` where the grid keeps no such
    /// bounds (a grid of far more lines than members): the caller computes the keys.
    struct LinesBox {
        bool known = false;
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;

        [[nodiscard]] bool holds(Real x, Real y) const {
            const auto px = static_cast<double>(x), py = static_cast<double>(y);
            return (px >= x0) & (px < x1) & (py >= y0) & (py < y1); // no branch per comparison
        }
    };
    [[nodiscard]] LinesBox lines_box(int column, int row) const {
        if (column < 0 || row < 0) {
            return {};
        }
        const auto c = static_cast<std::size_t>(column), r = static_cast<std::size_t>(row);
        if (c + 1 >= query_bound_x_.size() || r + 1 >= query_bound_y_.size()) {
            return {};
        }
        return {true, query_bound_x_[c], query_bound_x_[c + 1], query_bound_y_[r], query_bound_y_[r + 1]};
    }

    /// The grid's cells along x, y and z (1 in a planar grid), and a cell's width and height.
    [[nodiscard]] int columns() const { return nx_; }
    [[nodiscard]] int rows() const { return ny_; }
    [[nodiscard]] int layers() const { return nz_; }
    [[nodiscard]] double cell_width() const { return cell_w_; }
    [[nodiscard]] double cell_height() const { return cell_h_; }

private:
    /// The line a query's coordinate falls on, before clamping (neighbour_lines).
    [[nodiscard]] static double query_line(double p, double origin, double cell) {
        return std::floor((p - origin) / cell);
    }

    /// The distinct cell lines (columns or rows) within one cell of a query on line `f` (query_line), in
    /// ascending offset order (-1, 0, +1). Returns how many were written to `out`.
    [[nodiscard]] int neighbour_lines(double f, int n, std::array<int, 3>& out) const {
        if (wrap_) {
            if (n < 3) { // -1, 0, +1 would repeat lines: visit each line once
                for (int i = 0; i < n; ++i) {
                    out[i] = i;
                }
                return n;
            }
            int c = static_cast<int>(detail::clamp_line(f, 0.0, n - 1.0));
            out[0] = c == 0 ? n - 1 : c - 1;
            out[1] = c;
            out[2] = c == n - 1 ? 0 : c + 1;
            return 3;
        }
        // Clamp before converting: a point far outside the box must not overflow an int.
        const int c = static_cast<int>(detail::clamp_line(f, -2.0, n + 1.0));
        int count = 0;
        for (int i = c - 1; i <= c + 1; ++i) {
            if (i >= 0 && i < n) {
                out[count++] = i;
            }
        }
        return count;
    }

    [[nodiscard]] std::size_t cell_of(double px, double py, double pz) const;

    /// Merges cells, added in a search's order, into runs of consecutive slots: visit(begin, end) for each
    /// non-empty run, once the next cell does not continue it (or at finish()).
    template <class Visit>
    struct SlotRuns {
        Visit& visit;
        std::uint32_t begin = 0, end = 0;
        void add(std::span<const std::uint32_t> cell_start, std::size_t cell) {
            add(cell_start[cell], cell_start[cell + 1]);
        }
        /// The slots [from, to) (which may be none), next in the search's order.
        void add(std::uint32_t from, std::uint32_t to) {
            if (from != end) {
                finish();
                begin = from;
            }
            end = to;
        }
        void finish() const {
            if (end > begin) {
                visit(begin, end);
            }
        }
    };

    /// Slot `slot` takes the copies of world agent `i`: its position, and with kVelocity its velocity.
    template <bool kVelocity>
    void copy_member(const World<Real>& world, std::size_t slot, std::uint32_t i);

    /// Calls visit(slot) for every slot of a cell, in slot (world) order.
    template <class Visit>
    void visit_cell(std::size_t cell, Visit& visit) const {
        const std::uint32_t end = cell_start_[cell + 1];
        for (std::uint32_t s = cell_start_[cell]; s < end; ++s) {
            visit(s);
        }
    }

    bool wrap_ = false;
    bool three_d_ = false;
    int nx_ = 1, ny_ = 1, nz_ = 1;
    double origin_x_ = 0.0, origin_y_ = 0.0, origin_z_ = 0.0;
    double cell_w_ = 1.0, cell_h_ = 1.0, cell_d_ = 1.0;
    std::size_t members_ = 0;
    // Every array is written in full by each build before it is read: none is zero-filled first.
    detail::UninitializedVector<std::uint32_t> cell_start_; ///< nx * ny * nz + 1 offsets into the slots
    detail::UninitializedVector<std::uint32_t> agent_;      ///< world index per slot
    detail::UninitializedVector<Real> x_, y_, vx_, vy_;     ///< agent state per slot
    detail::UninitializedVector<Real> z_, vz_;              ///< 3D only
    std::vector<double> bound_x_, bound_y_, bound_z_; ///< scratch: where each line's cells begin (binning)
    /// Where query line c begins along x and y (the least position whose query_line is c or more), for
    /// c = 0 to the lines' count: lines_box. Empty where the build bins without tables.
    std::vector<double> query_bound_x_, query_bound_y_;
    detail::UninitializedVector<std::uint32_t> slot_cell_;   ///< scratch: cell of each agent, in world order
    detail::UninitializedVector<std::uint32_t> counters_;    ///< scratch: per thread, a counter per cell
    detail::UninitializedVector<std::uint32_t> chunk_total_; ///< scratch: per thread, its share's members
};

} // namespace boids
