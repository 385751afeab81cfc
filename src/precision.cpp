#include "boids/precision.hpp"

#include "boids/error.hpp"

#include <array>

namespace boids {

namespace {

struct PrecisionName {
    Precision precision;
    std::string_view name;
};

constexpr std::array<PrecisionName, 3> names{
    {{Precision::F32, "f32"}, {Precision::F64, "f64"}, {Precision::Fix15, "fix15"}}};

} // namespace

std::string_view precision_name(Precision precision) {
    for (const auto& n : names) {
        if (n.precision == precision) {
            return n.name;
        }
    }
    return "?";
}

std::optional<Precision> parse_precision(std::string_view name) {
    for (const auto& n : names) {
        if (n.name == name) {
            return n.precision;
        }
    }
    return std::nullopt;
}

std::string precision_choices() {
    std::string text;
    for (const auto& n : names) {
        if (!text.empty()) {
            text += " | ";
        }
        text += n.name;
    }
    return text;
}

Precision require_precision(std::string_view field, std::string_view name) {
    if (const auto p = parse_precision(name)) {
        return *p;
    }
    throw InputError(invalid_value_message(std::string(field), "'" + std::string(name) + "'",
                                           "allowed values are " + precision_choices()));
}

} // namespace boids
