#pragma once
// The interactive viewer (`boids view`): an SDL2 window with OpenGL 3.3 core and a Dear ImGui panel.

#include "viewer_state.hpp"

#include "boids/scalar.hpp"
#include "boids/scenario.hpp"

#include <optional>
#include <string>

namespace boids::viewer {

/// Everything `boids view` was asked for on the command line, validated.
struct ViewerOptions {
    Scenario scenario;
    std::string scene_file = "scene.toml"; ///< where Save scene writes (the file opened, if any)
    std::optional<std::string> init_file;  ///< start from this state CSV instead of spawning
    Precision precision = Precision::F32;
    int threads = 0;
    SimRate rate = SimRate::Steps30;
    bool grow = false; ///< start in "grow until the rate drops" mode
    int window_width = 1280;
    int window_height = 800;
    bool hide_panel = false;
    bool paused = false;
    bool carrot_tracking = false; ///< weighted model: start with the carrot following the mouse
    bool obstacle_tool = false;   ///< start with left drags drawing obstacles
    long long frames = 0;         ///< quit after this many frames (0: run until closed)
    std::string screenshot_path;  ///< with frames: save the last frame here as PNG
    std::string record_path;      ///< pipe every frame to ffmpeg into this .mp4 / .gif
    FrameHook hook;               ///< called once per frame before the requests apply (control server)
};

/// Why no window can be opened here (no DISPLAY / WAYLAND_DISPLAY, or SDL refuses), or empty if one can.
[[nodiscard]] std::string display_problem();

/// Opens the window and runs until the user quits or `frames` have been drawn. Returns false without
/// side effects if no window could be opened (`why` says why). Throws InputError for bad files.
bool run_viewer(const ViewerOptions& options, std::string& why);

} // namespace boids::viewer
