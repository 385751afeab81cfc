#pragma once
// Python arguments that boids.World() and boids.sweep() share: parameter values, bounded integers and
// the scene (preset or scenario file, parameter overrides, agent counts, seed).

#include "boids/scenario.hpp"

#include <pybind11/pybind11.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace boids::python {

/// The text form of a Python parameter value, as `--set key=value` would take it.
[[nodiscard]] std::string param_text(const std::string& key, const pybind11::handle& value);

/// A Python int (or any integer-like object such as numpy.int64; not bool, not float) in [lo, hi].
[[nodiscard]] long long int_arg(std::string_view field, const pybind11::handle& value, long long lo,
                                long long hi);

/// An agent count in [0, 10^8].
[[nodiscard]] long long count_arg(std::string_view field, const pybind11::handle& value);

/// A thread count in [0, 1024] (0 = all).
[[nodiscard]] int threads_arg(int threads);

/// The agent-count arguments (None = the scene's own count).
struct CountArgs {
    pybind11::object boids, scouts1, scouts2, predators;
};

/// The scene of the arguments: a preset (default vga-predator) or a scenario file, the keyword parameters
/// (all checked before any takes effect), agent counts and seed. `counts_from` names what gives the
/// agents instead of the counts (a state file), or is null. Throws InputError.
[[nodiscard]] Scenario scene_arg(const std::optional<std::string>& preset,
                                 const std::optional<std::filesystem::path>& scenario,
                                 const pybind11::kwargs& params, const CountArgs& counts,
                                 const pybind11::object& seed, const char* counts_from);

} // namespace boids::python
