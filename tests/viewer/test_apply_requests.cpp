// Requests from the panel, keys, mouse or a frame hook reach the simulation between steps.

#include "apply_requests.hpp"

#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"

#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;

namespace {

ViewerState small_scene() {
    ViewerState s;
    s.params = load_preset("vga-predator").params;
    s.counts = {200, 10, 10, 2};
    s.seed = 7;
    return s;
}

} // namespace

TEST(ApplyRequests, CountsGrowAndShrinkKeepingTheOtherAgents) {
    ViewerState s = small_scene();
    Flight<float> f = start_flight<float>(s, 1);
    f.sim->step(3);
    const World<float> before = f.sim->world();
    s.counts.boids = 150;
    s.counts.predators = 5;
    apply_requests(s, f);
    const World<float>& w = f.sim->world();
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
    f.sim->step(2); // the simulation keeps running on the edited world
    EXPECT_EQ(f.sim->world().size(), 175u);
}

TEST(ApplyRequests, ParamsApplyOnTheNextStepAndBadOnesAreRejected) {
    ViewerState s = small_scene();
    Flight<double> f = start_flight<double>(s, 1);
    s.params.visual_range = 25;
    apply_requests(s, f);
    EXPECT_EQ(f.sim->params().visual_range, 25);
    // A frame hook could write anything; an invalid set is refused whole and reported.
    s.params.min_speed = 100;
    apply_requests(s, f);
    EXPECT_EQ(f.sim->params().min_speed, 3);
    EXPECT_EQ(s.params, f.sim->params());
    EXPECT_NE(s.last_error.find("min_speed"), std::string::npos) << s.last_error;
}

TEST(ApplyRequests, PlacementsPutAgentsAtThePointAndKeepThem) {
    ViewerState s = small_scene();
    Flight<float> f = start_flight<float>(s, 1);
    s.placements.push_back({Kind::Predator, 123.0, 45.0, 1});
    s.placements.push_back({Kind::Boid, 300.0, 200.0, 50});
    apply_requests(s, f);
    const World<float>& w = f.sim->world();
    EXPECT_EQ(w.counts(), (AgentCounts{250, 10, 10, 3}));
    EXPECT_EQ(s.counts, w.counts());
    EXPECT_TRUE(s.placements.empty());
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
    ViewerState s = small_scene();
    Flight<float> f = start_flight<float>(s, 1);
    Obstacle everywhere;
    everywhere.shape = Obstacle::Shape::Rect;
    everywhere.x0 = everywhere.y0 = -10;
    everywhere.x1 = everywhere.y1 = 2000;
    s.params.obstacles = {everywhere};                         // drawn with the mouse over the whole world
    s.placements.push_back({Kind::Predator, 100.0, 100.0, 1}); // at the cursor: placed all the same
    apply_requests(s, f);
    EXPECT_EQ(s.last_error, "");
    EXPECT_EQ(f.sim->world().counts(), (AgentCounts{200, 10, 10, 3}));
    s.counts.boids += 20; // nowhere to spawn them
    apply_requests(s, f);
    EXPECT_NE(s.last_error.find("obstacles"), std::string::npos) << s.last_error;
    EXPECT_EQ(f.sim->world().counts(), (AgentCounts{200, 10, 10, 3}));
    EXPECT_EQ(s.counts, f.sim->world().counts()) << "the wanted counts fall back to what the world has";
    f.sim->step(); // and the simulation flies on
}

TEST(ApplyRequests, ResetRespawnsFromSeedAndCounts) {
    ViewerState s = small_scene();
    Flight<float> f = start_flight<float>(s, 1);
    const World<float> initial = f.sim->world();
    f.sim->step(10);
    s.reset = true;
    apply_requests(s, f);
    EXPECT_EQ(f.sim->world(), initial);
    EXPECT_EQ(f.sim->steps_taken(), 0);
    s.seed = 8;
    s.reset = true;
    apply_requests(s, f);
    EXPECT_NE(f.sim->world(), initial);
}

TEST(ApplyRequests, RemovalKeepsPursuitLocksAndRestTimesInStep) {
    // Pursuing predators lock on boids (World::target); removing boids must move the locks with them.
    ViewerState s;
    s.params = load_preset("smart-predators").params;
    s.counts = {300, 0, 0, 3};
    s.seed = 3;
    Flight<float> f = start_flight<float>(s, 1);
    f.sim->step(20);
    ASSERT_TRUE(f.sim->world().has_extension_state());
    s.counts.boids = 40;
    apply_requests(s, f);
    const World<float>& w = f.sim->world();
    ASSERT_EQ(w.size(), 43u);
    ASSERT_EQ(w.target.size(), w.size());
    ASSERT_EQ(w.rest.size(), w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        EXPECT_LT(w.target[i], static_cast<std::int32_t>(w.size()));
        if (w.target[i] >= 0) {
            EXPECT_EQ(w.kind[static_cast<std::size_t>(w.target[i])], Kind::Boid);
        }
    }
    f.sim->step(5);
    EXPECT_EQ(f.sim->world().size(), 43u);
}
