#pragma once
// Saving the scene on screen as a scenario file and opening one, camera included (no GL here, so it is
// unit tested without a window). A saved scene is every parameter (drawn obstacles, food and the carrot
// among them), the agent counts, the seed, the step rate and the camera; reopened, it restarts the flock
// from that seed, so it flies as the scene it was saved from does after a reset.

#include "viewer_state.hpp"

#include "boids/scenario.hpp"
#include "boids/simulation_controller.hpp"

#include <functional>

namespace boids::viewer {

/// The scene `session` shows, with the viewer's seed, rate and the camera `view`, ready to save.
[[nodiscard]] Scenario scene_to_save(const ViewerState& state, const SimulationController& session,
                                     const SceneView& view);

/// Restarts `session` from `scene` and points the viewer's seed, rate and scene name at it. Throws
/// InputError when the scene cannot fly here (the session is then unchanged).
void open_scene(ViewerState& state, SimulationController& session, const Scenario& scene);

/// Runs a pending save or open of state.scene_file: `view` is the camera to save, `show` receives the
/// camera of an opened scene. The outcome is in state.scene_message, or a failure in state.last_error.
void handle_scene_requests(ViewerState& state, SimulationController& session, const SceneView& view,
                           const std::function<void(const SceneView&)>& show);

} // namespace boids::viewer
