// The control port's line protocol without sockets: every command's answer and every kind of bad line.

#include "boids/control_protocol.hpp"

#include "boids/error.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace boids {
namespace {

SimulationController make_controller() {
    SimulationSetup setup;
    setup.scenario = load_preset("vga-predator");
    setup.scenario.agents = {50, 0, 0, 2};
    setup.threads = 1;
    return SimulationController(setup);
}

bool starts_with(const std::string& s, std::string_view prefix) {
    return s.rfind(prefix, 0) == 0;
}

TEST(ControlProtocol, CommandsAndTheirAnswers) {
    SimulationController c = make_controller();
    EXPECT_EQ(execute_control_command(c, "set visual_range 30"), "ok visual_range=30");
    EXPECT_EQ(execute_control_command(c, "get visual_range"), "ok visual_range=30");
    EXPECT_EQ(execute_control_command(c, "  get\tvisual_range  \r"), "ok visual_range=30");
    EXPECT_EQ(execute_control_command(c, "params"), "ok " + format_params(c.params()));
    EXPECT_EQ(execute_control_command(c, "pause"), "ok paused");
    EXPECT_TRUE(c.paused());
    EXPECT_EQ(execute_control_command(c, "resume"), "ok running");
    EXPECT_FALSE(c.paused());
    EXPECT_EQ(execute_control_command(c, "step 3"), "ok steps=3");
    EXPECT_EQ(execute_control_command(c, "step"), "ok steps=4");
    EXPECT_TRUE(
        starts_with(execute_control_command(c, "stats"), "ok steps=4 paused=false agents=52 boids=50 "));
    EXPECT_EQ(execute_control_command(c, "spawn scout1 4"), "ok scouts1=4 agents=56");
    EXPECT_EQ(execute_control_command(c, "remove predators 2"), "ok predators=0 agents=54");
    EXPECT_EQ(execute_control_command(c, "reset"), "ok steps=0 agents=52");
    EXPECT_TRUE(starts_with(execute_control_command(c, "help"), "ok commands: "));
    EXPECT_EQ(execute_control_command(c, "quit"), "ok quit");
    EXPECT_TRUE(c.quit_requested());
}

TEST(ControlProtocol, PrecisionIsTheSessionsScalar) {
    SimulationController c = make_controller();
    EXPECT_EQ(execute_control_command(c, "get precision"), "ok precision=f32");
    EXPECT_EQ(execute_control_command(c, "set precision fix15"), "ok precision=fix15");
    EXPECT_EQ(c.precision(), Precision::Fix15);
    EXPECT_EQ(execute_control_command(c, "step 2"), "ok steps=2");
    EXPECT_TRUE(starts_with(execute_control_command(c, "stats"), "ok steps=2 paused=false agents=52 "));
    const auto hash = c.state_hash();
    const std::string refused = execute_control_command(c, "set precision f16");
    EXPECT_TRUE(starts_with(refused, "error precision = 'f16' is invalid: allowed values are ")) << refused;
    EXPECT_TRUE(starts_with(execute_control_command(c, "set precision"), "error set takes KEY VALUE"));
    EXPECT_EQ(c.state_hash(), hash);
    EXPECT_EQ(execute_control_command(c, "set precision f64"), "ok precision=f64");
}

TEST(ControlProtocol, BadLinesGetOneErrorLineAndChangeNothing) {
    SimulationController c = make_controller();
    const Params params = c.params();
    const auto hash = c.state_hash();
    for (const std::string& line : std::vector<std::string>{"set visual_range 1e9",
                                                            "set visual_range x",
                                                            "set visual_range",
                                                            "set a b c",
                                                            "get nope",
                                                            "fly",
                                                            "step 0",
                                                            "step 100001",
                                                            "step x",
                                                            "spawn boid 1000001",
                                                            "spawn ghost 1",
                                                            "remove boid 51",
                                                            "remove predator -1",
                                                            "quit now",
                                                            "",
                                                            " ",
                                                            std::string("get\x01"),
                                                            std::string("\xff"),
                                                            std::string(max_control_line + 1, 'a'),
                                                            std::string("set visual_range 3\n0")}) {
        const std::string reply = execute_control_command(c, line);
        EXPECT_TRUE(starts_with(reply, "error ")) << line << " -> " << reply;
        EXPECT_EQ(reply.find('\n'), std::string::npos) << reply;
    }
    EXPECT_EQ(c.params(), params);
    EXPECT_EQ(c.state_hash(), hash);
    EXPECT_FALSE(c.quit_requested());
    EXPECT_EQ(execute_control_command(c, "set min_speed 9"),
              "error min_speed = 9 is invalid: must not exceed max_speed = 6");
    EXPECT_EQ(execute_control_command(c, std::string(max_control_line + 1, 'a')),
              "error line longer than 4096 bytes");
}

TEST(ControlProtocol, Utf8Validation) {
    EXPECT_TRUE(is_valid_utf8("plain ascii"));
    EXPECT_TRUE(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa6"));
    EXPECT_FALSE(is_valid_utf8("\xc3"));             // truncated
    EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));         // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));     // surrogate
    EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80")); // past U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\x80"));             // stray continuation
    EXPECT_FALSE(is_valid_utf8("\xfe"));
    EXPECT_EQ(check_control_line("get x\r"), "");
    EXPECT_EQ(check_control_line(std::string(max_control_line, 'a') + "\r"), "");
}

TEST(ControlProtocol, StepRequestsAreBoundedByTheirWork) {
    EXPECT_EQ(step_request_limit(52), max_steps_per_request);
    EXPECT_EQ(step_request_limit(20'000), max_agent_steps_per_request / 20'000);
    EXPECT_EQ(step_request_limit(50'000'000), 1); // one step is what the driving loop takes anyway
    EXPECT_EQ(step_request_limit(52, max_steps_per_request - 10), 10);
    EXPECT_EQ(step_request_limit(52, max_steps_per_request + 10), 0);
    EXPECT_NO_THROW(check_step_request(10, 52, max_steps_per_request - 10));
    try {
        check_step_request(1, 52, max_steps_per_request);
        ADD_FAILURE() << "a step beyond a full queue was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no more steps may be queued: 100000 already wait"),
                  std::string::npos)
            << e.what();
    }

    SimulationController c = make_controller();
    ASSERT_EQ(execute_control_command(c, "spawn boid 19948"), "ok boids=19998 agents=20000");
    const auto hash = c.state_hash();
    EXPECT_EQ(execute_control_command(c, "step 501"),
              "error step N = '501' is invalid: expected an integer in [1, 500] (one request may ask for "
              "at most 10000000 agent-steps; there are 20000 agents)");
    EXPECT_EQ(c.steps_taken(), 0);
    EXPECT_EQ(c.state_hash(), hash);
    EXPECT_EQ(execute_control_command(c, "step"), "ok steps=1");
}

TEST(ControlProtocol, CommandsThatWouldMakeEveryStepHugeAreRefused) {
    SimulationController c = make_controller();
    const double visual = c.params().visual_range;
    EXPECT_GT(expected_neighbour_pairs(c.params(), 1'000'052), max_expected_neighbour_pairs);
    const auto hash = c.state_hash();
    const std::string refused = execute_control_command(c, "spawn boid 1000000");
    EXPECT_TRUE(starts_with(refused, "error spawn boid count = '1000000' is invalid: it would give 1000052 "
                                     "agents about "))
        << refused;
    EXPECT_NE(
        refused.find(" neighbour pairs a step (spread evenly); one command may take a step to at most "),
        std::string::npos)
        << refused;
    EXPECT_EQ(c.size(), 52u);
    EXPECT_EQ(c.state_hash(), hash);

    ASSERT_EQ(execute_control_command(c, "spawn boid 50000"), "ok boids=50050 agents=50052");
    EXPECT_TRUE(starts_with(execute_control_command(c, "set visual_range 400"),
                            "error set visual_range = '400' is invalid: it would give 50052 agents about "));
    EXPECT_EQ(c.params().visual_range, visual);
    EXPECT_EQ(execute_control_command(c, "set visual_range 10"), "ok visual_range=10"); // less work: allowed
}

} // namespace
} // namespace boids
