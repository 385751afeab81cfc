// The model registry: every key has a model that reads it, a key a model does not read is refused rather
// than ignored, and the abilities answer what each model can do.

#include "boids/control_protocol.hpp"
#include "boids/error.hpp"
#include "boids/model.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/simulation_controller.hpp"
#include "boids/spawn.hpp"

#include <charconv>
#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace boids {
namespace {

/// Shortest round-trip text, as get_param writes numbers.
std::string shortest(double v) {
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, end);
}

/// A preset that runs each model, with every kind of agent added.
Scenario scene_of(Model model) {
    const char* preset = model == Model::Classic       ? "vga-predator"
                         : model == Model::Topological ? "pynboids"
                         : model == Model::Weighted    ? "downey-2d"
                         : model == Model::Vicsek      ? "vicsek"
                                                       : "couzin";
    Scenario s = load_preset(preset);
    EXPECT_EQ(s.params.model, model) << preset;
    s.agents.scouts1 += 5;
    s.agents.scouts2 += 5;
    s.agents.predators = 2;
    return s;
}

/// Positions and velocities only: a scout's stored bias is set at spawn whatever the model reads.
std::string motion(const World<double>& w) {
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        out += shortest(w.x[i]) + "," + shortest(w.y[i]) + "," + shortest(w.vx[i]) + "," + shortest(w.vy[i]) +
               ";";
    }
    return out;
}

std::string fly(const Scenario& s) {
    Simulation<double> sim(s.params, spawn_world<double>(s.params, s.agents, s.seed));
    sim.step(40);
    return motion(sim.world());
}

TEST(ModelRegistry, NamesAbilitiesAndOrder) {
    ASSERT_EQ(all_models().size(), 5u);
    const char* names[] = {"classic", "topological", "weighted", "vicsek", "couzin"};
    for (std::size_t i = 0; i < all_models().size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(all_models()[i]), i);
        EXPECT_EQ(model_name(all_models()[i]), names[i]);
    }
    EXPECT_TRUE(model_abilities(Model::Classic).extensions);
    EXPECT_TRUE(model_abilities(Model::Weighted).three_d);
    EXPECT_FALSE(model_abilities(Model::Topological).three_d);
    EXPECT_FALSE(model_abilities(Model::Vicsek).fix15);
    EXPECT_TRUE(model_abilities(Model::Topological).turns_at_margins);
    EXPECT_FALSE(model_abilities(Model::Weighted).turns_at_margins);
    EXPECT_TRUE(model_abilities(Model::Weighted).carrot);
}

TEST(ModelRegistry, EveryKeyIsReadByAModelAndDescribed) {
    for (const ParamInfo& info : param_table()) {
        int readers = 0;
        for (const Model m : all_models()) {
            readers += key_used_by(info, m);
        }
        EXPECT_GT(readers, 0) << info.key;
        EXPECT_FALSE(info.help.empty()) << info.key;
        EXPECT_FALSE(info.label.empty()) << info.key;
        EXPECT_FALSE(info.group.empty()) << info.key;
        if (info.kind == std::string_view("number")) {
            EXPECT_LE(info.min, info.slider_min) << info.key;
            EXPECT_LE(info.slider_min, info.slider_max) << info.key;
            EXPECT_LE(info.slider_max, info.max) << info.key;
            EXPECT_EQ(get_param(Params{}, info.key), shortest(info.default_value)) << info.key;
        }
    }
    EXPECT_EQ(find_param("margin"), nullptr);
    ASSERT_NE(find_param("center_radius"), nullptr);
    EXPECT_TRUE(key_used_by(*find_param("center_radius"), Model::Weighted));
    EXPECT_FALSE(key_used_by(*find_param("center_radius"), Model::Classic));
    EXPECT_TRUE(key_used_by(*find_param("speed"), Model::Vicsek));
    EXPECT_TRUE(key_used_by(*find_param("speed"), Model::Couzin));
    EXPECT_TRUE(key_used_by(*find_param("width"), Model::Couzin));
}

// The refusals below are only right if a key the table says a model does not read really changes nothing:
// each such key is moved and the flight compared. A key whose move validate() refuses (an extension the
// model lacks) is refused, never ignored.
TEST(ModelRegistry, AKeyAModelDoesNotReadChangesNothingOrIsRefused) {
    for (const Model m : all_models()) {
        const Scenario base = scene_of(m);
        const std::string expected = fly(base);
        int moved = 0;
        for (const ParamInfo& info : param_table()) {
            if (key_used_by(info, m)) {
                continue;
            }
            Scenario s = base;
            if (info.kind == std::string_view("number")) {
                const double v = std::stod(get_param(s.params, info.key));
                const double other =
                    v < info.max ? std::min(info.max, v + std::max(1.0, (info.max - v) / 3)) : info.min;
                set_param(s.params, info.key,
                          shortest(std::floor(other) == other ? other : std::floor(other)));
            } else {
                const std::string now = get_param(s.params, info.key);
                const std::string choices = choice_list(info.key);
                const std::string first = choices.substr(0, choices.find(' '));
                const std::string last = choices.substr(choices.rfind(' ') + 1);
                set_param(s.params, info.key, now == last ? first : last);
            }
            try {
                validate(s.params);
            } catch (const InputError& e) {
                EXPECT_NE(std::string(e.what()).find(info.key), std::string::npos) << e.what();
                continue;
            }
            ++moved;
            EXPECT_EQ(fly(s), expected)
                << model_name(m) << " moved by " << info.key << " = " << get_param(s.params, info.key);
        }
        EXPECT_GT(moved, 3) << model_name(m);
    }
}

TEST(ModelRegistry, AnExtensionTheModelLacksIsRefusedNamingKeyAndModel) {
    Params p;
    p.model = Model::Weighted;
    p.line_of_sight_factor = 0.5;
    try {
        validate(p);
        FAIL() << "line of sight accepted with the weighted model";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("line_of_sight_factor"), std::string::npos) << what;
        EXPECT_NE(what.find("weighted"), std::string::npos) << what;
    }
    p.line_of_sight_factor = 0;
    p.model = Model::Vicsek;
    p.predator_behavior = PredatorBehavior::Pursue;
    EXPECT_THROW(validate(p), InputError);
    p.model = Model::Topological;
    EXPECT_NO_THROW(validate(p)) << "topological predators hunt";
}

TEST(ModelRegistry, AScenarioKeyTheModelDoesNotReadIsRefused) {
    try {
        (void)parse_scenario("[params]\nvisual_range = 50\nmodel = \"weighted\"\n", "scene.toml");
        FAIL() << "visual_range accepted with the weighted model";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("visual_range"), std::string::npos) << what;
        EXPECT_NE(what.find("weighted"), std::string::npos) << what;
        EXPECT_NE(what.find("scene.toml"), std::string::npos) << what;
    }
    EXPECT_NO_THROW(
        (void)parse_scenario("[params]\ncenter_radius = 2\nmodel = \"weighted\"\n", "scene.toml"));
}

TEST(ModelRegistry, TheControlPortRefusesAKeyTheModelDoesNotRead) {
    SimulationSetup setup;
    setup.scenario = load_preset("vicsek");
    SimulationController session(setup);
    const std::string reply = execute_control_command(session, "set visual_range 50");
    EXPECT_EQ(reply.rfind("error ", 0), 0u) << reply;
    EXPECT_NE(reply.find("visual_range"), std::string::npos) << reply;
    EXPECT_NE(reply.find("vicsek"), std::string::npos) << reply;
    EXPECT_EQ(session.params().visual_range, Params{}.visual_range);
    EXPECT_EQ(execute_control_command(session, "set speed 0.05").rfind("ok", 0), 0u);
    EXPECT_EQ(session.params().heading.speed, 0.05);
}

TEST(ModelRegistry, GridAndLinkRangesComeFromTheModel) {
    Params p;
    EXPECT_EQ(grid_range(p), p.visual_range);
    p.model = Model::Topological;
    EXPECT_EQ(grid_range(p), 0.0);
    EXPECT_EQ(link_range(p), get_number(p, "body_length") * 5 + get_number(p, "coherence") * 2);
    p.model = Model::Weighted;
    set_number(p, "avoid_radius", 3);
    EXPECT_EQ(grid_range(p), 3.0);
    EXPECT_EQ(link_range(p), get_number(p, "center_radius"));
    p.model = Model::Couzin;
    EXPECT_EQ(grid_range(p), get_number(p, "attraction_radius"));
}

// The recipe for a new model (docs/ARCHITECTURE.md) asks for a preset: every model of the registry has one,
// so each is pinned by GoldenHashes and reachable with `boids run --preset`.
TEST(ModelRegistry, EveryModelHasAPreset) {
    for (const Model m : all_models()) {
        bool found = false;
        for (const std::string& name : preset_names()) {
            found = found || load_preset(name).params.model == m;
        }
        EXPECT_TRUE(found) << "no preset flies the " << model_name(m) << " model";
    }
}

// A model's own parameters travel with Params: copies are deep and == sees every model's.
TEST(ModelRegistry, EachModelsOwnParametersAreAValueOfParams) {
    Params a;
    Params b = a;
    EXPECT_EQ(a, b);
    set_number(b, "interaction_radius", 2.5);
    EXPECT_NE(a, b);
    EXPECT_EQ(get_number(a, "interaction_radius"), 1.0);
    a = b;
    EXPECT_EQ(a, b);
    set_number(b, "w_love", 3);
    EXPECT_EQ(get_number(a, "w_love"), 10.0);
    EXPECT_THROW(set_number(b, "w_love", -1), InputError);
    EXPECT_EQ(get_number(b, "w_love"), 3.0);
    EXPECT_THROW((void)get_number(b, "wrap_style"), InputError);
    EXPECT_THROW(set_number(b, "no_such_key", 1), InputError);
}

} // namespace
} // namespace boids
