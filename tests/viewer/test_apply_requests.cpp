// Requests from the panel, keys, mouse or a frame hook reach the viewer's session between steps, and the
// control port's changes to the session are never undone by them.

#include "apply_requests.hpp"
#include "viewing.hpp"

#include "boids/control_protocol.hpp"
#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"

#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;
using boids::viewer::testing::Viewing;

namespace {

Scenario small_scene() {
    Scenario s = load_preset("vga-predator");
    s.agents = {200, 10, 10, 2};
    s.seed = 7;
    return s;
}

/// The world of a session flying in float.
const World<float>& world_f32(const SimulationController& c) {
    return c.visit([](const auto& sim) -> const World<float>& {
        if constexpr (std::is_same_v<std::decay_t<decltype(sim.world())>, World<float>>) {
            return sim.world();
        } else {
            throw std::logic_error("not a float session");
        }
    });
}

} // namespace

TEST(ApplyRequests, CountsGrowAndShrinkKeepingTheOtherAgents) {
    Viewing v(small_scene());
    v.session.step(3);
    const World<float> before = world_f32(v.session);
    v.state.counts.boids = 150;
    v.state.counts.predators = 5;
    v.frame();
    const World<float>& w = world_f32(v.session);
    EXPECT_EQ(w.counts(), (AgentCounts{150, 10, 10, 5}));
    // The first 150 boids and every scout are untouched, in order.
    std::size_t j = 0;
    long long boids_seen = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (before.kind[i] == Kind::Boid && ++boids_seen > 150) {
            continue;
        }
        ASSERT_LT(j, w.size());
        EXPECT_EQ(w.kind[j], before.kind[i]);
        EXPECT_EQ(w.x[j], before.x[i]);
        EXPECT_EQ(w.vy[j], before.vy[i]);
        ++j;
    }
    v.session.step(2); // the simulation keeps running on the edited world
    EXPECT_EQ(v.session.size(), 175u);
}

TEST(ApplyRequests, AddedAgentsComeFromTheSessionsSpawnStream) {
    // The viewer's count slider and the port's `spawn` draw from one stream: the same agents either way.
    Viewing v(small_scene());
    SimulationController port(SimulationSetup{small_scene(), std::nullopt, Precision::F32, 1});
    v.state.counts.boids += 30;
    v.frame();
    EXPECT_EQ(execute_control_command(port, "spawn boid 30"), "ok boids=230 agents=252");
    EXPECT_EQ(v.session.state_hash(), port.state_hash());
}

TEST(ApplyRequests, ParamsApplyOnTheNextStepAndBadOnesAreRejected) {
    Viewing v(small_scene(), Precision::F64);
    v.state.params.visual_range = 25;
    v.frame();
    EXPECT_EQ(v.session.params().visual_range, 25);
    // A frame hook could write anything; an invalid set is refused whole and reported.
    v.state.params.min_speed = 100;
    v.frame();
    EXPECT_EQ(v.session.params().min_speed, 3);
    EXPECT_EQ(v.state.params, v.session.params());
    EXPECT_NE(v.state.last_error.find("min_speed"), std::string::npos) << v.state.last_error;
}

TEST(ApplyRequests, TheControlPortsChangesAreNotUndoneByThePanel) {
    Viewing v(small_scene());
    // The port sets one key while the panel edits another in the same frame.
    EXPECT_EQ(execute_control_command(v.session, "set visual_range 30"), "ok visual_range=30");
    EXPECT_EQ(execute_control_command(v.session, "spawn predator 1"), "ok predators=3 agents=223");
    EXPECT_EQ(execute_control_command(v.session, "pause"), "ok paused");
    v.frame();
    EXPECT_EQ(v.session.params().visual_range, 30);
    EXPECT_EQ(v.session.counts().predators, 3);
    EXPECT_TRUE(v.session.paused());
    EXPECT_EQ(v.state.params.visual_range, 30) << "the panel shows the port's value";
    EXPECT_EQ(v.state.counts.predators, 3);
    EXPECT_TRUE(v.state.paused);
    v.state.params.centering_factor = 0.001; // now the panel edits
    v.state.paused = false;
    v.frame();
    EXPECT_EQ(v.session.params().centering_factor, 0.001);
    EXPECT_EQ(v.session.params().visual_range, 30);
    EXPECT_FALSE(v.session.paused());
}

TEST(ApplyRequests, PlacementsPutAgentsAtThePointAndKeepThem) {
    Viewing v(small_scene());
    v.state.placements.push_back({Kind::Predator, 123.0, 45.0, 1});
    v.state.placements.push_back({Kind::Boid, 300.0, 200.0, 50});
    v.frame();
    const World<float>& w = world_f32(v.session);
    EXPECT_EQ(w.counts(), (AgentCounts{250, 10, 10, 3}));
    EXPECT_EQ(v.state.counts, w.counts());
    EXPECT_TRUE(v.state.placements.empty());
    // The predator is exactly at the point; the boids within the spread around theirs.
    EXPECT_EQ(w.kind[w.size() - 51], Kind::Predator);
    EXPECT_EQ(w.x[w.size() - 51], 123.0f);
    EXPECT_EQ(w.y[w.size() - 51], 45.0f);
    for (std::size_t i = w.size() - 50; i < w.size(); ++i) {
        EXPECT_EQ(w.kind[i], Kind::Boid);
        EXPECT_NEAR(w.x[i], 300.0, 20.5);
        EXPECT_NEAR(w.y[i], 200.0, 20.5);
    }
}

TEST(ApplyRequests, ObstaclesLeavingNoRoomToSpawnAreReportedNotFatal) {
    Viewing v(small_scene());
    Obstacle everywhere;
    everywhere.shape = Obstacle::Shape::Rect;
    everywhere.x0 = everywhere.y0 = -10;
    everywhere.x1 = everywhere.y1 = 2000;
    v.state.params.obstacles = {everywhere};                         // drawn over the whole world
    v.state.placements.push_back({Kind::Predator, 100.0, 100.0, 1}); // at the cursor: placed all the same
    v.frame();
    EXPECT_EQ(v.state.last_error, "");
    EXPECT_EQ(v.session.counts(), (AgentCounts{200, 10, 10, 3}));
    v.state.counts.boids += 20; // nowhere to spawn them
    v.frame();
    EXPECT_NE(v.state.last_error.find("obstacles"), std::string::npos) << v.state.last_error;
    EXPECT_EQ(v.session.counts(), (AgentCounts{200, 10, 10, 3}));
    EXPECT_EQ(v.state.counts, v.session.counts()) << "the wanted counts fall back to what the world has";
    v.session.step(); // and the simulation flies on
}

TEST(ApplyRequests, ResetRespawnsTheSceneThePanelShows) {
    Viewing v(small_scene());
    const std::uint64_t initial = v.session.state_hash();
    v.session.step(10);
    v.state.reset = true;
    v.frame();
    EXPECT_EQ(v.session.state_hash(), initial);
    EXPECT_EQ(v.session.steps_taken(), 0);
    // A new seed and counts from the panel: the scene restarts with them, and `reset` returns there.
    v.state.seed = 8;
    v.state.counts.boids = 120;
    v.state.reset = true;
    v.frame();
    EXPECT_NE(v.session.state_hash(), initial);
    EXPECT_EQ(v.session.counts().boids, 120);
    const std::uint64_t restarted = v.session.state_hash();
    v.session.step(4);
    EXPECT_EQ(execute_control_command(v.session, "reset"), "ok steps=0 agents=142");
    EXPECT_EQ(v.session.state_hash(), restarted);
}

TEST(ApplyRequests, PrecisionSwitchCarriesTheFlockOver) {
    Viewing v(small_scene());
    v.session.step(5);
    const AgentCounts counts = v.session.counts();
    v.state.precision_request = Precision::F64;
    v.frame();
    EXPECT_EQ(v.state.precision, Precision::F64);
    EXPECT_EQ(v.session.counts(), counts);
    EXPECT_EQ(v.session.steps_taken(), 5);
    // Back to float: every value came from a float, so the flock is bit for bit the one it was.
    SimulationController reference(SimulationSetup{small_scene(), std::nullopt, Precision::F32, 1});
    reference.step(5);
    v.state.precision_request = Precision::F32;
    v.frame();
    EXPECT_EQ(v.session.state_hash(), reference.state_hash());
}

TEST(ApplyRequests, RemovalKeepsPursuitLocksAndRestTimesInStep) {
    // Pursuing predators lock on boids (World::target); removing boids must move the locks with them.
    Scenario scene = load_preset("smart-predators");
    scene.agents = {300, 0, 0, 3};
    scene.seed = 3;
    Viewing v(scene);
    v.session.step(20);
    ASSERT_TRUE(world_f32(v.session).has_extension_state());
    v.state.counts.boids = 40;
    v.frame();
    const World<float>& w = world_f32(v.session);
    ASSERT_EQ(w.size(), 43u);
    ASSERT_EQ(w.target.size(), w.size());
    ASSERT_EQ(w.rest.size(), w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        EXPECT_LT(w.target[i], static_cast<std::int32_t>(w.size()));
        if (w.target[i] >= 0) {
            EXPECT_EQ(w.kind[static_cast<std::size_t>(w.target[i])], Kind::Boid);
        }
    }
    v.session.step(5);
    EXPECT_EQ(v.session.size(), 43u);
}
