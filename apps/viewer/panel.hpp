#pragma once
// The ImGui control panel and the HUD drawn over the flock.

#include "viewer_state.hpp"

#include <algorithm>
#include <array>

namespace boids::viewer {

/// Panel state that is not the simulation's: which preset is selected, counts being edited.
struct PanelUi {
    int preset_index = -1;
    std::array<long long, 4> count_edit{}; ///< boids, scouts1, scouts2, predators while a slider is held
    std::array<bool, 4> count_active{};
    unsigned long long seed_edit = 0;
    bool seed_synced = false;
    int last_rate = default_rate; ///< the steps per second to return to when "max" is unticked
    bool hidden = false;
    bool fullscreen = false;
    std::array<char, 512> scene_path{}; ///< the scene file field, edited here, copied to state.scene_file
};

/// Width of the panel in pixels for a window `window_width` wide: 30% of it, from 300 to 400 pixels (at
/// 1024 x 600 the flock keeps 70% of the window; `h` hides the panel).
[[nodiscard]] inline float panel_width(float window_width) {
    return std::clamp(window_width * 0.3f, 300.0f, 400.0f);
}

/// Draws the panel docked at the right of a `width` x `height` window; edits go into `state`.
void draw_panel(ViewerState& state, PanelUi& ui, float width, float height);

/// Draws the HUD at the top left: counts, rates, step time per phase, elapsed time, warnings.
void draw_hud(const ViewerState& state, const char* precision);

/// The help text: every key and mouse control.
[[nodiscard]] const char* help_text();

} // namespace boids::viewer
