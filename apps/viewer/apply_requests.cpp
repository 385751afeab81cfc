#include "apply_requests.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/world_edit.hpp"

#include <algorithm>
#include <array>

namespace boids::viewer {

namespace {

/// A seed for the agents added after a reset, distinct from the reset's own stream.
constexpr std::uint64_t additions_stream = 0x9e3779b97f4a7c15ULL;

constexpr std::array<Kind, kind_count> all_kinds{Kind::Boid, Kind::Scout1, Kind::Scout2, Kind::Predator};

} // namespace

template <class Real>
Flight<Real> start_flight(const ViewerState& state, int threads) {
    Flight<Real> flight;
    flight.sim = std::make_unique<Simulation<Real>>(
        state.params, spawn_world<Real>(state.params, state.counts, state.seed));
    flight.sim->set_threads(threads);
    flight.spawner = Spawner(state.seed ^ additions_stream);
    flight.threads = threads;
    return flight;
}

template <class Real>
void match_counts(World<Real>& world, const AgentCounts& wanted, Spawner& spawner, const Params& params) {
    const AgentCounts have = world.counts();
    std::array<long long, kind_count> excess{};
    for (Kind k : all_kinds) {
        excess[static_cast<std::size_t>(k)] = std::max(0LL, count_of(have, k) - count_of(wanted, k));
    }
    remove_newest(world, excess);
    for (Kind k : all_kinds) {
        const long long missing = count_of(wanted, k) - count_of(have, k);
        if (missing > 0) {
            spawner.spawn(world, params, k, missing);
        }
    }
}

template <class Real>
void place_agents(World<Real>& world, const Placement& p, Spawner& spawner, const Params& params,
                  double spread) {
    World<Real> fresh;
    // The offsets are uniform over the whole square, wherever the obstacles are (the first step puts an
    // agent placed inside one out on its surface).
    Params anywhere = params;
    anywhere.obstacles.clear();
    spawner.spawn(fresh, anywhere, p.kind, p.count);
    // Reuse the spawner's uniform positions inside the margins as offsets within the square.
    const bool wrap = params.boundary == Boundary::Wrap;
    const double x0 = wrap ? 0.0 : params.margin_left;
    const double x1 = wrap ? params.width : params.width - params.margin_right;
    const double y0 = wrap ? 0.0 : params.margin_top;
    const double y1 = wrap ? params.height : params.height - params.margin_bottom;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        double x = p.x;
        double y = p.y;
        if (p.count > 1) {
            x += ((static_cast<double>(fresh.x[i]) - x0) / (x1 - x0) - 0.5) * spread;
            y += ((static_cast<double>(fresh.y[i]) - y0) / (y1 - y0) - 0.5) * spread;
        }
        if (fresh.has_depth()) { // 3D: at the clicked x, y, at the spawner's depth
            world.add_3d(fresh.kind[i], static_cast<Real>(x), static_cast<Real>(y), fresh.z[i], fresh.vx[i],
                         fresh.vy[i], fresh.vz[i], fresh.bias[i]);
        } else {
            world.add(fresh.kind[i], static_cast<Real>(x), static_cast<Real>(y), fresh.vx[i], fresh.vy[i],
                      fresh.bias[i]);
        }
    }
}

template <class Real>
void apply_requests(ViewerState& state, Flight<Real>& flight) {
    if (state.reset) {
        state.reset = false;
        state.history.clear();
        state.placements.clear();
        try {
            flight = start_flight<Real>(state, flight.threads);
        } catch (const InputError& e) {
            state.last_error = e.what();
            state.params = flight.sim->params();
        }
        state.stats.elapsed_s = 0.0;
        return;
    }
    Simulation<Real>& sim = *flight.sim;
    if (!(state.params == sim.params())) {
        try {
            sim.set_params(state.params);
        } catch (const InputError& e) {
            state.last_error = e.what();
            state.params = sim.params();
        }
    }
    try {
        for (const Placement& p : state.placements) {
            long long& wanted = count_of(state.counts, p.kind);
            // Keep the world consistent with the wanted counts before adding, so the placed agents stay.
            match_counts(sim.world(), state.counts, flight.spawner, sim.params());
            const double spread = std::max(10.0, sim.params().visual_range);
            place_agents(sim.world(), p, flight.spawner, sim.params(), spread);
            wanted += p.count;
        }
        match_counts(sim.world(), state.counts, flight.spawner, sim.params());
    } catch (const InputError& e) { // obstacles leave no room to spawn: keep the agents there are
        state.last_error = e.what();
        state.counts = sim.world().counts();
    }
    state.placements.clear();
}

template Flight<float> start_flight(const ViewerState&, int);
template Flight<double> start_flight(const ViewerState&, int);
template void match_counts(World<float>&, const AgentCounts&, Spawner&, const Params&);
template void match_counts(World<double>&, const AgentCounts&, Spawner&, const Params&);
template void place_agents(World<float>&, const Placement&, Spawner&, const Params&, double);
template void place_agents(World<double>&, const Placement&, Spawner&, const Params&, double);
template void apply_requests(ViewerState&, Flight<float>&);
template void apply_requests(ViewerState&, Flight<double>&);
template Flight<Fix15> start_flight(const ViewerState&, int);
template void match_counts(World<Fix15>&, const AgentCounts&, Spawner&, const Params&);
template void place_agents(World<Fix15>&, const Placement&, Spawner&, const Params&, double);
template void apply_requests(ViewerState&, Flight<Fix15>&);

} // namespace boids::viewer
