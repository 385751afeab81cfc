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
constexpr std::array<NumberKey, 67> number_keys{{
    {{"width", "number", 1, world_max, "world width in pixels"}, &Params::width},
    {{"height", "number", 1, world_max, "world height in pixels (y grows downward)"}, &Params::height},
    {{"margin_left", "number", 0, world_max, "left margin: boids with x below it turn right"}, &Params::margin_left},
    {{"margin_right", "number", 0, world_max, "right margin: boids with x above width - margin_right turn left"}, &Params::margin_right},
    {{"margin_top", "number", 0, world_max, "top margin: boids with y below it turn down"}, &Params::margin_top},
    {{"margin_bottom", "number", 0, world_max, "bottom margin: boids with y above height - margin_bottom turn up"}, &Params::margin_bottom},
    {{"depth", "number", 1, world_max, "3D: world depth in pixels (z from 0 to depth)"}, &Params::depth},
    {{"margin_front", "number", 0, world_max, "3D: front margin: boids with z below it turn back"}, &Params::margin_front},
    {{"margin_back", "number", 0, world_max, "3D: back margin: boids with z above depth - margin_back turn forward"}, &Params::margin_back},
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
    {{"fov_angle", "number", 0, 360, "classic: field of view in degrees around the velocity (360 = all around)"}, &Params::fov_angle},
    {{"k_neighbours", "number", 1, 64, "topological: number of nearest neighbours followed (integer)"}, &Params::k_neighbours},
    {{"coherence", "number", 0, 100, "topological: aligns with the neighbours within 5 body lengths + 2 coherence"}, &Params::coherence},
    {{"avoidance", "number", 0, 100, "topological: turns from the nearest within 1 body length + avoidance"}, &Params::avoidance},
    {{"adherence", "number", 0, 100, "topological: tolerates 0.5 + adherence / 200 degrees of heading error"}, &Params::adherence},
    {{"topological_speed", "number", 0, 10000, "topological: base speed in pixels per second (60 steps per second)"}, &Params::topological_speed},
    {{"body_length", "number", 0, 1000, "topological: boid size in pixels"}, &Params::body_length},
    {{"center_radius", "number", 0, range_max, "weighted: radius of the center request"}, &Params::center_radius},
    {{"center_angle", "number", 0, 3.141592653589793, "weighted: half-angle of the center request, radians"}, &Params::center_angle},
    {{"avoid_radius", "number", 0, range_max, "weighted: radius of the avoid request (boids and carrot)"}, &Params::avoid_radius},
    {{"avoid_angle", "number", 0, 3.141592653589793, "weighted: half-angle of the avoid request, radians"}, &Params::avoid_angle},
    {{"align_radius", "number", 0, range_max, "weighted: radius of the align request"}, &Params::align_radius},
    {{"align_angle", "number", 0, 3.141592653589793, "weighted: half-angle of the align request, radians"}, &Params::align_angle},
    {{"w_center", "number", 0, 1000, "weighted: weight of the center request"}, &Params::w_center},
    {{"w_avoid", "number", 0, 1000, "weighted: weight of the avoid request"}, &Params::w_avoid},
    {{"w_align", "number", 0, 1000, "weighted: weight of the align request"}, &Params::w_align},
    {{"w_love", "number", 0, 1000, "weighted: weight of the love request (toward the carrot)"}, &Params::w_love},
    {{"maneuverability", "number", 0, 1, "weighted: mu, how fast a boid turns toward its goal"}, &Params::maneuverability},
    {{"time_step", "number", 0, 1000, "weighted: dt, distance flown per step at unit speed"}, &Params::time_step},
    {{"carrot_x", "number", -world_max, world_max, "weighted: carrot (attractor) x"}, &Params::carrot_x},
    {{"carrot_y", "number", -world_max, world_max, "weighted: carrot (attractor) y"}, &Params::carrot_y},
    {{"carrot_z", "number", -world_max, world_max, "weighted, 3D: carrot (attractor) z"}, &Params::carrot_z},
    {{"predator_speed", "number", 0, speed_max, "predators fly at exactly this speed; 0 = the boids' limits"}, &Params::predator_speed},
    {{"predator_vision", "number", 0, range_max, "how far a hunting predator sees boids"}, &Params::predator_vision},
    {{"predator_hunt_factor", "number", 0, turn_max, "a hunting predator's velocity change per step toward its prey"}, &Params::predator_hunt_factor},
    {{"gravity", "number", 0, 100, "downward acceleration, pixels per step^2"}, &Params::gravity},
    {{"max_dive_speed", "number", 0, speed_max, "speed limit while descending; 0 = max_speed"}, &Params::max_dive_speed},
    {{"line_of_sight_factor", "number", 0, 10, "sideways push when a neighbour is dead ahead (Flake); 0 = off"}, &Params::line_of_sight_factor},
    {{"line_of_sight_angle", "number", 0, 180, "half-angle in degrees of dead ahead"}, &Params::line_of_sight_angle},
    {{"perch_rest_min", "number", 0, 1e6, "perching: shortest rest, steps (both 0 = no perching)"}, &Params::perch_rest_min},
    {{"perch_rest_max", "number", 0, 1e6, "perching: longest rest, steps"}, &Params::perch_rest_max},
    {{"ledge_y", "number", -1, world_max, "perching ledge height; -1 = the bottom margin line"}, &Params::ledge_y},
    {{"ledge_x0", "number", -1, world_max, "ledge's left end; -1 = margin_left"}, &Params::ledge_x0},
    {{"ledge_x1", "number", -1, world_max, "ledge's right end; -1 = width - margin_right"}, &Params::ledge_x1},
    {{"obstacle_margin", "number", 0, range_max, "boids closer than this to an obstacle steer away"}, &Params::obstacle_margin},
    {{"obstacle_turn_factor", "number", 0, turn_max, "velocity change per step away from an obstacle"}, &Params::obstacle_turn_factor},
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

/// A key with a few named values, stored as an enum.
struct ChoiceKey {
    ParamInfo info;
    std::span<const std::string_view> names; ///< indexed by the enum's value
    int (*get)(const Params&);
    void (*set)(Params&, int);
};

constexpr std::array<std::string_view, 2> boundary_names{"margin", "wrap"};
constexpr std::array<std::string_view, 2> update_names{"synchronous", "sequential"};
constexpr std::array<std::string_view, 2> speed_estimate_names{"exact", "alpha-max-beta-min"};
// Indexed by the Model enum.
constexpr std::array<std::string_view, 5> model_choice_names{"classic", "topological", "weighted", "vicsek",
                                                             "couzin"};

constexpr std::array<std::string_view, 3> predator_behavior_names{"edge", "chase-centroid", "pursue"};
constexpr std::array<std::string_view, 2> dimensions_names{"2", "3"}; // Params::dimensions - 2

constexpr std::array<ChoiceKey, 6> choice_keys{{
    {{"dimensions", "choice", 0, 1, "2 (x, y) | 3 (x, y, z; classic and weighted models)"}, dimensions_names,
     [](const Params& p) { return p.dimensions - 2; },
     [](Params& p, int v) { p.dimensions = v + 2; }},
    {{"predator_behavior", "choice", 0, 1, "predators: edge (turn at edges only) | chase-centroid | pursue"}, predator_behavior_names,
     [](const Params& p) { return static_cast<int>(p.predator_behavior); },
     [](Params& p, int v) { p.predator_behavior = static_cast<PredatorBehavior>(v); }},
    {{"model", "choice", 0, 1, "flocking model: classic (Adams/Land) | topological (PyNBoids) | weighted (Downey, carrot) | vicsek | couzin"}, model_choice_names,
     [](const Params& p) { return static_cast<int>(p.model); },
     [](Params& p, int v) { p.model = static_cast<Model>(v); }},
    {{"boundary", "choice", 0, 1, "edges: margin (turn back) | wrap (torus)"}, boundary_names,
     [](const Params& p) { return static_cast<int>(p.boundary); },
     [](Params& p, int v) { p.boundary = static_cast<Boundary>(v); }},
    {{"update", "choice", 0, 1, "synchronous (double-buffered) | sequential (the lab's in-place loop, one thread)"}, update_names,
     [](const Params& p) { return static_cast<int>(p.update); },
     [](Params& p, int v) { p.update = static_cast<UpdateOrder>(v); }},
    {{"speed_estimate", "choice", 0, 1, "speed for the limits: exact | alpha-max-beta-min"}, speed_estimate_names,
     [](const Params& p) { return static_cast<int>(p.speed_estimate); },
     [](Params& p, int v) { p.speed_estimate = static_cast<SpeedEstimate>(v); }},
}};
// clang-format on

/// The full table in display order: numbers, then the switches.
constexpr auto make_table() {
    std::array<ParamInfo, number_keys.size() + 1 + choice_keys.size()> table{};
    for (std::size_t i = 0; i < number_keys.size(); ++i) {
        table[i] = number_keys[i].info;
    }
    table[number_keys.size()] = dynamic_bias_info;
    for (std::size_t i = 0; i < choice_keys.size(); ++i) {
        table[number_keys.size() + 1 + i] = choice_keys[i].info;
    }
    return table;
}

const ChoiceKey* find_choice(std::string_view key) {
    for (const auto& k : choice_keys) {
        if (k.info.key == key) {
            return &k;
        }
    }
    return nullptr;
}
constexpr auto all_params = make_table();

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
        throw InputError(
            invalid_value_message(std::string(key), std::string(text::trim(value)), range_text(lo, hi)));
    }
    return *parsed;
}

void require_in_range(std::string_view key, double value, double lo, double hi) {
    if (!(value >= lo && value <= hi)) {
        throw InputError(invalid_value_message(std::string(key), shortest(value), range_text(lo, hi)));
    }
}

/// What a 3D world needs: room between the front and back margins, and a model and options that have a
/// third axis. PyNBoids' topological model, Vicsek's and Couzin's models, the lab's fixed-point loop and
/// its speed shortcut, and Flake's sidestep are planar as their sources define them (docs/MODEL.md §2.12).
void validate_depth(const Params& p) {
    if (!(p.margin_front + p.margin_back < p.depth)) {
        throw InputError(invalid_value_message("depth", shortest(p.depth),
                                               "must exceed margin_front + margin_back = " +
                                                   shortest(p.margin_front + p.margin_back)));
    }
    const auto planar = [&](std::string_view key, std::string_view what) {
        throw InputError(invalid_value_message(std::string(key), get_param(p, key),
                                               std::string(what) + " with dimensions = 3"));
    };
    if (p.model != Model::Classic && p.model != Model::Weighted) {
        planar("model", "only classic and weighted are 3D; this model is planar and cannot run");
    }
    if (p.update != UpdateOrder::Synchronous) {
        planar("update", "the lab's loop is planar: only synchronous runs");
    }
    if (p.speed_estimate != SpeedEstimate::Exact) {
        planar("speed_estimate", "the lab's shortcut is planar: only exact runs");
    }
    if (p.line_of_sight_factor > 0) {
        planar("line_of_sight_factor", "Flake's sidestep is planar: must be 0");
    }
}

} // namespace

void validate(const Params& p) {
    for (const auto& k : number_keys) {
        require_in_range(k.info.key, p.*(k.field), k.info.min, k.info.max);
    }
    if (p.k_neighbours != static_cast<double>(static_cast<int>(p.k_neighbours))) {
        throw InputError(invalid_value_message("k_neighbours", shortest(p.k_neighbours),
                                               "must be a whole number in [1, 64]"));
    }
    const std::pair<const char*, double> rest_times[] = {{"perch_rest_min", p.perch_rest_min},
                                                         {"perch_rest_max", p.perch_rest_max}};
    for (const auto& [key, value] : rest_times) {
        if (value != static_cast<double>(static_cast<long long>(value))) {
            throw InputError(invalid_value_message(key, shortest(value), "must be a whole number of steps"));
        }
    }
    if (p.perch_rest_min > p.perch_rest_max) {
        throw InputError(
            invalid_value_message("perch_rest_min", shortest(p.perch_rest_min),
                                  "must not exceed perch_rest_max = " + shortest(p.perch_rest_max)));
    }
    if (p.update == UpdateOrder::Sequential) {
        // The sequential loop is the lab's classic loop, transcribed as on the microcontroller.
        const char* extension = p.model != Model::Classic                       ? "model"
                                : p.predator_behavior != PredatorBehavior::Edge ? "predator_behavior"
                                : p.predator_speed > 0                          ? "predator_speed"
                                : p.gravity > 0 || p.max_dive_speed > 0         ? "gravity"
                                : p.line_of_sight_factor > 0                    ? "line_of_sight_factor"
                                : p.perch_rest_max > 0                          ? "perch_rest_max"
                                                                                : nullptr;
        if (extension == nullptr && (!p.obstacles.empty() || !p.food.empty())) {
            throw InputError(invalid_value_message("update", "sequential",
                                                   "the lab's in-place loop runs the classic model only; it "
                                                   "cannot be combined with obstacles or food"));
        }
        if (extension != nullptr) {
            throw InputError(invalid_value_message(
                "update", "sequential",
                std::string(
                    "the lab's in-place loop runs the classic model only; it cannot be combined with ") +
                    extension + " = " + get_param(p, extension)));
        }
    }
    for (std::size_t i = 0; i < p.obstacles.size(); ++i) {
        validate(p.obstacles[i], "obstacle " + std::to_string(i + 1));
    }
    for (std::size_t i = 0; i < p.food.size(); ++i) {
        validate(p.food[i], "food source " + std::to_string(i + 1));
    }
    if (p.noise_seed != static_cast<double>(static_cast<long long>(p.noise_seed))) {
        throw InputError(
            invalid_value_message("noise_seed", shortest(p.noise_seed), "must be a whole number"));
    }
    if (p.repulsion_radius > p.attraction_radius) {
        throw InputError(
            invalid_value_message("repulsion_radius", shortest(p.repulsion_radius),
                                  "must not exceed attraction_radius = " + shortest(p.attraction_radius)));
    }
    if (p.min_speed > p.max_speed) {
        throw InputError(invalid_value_message("min_speed", shortest(p.min_speed),
                                               "must not exceed max_speed = " + shortest(p.max_speed)));
    }
    if (!(p.margin_left + p.margin_right < p.width)) {
        throw InputError(invalid_value_message("width", shortest(p.width),
                                               "must exceed margin_left + margin_right = " +
                                                   shortest(p.margin_left + p.margin_right)));
    }
    if (!(p.margin_top + p.margin_bottom < p.height)) {
        throw InputError(invalid_value_message("height", shortest(p.height),
                                               "must exceed margin_top + margin_bottom = " +
                                                   shortest(p.margin_top + p.margin_bottom)));
    }
    if (p.dimensions != 2 && p.dimensions != 3) {
        throw InputError(
            invalid_value_message("dimensions", std::to_string(p.dimensions), "allowed values are 2 | 3"));
    }
    if (p.dimensions == 3) {
        validate_depth(p);
    }
}

void set_param(Params& params, std::string_view key, std::string_view value) {
    if (key == "margin") {
        const double v = parse_number(key, value, 0, world_max);
        params.margin_left = params.margin_right = params.margin_top = params.margin_bottom = v;
        params.margin_front = params.margin_back = v;
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
    if (const ChoiceKey* k = find_choice(key)) {
        for (std::size_t i = 0; i < k->names.size(); ++i) {
            if (v == k->names[i]) {
                k->set(params, static_cast<int>(i));
                return;
            }
        }
        throw InputError(invalid_value_message(std::string(key), "'" + std::string(value) + "'",
                                               "allowed values are " + choice_list(key)));
    }
    throw InputError("unknown parameter '" + std::string(key) +
                     "'; known parameters: margin (sets all six), " + [] {
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
    if (const ChoiceKey* k = find_choice(key)) {
        return std::string(k->names[static_cast<std::size_t>(k->get(params))]);
    }
    throw InputError("unknown parameter '" + std::string(key) + "'");
}

std::string_view model_name(Model model) {
    return model_choice_names[static_cast<std::size_t>(model)];
}

std::span<const ParamInfo> param_table() {
    return all_params;
}

std::string choice_list(std::string_view key) {
    if (key == "dynamic_bias") {
        return "true | false";
    }
    std::string out;
    if (const ChoiceKey* k = find_choice(key)) {
        for (std::string_view name : k->names) {
            out += (out.empty() ? "" : " | ") + std::string(name);
        }
    }
    return out;
}

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
