#pragma once
// A viewer's session and the state its panel edits, without a window: what the viewer's logic tests drive.

#include "apply_requests.hpp"

#include "boids/scenario.hpp"

namespace boids::viewer::testing {

/// A viewer's session and the state its panel edits, synced as the viewer does it once per frame.
struct Viewing {
    explicit Viewing(const Scenario& scene, Precision precision = Precision::F32)
        : session(SimulationSetup{scene, std::nullopt, precision, 1}) {
        state.scene_name = scene.name;
        sync_from_session(state, session, seen);
    }
    /// One frame's requests applied, then the state read back.
    void frame() {
        apply_requests(state, session, seen);
        sync_from_session(state, session, seen);
    }

    SimulationController session;
    ViewerState state;
    SessionView seen;
};

} // namespace boids::viewer::testing
