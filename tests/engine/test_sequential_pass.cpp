// The in-place update of the weighted and topological models (update = sequential): agent i moves
// against agents 0..i-1 already moved and the rest not yet, as Downey's World.step and PyNBoids'
// Group.update do. Checked against the synchronous step, which is the same rules from a given state.

#include "boids/error.hpp"
#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace boids {
namespace {

/// One synchronous step of `w`; agent i's result.
struct AgentState {
    double x, y, z, vx, vy, vz;
};

AgentState synchronous_result(Params p, const World<double>& w, std::size_t i) {
    p.update = UpdateOrder::Synchronous;
    Simulation<double> sim(p, w);
    sim.step();
    const World<double>& o = sim.world();
    const bool solid = p.dimensions == 3;
    return {o.x[i], o.y[i], solid ? o.z[i] : 0.0, o.vx[i], o.vy[i], solid ? o.vz[i] : 0.0};
}

/// Each agent of one in-place step equals the synchronous step of the world in which the agents before it
/// have already moved; and the last agent's result differs from the all-at-once step (it saw others move).
void expect_in_place(const std::string& preset, int dimensions) {
    Scenario s = load_preset(preset);
    s.params.dimensions = dimensions;
    s.params.update = UpdateOrder::Sequential; // the preset's source's order
    const World<double> start = spawn_world<double>(s.params, s.agents, 7);
    Simulation<double> in_place(s.params, start);
    in_place.step(3); // into the flight, where neighbours interact
    const World<double> before = in_place.world();
    in_place.step();
    const World<double>& after = in_place.world();
    const bool solid = dimensions == 3;
    World<double> partly = before; // agents 0..i-1 moved
    double most_moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const AgentState want = synchronous_result(s.params, partly, i);
        const double tol = 1e-12;
        ASSERT_NEAR(after.x[i], want.x, tol) << preset << " agent " << i;
        ASSERT_NEAR(after.y[i], want.y, tol) << preset << " agent " << i;
        ASSERT_NEAR(after.vx[i], want.vx, tol) << preset << " agent " << i;
        ASSERT_NEAR(after.vy[i], want.vy, tol) << preset << " agent " << i;
        if (solid) {
            ASSERT_NEAR(after.z[i], want.z, tol) << preset << " agent " << i;
            ASSERT_NEAR(after.vz[i], want.vz, tol) << preset << " agent " << i;
        }
        const AgentState all_at_once = synchronous_result(s.params, before, i);
        most_moved =
            std::max(most_moved, std::abs(all_at_once.vx - want.vx) + std::abs(all_at_once.vy - want.vy));
        partly.x[i] = after.x[i];
        partly.y[i] = after.y[i];
        partly.vx[i] = after.vx[i];
        partly.vy[i] = after.vy[i];
        if (solid) {
            partly.z[i] = after.z[i];
            partly.vz[i] = after.vz[i];
        }
    }
    EXPECT_GT(most_moved, 1e-9) << preset << ": the in-place order must change some agent's step";
}

TEST(SequentialPass, DowneyMovesOneBoidAfterAnother) {
    expect_in_place("downey-2d", 2);
}

TEST(SequentialPass, DowneyIn3DMovesOneBoidAfterAnother) {
    expect_in_place("downey-3d", 3);
}

TEST(SequentialPass, PyNBoidsMovesOneBoidAfterAnother) {
    expect_in_place("pynboids", 2);
}

TEST(SequentialPass, IsDeterministicAndSingleThreaded) {
    Scenario s = load_preset("pynboids");
    s.params.update = UpdateOrder::Sequential;
    const World<double> start = spawn_world<double>(s.params, s.agents, 3);
    Simulation<double> one(s.params, start), two(s.params, start);
    one.set_threads(1);
    two.set_threads(2);
    one.step(50);
    two.step(50);
    EXPECT_TRUE(one.world() == two.world());
}

TEST(SequentialPass, ModelsWithoutAnInPlaceUpdateRefuseIt) {
    Params p;
    p.model = Model::Vicsek;
    p.update = UpdateOrder::Sequential;
    try {
        validate(p);
        FAIL() << "vicsek has no in-place update";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("models that do: classic, topological and weighted"),
                  std::string::npos)
            << e.what();
    }
    p.model = Model::Weighted;
    EXPECT_NO_THROW(validate(p));
    p.obstacles.push_back(parse_obstacle("circle 1 1 0.2"));
    EXPECT_THROW(validate(p), InputError);
}

} // namespace
} // namespace boids
