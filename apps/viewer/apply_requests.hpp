#pragma once
// Applies a ViewerState's requests (the panel, the keys, the mouse) to the viewer's session between two
// steps, and brings the state back in line with the session afterwards. No GL here, so it is unit tested
// without a window.
//
// The session (SimulationController) is the one truth: the control port changes it directly, the viewer's
// own inputs through ViewerState. A request is what differs from the values last read from the session, so
// a change from the port is never undone by the panel's older copy.

#include "viewer_state.hpp"

#include "boids/simulation_controller.hpp"

namespace boids::viewer {

/// The session's values as the viewer last read them (sync_from_session); ViewerState's differences from
/// them are the viewer's requests.
struct SessionView {
    Params params;
    AgentCounts counts;
    bool paused = false;
};

/// Applies every pending request of `state` to `session`: reset (a restart of the scene the panel shows:
/// its parameters, counts and seed), precision, parameters, counts, placements, pause. A rejected request
/// leaves the session as it was and sets state.last_error; sync_from_session then shows the session's
/// values again.
void apply_requests(ViewerState& state, SimulationController& session, const SessionView& seen);

/// Copies the session's parameters, counts, pause, precision and quit flag into `state` and records them
/// in `seen`.
void sync_from_session(ViewerState& state, const SimulationController& session, SessionView& seen);

} // namespace boids::viewer
