#pragma once
// One flock stepped by many MPI ranks, bit for bit as one process steps it (docs/ARCHITECTURE.md,
// "Across ranks").
//
// Each rank owns the agents in its sub-domain (Decomposition). A step: every rank sends each neighbour
// the agents within interaction range of that neighbour's sub-domain (the halo); builds a World of its
// own and its halo agents in global agent order; steps it with the engine (the SIMD fast path where it
// applies, else the plain path), its grids laid out as the whole flock's (Simulation::set_whole_flock_grids),
// so every agent's sums visit the same
// neighbours in the same order as in one process; keeps its own agents' new state; and hands the agents
// that left its sub-domain to their new owners. Agents carry their global index, which is also how a
// pursuing predator names its prey across ranks.

#include "boids/fix15.hpp"
#include "boids/params.hpp"
#include "boids/world.hpp"
#include "mpi/communicator.hpp"
#include "mpi/decomposition.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace boids::mpi {

/// Where a distributed run spent its time and what it sent, summed over its steps (this rank's view;
/// reduce with Communicator for the job).
struct DistributedStats {
    long long steps = 0;
    double halo_s = 0;      ///< extents and halo exchange
    double migrate_s = 0;   ///< handing over agents that crossed a border (and rebalancing)
    double compute_s = 0;   ///< the engine's step of owned + halo agents
    double bytes_sent = 0;  ///< halo and migration payload this rank sent
    double halo_agents = 0; ///< halo agents received
    double handed_over = 0; ///< agents this rank handed to another (border crossings and rebalancing)
    long long rebalances = 0;
    long long fast_steps = 0; ///< steps the engine took on its SIMD fast path
    double imbalance_sum = 0; ///< sum over steps of (largest share / mean share)
};

/// Throws InputError when the parameters need something the distributed step does not do (a model
/// whose neighbours are not a range, the sequential update), or
/// when `ranks` ranks cannot split the world (fewer interaction-range cells than ranks; the predators'
/// ranges count when the flock has `predators`).
void check_distributable(const Params& params, int ranks, bool predators);

/// The flock over the ranks of `comm`.
template <class Real>
class DistributedSimulation {
public:
    /// `world` is the whole initial flock on root (ignored elsewhere), agent i having global index i;
    /// `first_step` the step it is at. `rebalance_at` is the imbalance (largest share over the mean)
    /// beyond which the sub-domains are cut anew.
    DistributedSimulation(const Communicator& comm, const Params& params, World<Real> world,
                          long long first_step, int threads, double rebalance_at = 1.2);

    /// Advances `steps` steps.
    void step(long long steps = 1);
    /// The whole flock in global agent order on root (empty on other ranks). Collective.
    [[nodiscard]] World<Real> gather() const;

    [[nodiscard]] const Params& params() const { return params_; }
    [[nodiscard]] long long steps_taken() const { return step_; }
    /// The agents this rank owns.
    [[nodiscard]] std::size_t owned() const { return ids_.size(); }
    [[nodiscard]] const DistributedStats& stats() const { return stats_; }

private:
    void step_once();
    void wrap_positions();
    [[nodiscard]] std::array<double, 3> position(std::size_t i) const;
    /// Moves every owned agent to the owner `decomposition_` gives it.
    void migrate();
    /// Cuts the sub-domains anew from every agent's position (gathered on root).
    void rebalance();

    const Communicator& comm_;
    Params params_;
    Space space_;
    double reach_ = 0; ///< halo width: the longest interaction range, with a margin for rounding
    int threads_ = 0;
    double rebalance_at_ = 1.2;
    std::array<std::size_t, 2> members_{}; ///< flocking agents, predators (in the whole flock)
    long long step_ = 0;
    Decomposition decomposition_;
    World<Real> mine_;               ///< owned agents in global order; target holds a global index
    std::vector<std::uint64_t> ids_; ///< their global indices, ascending
    DistributedStats stats_;
};

extern template class DistributedSimulation<float>;
extern template class DistributedSimulation<double>;
extern template class DistributedSimulation<Fix15>;

} // namespace boids::mpi
