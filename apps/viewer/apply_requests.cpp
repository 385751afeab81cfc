#include "apply_requests.hpp"

#include "boids/error.hpp"

#include <algorithm>

namespace boids::viewer {

namespace {

/// Runs one edit of the session; a rejected one is reported in the panel and changes nothing.
template <class Edit>
void attempt(ViewerState& state, Edit&& edit) {
    try {
        edit();
    } catch (const InputError& e) {
        state.last_error = e.what();
    }
}

} // namespace

void apply_requests(ViewerState& state, SimulationController& session, const SessionView& seen) {
    if (state.reset) {
        state.reset = false;
        state.history.clear();
        state.placements.clear();
        Scenario scene = session.scene();
        scene.name = state.scene_name;
        scene.params = state.params;
        scene.agents = state.counts;
        scene.seed = state.seed;
        attempt(state, [&] { session.restart(scene); });
        state.stats.elapsed_s = 0.0;
    }
    if (state.precision_request) {
        attempt(state, [&] { session.set_precision(*state.precision_request); });
        state.precision_request.reset();
    }
    if (!(state.params == seen.params)) {
        attempt(state, [&] { session.set_params(state.params); });
    }
    // Counts before placements: the placed agents add to whatever the counts ask for.
    if (!(state.counts == seen.counts)) {
        attempt(state, [&] { session.set_counts(state.counts); });
    }
    for (const Placement& p : state.placements) {
        const double spread = std::max(10.0, session.params().visual_range);
        attempt(state, [&] { session.place(p.kind, p.x, p.y, p.count, spread); });
    }
    state.placements.clear();
    if (state.paused != seen.paused) {
        session.set_paused(state.paused);
    }
}

void sync_from_session(ViewerState& state, const SimulationController& session, SessionView& seen) {
    state.params = session.params();
    state.counts = session.counts();
    state.paused = session.paused();
    state.precision = session.precision();
    state.seed = session.scene().seed;
    if (session.quit_requested()) {
        state.quit = true;
    }
    seen = {state.params, state.counts, state.paused};
}

} // namespace boids::viewer
