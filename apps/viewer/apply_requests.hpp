#pragma once
// Applies a ViewerState's requests to a simulation between two steps: parameters, agent counts,
// placements, reset. No GL here, so it is unit tested without a window.

#include "viewer_state.hpp"

#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <memory>

namespace boids::viewer {

/// The simulation the viewer flies and the source of the agents it adds later.
template <class Real>
struct Flight {
    std::unique_ptr<Simulation<Real>> sim;
    Spawner spawner{0};
    int threads = 0;
};

/// A fresh flight from the state's params, counts and seed (a reset). Throws InputError for bad params.
template <class Real>
[[nodiscard]] Flight<Real> start_flight(const ViewerState& state, int threads);

/// Adds or removes agents so that `world` has `wanted` of each kind. New agents come from `spawner`
/// (inside the margins, outside the obstacles); removal takes the most recently added agents of a kind,
/// keeping the others' order. Throws InputError when the obstacles leave no room to spawn.
template <class Real>
void match_counts(World<Real>& world, const AgentCounts& wanted, Spawner& spawner, const Params& params);

/// Adds `p.count` agents of `p.kind` around (p.x, p.y): positions within a square of side `spread` centred
/// there (exactly there for one agent), obstacles or not, velocities as the spawner draws them.
template <class Real>
void place_agents(World<Real>& world, const Placement& p, Spawner& spawner, const Params& params,
                  double spread);

/// Applies every pending request of `state` to `flight` (reset first, then params, placements, counts).
/// A rejected request leaves the simulation as it was, resets the request to the simulation's value and
/// sets state.last_error.
template <class Real>
void apply_requests(ViewerState& state, Flight<Real>& flight);

} // namespace boids::viewer
