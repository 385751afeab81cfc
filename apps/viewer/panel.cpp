#include "panel.hpp"

#include "panel_mapping.hpp"

#include "boids/fast_path.hpp"
#include "boids/precision.hpp"
#include "boids/scenario.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace boids::viewer {

namespace {

/// "(x, y)", or "(x, y, z)" in a 3D world.
std::string carrot_text(const Params& p) {
    char text[96];
    if (p.dimensions == 3) {
        std::snprintf(text, sizeof text, "(%.4g, %.4g, %.4g)", get_number(p, "carrot_x"),
                      get_number(p, "carrot_y"), get_number(p, "carrot_z"));
    } else {
        std::snprintf(text, sizeof text, "(%.4g, %.4g)", get_number(p, "carrot_x"),
                      get_number(p, "carrot_y"));
    }
    return text;
}

constexpr const char* count_keys[4] = {"boids", "scouts1", "scouts2", "predators"};

void error_line(ViewerState& state, const std::optional<std::string>& error) {
    if (error) {
        state.last_error = *error;
    }
}

/// The scene file: a path, Save (the scene shown, camera included) and Open (restart from a file).
void scene_file_row(ViewerState& state, PanelUi& ui) {
    if (ui.scene_path[0] == '\0' && !state.scene_file.empty()) {
        state.scene_file.copy(ui.scene_path.data(), ui.scene_path.size() - 1);
    }
    if (ImGui::InputText("scene file", ui.scene_path.data(), ui.scene_path.size())) {
        state.scene_file = ui.scene_path.data();
    }
    if (ImGui::Button("Save scene")) {
        state.save_scene = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Open scene")) {
        state.open_scene = true;
        ui.preset_index = -1;
        ui.seed_synced = false;
    }
    if (!state.scene_message.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", state.scene_message.c_str());
    }
}

void simulation_section(ViewerState& state, PanelUi& ui) {
    if (ImGui::Button(state.paused ? "Resume (space)" : "Pause (space)")) {
        state.paused = !state.paused;
    }
    ImGui::SameLine();
    if (ImGui::Button("Step (.)")) {
        state.paused = true;
        ++state.single_steps;
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset (r)")) {
        state.reset = true;
    }
    // Any rate from 1 to 1000 steps per second (each preset starts at its source's), or as fast as it can.
    bool flat_out = state.rate == SimRate::Unlimited;
    if (flat_out) {
        ImGui::TextUnformatted("Steps per second: max");
    } else {
        int rate = state.rate.per_second;
        ImGui::SetNextItemWidth(110.0f);
        if (ImGui::InputInt("steps/s", &rate, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue)) {
            state.rate = SimRate{std::clamp(rate, min_rate, max_rate)};
        }
    }
    ImGui::SameLine();
    if (ImGui::Checkbox("max", &flat_out)) {
        state.rate = flat_out ? SimRate::Unlimited : SimRate{ui.last_rate};
    }
    if (!flat_out) {
        ui.last_rate = state.rate.per_second;
    }
    ImGui::Checkbox("Grow while it animates at this rate", &state.grow);

    const std::vector<std::string> names = preset_names();
    const char* current = ui.preset_index >= 0 ? names[static_cast<std::size_t>(ui.preset_index)].c_str()
                                               : state.scene_name.c_str();
    if (ImGui::BeginCombo("preset", current)) {
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (ImGui::Selectable(names[i].c_str(), static_cast<int>(i) == ui.preset_index)) {
                const Scenario s = load_preset(names[i]);
                ui.preset_index = static_cast<int>(i);
                state.params = s.params;
                state.counts = s.agents;
                state.seed = s.seed;
                state.rate = SimRate{s.rate}; // the preset's source's rate
                state.scene_name = s.name;
                state.carrot_tracking = false; // the new scene's carrot stays where the scene puts it
                state.reset = true;
                ui.seed_synced = false;
            }
        }
        ImGui::EndCombo();
    }
    if (!ui.seed_synced) {
        ui.seed_edit = state.seed;
        ui.seed_synced = true;
    }
    ImGui::InputScalar("seed", ImGuiDataType_U64, &ui.seed_edit);
    ImGui::SameLine();
    if (ImGui::Button("Restart")) { // from this seed
        state.seed = ui.seed_edit;
        state.reset = true;
    }
    scene_file_row(state, ui);
}

void agents_section(ViewerState& state, PanelUi& ui) {
    const auto sliders = count_sliders();
    for (std::size_t i = 0; i < sliders.size(); ++i) {
        const SliderSpec& s = sliders[i];
        if (!ui.count_active[i]) {
            ui.count_edit[i] = count_value(state.counts, s.key);
        }
        const auto lo = static_cast<long long>(s.min);
        const auto hi = static_cast<long long>(s.max);
        ImGui::SliderScalar(std::string(s.label).c_str(), ImGuiDataType_S64, &ui.count_edit[i], &lo, &hi,
                            "%lld", s.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
        ui.count_active[i] = ImGui::IsItemActive();
        // Agents are spawned or removed when the slider is released, not at every pixel of a drag.
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            error_line(state, apply_count_edit(state.counts, count_keys[i], ui.count_edit[i]));
        }
    }
}

void parameter_slider(ViewerState& state, const SliderSpec& s) {
    double value = slider_value(state.params, s.key);
    if (ImGui::SliderScalar(std::string(s.label).c_str(), ImGuiDataType_Double, &value, &s.min, &s.max,
                            "%.6g", s.logarithmic ? ImGuiSliderFlags_Logarithmic : 0)) {
        error_line(state, apply_param_edit(state.params, s.key, value));
    }
    if (ImGui::IsItemHovered()) {
        for (const ParamInfo& info : param_table()) {
            if (info.key == s.key) {
                ImGui::SetTooltip("%s (%s)", std::string(info.help).c_str(), std::string(s.key).c_str());
            }
        }
    }
}

/// A combo box for a choice key (model, predator_behavior, ...), its options from choice_list().
void choice_combo(ViewerState& state, std::string_view key, const char* label) {
    const std::string current = get_param(state.params, key);
    if (ImGui::BeginCombo(label, current.c_str())) {
        const std::string options = choice_list(key);
        std::size_t start = 0;
        while (start <= options.size()) {
            const std::size_t bar = options.find(" | ", start);
            const std::string option =
                options.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
            if (ImGui::Selectable(option.c_str(), option == current)) {
                error_line(state, apply_param_edit(state.params, key, std::string_view(option)));
            }
            if (bar == std::string::npos) {
                break;
            }
            start = bar + 3;
        }
        ImGui::EndCombo();
    }
}

/// The scalar the flock flies in: switching carries the flock over (fix15 = the lab's fixed point).
void precision_combo(ViewerState& state) {
    const std::string current(precision_name(state.precision));
    if (ImGui::BeginCombo("precision", current.c_str())) {
        for (const Precision p : {Precision::F32, Precision::F64, Precision::Fix15}) {
            const std::string name(precision_name(p));
            if (ImGui::Selectable(name.c_str(), p == state.precision) && p != state.precision) {
                error_line(state, precision_switch_error(state.params, p));
                if (!precision_switch_error(state.params, p)) {
                    state.precision_request = p;
                }
            }
        }
        ImGui::EndCombo();
    }
}

/// The switches (keys with named values) that belong to a group of sliders, above them.
void group_switches(ViewerState& state, std::string_view group) {
    if (group == "Edges") {
        // A new number of dimensions respawns the flock: agents lifted from a plane would stay flat.
        const int dimensions = state.params.dimensions;
        choice_combo(state, "dimensions", "dimensions");
        if (state.params.dimensions != dimensions) {
            state.reset = true;
        }
        int wrap = state.params.boundary == Boundary::Wrap ? 1 : 0;
        ImGui::TextUnformatted("boundary:");
        ImGui::SameLine();
        bool changed = ImGui::RadioButton("margin", &wrap, 0);
        ImGui::SameLine();
        changed |= ImGui::RadioButton("wrap", &wrap, 1);
        if (changed) {
            error_line(state, apply_param_edit(state.params, "boundary",
                                               std::string_view(wrap ? "wrap" : "margin")));
        }
    }
    if (group == "Predators" && model_abilities(state.params.model).hunting) {
        choice_combo(state, "predator_behavior", "predator behaviour");
    }
    if (group == "Scouts") {
        bool dynamic = state.params.dynamic_bias;
        if (ImGui::Checkbox("dynamic bias", &dynamic)) {
            error_line(state, apply_param_edit(state.params, "dynamic_bias",
                                               std::string_view(dynamic ? "true" : "false")));
        }
    }
    if (group == "Extensions") {
        choice_combo(state, "speed_estimate", "speed estimate");
    }
    // Every other switch of the group (the sources' orders and conventions: predator_order, a model's own
    // choices) as a combo, in the group of the model that reads it.
    constexpr std::array<std::string_view, 6> drawn_elsewhere{
        "dimensions", "boundary", "predator_behavior", "speed_estimate", "model", "update"};
    for (const ParamInfo& info : param_table()) {
        if (info.kind == "choice" && info.group == group && key_used_by(info, state.params.model) &&
            std::find(drawn_elsewhere.begin(), drawn_elsewhere.end(), info.key) == drawn_elsewhere.end()) {
            choice_combo(state, info.key, std::string(info.label).c_str());
        }
    }
}

void parameters_section(ViewerState& state) {
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) {
        precision_combo(state);
        choice_combo(state, "model", "model");
        choice_combo(state, "update", "update");
    }
    // Only the keys the chosen model reads (the others would be refused: require_key_used), grouped: the
    // model's own groups first, then the classic groups, the edges and the world; the extensions last and
    // folded, so the sliders a scene is about are at the top.
    std::vector<const SliderSpec*> used;
    std::vector<std::string_view> groups;
    for (const SliderSpec& s : parameter_sliders()) {
        const ParamInfo* info = find_param(s.key);
        if (info == nullptr || !key_used_by(*info, state.params.model)) {
            continue;
        }
        used.push_back(&s);
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end()) {
            groups.push_back(s.group);
        }
    }
    constexpr std::array<std::string_view, 6> base_order{"Flocking", "Predators", "Scouts",
                                                         "Edges",    "World",     "Extensions"};
    const auto rank = [&](std::string_view g) {
        const auto at = std::find(base_order.begin(), base_order.end(), g);
        return at == base_order.end() ? -1 : static_cast<int>(at - base_order.begin()); // own groups: -1
    };
    std::stable_sort(groups.begin(), groups.end(),
                     [&](std::string_view a, std::string_view b) { return rank(a) < rank(b); });
    for (const std::string_view group : groups) {
        const ImGuiTreeNodeFlags flags = group == "Extensions" ? 0 : ImGuiTreeNodeFlags_DefaultOpen;
        const bool open = ImGui::CollapsingHeader(std::string(group).c_str(), flags);
        if (!open) {
            continue;
        }
        group_switches(state, group);
        for (const SliderSpec* s : used) {
            if (s->group == group) {
                parameter_slider(state, *s);
            }
        }
    }
}

/// The mouse tools: the weighted model's carrot and the obstacles, with what the scene holds.
void mouse_tools_section(ViewerState& state) {
    if (!ImGui::CollapsingHeader("Carrot and obstacles", ImGuiTreeNodeFlags_DefaultOpen)) {
        return;
    }
    const bool weighted = model_abilities(state.params.model).carrot;
    ImGui::BeginDisabled(!weighted);
    ImGui::Checkbox("carrot follows the mouse (left click)", &state.carrot_tracking);
    ImGui::EndDisabled();
    if (weighted) {
        ImGui::Text("carrot at %s: %s", carrot_text(state.params).c_str(),
                    state.carrot_tracking ? "tracking the mouse" : "fixed");
    } else {
        ImGui::TextDisabled("the carrot belongs to the weighted model");
    }
    ImGui::Checkbox("obstacle tool (o)", &state.obstacle_tool);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("left drag: a circle from its centre; shift + left drag: a rectangle\n"
                          "right click on an obstacle removes it");
    }
    ImGui::Text("obstacles: %zu", state.params.obstacles.size());
    ImGui::SameLine();
    ImGui::BeginDisabled(state.params.obstacles.empty());
    if (ImGui::SmallButton("clear obstacles")) {
        error_line(state, apply_obstacles_edit(state.params, {}));
    }
    ImGui::EndDisabled();
    std::optional<std::size_t> remove;
    for (std::size_t i = 0; i < state.params.obstacles.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::SmallButton("x")) {
            remove = i;
        }
        ImGui::SameLine();
        ImGui::TextUnformatted(to_string(state.params.obstacles[i]).c_str());
        ImGui::PopID();
    }
    if (remove) {
        std::vector<Obstacle> kept = state.params.obstacles;
        kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(*remove));
        error_line(state, apply_obstacles_edit(state.params, kept));
    }
    ImGui::Text("food sources: %zu", state.params.food.size());
    for (const FoodSource& f : state.params.food) {
        if (f.path.empty()) {
            ImGui::BulletText("at (%.4g, %.4g), range %.4g", f.x, f.y, f.range);
        } else {
            ImGui::BulletText("moving along %zu points, range %.4g", f.path.size(), f.range);
        }
    }
}

/// Live plots of the order parameters (the last few hundred samples).
void metrics_section(ViewerState& state) {
    if (!ImGui::CollapsingHeader("Metrics", ImGuiTreeNodeFlags_DefaultOpen)) {
        return;
    }
    ImGui::Checkbox("measure and plot", &state.plot_metrics);
    const MetricsHistory& h = state.history;
    const auto plot = [](const char* label, const std::vector<float>& v, float lo, float hi) {
        char overlay[64];
        std::snprintf(overlay, sizeof overlay, "%s %.3g", label,
                      v.empty() ? 0.0 : static_cast<double>(v.back()));
        ImGui::PlotLines(label, v.data(), static_cast<int>(v.size()), 0, overlay, lo, hi, ImVec2(0, 42));
    };
    plot("polarization", h.polarization, 0.0f, 1.0f);
    plot("milling", h.milling, 0.0f, 1.0f);
    plot("groups", h.groups, 0.0f, FLT_MAX);
    plot("nn distance", h.nnd_mean, 0.0f, FLT_MAX);
    plot("mean speed", h.speed_mean, 0.0f, FLT_MAX);
    plot("moving right", h.frac_right, 0.0f, 1.0f);
}

} // namespace

const char* help_text() {
    return "Keys\n"
           "  space   pause / resume\n"
           "  .       single step (pauses)\n"
           "  r       reset (respawn from counts and seed)\n"
           "  f       full screen on / off\n"
           "  h       hide / show this panel\n"
           "  o       obstacle tool on / off\n"
           "  s       screenshot (boids-screenshot-N.png)\n"
           "  ctrl+s  save the scene to the scene file\n"
           "  ctrl+o  open the scene file\n"
           "  q, Esc  quit\n"
           "Mouse\n"
           "  left click    add a predator at the cursor;\n"
           "                weighted model: the carrot follows\n"
           "                the mouse / stops (toggle)\n"
           "  right click   on an obstacle: remove it;\n"
           "                elsewhere: add 50 boids there\n"
           "  left or middle drag   pan\n"
           "  wheel         zoom about the cursor\n"
           "Obstacle tool (o)\n"
           "  left drag         a circle from its centre\n"
           "  shift+left drag   a rectangle, corner to corner\n"
           "  middle drag       pan\n"
           "Panel\n"
           "  sliders act on the next step; ctrl+click a\n"
           "  slider to type a value; agent counts apply\n"
           "  when the slider is released. A rejected value\n"
           "  is shown in red and nothing changes.";
}

void draw_panel(ViewerState& state, PanelUi& ui, float width, float height) {
    const float panel = panel_width(width);
    ImGui::SetNextWindowPos(ImVec2(width - panel, 0));
    ImGui::SetNextWindowSize(ImVec2(panel, height));
    ImGui::Begin("Boids", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
    ImGui::PushItemWidth(-0.42f * panel); // the rest for the labels, so that none is cut off
    ImGui::Text("%s", state.scene_name.c_str());
    simulation_section(state, ui);
    if (!state.last_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.35f, 1.0f));
        ImGui::TextWrapped("%s", state.last_error.c_str());
        ImGui::PopStyleColor();
        if (ImGui::SmallButton("dismiss")) {
            state.last_error.clear();
        }
    }
    if (ImGui::CollapsingHeader("Agents", ImGuiTreeNodeFlags_DefaultOpen)) {
        agents_section(state, ui);
    }
    parameters_section(state);
    mouse_tools_section(state);
    metrics_section(state);
    if (ImGui::CollapsingHeader("Help: keys and mouse")) {
        ImGui::TextUnformatted(help_text());
    }
    ImGui::PopItemWidth();
    ImGui::End();
}

void draw_hud(const ViewerState& state, const char* precision) {
    const ViewerStats& s = state.stats;
    ImGui::SetNextWindowPos(ImVec2(8, 8));
    ImGui::SetNextWindowBgAlpha(0.65f);
    ImGui::Begin("HUD", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::Text("boids %lld   scouts %lld + %lld   predators %lld", s.agents.boids, s.agents.scouts1,
                s.agents.scouts2, s.agents.predators);
    if (state.rate == SimRate::Unlimited) {
        ImGui::Text("sim %.1f steps/s (as fast as possible, %s)", s.sim_steps_per_s, precision);
    } else {
        ImGui::Text("sim %.1f steps/s (target %s, %s)", s.sim_steps_per_s,
                    std::string(sim_rate_name(state.rate)).c_str(), precision);
    }
    ImGui::Text("render %.1f fps (%.2f ms/frame)", s.render_fps, s.render_ms);
    const StepProfile& p = s.last_profile;
    const std::string path = step_path_note(p, s.steps_taken, fast_path_isa());
    ImGui::Text("step %.2f ms%s: grid %.2f  neighbours %.2f  integrate %.2f", p.total_ms, path.c_str(),
                p.grid_build_ms, p.neighbours_ms, p.integrate_ms);
    ImGui::Text("elapsed %.1f s   %lld steps", s.elapsed_s, s.steps_taken);
    if (state.paused) {
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "paused (space resumes, . steps)");
    }
    if (s.falling_behind) {
        if (s.behind_because == Bottleneck::Drawing) {
            ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f),
                               "falling behind %s steps/s: drawing takes %.1f ms a frame (a step %.2f ms)",
                               std::string(sim_rate_name(state.rate)).c_str(), s.render_ms, p.total_ms);
        } else {
            ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f),
                               "falling behind %s steps/s: a step takes %.2f ms (drawing %.1f ms a frame)",
                               std::string(sim_rate_name(state.rate)).c_str(), p.total_ms, s.render_ms);
        }
    }
    if (model_abilities(state.params.model).carrot) {
        if (state.carrot_tracking) {
            ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "carrot: following the mouse (click stops)");
        } else {
            ImGui::Text("carrot: fixed at %s (click to follow the mouse)", carrot_text(state.params).c_str());
        }
    }
    if (state.obstacle_tool) {
        ImGui::TextColored(ImVec4(0.8f, 0.75f, 0.7f, 1.0f),
                           "obstacle tool: drag = circle, shift+drag = rectangle, right click removes");
    }
    if (state.growth.active) {
        const std::string limit =
            state.growth.missed ? std::string("; ") + bottleneck_name(state.growth.limit) + " limits it" : "";
        ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.6f, 1.0f),
                           "grow: largest flock animated at %s fps: %lld (%s%s)",
                           std::string(sim_rate_name(state.rate)).c_str(), state.growth.largest_held,
                           state.growth.finished ? "done" : "searching", limit.c_str());
    }
    ImGui::End();
}

} // namespace boids::viewer
