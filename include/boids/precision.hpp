#pragma once
/// The one place that maps a Precision to the engine's scalar type. To add a precision: a value in the
/// Precision enum (scalar.hpp), its name in src/precision.cpp, a case in with_precision() and an
/// alternative in AnySimulation below.

#include "boids/scalar.hpp"
#include "boids/simulation.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace boids {

/// The name users type for a precision: "f32", "f64", "fix15".
[[nodiscard]] std::string_view precision_name(Precision precision);

/// Parses a precision name; nullopt when unknown.
[[nodiscard]] std::optional<Precision> parse_precision(std::string_view name);

/// Every precision name, for messages: "f32 | f64 | fix15".
[[nodiscard]] std::string precision_choices();

/// Parses a precision name or throws InputError naming `field`, the value and the choices.
[[nodiscard]] Precision require_precision(std::string_view field, std::string_view name);

/// Calls `f.template operator()<Real>()` with the scalar type of `precision` and returns its result.
template <class F>
decltype(auto) with_precision(Precision precision, F&& f) {
    switch (precision) {
    case Precision::F64:
        return std::forward<F>(f).template operator()<double>();
    case Precision::Fix15:
        return std::forward<F>(f).template operator()<Fix15>();
    case Precision::F32:
        break;
    }
    return std::forward<F>(f).template operator()<float>();
}

/// A simulation of any precision (see SimulationController).
using AnySimulation = std::variant<Simulation<float>, Simulation<double>, Simulation<Fix15>>;

} // namespace boids
