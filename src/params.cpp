#include "boids/params.hpp"

#include "boids/error.hpp"
#include "models/registry.hpp"
#include "text.hpp"

#include <array>
#include <vector>

namespace boids {

namespace {

using models::allowed;
using models::NumberKey;
using text::shortest;

/// The keys of the world and of the agents' motion, read by every model (the spawn box and speeds too).
// clang-format off
constexpr auto world_keys = std::to_array<NumberKey>({
    {"width", 1, models::world_max, "world width in pixels", models::field<&Params::width>, "world width", allowed, allowed, SliderScale::Log},
    {"height", 1, models::world_max, "world height in pixels (y grows downward)", models::field<&Params::height>, "world height", allowed, allowed, SliderScale::Log},
    {"margin_left", 0, models::world_max, "left margin: boids with x below it turn right", models::field<&Params::margin_left>, "margin left", allowed, allowed, SliderScale::Log},
    {"margin_right", 0, models::world_max, "right margin: boids with x above width - margin_right turn left", models::field<&Params::margin_right>, "margin right", allowed, allowed, SliderScale::Log},
    {"margin_top", 0, models::world_max, "top margin: boids with y below it turn down", models::field<&Params::margin_top>, "margin top", allowed, allowed, SliderScale::Log},
    {"margin_bottom", 0, models::world_max, "bottom margin: boids with y above height - margin_bottom turn up", models::field<&Params::margin_bottom>, "margin bottom", allowed, allowed, SliderScale::Log},
    {"depth", 1, models::world_max, "3D: world depth in pixels (z from 0 to depth)", models::field<&Params::depth>, "world depth (3D)", allowed, allowed, SliderScale::Log},
    {"margin_front", 0, models::world_max, "3D: front margin: boids with z below it turn back", models::field<&Params::margin_front>, "margin front (3D)", allowed, allowed, SliderScale::Log},
    {"margin_back", 0, models::world_max, "3D: back margin: boids with z above depth - margin_back turn forward", models::field<&Params::margin_back>, "margin back (3D)", allowed, allowed, SliderScale::Log},
    {"max_speed", 0, models::speed_max, "upper speed limit, pixels per step", models::field<&Params::max_speed>, "max speed", allowed, allowed, SliderScale::Log},
    {"min_speed", 0, models::speed_max, "lower speed limit, pixels per step (<= max_speed)", models::field<&Params::min_speed>, "min speed", allowed, allowed, SliderScale::Log},
});
/// Read by the boids of the classic model and by the predators of every model that moves them.
constexpr NumberKey turn_factor_key{"turn_factor", 0, models::turn_max, "velocity change per step at a margin", models::field<&Params::turn_factor>, "turn factor", allowed, allowed, SliderScale::Log};
// clang-format on

using models::ChoiceKey;

constexpr std::array<std::string_view, 2> boundary_names{"margin", "wrap"};
constexpr std::array<std::string_view, 2> update_names{"synchronous", "sequential"};
constexpr std::array<std::string_view, 2> speed_estimate_names{"exact", "alpha-max-beta-min"};
constexpr std::array<std::string_view, 3> predator_behavior_names{"edge", "chase-centroid", "pursue"};
constexpr std::array<std::string_view, 2> predator_order_names{"after-edges", "before-flocking"};
constexpr std::array<std::string_view, 2> dimensions_names{"2", "3"};  // Params::dimensions - 2
constexpr std::array<std::string_view, 2> bool_names{"true", "false"}; // dynamic_bias: true is 0

/// The models' names, indexed by the Model enum, from the registry.
constexpr auto model_names = [] {
    std::array<std::string_view, models::AllModels::size> names{};
    std::size_t i = 0;
    models::AllModels::for_each([&]<class M>() { names[i++] = M::name; });
    return names;
}();

/// The bits of the models that have an ability.
std::uint32_t models_with(bool ModelAbilities::*ability) {
    std::uint32_t mask = 0;
    models::AllModels::for_each([&]<class M>() {
        if (ability == nullptr || M::abilities.*ability) {
            mask |= models::bit(M::id);
        }
    });
    return mask;
}

// clang-format off
const std::array<ChoiceKey, 8> world_choice_keys{{
    {{"dynamic_bias", "bool", 0, 1, "scouts' bias grows while they move their way: true | false", "dynamic bias", "Scouts"}, bool_names,
     [](const Params& p) { return p.dynamic_bias ? 0 : 1; },
     [](Params& p, int v) { p.dynamic_bias = v == 0; }},
    {{"dimensions", "choice", 0, 1, "2 (x, y) | 3 (x, y, z; classic and weighted models)", "dimensions", "World"}, dimensions_names,
     [](const Params& p) { return p.dimensions - 2; },
     [](Params& p, int v) { p.dimensions = v + 2; }},
    {{"predator_behavior", "choice", 0, 1, "predators: edge (turn at edges only) | chase-centroid | pursue", "predators", "Predators"}, predator_behavior_names,
     [](const Params& p) { return static_cast<int>(p.predator_behavior); },
     [](Params& p, int v) { p.predator_behavior = static_cast<PredatorBehavior>(v); }},
    {{"predator_order", "choice", 0, 1, "when boids flee predators: after-edges (Adams' VGA page) | before-flocking (the ECE 4760 lab page: alignment reads the kicked velocity)", "predator order", "Predators"}, predator_order_names,
     [](const Params& p) { return static_cast<int>(p.predator_order); },
     [](Params& p, int v) { p.predator_order = static_cast<PredatorOrder>(v); }},
    {{"model", "choice", 0, 1, "flocking model (the registry's list)", "model", "World"}, model_names,
     [](const Params& p) { return static_cast<int>(p.model); },
     [](Params& p, int v) { p.model = static_cast<Model>(v); }},
    {{"boundary", "choice", 0, 1, "edges: margin (turn back) | wrap (torus)", "boundary", "World"}, boundary_names,
     [](const Params& p) { return static_cast<int>(p.boundary); },
     [](Params& p, int v) { p.boundary = static_cast<Boundary>(v); }},
    {{"update", "choice", 0, 1, "synchronous (double-buffered) | sequential (in place, one boid after another, one thread: the lab's loop, Downey's and PyNBoids')", "update", "World"}, update_names,
     [](const Params& p) { return static_cast<int>(p.update); },
     [](Params& p, int v) { p.update = static_cast<UpdateOrder>(v); }},
    {{"speed_estimate", "choice", 0, 1, "speed for the limits: exact | alpha-max-beta-min", "speed estimate", "Extensions"}, speed_estimate_names,
     [](const Params& p) { return static_cast<int>(p.speed_estimate); },
     [](Params& p, int v) { p.speed_estimate = static_cast<SpeedEstimate>(v); }},
}};
// clang-format on

/// Who reads each choice key.
std::uint32_t choice_users(std::string_view key) {
    if (key == "dynamic_bias" || key == "predator_order") {
        return models::bit(Model::Classic);
    }
    if (key == "predator_behavior") {
        return models_with(&ModelAbilities::hunting);
    }
    if (key == "speed_estimate") {
        return models_with(&ModelAbilities::extensions);
    }
    return models::by_every_model;
}

/// A numeric key of the assembled table.
struct Number {
    ParamInfo info;
    models::DoubleField ref;
    bool whole;
};

/// The whole table, assembled once from the world's keys, the models' and the extensions'.
struct Table {
    std::vector<Number> numbers;
    std::vector<ParamInfo> all; ///< numbers, then the switches

    void add(const NumberKey& k, std::string_view group, std::uint32_t models) {
        for (Number& n : numbers) {
            if (n.info.key == k.key) { // a key two models share (e.g. speed): one entry, both bits
                n.info.models |= models;
                return;
            }
        }
        Params defaults;
        ParamInfo info{k.key, "number", k.min, k.max, k.help};
        info.label = k.label;
        info.group = group;
        info.slider_min = k.slider_min != k.slider_min ? k.min : k.slider_min;
        info.slider_max = k.slider_max != k.slider_max ? k.max : k.slider_max;
        info.scale = k.scale;
        info.models = models;
        info.default_value = k.ref(defaults);
        numbers.push_back({info, k.ref, k.whole});
    }

    Table() {
        for (const NumberKey& k : world_keys) {
            add(k,
                k.key.starts_with("margin") || k.key == "width" || k.key == "height" || k.key == "depth"
                    ? "Edges"
                    : "Flocking",
                models::by_every_model);
        }
        add(turn_factor_key, "Edges", models_with(&ModelAbilities::hunting));
        for (const models::ModelKey& k : models::Classic::keys) {
            const std::string_view key = k.number.key;
            add(k.number,
                key.starts_with("predator")                  ? "Predators"
                : key.find("bias") != std::string_view::npos ? "Scouts"
                                                             : "Flocking",
                models::bit(Model::Classic) | k.also);
        }
        for (const models::ExtensionKey& k : models::extension_keys) {
            add(k.number, k.needs == &ModelAbilities::hunting ? "Predators" : "Extensions",
                models_with(k.needs));
        }
        models::AllModels::for_each([&]<class M>() {
            if constexpr (M::id != Model::Classic) {
                for (const models::ModelKey& k : M::keys) {
                    // A key several models read (the heading models' speed and noise) gets a section
                    // of its own rather than the first model's.
                    add(k.number, k.also != 0 ? "Speed and noise" : M::title, models::bit(M::id) | k.also);
                }
            }
        });
        for (const Number& n : numbers) {
            all.push_back(n.info);
        }
        for (const ChoiceKey& c : world_choice_keys) {
            choices.push_back(c);
            choices.back().info.models = choice_users(c.info.key);
        }
        models::AllModels::for_each([&]<class M>() {
            if constexpr (requires { M::choices; }) {
                for (const ChoiceKey& c : M::choices) {
                    choices.push_back(c);
                    choices.back().info.group = M::title;
                    choices.back().info.models = models::bit(M::id);
                }
            }
            model_help += std::string(M::id == Model{} ? "" : " | ") + std::string(M::name);
        });
        for (ChoiceKey& c : choices) {
            if (c.info.key == "model") {
                c.info.help = model_help;
            }
            all.push_back(c.info);
        }
    }

    std::vector<ChoiceKey> choices; ///< the world's, then each model's
    std::string model_help = "flocking model (docs/MODEL.md): ";
};

const Table& table() {
    static const Table t;
    return t;
}

const ChoiceKey* find_choice(std::string_view key) {
    for (const auto& k : table().choices) {
        if (k.info.key == key) {
            return &k;
        }
    }
    return nullptr;
}

const Number* find_number(std::string_view key) {
    for (const Number& n : table().numbers) {
        if (n.info.key == key) {
            return &n;
        }
    }
    return nullptr;
}

double number_value(const Params& p, const Number& n) {
    return n.ref(const_cast<Params&>(p)); // the accessor only reads here
}

std::string range_text(double lo, double hi) {
    return "allowed range is [" + text::readable(lo) + ", " + text::readable(hi) + "]";
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

/// The models that have an ability, as "classic and weighted", for messages.
std::string models_text(bool ModelAbilities::*ability) {
    std::vector<std::string_view> names;
    models::AllModels::for_each([&]<class M>() {
        if (M::abilities.*ability) {
            names.push_back(M::name);
        }
    });
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
    }
    return out;
}

/// What a 3D world needs: room between the front and back margins, a model that has a third axis, and
/// no option that is planar as its source defines it (the lab's fixed-point loop and speed shortcut,
/// Flake's sidestep).
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
    if (!model_abilities(p.model).three_d) {
        planar("model", "only " + models_text(&ModelAbilities::three_d) +
                            " are 3D; this model is planar and cannot run");
    }
    if (p.update != UpdateOrder::Synchronous && p.model == Model::Classic) {
        planar("update", "the lab's loop is planar: only synchronous runs");
    }
    if (p.speed_estimate != SpeedEstimate::Exact) {
        planar("speed_estimate", "the lab's shortcut is planar: only exact runs");
    }
    if (p.line_of_sight_factor > 0) {
        planar("line_of_sight_factor", "Flake's sidestep is planar: must be 0");
    }
}

/// An extension that is on must be one the model takes: otherwise it would silently do nothing.
void validate_extensions(const Params& p) {
    const ModelAbilities abilities = model_abilities(p.model);
    for (const models::Extension& e : models::extensions) {
        if (e.needs == nullptr || abilities.*(e.needs) || !e.on(p)) {
            continue;
        }
        const std::string value = is_param_key(e.key) ? get_param(p, e.key) : std::string("given");
        throw InputError(invalid_value_message(
            std::string(e.key), value,
            "the " + std::string(model_name(p.model)) +
                " model does not use it (models that do: " + models_text(e.needs) + ")"));
    }
}

/// The in-place update: the classic model's is the lab's loop, transcribed as on the microcontroller (no
/// extension); the other models that offer it move one boid after another through their own rules.
void validate_sequential(const Params& p) {
    if (!model_abilities(p.model).sequential) {
        throw InputError(invalid_value_message("update", "sequential",
                                               "the " + std::string(model_name(p.model)) +
                                                   " model has no in-place update (models that do: " +
                                                   models_text(&ModelAbilities::sequential) + ")"));
    }
    if (p.model == Model::Classic) {
        const char* extension = p.predator_behavior != PredatorBehavior::Edge ? "predator_behavior"
                                : p.predator_speed > 0                        ? "predator_speed"
                                : p.gravity > 0 || p.max_dive_speed > 0       ? "gravity"
                                : p.line_of_sight_factor > 0                  ? "line_of_sight_factor"
                                : p.perch_rest_max > 0                        ? "perch_rest_max"
                                                                              : nullptr;
        if (extension != nullptr) {
            throw InputError(invalid_value_message(
                "update", "sequential",
                std::string(
                    "the lab's in-place loop runs the lab's rules only; it cannot be combined with ") +
                    extension + " = " + get_param(p, extension)));
        }
    }
    if (!p.obstacles.empty() || !p.food.empty()) {
        throw InputError(invalid_value_message(
            "update", "sequential", "the in-place update cannot be combined with obstacles or food"));
    }
}

} // namespace

void validate(const Params& p) {
    for (const Number& n : table().numbers) {
        const double value = number_value(p, n);
        require_in_range(n.info.key, value, n.info.min, n.info.max);
        if (n.whole && value != static_cast<double>(static_cast<long long>(value))) {
            throw InputError(invalid_value_message(std::string(n.info.key), shortest(value),
                                                   "must be a whole number in " +
                                                       range_text(n.info.min, n.info.max).substr(17)));
        }
    }
    if (p.perch_rest_min > p.perch_rest_max) {
        throw InputError(
            invalid_value_message("perch_rest_min", shortest(p.perch_rest_min),
                                  "must not exceed perch_rest_max = " + shortest(p.perch_rest_max)));
    }
    if (p.update == UpdateOrder::Sequential) {
        validate_sequential(p);
    }
    for (std::size_t i = 0; i < p.obstacles.size(); ++i) {
        validate(p.obstacles[i], "obstacle " + std::to_string(i + 1));
    }
    for (std::size_t i = 0; i < p.food.size(); ++i) {
        validate(p.food[i], "food source " + std::to_string(i + 1));
    }
    models::AllModels::for_each([&]<class M>() { M::validate(p); });
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
    validate_extensions(p);
}

namespace {

const Number& number_key(std::string_view key) {
    if (const Number* n = find_number(key)) {
        return *n;
    }
    throw InputError(invalid_value_message("key", "'" + std::string(key) + "'",
                                           "expected a numeric parameter key (see boids params)"));
}

} // namespace

double get_number(const Params& params, std::string_view key) {
    return number_value(params, number_key(key));
}

void set_number(Params& params, std::string_view key, double value) {
    const Number& n = number_key(key);
    require_in_range(key, value, n.info.min, n.info.max);
    n.ref(params) = value;
}

void set_param(Params& params, std::string_view key, std::string_view value) {
    if (key == "margin") {
        const double v = parse_number(key, value, 0, models::world_max);
        params.margin_left = params.margin_right = params.margin_top = params.margin_bottom = v;
        params.margin_front = params.margin_back = v;
        return;
    }
    if (const Number* n = find_number(key)) {
        n->ref(params) = parse_number(key, value, n->info.min, n->info.max);
        return;
    }
    const std::string_view v = text::trim(value);
    if (const ChoiceKey* k = find_choice(key)) {
        const std::string_view spelled = key != "dynamic_bias" ? v
                                         : v == "1"            ? "true"
                                         : v == "0"            ? "false"
                                                               : v;
        for (std::size_t i = 0; i < k->names.size(); ++i) {
            if (spelled == k->names[i]) {
                k->set(params, static_cast<int>(i));
                return;
            }
        }
        throw InputError(invalid_value_message(std::string(key), "'" + std::string(value) + "'",
                                               "allowed values are " + choice_list(key)));
    }
    std::string keys;
    for (const ParamInfo& info : param_table()) {
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    }
    throw InputError("unknown parameter '" + std::string(key) +
                     "'; known parameters: margin (sets all six), " + keys);
}

std::string get_param(const Params& params, std::string_view key) {
    if (const Number* n = find_number(key)) {
        return shortest(number_value(params, *n));
    }
    if (const ChoiceKey* k = find_choice(key)) {
        return std::string(k->names[static_cast<std::size_t>(k->get(params))]);
    }
    throw InputError("unknown parameter '" + std::string(key) + "'");
}

std::span<const ParamInfo> param_table() {
    return table().all;
}

const ParamInfo* find_param(std::string_view key) {
    for (const ParamInfo& info : param_table()) {
        if (info.key == key) {
            return &info;
        }
    }
    return nullptr;
}

bool key_used_by(const ParamInfo& info, Model model) {
    return (info.models & models::bit(model)) != 0;
}

void require_key_used(const Params& params, std::string_view key) {
    const ParamInfo* info = find_param(key);
    if (info == nullptr || key_used_by(*info, params.model)) {
        return; // unknown keys are set_param's to refuse; `margin` sets keys every model reads
    }
    std::string users;
    for (const Model m : all_models()) {
        if (key_used_by(*info, m)) {
            users += (users.empty() ? "" : " | ") + std::string(model_name(m));
        }
    }
    throw InputError(invalid_value_message(std::string(key), get_param(params, key),
                                           "the " + std::string(model_name(params.model)) +
                                               " model does not use this key (models that do: " + users +
                                               "); set model first, or leave the key out"));
}

std::string choice_list(std::string_view key) {
    std::string out;
    if (const ChoiceKey* k = find_choice(key)) {
        for (std::string_view name : k->names) {
            out += (out.empty() ? "" : " | ") + std::string(name);
        }
    }
    return out;
}

bool is_param_key(std::string_view key) {
    return key == "margin" || find_param(key) != nullptr;
}

// The models' public face (boids/model.hpp), from the registry.

std::string_view model_name(Model model) {
    return models::with_model(model, []<class M>() { return M::name; });
}

ModelAbilities model_abilities(Model model) {
    return models::with_model(model, []<class M>() { return M::abilities; });
}

std::span<const Model> all_models() {
    static constexpr auto list = [] {
        std::array<Model, models::AllModels::size> out{};
        std::size_t i = 0;
        models::AllModels::for_each([&]<class M>() { out[i++] = M::id; });
        return out;
    }();
    return list;
}

double grid_range(const Params& params) {
    return models::with_model(params.model, [&]<class M>() { return M::grid_range(params); });
}

double link_range(const Params& params) {
    return models::with_model(params.model, [&]<class M>() { return M::link_range(params); });
}

} // namespace boids
