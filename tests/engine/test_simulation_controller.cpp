// SimulationController: one session of any precision, with the operations the control port and Python use.

#include "boids/error.hpp"
#include "boids/hash.hpp"
#include "boids/simulation_controller.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace boids {
namespace {

SimulationSetup small_setup(Precision precision = Precision::F32) {
    SimulationSetup setup;
    setup.scenario = load_preset("vga-scouts");
    setup.scenario.agents = {60, 4, 3, 2};
    setup.scenario.seed = 17;
    setup.precision = precision;
    setup.threads = 1;
    return setup;
}

TEST(SimulationController, SameBitsAsASimulationOfTheChosenPrecision) {
    const SimulationSetup setup = small_setup(Precision::F64);
    SimulationController controller(setup);
    Simulation<double> direct(
        setup.scenario.params,
        spawn_world<double>(setup.scenario.params, setup.scenario.agents, setup.scenario.seed));
    direct.set_threads(1);
    controller.step(25);
    direct.step(25);
    EXPECT_EQ(controller.state_hash(), state_hash(direct.world()));
    EXPECT_EQ(controller.steps_taken(), 25);
    EXPECT_EQ(controller.precision(), Precision::F64);
    EXPECT_TRUE(controller.visit(
        [](const auto& sim) { return std::is_same_v<std::decay_t<decltype(sim)>, Simulation<double>>; }));
}

TEST(SimulationController, SetParamValidatesAndLeavesParamsUnchangedOnError) {
    SimulationController controller(small_setup());
    controller.set_param("visual_range", "30");
    EXPECT_EQ(controller.get_param("visual_range"), "30");
    const Params before = controller.params();
    EXPECT_THROW(controller.set_param("visual_range", "-1"), InputError);
    EXPECT_THROW(controller.set_param("min_speed", "7"), InputError); // above max_speed 6
    EXPECT_THROW(controller.set_param("nope", "1"), InputError);
    EXPECT_EQ(controller.params(), before);
    controller.set_param("margin", "40");
    EXPECT_EQ(controller.params().margin_top, 40.0);
}

TEST(SimulationController, SpawnAndRemoveByKind) {
    SimulationController controller(small_setup());
    controller.spawn(Kind::Predator, 3);
    controller.spawn(Kind::Scout1, 2);
    EXPECT_EQ(controller.counts(), (AgentCounts{60, 6, 3, 5}));
    controller.remove(Kind::Boid, 10);
    EXPECT_EQ(controller.counts(), (AgentCounts{50, 6, 3, 5}));
    const auto hash = controller.state_hash();
    EXPECT_THROW(controller.remove(Kind::Scout2, 4), InputError);
    EXPECT_THROW(controller.spawn(Kind::Boid, -1), InputError);
    EXPECT_THROW(controller.spawn(Kind::Boid, max_spawn_per_call + 1), InputError);
    EXPECT_EQ(controller.state_hash(), hash);
    // Removal takes the most recent agents of the kind and keeps everyone else in order.
    controller.remove(Kind::Predator, 3);
    controller.visit([](const auto& sim) {
        const auto& kinds = sim.world().kind;
        EXPECT_EQ(kinds.back(), Kind::Scout1);
        EXPECT_EQ(kinds[kinds.size() - 3], Kind::Predator);
    });
    controller.step(3);
    EXPECT_TRUE(controller.stats().summary.finite);
}

TEST(SimulationController, ResetReplaysTheStartIncludingSpawns) {
    SimulationController controller(small_setup());
    const auto start = controller.state_hash();
    controller.spawn(Kind::Boid, 5);
    const auto after_spawn = controller.state_hash();
    controller.step(10);
    controller.reset();
    EXPECT_EQ(controller.state_hash(), start);
    EXPECT_EQ(controller.steps_taken(), 0);
    controller.spawn(Kind::Boid, 5);
    EXPECT_EQ(controller.state_hash(), after_spawn);
}

TEST(SimulationController, StateFilesRoundTripAndInitFileResets) {
    const auto dir = std::filesystem::temp_directory_path() / "boids_controller_test";
    std::filesystem::create_directories(dir);
    SimulationController controller(small_setup());
    controller.step(7);
    controller.save_state(dir / "s.csv");
    SimulationSetup from_file = small_setup();
    from_file.init_file = dir / "s.csv";
    SimulationController loaded(from_file);
    EXPECT_EQ(loaded.state_hash(), controller.state_hash());
    loaded.step(4);
    loaded.reset();
    EXPECT_EQ(loaded.state_hash(), controller.state_hash());
    SimulationController other(small_setup());
    other.load_state(dir / "s.csv");
    EXPECT_EQ(other.state_hash(), controller.state_hash());
    EXPECT_THROW(other.load_state(dir / "missing.csv"), InputError);
    EXPECT_EQ(other.state_hash(), controller.state_hash());
    std::filesystem::remove_all(dir);
}

TEST(SimulationController, SetCountsMatchesSpawnAndRemove) {
    SimulationController counted(small_setup());
    SimulationController stepwise(small_setup());
    counted.set_counts({70, 2, 3, 4});
    stepwise.remove(Kind::Scout1, 2);
    stepwise.spawn(Kind::Boid, 10);
    stepwise.spawn(Kind::Predator, 2);
    EXPECT_EQ(counted.counts(), (AgentCounts{70, 2, 3, 4}));
    EXPECT_EQ(counted.state_hash(), stepwise.state_hash());
    const auto hash = counted.state_hash();
    EXPECT_THROW(counted.set_counts({-1, 0, 0, 0}), InputError);
    EXPECT_THROW(counted.set_counts({max_session_agents, 1, 0, 0}), InputError);
    EXPECT_EQ(counted.state_hash(), hash);
}

TEST(SimulationController, PlaceAddsAgentsAroundAPoint) {
    SimulationController controller(small_setup());
    controller.place(Kind::Predator, 100.0, 50.0, 1, 20.0);
    controller.place(Kind::Boid, 300.0, 200.0, 30, 20.0);
    EXPECT_EQ(controller.counts(), (AgentCounts{90, 4, 3, 3}));
    controller.visit([](const auto& sim) {
        const auto& w = sim.world();
        EXPECT_EQ(static_cast<double>(w.x[w.size() - 31]), 100.0);
        for (std::size_t i = w.size() - 30; i < w.size(); ++i) {
            EXPECT_NEAR(static_cast<double>(w.x[i]), 300.0, 10.0);
            EXPECT_NEAR(static_cast<double>(w.y[i]), 200.0, 10.0);
        }
    });
    EXPECT_THROW(controller.place(Kind::Boid, 0, 0, -2, 20.0), InputError);
}

TEST(SimulationController, RestartMakesANewStartingPoint) {
    SimulationController controller(small_setup());
    controller.step(5);
    Scenario scene = controller.scene();
    scene.agents = {30, 0, 0, 1};
    scene.seed = 99;
    controller.restart(scene);
    EXPECT_EQ(controller.steps_taken(), 0);
    EXPECT_EQ(controller.counts(), (AgentCounts{30, 0, 0, 1}));
    const auto start = controller.state_hash();
    controller.step(3);
    controller.reset();
    EXPECT_EQ(controller.state_hash(), start);
    scene.params.min_speed = 100; // invalid: nothing changes
    EXPECT_THROW(controller.restart(scene), InputError);
    EXPECT_EQ(controller.state_hash(), start);
}

TEST(SimulationController, PrecisionSwitchCarriesTheFlockOverExactly) {
    SimulationController controller(small_setup());
    SimulationController reference(small_setup());
    controller.step(6);
    reference.step(6);
    controller.set_precision(Precision::F64);
    EXPECT_EQ(controller.precision(), Precision::F64);
    EXPECT_EQ(controller.steps_taken(), 6);
    controller.set_precision(Precision::F32); // every value came from a float: back bit for bit
    EXPECT_EQ(controller.state_hash(), reference.state_hash());
    controller.set_precision(Precision::Fix15);
    controller.step(2);
    EXPECT_EQ(controller.counts(), reference.counts());
    SimulationSetup three_d = small_setup();
    three_d.scenario = load_preset("downey-3d");
    SimulationController solid(three_d);
    const auto hash = solid.state_hash();
    EXPECT_THROW(solid.set_precision(Precision::Fix15), InputError); // the lab's fixed point is 2D
    EXPECT_EQ(solid.precision(), Precision::F32);
    EXPECT_EQ(solid.state_hash(), hash);
}

TEST(SimulationController, StatsAndKinds) {
    SimulationController controller(small_setup());
    controller.step(2);
    const SessionStats s = controller.stats();
    EXPECT_EQ(s.steps, 2);
    EXPECT_EQ(s.counts, (AgentCounts{60, 4, 3, 2}));
    EXPECT_GE(s.summary.mean_speed, 3.0);
    EXPECT_LE(s.summary.mean_speed, 6.0);
    EXPECT_EQ(s.threads, 1);
    EXPECT_EQ(require_kind("kind", "scouts2"), Kind::Scout2);
    EXPECT_EQ(require_kind("kind", "predator"), Kind::Predator);
    EXPECT_THROW((void)require_kind("kind", "dragon"), InputError);
    EXPECT_THROW(controller.set_threads(-1), InputError);
}

} // namespace
} // namespace boids
