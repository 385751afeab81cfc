#pragma once
// The fast classic step (internal). The flocking agents live in cell order between steps ("slots");
// each step re-sorts them by a parallel counting sort (cheap: agents move less than a cell per step, so
// the permutation is nearly the identity) and runs the SIMD neighbour pass of fast_classic_kernel-inl.h.
// The world's flocking rows are written back only when someone looks at the world (sync()), or, once
// someone has, at the end of the next step.
// Simulation::step uses it whenever try_step() accepts; the plain grid step in simulation.cpp stays the
// readable reference.

#include "boids/detail/fast_step_scratch.hpp"
#include "boids/detail/grid_geometry.hpp"
#include "boids/params.hpp"
#include "boids/profile.hpp"
#include "boids/world.hpp"
#include "fast_classic_kernel.hpp"
#include "spread_column_allocator.hpp"

#include <cstdint>
#include <vector>

namespace boids::detail {

/// A column with an entry per slot, starting at its own offset in a page (SpreadColumnAllocator).
template <class T>
using SlotColumn = std::vector<T, SpreadColumnAllocator<T>>;

/// The flocking agents' state in slot order, one column per field (the agent's world index travels
/// with it, and its kind and bias when the world holds scouts; otherwise the world's bias column stays
/// the authority and these two columns are empty). z and vz are empty in a 2D world.
template <class Real>
struct SlotColumns {
    SlotColumn<std::uint32_t> agent;
    SlotColumn<Kind> kind;
    SlotColumn<Real> x, y, vx, vy, bias;
    SlotColumn<Real> z, vz;
    SlotColumn<std::int32_t> rest; ///< perching only (World::rest)

    /// Sizes the columns for `count` slots plus `padding` (SIMD loads may read one vector past the end);
    /// kind and bias only when `scouts`, z and vz only when `three_d`, rest only when `perching`.
    void resize(std::size_t count, std::size_t padding, bool scouts, bool three_d, bool perching);
};

/// Buffers and phases of the fast step. One instance per Simulation (not thread-safe).
template <class Real>
class FastClassicStep {
public:
    /// One synchronous step of the classic model (docs/MODEL.md §2), the world's `step`th (where food
    /// sources are), on `threads` threads, writing the phases' timing to `profile`.
    /// Returns false, having changed nothing, when the fast path does not apply: a visual range of 0, or
    /// in wrap mode a torus less than 3 cells wide, high or (3D) deep (where the plain path's 3 x 3 (x 3)
    /// block would visit a cell twice). `whole`, when given, lays the grid out as that of a larger flock this
    /// world is part of (its member count and bounding box; see GridExtent), as SpatialGrid::build does.
    /// `ids`, when given, are the agents' ids in a larger flock (Simulation::set_agent_ids), which perching
    /// hashes.
    bool try_step(World<Real>& world, const Params& params, long long step, int threads, StepProfile& profile,
                  const GridExtent* whole = nullptr, const std::uint32_t* ids = nullptr);

    /// Writes the flock's state back into the world's rows unless they are current (written back already,
    /// by an earlier sync() or by a step that followed one); with `release`, the world becomes the only copy
    /// again (the caller may change it) and the next step reloads it.
    void sync(World<Real>& world, bool release, int threads);

private:
    /// Scatters the slots' state into the world's rows, a column at a time; the rows are then current.
    void write_back(World<Real>& world, int threads);
    /// Copies the flocking agents out of the world in world order (which is the cell order's tie-break),
    /// wrapping positions into the torus in wrap mode.
    void load(const World<Real>& world, const Params& params, int threads);
    /// Counting sort of the slots by cell into next_, then world order within each cell. Called by every
    /// thread of the step's team; `cells_known` when slot_cell_ already holds the cells (computed by the
    /// previous step's kernel in the same geometry).
    void sort_by_cell(bool cells_known);
    bool compute_geometry(const Params& params, int threads, const GridExtent* whole);
    /// Steers and moves the predators in the world (after the neighbour pass, while next_ still holds the
    /// flock's old state in this step's cell order): a hunting predator sees the flock as the plain path's
    /// grid search does, and predators::Behavior steers it.
    void move_predators(World<Real>& world, const Params& params, const classic::Constants<Real>& c) const;
    [[nodiscard]] std::size_t cell_count() const {
        return static_cast<std::size_t>(grid_.nx) * static_cast<std::size_t>(grid_.ny) *
               static_cast<std::size_t>(grid_.nz);
    }

    bool loaded_ = false; ///< cur_ holds the flock; the world's flocking rows may be stale
    /// The world's flocking rows hold cur_'s state (written back by sync() or at the end of the last step).
    bool world_current_ = false;
    /// sync() ran since the last step: someone looks at the world between steps, so the next step writes it
    /// back as it ends.
    bool looked_at_ = false;
    bool three_d_ = false; ///< the loaded flock has z and vz
    /// slot_cell_ holds the cell of every slot of cur_ in the grid cells_grid_ (wrap mode: the kernel
    /// computes them with the new positions, and the grid stays the same from step to step).
    bool cells_valid_ = false;
    fast::CellGeometry cells_grid_{0.0, 0.0, 1.0, 1.0, 1, 1};
    /// Where the columns, rows and layers of bounds_grid_ begin (detail::line_bound_table), for the
    /// kernel's binning in wrap mode; rebuilt when the grid changes.
    std::vector<Real> col_bound_, row_bound_, layer_bound_;
    fast::CellGeometry bounds_grid_{0.0, 0.0, 0.0, 0.0, 0, 0};
    /// This step's grid, as SpatialGrid::build computes it (so the neighbour order is the plain path's).
    fast::CellGeometry grid_{0.0, 0.0, 1.0, 1.0, 1, 1};
    std::size_t world_size_ = 0;
    bool has_scouts_ = false;
    bool perching_ = false;                ///< the slots carry the agents' rest (World::rest)
    std::vector<std::uint32_t> predators_; ///< world indices of the predators, in world order

    SlotColumns<Real> cur_, next_;          ///< the flock in slot order; sort and kernel alternate them
    SlotColumn<std::uint32_t> slot_cell_;   ///< cell of each slot of cur_; the sort writes its place in next_
    SlotColumn<std::uint32_t> sorted_cell_; ///< cell of each slot of next_ (general fix-up only)
    std::vector<std::uint32_t> histograms_; ///< per thread: stayers' and newcomers' counters per cell
    std::vector<std::uint32_t> newcomers_at_;                ///< per cell: the slot of its first newcomer
    std::vector<std::uint32_t> chunk_total_;                 ///< per thread: agents in its share of the cells
    std::vector<std::uint32_t> cell_start_;                  ///< nx * ny * nz + 1 slot offsets
    std::vector<Real> predator_x_, predator_y_, predator_z_; ///< the predators' old positions
    std::vector<ReachBox<Real>> obstacle_reach_;             ///< the obstacles' reach boxes
    std::vector<ReachBox<Real>> food_reach_;                 ///< this step's food sources' reach boxes
};

} // namespace boids::detail
