#include "scene_file.hpp"

#include "boids/error.hpp"

#include <exception>

namespace boids::viewer {

Scenario scene_to_save(const ViewerState& state, const SimulationController& session, const SceneView& view) {
    Scenario scene = session.scene();
    scene.params = session.params();
    scene.agents = session.counts();
    scene.seed = state.seed;
    // A flat-out rate has no number of steps per second; the scene then starts at the lab's rate.
    scene.rate = state.rate.per_second > 0 ? state.rate.per_second : default_rate;
    scene.description =
        "Saved from boids view" +
        (state.scene_name.empty() ? std::string() : " (started from " + state.scene_name + ")");
    scene.view = view;
    return scene;
}

void open_scene(ViewerState& state, SimulationController& session, const Scenario& scene) {
    session.restart(scene);
    state.scene_name = scene.name;
    state.seed = scene.seed;
    state.rate = SimRate{scene.rate};
    state.history.clear();
    state.placements.clear();
    state.stats.elapsed_s = 0.0;
}

void handle_scene_requests(ViewerState& state, SimulationController& session, const SceneView& view,
                           const std::function<void(const SceneView&)>& show) {
    if (state.save_scene) {
        state.save_scene = false;
        try {
            save_scenario_file(scene_to_save(state, session, view), state.scene_file);
            state.scene_message = "saved " + state.scene_file;
        } catch (const std::exception& e) {
            state.last_error = e.what();
            state.scene_message.clear();
        }
    }
    if (state.open_scene) {
        state.open_scene = false;
        try {
            const Scenario scene = load_scenario_file(state.scene_file);
            open_scene(state, session, scene);
            show(scene.view);
            state.scene_message = "opened " + state.scene_file;
        } catch (const std::exception& e) {
            state.last_error = e.what();
            state.scene_message.clear();
        }
    }
}

} // namespace boids::viewer
