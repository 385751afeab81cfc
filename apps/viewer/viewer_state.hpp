#pragma once
// What the viewer shows and what has been asked of it, shared by the panel, the keys, the mouse and any
// outside controller (the frame hook). No GL or SDL here, so it is unit tested without a window.

#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/profile.hpp"
#include "boids/scalar.hpp"
#include "boids/scenario.hpp"
#include "boids/world.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boids {
class SimulationController;
}

namespace boids::viewer {

/// How fast the simulation steps, independently of the frame rate: 1 to 1000 steps per second (each
/// preset starts at its source's rate; the lab's is 30), or as fast as it can ("max").
struct SimRate {
    int per_second = default_rate; ///< 0: as fast as it can
    static const SimRate Steps30, Steps60, Unlimited;
    bool operator==(const SimRate&) const = default;
};
inline constexpr SimRate SimRate::Steps30{30};
inline constexpr SimRate SimRate::Steps60{60};
inline constexpr SimRate SimRate::Unlimited{0};

/// Steps per second of a rate; 0 for Unlimited.
[[nodiscard]] double steps_per_second(SimRate rate);

/// The CLI name of a rate: its steps per second, or "max".
[[nodiscard]] std::string sim_rate_name(SimRate rate);

/// Parses a whole number of steps per second in [1, 1000], or "max"; nullopt otherwise.
[[nodiscard]] std::optional<SimRate> parse_sim_rate(std::string_view text);

/// Agents to place at a point of the world (mouse clicks): `count` agents of `kind` around (x, y).
struct Placement {
    Kind kind = Kind::Boid;
    double x = 0.0;
    double y = 0.0;
    long long count = 1;
};

/// Which part of a frame keeps the window from its target: computing the steps or drawing the frame.
enum class Bottleneck { Step, Drawing };

/// The part that costs more per frame: `steps_per_frame` steps of `step_ms` each, or `render_ms` of drawing.
[[nodiscard]] Bottleneck frame_bottleneck(double step_ms, double steps_per_frame, double render_ms);

/// "the step" or "drawing", for the HUD and the grow report.
[[nodiscard]] const char* bottleneck_name(Bottleneck b);

/// Which path took the last step, for the HUD: " (fast path, AVX2)" with the SIMD target `isa`, " (plain
/// path)", or nothing before the first step. A scene the fast path does not take (the sequential update,
/// fixed point) steps many times slower, and the slider that caused it may be far from the frame rate's line.
[[nodiscard]] std::string step_path_note(const StepProfile& last, long long steps_taken,
                                         std::string_view isa);

/// Measurements the viewer writes once per frame, for the HUD and for outside controllers.
struct ViewerStats {
    long long steps_taken = 0;
    AgentCounts agents;           ///< agents flying now, by kind
    double sim_steps_per_s = 0.0; ///< steps per second achieved over the last second
    double render_fps = 0.0;      ///< frames per second over the last second
    double render_ms = 0.0; ///< mean time to draw one frame (upload, draw, panel, swap) over the last second
    double elapsed_s = 0.0; ///< simulated time since the last reset, at the target rate's clock
    StepProfile last_profile;    ///< per-phase time of the last step
    bool falling_behind = false; ///< the window could not keep the target rate; backlog was dropped
    Bottleneck behind_because = Bottleneck::Step; ///< what took the time when it fell behind
    long long frames = 0;
};

/// The last few hundred values of the flock's order parameters, for the panel's live plots.
struct MetricsHistory {
    static constexpr std::size_t capacity = 300;
    std::vector<float> polarization, milling, nnd_mean, groups, speed_mean, frac_right;

    /// Appends one sample, dropping the oldest beyond `capacity`.
    void push(double polarization_value, double milling_value, double nnd_value, double groups_value,
              double speed_value, double right_value) {
        const auto add = [](std::vector<float>& v, double x) {
            if (v.size() == capacity) {
                v.erase(v.begin());
            }
            v.push_back(static_cast<float>(x));
        };
        add(polarization, polarization_value);
        add(milling, milling_value);
        add(nnd_mean, nnd_value);
        add(groups, groups_value);
        add(speed_mean, speed_value);
        add(frac_right, right_value);
    }
    void clear() { *this = MetricsHistory{}; }
};

/// State of the "grow until the rate drops" mode (lab week 3).
struct GrowStatus {
    bool active = false;
    bool finished = false;
    long long largest_held = 0;          ///< largest flock the window animated at the target rate so far
    Bottleneck limit = Bottleneck::Step; ///< what stopped the next size up (valid once a size missed)
    bool missed = false;                 ///< some size missed the rate
};

/// Requests and observations of one viewer. Requests are applied to the viewer's session between two steps
/// (apply_requests.hpp): `params`, the agent counts, placements, reset, pause, precision and single steps;
/// after that the session's values are copied back, so the panel always shows the session.
struct ViewerState {
    // --- requests ---
    Params params;          ///< wanted parameters; applied with SimulationController::set_params
    AgentCounts counts;     ///< wanted agents by kind; agents are spawned or removed to match
    std::uint64_t seed = 0; ///< seed of the next reset (the panel's reset restarts the scene shown)
    std::string scene_name; ///< preset or file the scene came from
    bool paused = false;
    long long single_steps = 0; ///< steps to take while paused (the `.` key)
    bool reset = false;         ///< respawn the world from params, counts and seed
    SimRate rate = SimRate::Steps30;
    bool grow = false; ///< grow the flock while the target rate holds
    bool quit = false;
    std::string screenshot_path; ///< non-empty: save the next frame here as PNG
    std::vector<Placement> placements;
    bool plot_metrics = true; ///< measure the order parameters every few frames for the live plots
    Precision precision = Precision::F32;       ///< the scalar the flock flies in now
    std::optional<Precision> precision_request; ///< switch to this scalar (the flock carries over)
    bool carrot_tracking = false; ///< weighted model: the carrot follows the mouse (a left click toggles)
    bool obstacle_tool = false;   ///< left drags draw obstacles instead of panning (the `o` key)
    std::string scene_file = "scene.toml"; ///< where the panel's Save and Open (Ctrl+S, Ctrl+O) go
    bool save_scene = false;               ///< write the scene shown, camera included, to scene_file
    bool open_scene = false;               ///< restart from the scene in scene_file
    // --- observations, written by the viewer ---
    ViewerStats stats;
    MetricsHistory history;
    GrowStatus growth;
    std::string last_error;    ///< the last rejected request, shown in the panel
    std::string scene_message; ///< what the last save or open did, shown in the panel
};

/// Called once per frame, after the viewer's own input has been applied and before the simulation steps.
/// This is where an outside controller changes the viewer: the control port runs its queued commands
/// against the session (execute_control_command), and requests written into the state apply at once.
using FrameHook = std::function<void(ViewerState&, SimulationController&)>;

} // namespace boids::viewer
