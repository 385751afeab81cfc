#include "panel_mapping.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/scenario.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace boids::viewer {

namespace {

constexpr double table_max = std::numeric_limits<double>::quiet_NaN(); // "take param_table()'s bound"

// clang-format off
// Lab ranges (docs/MODEL.md §2.1) where the lab gives them; NaN bounds are filled from param_table().
constexpr std::array<SliderSpec, 67> raw_sliders{{
    {"visual_range", "visual range", 0, 200, false, "Flocking"},
    {"protected_range", "protected range", 0, 100, false, "Flocking"},
    {"centering_factor", "centering (cohesion)", 0.0002, 1, true, "Flocking"},
    {"avoid_factor", "avoid (separation)", 0.01, 1, true, "Flocking"},
    {"matching_factor", "matching (alignment)", 0.01, 1, true, "Flocking"},
    {"max_speed", "max speed", table_max, table_max, true, "Flocking"},
    {"min_speed", "min speed", table_max, table_max, true, "Flocking"},
    {"turn_factor", "turn factor", table_max, table_max, true, "Edges"},
    {"margin_left", "margin left", table_max, table_max, true, "Edges"},
    {"margin_right", "margin right", table_max, table_max, true, "Edges"},
    {"margin_top", "margin top", table_max, table_max, true, "Edges"},
    {"margin_bottom", "margin bottom", table_max, table_max, true, "Edges"},
    {"width", "world width", table_max, table_max, true, "Edges"},
    {"height", "world height", table_max, table_max, true, "Edges"},
    {"depth", "world depth (3D)", table_max, table_max, true, "Edges"},
    {"margin_front", "margin front (3D)", table_max, table_max, true, "Edges"},
    {"margin_back", "margin back (3D)", table_max, table_max, true, "Edges"},
    {"predator_range", "predator range", table_max, table_max, true, "Predators"},
    {"predator_turn_factor", "predator turn factor", table_max, table_max, true, "Predators"},
    {"predator_speed", "predator speed (0 = limits)", 0, 20, false, "Predators"},
    {"predator_vision", "predator vision", 0, 400, false, "Predators"},
    {"predator_hunt_factor", "predator hunt factor", table_max, table_max, true, "Predators"},
    {"scout1_bias", "scout 1 bias (+x)", table_max, table_max, true, "Scouts"},
    {"scout2_bias", "scout 2 bias (-x)", table_max, table_max, true, "Scouts"},
    {"max_bias", "max bias", table_max, table_max, true, "Scouts"},
    {"bias_increment", "bias increment", table_max, table_max, true, "Scouts"},
    {"fov_angle", "field of view (deg)", 0, 360, false, "Models"},
    {"k_neighbours", "k nearest (topological)", 1, 64, false, "Models"},
    {"coherence", "coherence (topological)", 0, 100, false, "Models"},
    {"avoidance", "avoidance (topological)", 0, 100, false, "Models"},
    {"adherence", "adherence (topological)", 0, 100, false, "Models"},
    {"topological_speed", "speed px/s (topological)", 0, 1000, false, "Models"},
    {"body_length", "body length (topological)", 0, 100, false, "Models"},
    {"center_radius", "center radius (weighted)", table_max, table_max, true, "Models"},
    {"center_angle", "center angle rad (weighted)", table_max, table_max, false, "Models"},
    {"avoid_radius", "avoid radius (weighted)", table_max, table_max, true, "Models"},
    {"avoid_angle", "avoid angle rad (weighted)", table_max, table_max, false, "Models"},
    {"align_radius", "align radius (weighted)", table_max, table_max, true, "Models"},
    {"align_angle", "align angle rad (weighted)", table_max, table_max, false, "Models"},
    {"w_center", "w center (weighted)", 0, 100, false, "Models"},
    {"w_avoid", "w avoid (weighted)", 0, 100, false, "Models"},
    {"w_align", "w align (weighted)", 0, 100, false, "Models"},
    {"w_love", "w love (weighted)", 0, 100, false, "Models"},
    {"maneuverability", "mu (weighted)", table_max, table_max, false, "Models"},
    {"time_step", "dt (weighted)", 0, 10, false, "Models"},
    {"carrot_x", "carrot x (weighted)", table_max, table_max, false, "Models"},
    {"carrot_y", "carrot y (weighted)", table_max, table_max, false, "Models"},
    {"carrot_z", "carrot z (weighted, 3D)", table_max, table_max, false, "Models"},
    {"speed", "speed (vicsek, couzin)", 0, 10, false, "Models"},
    {"interaction_radius", "interaction radius (vicsek)", 0, 50, false, "Models"},
    {"noise", "noise (vicsek, couzin)", table_max, table_max, false, "Models"},
    {"repulsion_radius", "repulsion radius (couzin)", 0, 50, false, "Models"},
    {"attraction_radius", "attraction radius (couzin)", 0, 100, false, "Models"},
    {"turn_rate", "turn rate rad (couzin)", table_max, table_max, false, "Models"},
    {"informed_weight", "informed weight (couzin)", 0, 10, false, "Models"},
    {"noise_seed", "noise seed", 0, 1e6, false, "Models"},
    {"gravity", "gravity", 0, 1, false, "Extensions"},
    {"max_dive_speed", "max dive speed (0 = max)", 0, 30, false, "Extensions"},
    {"line_of_sight_factor", "line of sight push", 0, 2, false, "Extensions"},
    {"line_of_sight_angle", "line of sight angle (deg)", 0, 90, false, "Extensions"},
    {"perch_rest_min", "perch rest min (steps)", 0, 1000, false, "Extensions"},
    {"perch_rest_max", "perch rest max (steps)", 0, 1000, false, "Extensions"},
    {"ledge_y", "ledge y (-1 = bottom margin)", -1, 5000, false, "Extensions"},
    {"ledge_x0", "ledge left (-1 = margin)", -1, 5000, false, "Extensions"},
    {"ledge_x1", "ledge right (-1 = margin)", -1, 5000, false, "Extensions"},
    {"obstacle_margin", "obstacle margin", 0, 200, false, "Extensions"},
    {"obstacle_turn_factor", "obstacle turn factor", 0, 5, false, "Extensions"},
}};

constexpr std::array<SliderSpec, 4> counts{{
    {"boids", "boids", 0, 2'000'000, true, "Agents"},
    {"scouts1", "scouts 1", 0, 100'000, true, "Agents"},
    {"scouts2", "scouts 2", 0, 100'000, true, "Agents"},
    {"predators", "predators", 0, 1'000, true, "Agents"},
}};
// clang-format on

const ParamInfo& table_entry(std::string_view key) {
    for (const ParamInfo& info : param_table()) {
        if (info.key == key) {
            return info;
        }
    }
    throw std::logic_error("slider for a key missing from param_table(): " + std::string(key));
}

std::array<SliderSpec, raw_sliders.size()> resolve_sliders() {
    std::array<SliderSpec, raw_sliders.size()> resolved = raw_sliders;
    for (SliderSpec& s : resolved) {
        const ParamInfo& info = table_entry(s.key);
        if (s.min != s.min) {
            s.min = info.min;
        }
        if (s.max != s.max) {
            s.max = info.max;
        }
    }
    return resolved;
}

std::string shortest(double value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ptr);
}

} // namespace

std::span<const SliderSpec> parameter_sliders() {
    static const auto sliders = resolve_sliders();
    return sliders;
}

std::span<const SliderSpec> count_sliders() {
    return counts;
}

const SliderSpec* find_slider(std::string_view key) {
    for (const SliderSpec& s : parameter_sliders()) {
        if (s.key == key) {
            return &s;
        }
    }
    for (const SliderSpec& s : counts) {
        if (s.key == key) {
            return &s;
        }
    }
    return nullptr;
}

double slider_value(const Params& params, std::string_view key) {
    return std::stod(get_param(params, key));
}

std::optional<std::string> apply_param_edit(Params& params, std::string_view key, double value) {
    if (!(value - value == 0.0)) {
        return invalid_value_message(std::string(key), shortest(value), "expected a finite number");
    }
    return apply_param_edit(params, key, std::string_view(shortest(value)));
}

std::optional<std::string> apply_param_edit(Params& params, std::string_view key, std::string_view text) {
    Params edited = params;
    try {
        set_param(edited, key, text);
        validate(edited);
    } catch (const InputError& e) {
        return std::string(e.what());
    }
    params = edited;
    return std::nullopt;
}

std::optional<std::string> apply_obstacles_edit(Params& params, std::vector<Obstacle> obstacles) {
    Params edited = params;
    edited.obstacles = std::move(obstacles);
    try {
        validate(edited);
    } catch (const InputError& e) {
        return std::string(e.what());
    }
    params = std::move(edited);
    return std::nullopt;
}

std::optional<std::string> apply_count_edit(AgentCounts& wanted, std::string_view kind, long long value) {
    AgentCounts edited = wanted;
    try {
        set_agent_count(edited, kind, value);
    } catch (const InputError& e) {
        return std::string(e.what());
    }
    wanted = edited;
    return std::nullopt;
}

long long count_value(const AgentCounts& c, std::string_view kind) {
    if (kind == "boids") {
        return c.boids;
    }
    if (kind == "scouts1") {
        return c.scouts1;
    }
    if (kind == "scouts2") {
        return c.scouts2;
    }
    if (kind == "predators") {
        return c.predators;
    }
    throw std::logic_error("unknown agent kind " + std::string(kind));
}

std::optional<std::string> precision_switch_error(const Params& params, Precision precision) {
    if (precision != Precision::Fix15) {
        return std::nullopt;
    }
    try {
        validate_fix15(params);
    } catch (const InputError& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

} // namespace boids::viewer
