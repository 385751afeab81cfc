#include "panel_mapping.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/scenario.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace boids::viewer {

namespace {

// clang-format off
constexpr std::array<SliderSpec, 4> counts{{
    {"boids", "boids", 0, 2'000'000, true, "Agents"},
    {"scouts1", "scouts 1", 0, 100'000, true, "Agents"},
    {"scouts2", "scouts 2", 0, 100'000, true, "Agents"},
    {"predators", "predators", 0, 1'000, true, "Agents"},
}};
// clang-format on

/// The panel's sections in order; a model's own keys follow in a section named after the model.
constexpr std::array<std::string_view, 5> section_order{"Edges", "Flocking", "Predators", "Scouts",
                                                        "Extensions"};

std::size_t section_rank(std::string_view group) {
    for (std::size_t i = 0; i < section_order.size(); ++i) {
        if (section_order[i] == group) {
            return i;
        }
    }
    return section_order.size(); // the models' sections, in the table's (the registry's) order
}

/// One slider per numeric key of param_table(), its range and scale from the key's table entry, grouped
/// by section.
std::vector<SliderSpec> make_sliders() {
    std::vector<SliderSpec> sliders;
    for (const ParamInfo& info : param_table()) {
        if (info.kind == std::string_view("number")) {
            sliders.push_back({info.key, info.label, info.slider_min, info.slider_max,
                               info.scale == SliderScale::Log, info.group});
        }
    }
    std::stable_sort(sliders.begin(), sliders.end(), [](const SliderSpec& a, const SliderSpec& b) {
        return section_rank(a.group) < section_rank(b.group);
    });
    return sliders;
}

std::string shortest(double value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ptr);
}

} // namespace

std::span<const SliderSpec> parameter_sliders() {
    static const std::vector<SliderSpec> sliders = make_sliders();
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
        require_key_used(edited, key);
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
