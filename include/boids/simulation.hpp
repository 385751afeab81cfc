#pragma once
/// The classic model (docs/MODEL.md §2) stepped on a spatial grid, multithreaded and deterministic.

#include "boids/detail/fast_step_scratch.hpp"
#include "boids/detail/spatial_grid.hpp"
#include "boids/detail/thread_chooser.hpp"
#include "boids/fix15.hpp"
#include "boids/params.hpp"
#include "boids/profile.hpp"
#include "boids/world.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace boids {

namespace classic {
template <class Real>
struct Constants;
} // namespace classic

/// Owns a world and its parameters and advances them one synchronous step at a time.
///
/// Every agent's new state is computed from the previous step's state of all others (double
/// buffering). Each agent is handled by one thread with a fixed neighbour order, so the result is
/// bit-identical for any thread count.
template <class Real>
class Simulation {
public:
    /// Throws InputError if `params` do not validate (for Fix15, also if a value does not fit fix15).
    Simulation(const Params& params, World<Real> world);

    /// Advances `steps` synchronous steps.
    void step(long long steps = 1);

    /// The current state. (The fast path keeps the flock in cell order between steps and writes it back
    /// here first; the const_cast is sound because a Simulation that has stepped is not a const object.
    /// Like step(), it must not run concurrently with other calls on the same Simulation.)
    [[nodiscard]] const World<Real>& world() const {
        const_cast<Simulation*>(this)->sync_world(false);
        return world_;
    }
    /// Mutable access for adding or removing agents between steps.
    [[nodiscard]] World<Real>& world() {
        sync_world(true);
        return world_;
    }

    /// The current parameters.
    [[nodiscard]] const Params& params() const { return params_; }
    /// Replaces the parameters (validated first; on error nothing changes). Scouts take the new group
    /// bias when dynamic bias is off or the group's value changed.
    void set_params(const Params& params);

    /// Threads used by step() for flocks of 4096 agents or more (smaller ones run on one). 0 (the default)
    /// means all, or one while other processes hold the cores so that steps on all would wait for them
    /// (timed as it steps; docs/PERFORMANCE.md, "Under load").
    void set_threads(int threads) { threads_ = threads; }
    /// Threads step() may use (0 resolved to all available).
    [[nodiscard]] int threads() const;

    /// Timing of the last step.
    [[nodiscard]] const StepProfile& last_profile() const { return last_profile_; }
    /// Timing summed over every step so far.
    [[nodiscard]] const StepProfile& total_profile() const { return total_profile_; }

    /// Steps taken since construction (the step index the models' noise and moving food use).
    [[nodiscard]] long long steps_taken() const { return steps_taken_; }
    /// Sets the step index, for a run that continues a saved state (the models' noise streams, moving food
    /// and schedules follow it, so continuing gives the same bits as an uninterrupted run).
    void set_steps_taken(long long steps) { steps_taken_ = steps; }

    /// Allows (default) or forbids the fast SIMD path; false forces the plain grid path, the readable
    /// reference (docs/PERFORMANCE.md). Both give the same result for any thread count.
    void set_fast_path(bool enabled) { fast_path_ = enabled; }
    /// Whether the fast path is allowed.
    [[nodiscard]] bool fast_path() const { return fast_path_; }
    /// Lays out the flocking agents' and the predators' grids as those of a larger flock this world is part
    /// of (a rank's agents plus the halo around them, in global order): every agent is binned into the
    /// cell it has in the whole flock, so each sum is taken in one process's order (on the fast path as on
    /// the plain one); std::nullopt restores the world's own layout.
    void set_whole_flock_grids(const std::optional<std::array<detail::GridExtent, 2>>& extents) {
        whole_flock_grids_ = extents;
    }

    /// The agents' indices in the larger flock this world is part of (one per agent, in world order): the
    /// models' per-agent draws (noise, perching rest times) follow them, as they would in the whole flock.
    /// Empty (the default) means each agent's own index.
    void set_agent_ids(std::vector<std::uint32_t> ids) { agent_ids_ = std::move(ids); }

    /// True when the last step ran on the fast path: for the classic model the SIMD step (with the
    /// extensions it runs, in float or double, 2D or 3D, with a visual range > 0),
    /// for the topological, weighted, Vicsek and Couzin models their fast passes (synchronous update, float
    /// or double); otherwise the plain path runs.
    [[nodiscard]] bool last_step_fast() const { return last_step_fast_; }

private:
    void step_once();
    /// The threads the next step uses: set_threads()'s, else the thread chooser's.
    int threads_for_step();

    // The plain path's phases (docs/ARCHITECTURE.md, "The step"), each timed into the profile.

    /// Phase 1. Reads the positions (in wrap mode it first wraps them into the torus, writing them);
    /// writes the two grids (the flocking agents' and the predators', with copies of their positions and
    /// velocities in cell order).
    void build_grids(const classic::Constants<Real>& c, int nthreads);
    /// Phase 2. Reads the world's previous state and the grids; writes only next_ (each agent's new
    /// velocity, bias, prey and rest), through the model's policy in the one neighbour loop.
    void neighbour_phase(const classic::Constants<Real>& c, int nthreads);
    /// Phase 3. Reads next_; writes the positions (moved, wrapped, kept out of obstacles) and swaps next_'s
    /// velocities, biases, prey and rest into the world.
    void integrate(const classic::Constants<Real>& c, int nthreads);
    /// The new velocities, biases, prey and rests become the world's (the old go to next_ for reuse).
    void swap_in_next(bool three_d);
    /// Writes the fast path's flock state back into world_ (see detail::FastClassicStep::sync); with
    /// `release`, world_ becomes the only copy. Code that reads or writes world_ directly must call it.
    void sync_world(bool release);

    Params params_;
    World<Real> world_;
    int threads_ = 0;
    detail::ThreadChooser thread_chooser_; ///< decides when threads_ is 0
    long long steps_taken_ = 0;
    StepProfile last_profile_{};
    StepProfile total_profile_{};

    SpatialGrid<Real> flock_grid_;
    SpatialGrid<Real> predator_grid_;
    struct Next {
        std::vector<Real> vx, vy, vz, bias; // vz: 3D only
        std::vector<std::int32_t> target, rest;
        void resize(std::size_t n, bool three_d) {
            vx.resize(n);
            vy.resize(n);
            vz.resize(three_d ? n : 0);
            bias.resize(n);
            target.resize(n);
            rest.resize(n);
        }
    };
    Next next_; ///< the neighbour pass's output, swapped into the world by the integrate phase

    bool fast_path_ = true;
    bool last_step_fast_ = false;
    std::optional<std::array<detail::GridExtent, 2>> whole_flock_grids_; ///< flocking agents, predators
    std::vector<std::uint32_t> agent_ids_; ///< indices in the whole flock (empty: the world's own)
    std::vector<double> slot_columns_;     ///< per-slot columns of the other models' fast passes
    detail::FastStepScratch<Real> fast_;
};

extern template class Simulation<float>;
extern template class Simulation<double>;
extern template class Simulation<Fix15>;

/// One synchronous step of the classic model (docs/MODEL.md §2) by brute force: every agent against
/// every other, single thread, written plainly from the rules. Slow (O(N^2)); it is the oracle the fast
/// paths are tested against.
template <class Real>
void reference_step(World<Real>& world, const Params& params);

/// One step of the lab's in-place loop (UpdateOrder::Sequential): agents in array order, each computing
/// its new velocity from the live arrays — so it sees the agents before it already moved — and moving at
/// once. Brute force, one thread, as on the microcontroller.
template <class Real>
void sequential_step(World<Real>& world, const Params& params);

/// Makes a world fit params.dimensions: in 3D every agent gets z and vz (agents without them are placed at
/// depth / 2 with vz = 0); in 2D z and vz are dropped.
template <class Real>
void conform_dimensions(World<Real>& world, const Params& params);

/// Applies the group-bias rule (docs/MODEL.md §2.1) when parameters change: with dynamic bias off, every
/// scout takes its group's value; with it on, a group whose value changed restarts from the new value.
template <class Real>
void apply_group_bias(World<Real>& world, const Params& before, const Params& after);

} // namespace boids
