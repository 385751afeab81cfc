#include "boids/params.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <array>

namespace boids {

namespace {

using text::shortest;

constexpr double world_max = 1e7; // pixels; keeps float positions meaningful to well below a pixel
constexpr double range_max = 1e5;
constexpr double speed_max = 1e5;
constexpr double turn_max = 1e3;
constexpr double pi = 3.14159265358979323846;
constexpr double two_pi = 2 * pi;
constexpr double seed_max = 9007199254740992.0; // 2^53: every integer up to it is exact in a double

/// How a numeric key maps onto the struct, with its allowed range.
struct NumberKey {
    ParamInfo info;
    double Params::*field;
};

// clang-format off
constexpr std::array<NumberKey, 28> number_keys{{
    {{"width", "number", 1, world_max, "world width in pixels"}, &Params::width},
    {{"height", "number", 1, world_max, "world height in pixels (y grows downward)"}, &Params::height},
    {{"margin_left", "number", 0, world_max, "left margin: boids with x below it turn right"}, &Params::margin_left},
    {{"margin_right", "number", 0, world_max, "right margin: boids with x above width - margin_right turn left"}, &Params::margin_right},
    {{"margin_top", "number", 0, world_max, "top margin: boids with y below it turn down"}, &Params::margin_top},
    {{"margin_bottom", "number", 0, world_max, "bottom margin: boids with y above height - margin_bottom turn up"}, &Params::margin_bottom},
    {{"turn_factor", "number", 0, turn_max, "velocity change per step at a margin"}, &Params::turn_factor},
    {{"visual_range", "number", 0, range_max, "neighbours closer than this steer cohesion and alignment"}, &Params::visual_range},
    {{"protected_range", "number", 0, range_max, "neighbours closer than this are avoided"}, &Params::protected_range},
    {{"centering_factor", "number", 0, 1, "cohesion gain toward the neighbours' centre"}, &Params::centering_factor},
    {{"avoid_factor", "number", 0, 1, "separation gain away from too-close neighbours"}, &Params::avoid_factor},
    {{"matching_factor", "number", 0, 1, "alignment gain toward the neighbours' mean velocity"}, &Params::matching_factor},
    {{"max_speed", "number", 0, speed_max, "upper speed limit, pixels per step"}, &Params::max_speed},
    {{"min_speed", "number", 0, speed_max, "lower speed limit, pixels per step (<= max_speed)"}, &Params::min_speed},
    {{"predator_range", "number", 0, range_max, "boids react to predators closer than this"}, &Params::predator_range},
    {{"predator_turn_factor", "number", 0, turn_max, "velocity change per step away from predators"}, &Params::predator_turn_factor},
    {{"max_bias", "number", 0, 1, "upper bound of a scout's dynamic bias"}, &Params::max_bias},
    {{"bias_increment", "number", 0, 1, "dynamic bias step per step, also its lower bound"}, &Params::bias_increment},
    {{"scout1_bias", "number", 0, 1, "bias of scout group 1 toward +x (initial value if dynamic)"}, &Params::scout1_bias},
    {{"scout2_bias", "number", 0, 1, "bias of scout group 2 toward -x (initial value if dynamic)"}, &Params::scout2_bias},
    {{"speed", "number", 0, speed_max, "vicsek, couzin: constant speed per step"}, &Params::speed},
    {{"interaction_radius", "number", 0, range_max, "vicsek: neighbours closer than this (self included) are averaged"}, &Params::interaction_radius},
    {{"noise", "number", 0, two_pi, "vicsek: width eta of the uniform angle noise; couzin: std dev of the angle noise (rad)"}, &Params::noise},
    {{"repulsion_radius", "number", 0, range_max, "couzin: zone of repulsion alpha (<= attraction_radius)"}, &Params::repulsion_radius},
    {{"attraction_radius", "number", 0, range_max, "couzin: zone of orientation and attraction rho"}, &Params::attraction_radius},
    {{"turn_rate", "number", 0, pi, "couzin: largest heading change per step (rad)"}, &Params::turn_rate},
    {{"informed_weight", "number", 0, 1000, "couzin: omega, weight of an informed agent's preferred direction"}, &Params::informed_weight},
    {{"noise_seed", "number", 0, seed_max, "vicsek, couzin: integer seed of the noise (the CLI sets it from --seed)"}, &Params::noise_seed},
}};

constexpr ParamInfo dynamic_bias_info{"dynamic_bias", "bool", 0, 1, "scouts' bias grows while they move their way: true | false"};
constexpr ParamInfo boundary_info{"boundary", "choice", 0, 1, "edges: margin (turn back) | wrap (torus)"};
constexpr ParamInfo model_info{"model", "choice", 0, 1, "update rule: classic | vicsek | couzin"};
// clang-format on

/// The full table in display order: numbers, then the switches.
constexpr auto make_table() {
    std::array<ParamInfo, number_keys.size() + 3> table{};
    for (std::size_t i = 0; i < number_keys.size(); ++i) {
        table[i] = number_keys[i].info;
    }
    table[number_keys.size()] = dynamic_bias_info;
    table[number_keys.size() + 1] = boundary_info;
    table[number_keys.size() + 2] = model_info;
    return table;
}
constexpr auto all_params = make_table();

std::string model_choices() {
    std::string names;
    for (const auto& m : model_names) {
        names += (names.empty() ? "" : " | ") + std::string(m.name);
    }
    return names;
}

std::string range_text(double lo, double hi) {
    return "allowed range is [" + text::readable(lo) + ", " + text::readable(hi) + "]";
}

const NumberKey* find_number(std::string_view key) {
    for (const auto& k : number_keys) {
        if (k.info.key == key) {
            return &k;
        }
    }
    return nullptr;
}

double parse_number(std::string_view key, std::string_view value, double lo, double hi) {
    const auto parsed = text::parse_finite<double>(text::trim(value));
    if (!parsed) {
        throw InputError(invalid_value_message(std::string(key), "'" + std::string(value) + "'",
                                               "expected a finite number in [" + text::readable(lo) + ", " +
                                                   text::readable(hi) + "]"));
    }
    if (*parsed < lo || *parsed > hi) {
        throw InputError(invalid_value_message(std::string(key), std::string(text::trim(value)), range_text(lo, hi)));
    }
    return *parsed;
}

void require_in_range(std::string_view key, double value, double lo, double hi) {
    if (!(value >= lo && value <= hi)) {
        throw InputError(invalid_value_message(std::string(key), shortest(value), range_text(lo, hi)));
    }
}

} // namespace

void validate(const Params& p) {
    for (const auto& k : number_keys) {
        require_in_range(k.info.key, p.*(k.field), k.info.min, k.info.max);
    }
    if (p.noise_seed != static_cast<double>(static_cast<long long>(p.noise_seed))) {
        throw InputError(invalid_value_message("noise_seed", shortest(p.noise_seed), "must be a whole number"));
    }
    if (p.repulsion_radius > p.attraction_radius) {
        throw InputError(invalid_value_message("repulsion_radius", shortest(p.repulsion_radius),
                                               "must not exceed attraction_radius = " + shortest(p.attraction_radius)));
    }
    if (p.min_speed > p.max_speed) {
        throw InputError(invalid_value_message("min_speed", shortest(p.min_speed),
                                               "must not exceed max_speed = " + shortest(p.max_speed)));
    }
    if (!(p.margin_left + p.margin_right < p.width)) {
        throw InputError(invalid_value_message(
            "width", shortest(p.width),
            "must exceed margin_left + margin_right = " + shortest(p.margin_left + p.margin_right)));
    }
    if (!(p.margin_top + p.margin_bottom < p.height)) {
        throw InputError(invalid_value_message(
            "height", shortest(p.height),
            "must exceed margin_top + margin_bottom = " + shortest(p.margin_top + p.margin_bottom)));
    }
}

void set_param(Params& params, std::string_view key, std::string_view value) {
    if (key == "margin") {
        const double v = parse_number(key, value, 0, world_max);
        params.margin_left = params.margin_right = params.margin_top = params.margin_bottom = v;
        return;
    }
    if (const NumberKey* k = find_number(key)) {
        params.*(k->field) = parse_number(key, value, k->info.min, k->info.max);
        return;
    }
    const std::string_view v = text::trim(value);
    if (key == "dynamic_bias") {
        if (v == "true" || v == "1") {
            params.dynamic_bias = true;
        } else if (v == "false" || v == "0") {
            params.dynamic_bias = false;
        } else {
            throw InputError(invalid_value_message("dynamic_bias", "'" + std::string(value) + "'",
                                                   "allowed values are true | false"));
        }
        return;
    }
    if (key == "boundary") {
        if (v == "margin") {
            params.boundary = Boundary::Margin;
        } else if (v == "wrap") {
            params.boundary = Boundary::Wrap;
        } else {
            throw InputError(invalid_value_message("boundary", "'" + std::string(value) + "'",
                                                   "allowed values are margin | wrap"));
        }
        return;
    }
    if (key == "model") {
        for (const auto& m : model_names) {
            if (v == m.name) {
                params.model = m.model;
                return;
            }
        }
        throw InputError(invalid_value_message("model", "'" + std::string(value) + "'",
                                               "allowed values are " + model_choices()));
    }
    throw InputError("unknown parameter '" + std::string(key) + "'; known parameters: margin (sets all four), " +
                     [] {
                         std::string keys;
                         for (const auto& info : all_params) {
                             keys += (keys.empty() ? "" : ", ") + std::string(info.key);
                         }
                         return keys;
                     }());
}

std::string get_param(const Params& params, std::string_view key) {
    if (const NumberKey* k = find_number(key)) {
        return shortest(params.*(k->field));
    }
    if (key == "dynamic_bias") {
        return params.dynamic_bias ? "true" : "false";
    }
    if (key == "boundary") {
        return params.boundary == Boundary::Wrap ? "wrap" : "margin";
    }
    if (key == "model") {
        return std::string(model_name(params.model));
    }
    throw InputError("unknown parameter '" + std::string(key) + "'");
}

std::string_view model_name(Model model) {
    for (const auto& m : model_names) {
        if (m.model == model) {
            return m.name;
        }
    }
    return "unknown";
}

std::span<const ParamInfo> param_table() { return all_params; }

bool is_param_key(std::string_view key) {
    if (key == "margin") {
        return true;
    }
    for (const auto& info : all_params) {
        if (info.key == key) {
            return true;
        }
    }
    return false;
}

} // namespace boids
