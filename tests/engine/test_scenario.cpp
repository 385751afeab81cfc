#include "boids/error.hpp"
#include "boids/food.hpp"
#include "boids/hash.hpp"
#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

namespace boids {
namespace {

TEST(Scenario, PresetsCarryTheSeedsParameterSets) {
    EXPECT_EQ(preset_names(), (std::vector<std::string>{
                                  "couzin", "downey-2d", "downey-3d", "ece4760", "obstacles", "perching",
                                  "pynboids", "smart-predators", "vga-predator", "vga-scouts", "vicsek"}));

    const Scenario lab = load_preset("ece4760");
    EXPECT_EQ(lab.params.width, 320);
    EXPECT_EQ(lab.params.height, 240);
    EXPECT_EQ(lab.params.visual_range, 20);
    EXPECT_EQ(lab.params.protected_range, 2);
    EXPECT_EQ(lab.params.max_speed, 3);
    EXPECT_EQ(lab.params.min_speed, 2);
    EXPECT_EQ(lab.params.margin_left, 50);
    EXPECT_EQ(lab.params.margin_bottom, 50);
    EXPECT_EQ(lab.params.predator_range, 50);
    EXPECT_EQ(lab.params.predator_turn_factor, 0.4);

    const Scenario scouts = load_preset("vga-scouts");
    EXPECT_TRUE(scouts.params.dynamic_bias);
    EXPECT_EQ(scouts.params.max_bias, 0.01);
    EXPECT_EQ(scouts.params.bias_increment, 0.00004);
    EXPECT_GT(scouts.agents.scouts1, 0);
    EXPECT_GT(scouts.agents.scouts2, 0);

    const Scenario predator = load_preset("vga-predator");
    EXPECT_EQ(predator.params, Params{}) << "the defaults are the vga-predator preset";
    EXPECT_GT(predator.agents.predators, 0);
}

TEST(Scenario, ParsesEveryPartOfAScenarioFile) {
    const Scenario s = parse_scenario(R"(
description = "test"
seed = 99
[agents]
boids = 12
scouts1 = 3
predators = 1
[params]
visual_range = 25.5
boundary = "wrap"
dynamic_bias = true
margin = 30
)",
                                      "inline");
    EXPECT_EQ(s.description, "test");
    EXPECT_EQ(s.seed, 99u);
    EXPECT_EQ(s.agents, (AgentCounts{12, 3, 0, 1}));
    EXPECT_EQ(s.params.visual_range, 25.5);
    EXPECT_EQ(s.params.boundary, Boundary::Wrap);
    EXPECT_TRUE(s.params.dynamic_bias);
    EXPECT_EQ(s.params.margin_top, 30);
}

TEST(Scenario, RejectsBadFilesWithLineAndField) {
    const auto message = [](const char* toml) {
        try {
            (void)parse_scenario(toml, "bad.toml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message("[params]\nvisual_range = -3\n").find("bad.toml line 2"), std::string::npos);
    EXPECT_NE(message("[params]\nvisual_range = -3\n").find("visual_range"), std::string::npos);
    EXPECT_NE(message("[params]\nwarp = 1\n").find("warp"), std::string::npos);
    EXPECT_NE(message("[agents]\nboids = -1\n").find("boids"), std::string::npos);
    EXPECT_NE(message("[agents]\nboids = 1.5\n").find("integer"), std::string::npos);
    EXPECT_NE(message("colour = 3\n").find("colour"), std::string::npos);
    EXPECT_NE(message("[params\n").find("not valid TOML"), std::string::npos);
    EXPECT_NE(message("[params]\nmin_speed = 9\n").find("min_speed"), std::string::npos);
    EXPECT_NE(message("[params]\nvisual_range = nan\n").find("visual_range"), std::string::npos);
    EXPECT_THROW((void)load_preset("nope"), InputError);
    EXPECT_THROW((void)load_scenario_file("/nonexistent/file.toml"), InputError);
}

TEST(Scenario, RefusesWhatTheTomlParserMustNotSee) {
    const auto message = [](std::string_view text) {
        try {
            (void)parse_scenario(text, "s.toml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // A NUL in a table header makes Debian's toml++ 3.3.0 assert (abort) in builds with assertions.
    EXPECT_NE(message(std::string_view("[par\0ams]\n", 10)).find("s.toml line 1: a NUL byte"),
              std::string::npos);
    EXPECT_NE(message(std::string_view("seed = 1\n[a\0]\n", 14)).find("s.toml line 2: a NUL byte"),
              std::string::npos);
    // EF BB BD (U+FEFD) where a byte-order mark could start, and U+00E9 after a key, reach toml++'s
    // "unreachable" code (its whitespace test).
    const std::string outside = "a non-ASCII character outside a string or comment";
    EXPECT_NE(message("\xEF\xBB\xBD").find("s.toml line 1: " + outside), std::string::npos);
    EXPECT_NE(message("\xEF\xBB\xBDseed = 1\n").find(outside), std::string::npos);
    EXPECT_NE(message("\xEF\xBB\xBF[params]\nvisual_boundaryt \xC3\xA9\n").find("s.toml line 2: " + outside),
              std::string::npos);
    EXPECT_NE(message("seed = 1 \xE3\x81\x82\n").find(outside), std::string::npos); // U+3042
    EXPECT_NE(message("seed = 1\n# \xC0\xAF\n").find("s.toml line 2: byte 11 is not valid UTF-8"),
              std::string::npos);
    EXPECT_NE(message("\xEF\xBF\xBE").find(outside), std::string::npos); // U+FFFE, a non-character
    // A header whose first character cannot start a key makes toml++ assert; a line of an array does not.
    EXPECT_NE(message("[agents]\nboids = 3\n\n[; light gravity\"\n")
                  .find("s.toml line 4: a [table] header must "
                        "start with a key"),
              std::string::npos);
    EXPECT_NE(message("[[ {x]]\n").find("header must start with a key"), std::string::npos);
    EXPECT_EQ(parse_scenario("[[food]]\nx = 1\ny = 2\npath = [\n [ +1, 2],\n  [3, 4],\n]\n", "ok.toml")
                  .params.food.size(),
              1u);
    // A quote inside a bare value does not start a string: the parser's look-ahead reads on through it.
    EXPECT_NE(message("[params]\nvisual_range = 5O.O3=\"\":33\"3 \xC3\xA9\n").find(outside),
              std::string::npos);
    // A comment's line break starts a key: on the next line a quote after '=' opens a string.
    EXPECT_NE(message("x=''#\n0='#'\xC3\xA9").find("s.toml line 2: " + outside), std::string::npos);
    // An array's entries are values, on every line of it: there '=' is part of a bare value, and a quote
    // after it does not open a string (found by the fuzzer: U+FD3F after `2="` in an array).
    EXPECT_NE(message("d=[1,2=\"\xEF\xB4\xBF").find("s.toml line 1: " + outside), std::string::npos);
    EXPECT_NE(message("d=[1,\n2=\"\xC3\xA9\"]").find("s.toml line 2: " + outside), std::string::npos);
    EXPECT_NE(message("d=[1, # c\n2=\"\xC3\xA9\"]").find("s.toml line 2: " + outside), std::string::npos);
    // Strings as an array's values, and as the values of an inline table's keys, even inside an array,
    // pass the screen and the parser (then the scenario reader refuses the unknown key).
    EXPECT_NE(message("x = [\"\xC3\xA9\",\n \"\xC3\xA9\"]\ny = [{a = \"\xC3\xA9\", b = [1, \"\xC3\xA9\"]}, "
                      "{c = \"\xC3\xA9\"}]\n")
                  .find("s.toml line 1: unknown key 'x'"),
              std::string::npos);
    EXPECT_NE(message("y = [{a = \"\xC3\xA9\", b = [1, \"\xC3\xA9\"]}, {c = \"\xC3\xA9\"}]\n")
                  .find("s.toml line 1: unknown key 'y'"),
              std::string::npos);
    // Any other assertion of the parser (here: a value starting with '}' in an array) is refused too.
    EXPECT_NE(message("[[food]]\nx = 2\ny = 2\npath = [[1,} 2], [3, 4]]\n").find("s.toml"),
              std::string::npos);
    // Inside strings and comments any character is fine.
    EXPECT_EQ(parse_scenario("# caf\xC3\xA9 \xE3\x81\x82\ndescription = \"caf\xC3\xA9 \\\" \xEF\xBB\xBD\"\n",
                             "ok.toml")
                  .description,
              "caf\xC3\xA9 \" \xEF\xBB\xBD");
    // Except first after a backslash in a multi-line string: there toml++ asks whether the character is
    // whitespace (a line-ending backslash skips it) and its test is undefined for U+00E9, U+FEF7 and more.
    const std::string after = "a non-ASCII character first after a backslash in a multi-line string";
    EXPECT_NE(message("description = \"\"\"caf\\\n  \xC3\xA9\"\"\"\n").find("s.toml line 2: " + after),
              std::string::npos);
    EXPECT_NE(message("seedir= \"vicsek\"\n\"\"\"3, \xEF\xBB\xBF[p5]esrir= \"vp5]\\\xEF\xBB\xB7[params]\n")
                  .find(after),
              std::string::npos); // found by the fuzzer: undefined behaviour inside the parser
    // toml++ skips the non-ASCII whitespace it knows (here byte-order marks, U+3000 and U+00A0) before
    // it tests the next character (U+FEEF, U+00E9; found by the fuzzer too).
    EXPECT_NE(message("\"\"\"3, \\\n\xEF\xBB\xBF\xEF\xBB\xBF[,_r]\\\n\xEF\xBB\xBF\xEF\xBB\xAF\nspeed = 10\n")
                  .find("s.toml line 3: " + after),
              std::string::npos);
    EXPECT_NE(message("description = \"\"\"a\\\n \xE3\x80\x80\xC2\xA0\xC3\xA9\"\"\"\n").find(after),
              std::string::npos);
    EXPECT_EQ(
        parse_scenario("description = \"\"\"caf\xC3\xA9 \\\n  \xE4\xB8\xAD\"\"\"\n", "ok.toml").description,
        "caf\xC3\xA9 \xE4\xB8\xAD"); // U+4E2D is not in those ranges
    // A multi-line string ends after a run of three to five quotes, its last one or two part of it, so what
    // follows is outside it (found by the fuzzer: U+FEFD after '''' reached the whitespace test).
    EXPECT_NE(message("range ='''a\nb''''\t\xEF\xBB\xBD[1\n").find("s.toml line 2: " + outside),
              std::string::npos);
    EXPECT_NE(message("description = \"\"\"a\"\"\"\"\" \xC3\xA9\n").find(outside), std::string::npos);
    EXPECT_EQ(parse_scenario("description = '''a''''\n", "ok.toml").description, "a'");
    EXPECT_EQ(parse_scenario("description = '''a'' b'''''\n", "ok.toml").description, "a'' b''");
    EXPECT_EQ(parse_scenario("description = \"\"\"\"a\"\"\"\"\" # \xC3\xA9\n", "ok.toml").description,
              "\"a\"\"");
    // A real byte-order mark is fine.
    EXPECT_EQ(parse_scenario("\xEF\xBB\xBFseed = 5\n", "bom.toml").seed, 5u);
}

TEST(Scenario, RefusesADirectoryAndADevice) {
    try {
        (void)load_scenario_file("/tmp");
        FAIL() << "a directory is not a scenario";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("scenario file '/tmp' is a directory"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)load_scenario_file("/dev/zero"), InputError);
}

TEST(Scenario, EachPresetRunsInItsSourcesOrderAndStartsAtItsRate) {
    for (const char* name : {"downey-2d", "downey-3d", "pynboids"}) { // Downey's and PyNBoids' in-place loops
        EXPECT_EQ(load_preset(name).params.update, UpdateOrder::Sequential) << name;
    }
    const Params py = load_preset("pynboids").params; // PyNBoids as written
    EXPECT_EQ(get_number(py, "search_cell"), 100.0);
    EXPECT_EQ(get_param(py, "wrap_style"), "sprite");
    EXPECT_EQ(get_param(py, "heading_range"), "positive");
    EXPECT_EQ(py.boundary, Boundary::Margin); // PyNBoids starts with wrap off
    EXPECT_EQ(load_preset("ece4760").params.predator_order, PredatorOrder::BeforeFlocking);
    EXPECT_EQ(load_preset("vga-predator").params.predator_order, PredatorOrder::AfterEdges);
    EXPECT_EQ(load_preset("pynboids").rate, 60);  // PyNBoids' FPS = 60
    EXPECT_EQ(load_preset("downey-2d").rate, 10); // Downey's VPython rate(10)
    EXPECT_EQ(load_preset("downey-3d").rate, 10);
    EXPECT_EQ(load_preset("ece4760").rate, 30); // the lab's 30 frames per second
    EXPECT_EQ(parse_scenario("seed = 1\n", "plain.toml").rate, default_rate);
    EXPECT_EQ(parse_scenario("rate = 1000\n", "fast.toml").rate, 1000);
    for (const char* bad : {"rate = 0\n", "rate = 1001\n", "rate = 2.5\n", "rate = \"60\"\n"}) {
        try {
            (void)parse_scenario(bad, "bad.toml");
            FAIL() << bad;
        } catch (const InputError& e) {
            EXPECT_NE(
                std::string(e.what()).find("rate must be a whole number of steps per second in [1, 1000]"),
                std::string::npos)
                << e.what();
        }
    }
}

} // namespace
} // namespace boids

namespace {

template <class Real>
std::uint64_t hash_after(const boids::Scenario& s, long long steps) {
    boids::Simulation<Real> sim(s.params, boids::spawn_world<Real>(s.params, s.agents, s.seed));
    sim.step(steps);
    return boids::state_hash(sim.world());
}

void expect_same_scene(const boids::Scenario& a, const boids::Scenario& b, const std::string& what) {
    EXPECT_EQ(a.params, b.params) << what;
    EXPECT_EQ(a.agents.boids, b.agents.boids) << what;
    EXPECT_EQ(a.agents.scouts1, b.agents.scouts1) << what;
    EXPECT_EQ(a.agents.scouts2, b.agents.scouts2) << what;
    EXPECT_EQ(a.agents.predators, b.agents.predators) << what;
    EXPECT_EQ(a.seed, b.seed) << what;
    EXPECT_EQ(a.rate, b.rate) << what;
    EXPECT_EQ(a.view, b.view) << what;
    EXPECT_EQ(a.description, b.description) << what;
}

} // namespace

// A saved scene reads back as the same scene: every preset, in every model.
TEST(Scenario, EveryPresetSavedAndReadBackIsTheSameScene) {
    for (const std::string& name : boids::preset_names()) {
        const boids::Scenario s = boids::load_preset(name);
        expect_same_scene(boids::parse_scenario(boids::scenario_toml(s), "saved " + name), s, name);
    }
}

// What the viewer adds — drawn obstacles, food on a path, a moved carrot, the camera, a description with
// quotes — survives the file, and the reopened scene flies to the same state.
TEST(Scenario, ASavedSceneFliesToTheSameStateAsTheSceneItWasSavedFrom) {
    boids::Scenario s = boids::load_preset("downey-2d");
    s.description = "Saved \"from\" the viewer\\\nsecond line";
    s.seed = 1234567;
    s.rate = 45;
    boids::set_number(s.params, "carrot_x", 0.123456789012345);
    boids::set_number(s.params, "w_love", 7.5);
    boids::set_param(s.params, "update", "synchronous"); // obstacles need the double-buffered update
    s.params.obstacles.push_back(boids::parse_obstacle("circle 1.5 -0.25 0.2"));
    s.params.obstacles.push_back(boids::parse_obstacle("rect -1 -1 -0.5 -0.75"));
    s.view.zoom = 2.5;
    s.view.center_x = 0.1;
    s.view.center_y = -0.3;
    const std::string text = boids::scenario_toml(s);
    const boids::Scenario back = boids::parse_scenario(text, "saved scene");
    expect_same_scene(back, s, text);
    EXPECT_EQ(hash_after<float>(back, 200), hash_after<float>(s, 200));

    boids::Scenario room = boids::load_preset("obstacles"); // food on a path, classic model
    room.params.food.push_back(boids::parse_food("100 200 80 0.25"));
    room.view.yaw = -0.4;
    room.view.pitch = 0.3;
    const boids::Scenario room_back = boids::parse_scenario(boids::scenario_toml(room), "saved room");
    expect_same_scene(room_back, room, "obstacles");
    EXPECT_EQ(hash_after<double>(room_back, 100), hash_after<double>(room, 100));
}

TEST(Scenario, RefusesABadViewNamingTheKey) {
    EXPECT_THROW(
        {
            try {
                (void)boids::parse_scenario("[view]\nzoom = 0\n", "s.toml");
            } catch (const boids::InputError& e) {
                EXPECT_NE(std::string(e.what()).find("view.zoom"), std::string::npos) << e.what();
                throw;
            }
        },
        boids::InputError);
    EXPECT_THROW((void)boids::parse_scenario("[view]\nroll = 1\n", "s.toml"), boids::InputError);
    EXPECT_THROW((void)boids::parse_scenario("view = 3\n", "s.toml"), boids::InputError);
}
