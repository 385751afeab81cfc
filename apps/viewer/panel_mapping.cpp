#include "panel_mapping.hpp"

#include "boids/error.hpp"
#include "boids/scenario.hpp"

#include <array>
#include <charconv>
#include <limits>

namespace boids::viewer {

namespace {

constexpr double table_max = std::numeric_limits<double>::quiet_NaN(); // "take param_table()'s bound"

// clang-format off
// Lab ranges (SPEC §3) where the lab gives them; NaN bounds are filled from param_table().
constexpr std::array<SliderSpec, 20> raw_sliders{{
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
    {"predator_range", "predator range", table_max, table_max, true, "Predators"},
    {"predator_turn_factor", "predator turn factor", table_max, table_max, true, "Predators"},
    {"scout1_bias", "scout 1 bias (+x)", table_max, table_max, true, "Scouts"},
    {"scout2_bias", "scout 2 bias (-x)", table_max, table_max, true, "Scouts"},
    {"max_bias", "max bias", table_max, table_max, true, "Scouts"},
    {"bias_increment", "bias increment", table_max, table_max, true, "Scouts"},
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

} // namespace boids::viewer
