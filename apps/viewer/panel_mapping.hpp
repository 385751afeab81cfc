#pragma once
// The control panel's widgets as data: which parameter each slider sets, its range and scale, and how an
// edit becomes a validated parameter change. No GL or ImGui here, so it is unit tested without a window.

#include "boids/params.hpp"
#include "boids/scalar.hpp"
#include "boids/world.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace boids::viewer {

/// One slider of the panel.
struct SliderSpec {
    std::string_view key;   ///< parameter key (set_param), or agent kind for count sliders
    std::string_view label; ///< text beside the slider
    double min; ///< slider range; values typed in (ctrl+click) may go beyond, within param_table()
    double max;
    bool logarithmic;       ///< factors and wide ranges use a log scale
    std::string_view group; ///< panel section
};

/// Every parameter slider, in panel order: the classic parameters with the lab's ranges (docs/MODEL.md
/// §2.1), and
/// param_table()'s ranges where the lab gives none. `dynamic_bias` and `boundary` are switches, not sliders.
[[nodiscard]] std::span<const SliderSpec> parameter_sliders();

/// The agent-count sliders: boids, scouts1, scouts2, predators.
[[nodiscard]] std::span<const SliderSpec> count_sliders();

/// The slider of a key, or nullptr.
[[nodiscard]] const SliderSpec* find_slider(std::string_view key);

/// Current value of a numeric parameter as a slider shows it.
[[nodiscard]] double slider_value(const Params& params, std::string_view key);

/// Sets `key` to `value` (number) through set_param and validate(). On success `params` changes and
/// nullopt is returned; on rejection `params` is unchanged and the message says why.
std::optional<std::string> apply_param_edit(Params& params, std::string_view key, double value);

/// Same for a parameter given as text (switches: `dynamic_bias` true|false, `boundary` margin|wrap).
std::optional<std::string> apply_param_edit(Params& params, std::string_view key, std::string_view text);

/// Replaces the obstacles (Params::obstacles) and validates them with the other parameters. Same contract:
/// on rejection `params` is unchanged and the message says why (e.g. a rectangle without height).
std::optional<std::string> apply_obstacles_edit(Params& params, std::vector<Obstacle> obstacles);

/// Why the flock cannot switch to `precision` with these parameters (fix15 needs every value to fit
/// it); nullopt when it can.
std::optional<std::string> precision_switch_error(const Params& params, Precision precision);

/// Sets the wanted count of one kind (boids, scouts1, scouts2, predators). Same contract.
std::optional<std::string> apply_count_edit(AgentCounts& counts, std::string_view kind, long long value);

/// The current count of one kind by key.
[[nodiscard]] long long count_value(const AgentCounts& counts, std::string_view kind);

} // namespace boids::viewer
