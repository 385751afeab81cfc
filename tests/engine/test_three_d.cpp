// The third axis (Params::dimensions = 3): the grid step against the brute-force oracle in 3D, Downey's
// weighted model computed by hand in 3D, determinism, state files with z and vz, spheres and boxes, and the
// values a 3D world refuses.

#include "boids/error.hpp"
#include "boids/hash.hpp"
#include "boids/metrics.hpp"
#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"
#include "boids/trajectory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>

namespace boids {
namespace {

Params solid_params() {
    Params p;
    p.dimensions = 3;
    p.width = 500;
    p.height = 400;
    p.depth = 300;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 50;
    p.margin_front = p.margin_back = 50;
    return p;
}

struct SolidCase {
    Boundary boundary;
    double fov_angle;
    bool fast_path; ///< allow the SIMD step (it applies with and without a field of view)
    const char* name;
};

class SolidGridMatchesOracle : public ::testing::TestWithParam<SolidCase> {};

// As in 2D (test_reference_oracle.cpp): each step from the same input, so the paths differ only in the
// order of the neighbour sums. Both the plain grid step and the fast SIMD step are checked.
TEST_P(SolidGridMatchesOracle, EveryStepOfASolidFlock) {
    Params p = solid_params();
    p.boundary = GetParam().boundary;
    p.fov_angle = GetParam().fov_angle;
    p.dynamic_bias = true;
    p.turn_factor = 0.05; // weak turns: boids overshoot the margins, front and back included
    p.max_speed = 9;
    p.min_speed = 2;
    World<double> world = spawn_world<double>(p, AgentCounts{700, 30, 30, 5}, 17);
    world.add_3d(Kind::Boid, -900, 100, 150, 1, 0, 0, 0); // far outside, in front of the world
    world.add_3d(Kind::Boid, 200, 100, 2000, 0, 1, -2, 0);
    ASSERT_EQ(world.z.size(), world.size());

    long long off_depth = 0;
    for (int step = 0; step < 60; ++step) {
        World<double> expected = world;
        reference_step(expected, p);
        Simulation<double> sim(p, world);
        sim.set_threads(2);
        sim.set_fast_path(GetParam().fast_path);
        sim.step();
        ASSERT_EQ(sim.last_step_fast(), GetParam().fast_path);
        const World<double>& got = sim.world();
        ASSERT_EQ(got.z.size(), got.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double tol = 1e-9;
            ASSERT_NEAR(got.x[i], expected.x[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.y[i], expected.y[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.z[i], expected.z[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.vx[i], expected.vx[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.vy[i], expected.vy[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.vz[i], expected.vz[i], tol) << "agent " << i << " step " << step;
            ASSERT_NEAR(got.bias[i], expected.bias[i], 1e-15) << "agent " << i << " step " << step;
            off_depth += got.z[i] < p.margin_front || got.z[i] > p.depth - p.margin_back;
        }
        world = got;
    }
    EXPECT_GT(off_depth, 100) << "the test must exercise the front and back margins";
}

INSTANTIATE_TEST_SUITE_P(BoundariesAndFieldsOfView, SolidGridMatchesOracle,
                         ::testing::Values(SolidCase{Boundary::Margin, 360, false, "margin"},
                                           SolidCase{Boundary::Wrap, 360, false, "wrap"},
                                           SolidCase{Boundary::Margin, 240, true, "fov240"},
                                           SolidCase{Boundary::Margin, 360, true, "margin_fast"},
                                           SolidCase{Boundary::Wrap, 360, true, "wrap_fast"}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(SolidFlock, APlanarFlockInADeepWorldMovesLikeThe2DFlock) {
    Params flat;
    World<double> world = spawn_world<double>(flat, AgentCounts{400, 10, 10, 2}, 5);
    Params solid = flat;
    solid.dimensions = 3;
    World<double> lifted = world;
    lifted.add_depth(solid.depth / 2); // mid-depth, far from the front and back margins
    Simulation<double> planar(flat, world), deep(solid, lifted);
    planar.set_fast_path(false);
    for (int step = 0; step < 20; ++step) {
        planar.step();
        deep.step();
    }
    for (std::size_t i = 0; i < world.size(); ++i) {
        ASSERT_NEAR(deep.world().x[i], planar.world().x[i], 1e-9);
        ASSERT_NEAR(deep.world().vy[i], planar.world().vy[i], 1e-9);
        ASSERT_EQ(deep.world().z[i], solid.depth / 2);
        ASSERT_EQ(deep.world().vz[i], 0.0);
    }
}

TEST(SolidFlock, SameBitsForAnyThreadCount) {
    Params p = solid_params();
    p.boundary = Boundary::Wrap;
    const World<float> start = spawn_world<float>(p, AgentCounts{4000, 50, 50, 4}, 8);
    std::uint64_t first = 0;
    for (int threads : {1, 2, 4}) {
        Simulation<float> sim(p, start);
        sim.set_threads(threads);
        sim.step(15);
        const std::uint64_t h = state_hash(sim.world());
        if (threads == 1) {
            first = h;
        }
        EXPECT_EQ(h, first) << threads << " threads";
    }
}

TEST(SolidFlock, SpawnsInsideTheMarginBoxHeadingEveryWay) {
    const Params p = solid_params();
    const World<double> w = spawn_world<double>(p, AgentCounts{2000, 0, 0, 0}, 2);
    ASSERT_EQ(w.z.size(), w.size());
    double vz_min = 0, vz_max = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        ASSERT_GE(w.z[i], p.margin_front);
        ASSERT_LE(w.z[i], p.depth - p.margin_back);
        const double speed = std::sqrt(w.vx[i] * w.vx[i] + w.vy[i] * w.vy[i] + w.vz[i] * w.vz[i]);
        ASSERT_GE(speed, p.min_speed - 1e-9);
        ASSERT_LE(speed, p.max_speed + 1e-9);
        vz_min = std::min(vz_min, w.vz[i]);
        vz_max = std::max(vz_max, w.vz[i]);
    }
    EXPECT_LT(vz_min, -0.9 * p.min_speed);
    EXPECT_GT(vz_max, 0.9 * p.min_speed);
}

TEST(SolidFlock, NobodySpawnsInsideASphereOrABox) {
    Params p = solid_params();
    Obstacle sphere;
    sphere.x = 250;
    sphere.y = 200;
    sphere.radius = 110; // centred at mid-depth: most of the margin box's middle
    Obstacle box;
    box.shape = Obstacle::Shape::Rect;
    box.x0 = 40;
    box.x1 = 200;
    box.y0 = 40;
    box.y1 = 360;
    box.z0 = 40;
    box.z1 = 200;
    Obstacle column = box; // through the whole depth
    column.x0 = 380;
    column.x1 = 460;
    column.z0.reset();
    column.z1.reset();
    p.obstacles = {sphere, box, column};
    const World<double> w = spawn_world<double>(p, AgentCounts{3000, 0, 0, 5}, 4);
    ASSERT_EQ(w.z.size(), w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        for (const Obstacle& o : p.obstacles) {
            ASSERT_GT(surface_distance(o, w.x[i], w.y[i], w.z[i], p.depth).distance, 0.0)
                << "agent " << i << " starts inside " << to_string(o);
        }
    }
    EXPECT_EQ(state_hash(spawn_world<double>(p, AgentCounts{3000, 0, 0, 5}, 4)), state_hash(w));
    EXPECT_EQ(spawn_world<double>(p, AgentCounts{3000, 0, 0, 5}, 4).z, w.z);
    // A box filling the whole world leaves no room: an error, not a hang.
    Obstacle all = box;
    all.x0 = all.y0 = -1;
    all.x1 = all.y1 = 1000;
    all.z0 = -1;
    all.z1 = 1000;
    p.obstacles = {all};
    EXPECT_THROW((void)spawn_world<double>(p, AgentCounts{1, 0, 0, 0}, 4), InputError);
    // Without obstacles, the documented draws: x, y, z, the direction's two, the speed.
    p.obstacles.clear();
    const World<double> plain = spawn_world<double>(p, AgentCounts{1, 0, 0, 0}, 4);
    std::mt19937_64 engine(4);
    const auto u = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };
    EXPECT_EQ(plain.x[0], 50 + 400 * u());
    EXPECT_EQ(plain.y[0], 50 + 300 * u());
    EXPECT_EQ(plain.z[0], 50 + 200 * u());
}

// Downey's step (docs/MODEL.md §5.2) transcribed by hand for two boids, one straight ahead of the other along
// z.
TEST(SolidWeighted, MatchesAStepComputedByHand) {
    Params p = solid_params();
    p.model = Model::Weighted;
    set_number(p, "carrot_x", 100); // far along +x: love pulls that way, too far to be avoided
    set_number(p, "carrot_y", 0);
    set_number(p, "carrot_z", 0);
    World<double> w;
    w.add_3d(Kind::Boid, 0, 0, 0, 0, 0, 0.1, 0);   // A: heading +z at unit speed (dt = 0.1)
    w.add_3d(Kind::Boid, 0, 0, 0.2, 0.1, 0, 0, 0); // B: 0.2 ahead of A, heading +x
    Simulation<double> sim(p, w);
    sim.step();

    // For A, B is inside all three neighbourhoods (center: r 1, 1 rad; avoid: r 0.3, all around; align:
    // r 0.5, 1 rad), straight ahead.
    const double center[3] = {0, 0, 0.2}; // limit(B - A), already shorter than 1
    const double avoid[3] = {0, 0, -0.2}; // -limit(B - A)
    const double align[3] = {1, 0, 0};    // B's unit heading (its velocity is dt = 0.1 long)
    const double love[3] = {1, 0, 0};     // limit(carrot - A)
    double goal[3], next[3];
    for (int a = 0; a < 3; ++a) {
        goal[a] = 3 * center[a] + 10 * avoid[a] + 1 * align[a] + 10 * love[a];
    }
    const double gn = std::sqrt(goal[0] * goal[0] + goal[1] * goal[1] + goal[2] * goal[2]);
    const double heading[3] = {0, 0, 1};
    for (int a = 0; a < 3; ++a) {
        next[a] = 0.9 * heading[a] + 0.1 * goal[a] / gn;
    }
    const double nn = std::sqrt(next[0] * next[0] + next[1] * next[1] + next[2] * next[2]);
    const World<double>& got = sim.world();
    EXPECT_NEAR(got.vx[0], 0.1 * next[0] / nn, 1e-15);
    EXPECT_NEAR(got.vy[0], 0.0, 1e-15);
    EXPECT_NEAR(got.vz[0], 0.1 * next[2] / nn, 1e-15);
    EXPECT_NEAR(got.x[0], 0.1 * next[0] / nn, 1e-15);
    EXPECT_NEAR(got.z[0], 0.1 * next[2] / nn, 1e-15);
    EXPECT_LT(got.vz[0], 0.1) << "A turned away from B toward the carrot";
}

TEST(SolidWeighted, TheDowney3dFlockFollowsTheCarrotInDepth) {
    Scenario s = load_preset("downey-3d");
    ASSERT_EQ(s.params.dimensions, 3);
    ASSERT_EQ(s.params.model, Model::Weighted);
    s.params.width = s.params.height = s.params.depth = 10;
    set_number(s.params, "carrot_x", 2);
    set_number(s.params, "carrot_y", 2);
    set_number(s.params, "carrot_z", 8); // far behind where the flock starts, in [1, 9]^3
    Simulation<double> sim(s.params, spawn_world<double>(s.params, s.agents, 3));
    const auto mean_distance = [&] {
        const World<double>& w = sim.world();
        double sum = 0;
        for (std::size_t i = 0; i < w.size(); ++i) {
            const double dx = w.x[i] - 2, dy = w.y[i] - 2, dz = w.z[i] - 8;
            sum += std::sqrt(dx * dx + dy * dy + dz * dz);
        }
        return sum / static_cast<double>(w.size());
    };
    const double start = mean_distance();
    sim.step(400);
    EXPECT_GT(start, 3.0);
    EXPECT_LT(mean_distance(), 1.5) << "love pulls every boid to the carrot, depth included";
    const World<double>& w = sim.world();
    for (std::size_t i = 0; i < w.size(); ++i) {
        EXPECT_NEAR(std::sqrt(w.vx[i] * w.vx[i] + w.vy[i] * w.vy[i] + w.vz[i] * w.vz[i]), 0.1, 1e-12)
            << "unit speed times dt";
    }
}

TEST(SolidState, CsvRoundTripsZAndVz) {
    const Params p = solid_params();
    const World<float> w = spawn_world<float>(p, AgentCounts{50, 3, 3, 2}, 9);
    std::ostringstream out;
    write_state_csv(out, w);
    const std::string rows = out.str().substr(out.str().find('\n') + 1); // after "# boids state: ..."
    EXPECT_EQ(rows.substr(0, rows.find('\n')), "kind,x,y,vx,vy,bias,z,vz");
    const World<float> back = parse_state_csv<float>(out.str(), "dump", p);
    EXPECT_EQ(back, w);
    EXPECT_EQ(state_hash(back), state_hash(w));
}

TEST(SolidState, FilesMustAgreeWithDimensions) {
    const std::string solid = "kind,x,y,z,vx,vy,vz\nboid,1,2,3,4,5,6\n";
    try {
        (void)parse_state_csv<double>(solid, "s.csv", Params{});
        FAIL() << "a 3D state must need dimensions = 3";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("dimensions = 3"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)parse_state_csv<double>("kind,x,y,z,vx,vy\nboid,1,2,3,4,5\n", "s.csv", solid_params()),
                 InputError);
    // A planar file in a deep world: its agents sit at mid-depth.
    const World<double> flat =
        parse_state_csv<double>("kind,x,y,vx,vy\nboid,100,100,1,0\n", "f.csv", solid_params());
    Simulation<double> sim(solid_params(), flat);
    EXPECT_EQ(sim.world().z[0], solid_params().depth / 2);
}

TEST(SolidObstacles, NoBoidEndsAStepInsideASphereOrABox) {
    Params p = solid_params();
    Obstacle sphere;
    sphere.x = 250;
    sphere.y = 200;
    sphere.radius = 60; // centred at mid-depth
    Obstacle box;
    box.shape = Obstacle::Shape::Rect;
    box.x0 = 80;
    box.x1 = 160;
    box.y0 = 80;
    box.y1 = 320;
    box.z0 = 60;
    box.z1 = 240;
    p.obstacles = {sphere, box};
    p.visual_range = 60; // a cohesive flock that keeps running into them
    Simulation<double> sim(p, spawn_world<double>(p, AgentCounts{300, 0, 0, 1}, 12));
    long long close = 0;
    for (int step = 0; step < 3000; ++step) {
        sim.step();
        const World<double>& w = sim.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            for (const Obstacle& o : p.obstacles) {
                const double d = surface_distance(o, w.x[i], w.y[i], w.z[i], p.depth).distance;
                ASSERT_GE(d, 0.0) << "agent " << i << " inside obstacle at step " << step;
                close += d < 5.0;
            }
        }
    }
    EXPECT_GT(close, 50) << "the flock must actually meet the obstacles";
}

TEST(SolidObstacles, SurfaceDistanceInDepth) {
    Obstacle sphere;
    sphere.x = sphere.y = 0;
    sphere.z = 10;
    sphere.radius = 5;
    const SurfaceDistance d = surface_distance(sphere, 0, 0, 18, 100);
    EXPECT_DOUBLE_EQ(d.distance, 3.0);
    EXPECT_DOUBLE_EQ(d.nz, 1.0);
    Obstacle column; // a rectangle without z0, z1 runs through the whole depth
    column.shape = Obstacle::Shape::Rect;
    column.x1 = column.y1 = 10;
    EXPECT_DOUBLE_EQ(surface_distance(column, 5, 5, 1e4, 100).distance, -5.0);
    EXPECT_EQ(to_string(parse_obstacle("box 0 0 1 10 10 9")), "box 0 0 1 10 10 9");
    EXPECT_EQ(to_string(parse_obstacle("sphere 1 2 3 4")), "sphere 1 2 3 4");
    EXPECT_THROW((void)parse_obstacle("box 0 0 9 10 10 1"), InputError);
    EXPECT_THROW((void)parse_obstacle("sphere 1 2 3"), InputError);
}

// A box with a subnormal corner coordinate and an agent exactly at 0 on that axis: the offset to the box is
// subnormal and its square underflows to 0, which once gave a zero distance, a 0/0 normal and NaN in the
// state. Every offset, however small or large, must give a finite distance and a unit normal.
TEST(SolidObstacles, SubnormalOffsetsGiveFiniteDistancesAndUnitNormals) {
    const double tiny = std::numeric_limits<double>::denorm_min();
    Obstacle box;
    box.shape = Obstacle::Shape::Rect;
    box.x0 = tiny;
    box.x1 = 10;
    box.y0 = 0;
    box.z0 = 0;
    box.y1 = 10;
    box.z1 = 10;
    Obstacle sphere;
    sphere.x = sphere.y = tiny;
    sphere.z = -tiny;
    sphere.radius = 1;
    const double coordinates[] = {0, tiny, -tiny, 1e-310, 5, -3, 1e300, -1e300};
    for (const Obstacle& o : {box, sphere}) {
        for (const double x : coordinates) {
            for (const double y : coordinates) {
                for (const double z : coordinates) {
                    const SurfaceDistance d = surface_distance(o, x, y, z, 100);
                    ASSERT_TRUE(std::isfinite(d.distance) && std::isfinite(d.nx) && std::isfinite(d.ny) &&
                                std::isfinite(d.nz))
                        << to_string(o) << " at (" << x << ", " << y << ", " << z << ")";
                    EXPECT_NEAR(d.nx * d.nx + d.ny * d.ny + d.nz * d.nz, 1.0, 1e-12);
                }
            }
        }
    }
    const SurfaceDistance d = surface_distance(box, 0, 5, 5, 100);
    EXPECT_EQ(d.distance, tiny);
    EXPECT_EQ(d.nx, -1.0);

    Params p = solid_params();
    p.obstacles = {box};
    World<double> w = spawn_world<double>(p, AgentCounts{40, 0, 0, 1}, 3);
    for (std::size_t i = 0; i < 4; ++i) {
        w.x[i] = 0;
        w.y[i] = w.z[i] = 5;
    }
    Simulation<double> sim(p, std::move(w));
    for (int step = 0; step < 5; ++step) {
        sim.step();
        const World<double>& now = sim.world();
        for (std::size_t i = 0; i < now.size(); ++i) {
            ASSERT_TRUE(std::isfinite(now.x[i]) && std::isfinite(now.vx[i]) && std::isfinite(now.y[i]) &&
                        std::isfinite(now.vy[i]) && std::isfinite(now.z[i]) && std::isfinite(now.vz[i]))
                << "agent " << i << " at step " << step;
        }
    }
}

// Edges keep everyone in the box, front and back included: a predator at its own fixed speed (or a hunter
// at min_speed) flying straight out along one axis used to have every turn undone by its speed rule.
TEST(SolidPredators, ComeBackFromFlyingStraightOutOfAnyFace) {
    Params p = solid_params();
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 100; // as deep as a boid at 5 needs
    p.margin_front = p.margin_back = 100;
    const struct {
        double x, y, z, vx, vy, vz;
    } departures[] = {{401, 200, 150, 1, 0, 0},    {99, 200, 150, -1, 0, 0}, {250, 99, 150, 0, -1, 0},
                      {250, 301, 150, 0, 1, 0},    {250, 200, 99, 0, 0, -1}, {250, 200, 201, 0, 0, 1},
                      {401, 301, 201, 0.6, 0, 0.8}};
    for (const PredatorBehavior behavior :
         {PredatorBehavior::Edge, PredatorBehavior::ChaseCentroid, PredatorBehavior::Pursue}) {
        p.predator_behavior = behavior;
        for (const double predator_speed : {5.0, 0.0}) {
            p.predator_speed = predator_speed;
            if (behavior == PredatorBehavior::Edge && predator_speed == 0) {
                continue; // the lab's predator: docs/MODEL.md §2.10 to the letter
            }
            const double speed = predator_speed > 0 ? predator_speed : p.min_speed;
            for (const auto& d : departures) {
                World<double> w;
                w.add_3d(Kind::Predator, d.x, d.y, d.z, d.vx * speed, d.vy * speed, d.vz * speed, 0);
                Simulation<double> sim(p, w);
                double furthest = 0;
                for (int step = 0; step < 1500; ++step) {
                    const World<double>& s = sim.world();
                    // Past all three margins at once it may brake; anywhere else it keeps its own speed.
                    const bool in_corner = (s.x[0] < 100 || s.x[0] > 400) && (s.y[0] < 100 || s.y[0] > 300) &&
                                           (s.z[0] < 100 || s.z[0] > 200);
                    sim.step();
                    furthest = std::max({furthest, -s.x[0], s.x[0] - p.width, -s.y[0], s.y[0] - p.height,
                                         -s.z[0], s.z[0] - p.depth});
                    const double v = std::sqrt(s.vx[0] * s.vx[0] + s.vy[0] * s.vy[0] + s.vz[0] * s.vz[0]);
                    if (predator_speed > 0 && !in_corner) {
                        ASSERT_NEAR(v, predator_speed, 1e-9) << "step " << step;
                    }
                }
                EXPECT_EQ(furthest, 0.0)
                    << get_param(p, "predator_behavior") << " at speed " << speed << " from (" << d.x << ", "
                    << d.y << ", " << d.z << ") heading (" << d.vx << ", " << d.vy << ", " << d.vz << ")";
            }
        }
    }
}

// A box's face leaves a velocity component exactly 0 (the slide): the lab's edge predator among obstacles
// used to fly out straight along the face's plane for ever, its turns undone by min_speed.
TEST(SolidPredators, SlidingOffABoxFaceDoesNotLetThemEscape) {
    Params p = solid_params();
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 100;
    p.margin_front = p.margin_back = 100;
    Obstacle box;
    box.shape = Obstacle::Shape::Rect;
    box.x0 = 200;
    box.x1 = 300;
    box.y0 = 150;
    box.y1 = 250;
    box.z0 = 140;
    box.z1 = 200;
    p.obstacles = {box};
    World<double> w;
    w.add_3d(Kind::Predator, 250, 200, 138, 0.5, 0, 5, 0); // head-on into the front face
    Simulation<double> sim(p, w);
    sim.step();
    ASSERT_EQ(sim.world().vz[0], 0.0);
    ASSERT_EQ(sim.world().vy[0], 0.0);
    double furthest = 0;
    for (int step = 0; step < 1000; ++step) {
        sim.step();
        const World<double>& s = sim.world();
        furthest = std::max(
            {furthest, -s.x[0], s.x[0] - p.width, -s.y[0], s.y[0] - p.height, -s.z[0], s.z[0] - p.depth});
    }
    EXPECT_EQ(furthest, 0.0);
}

TEST(SolidMetrics, MeasureInSpace) {
    Params p = solid_params();
    World<double> w;
    w.add_3d(Kind::Boid, 100, 100, 100, 0, 0, 2, 0);
    w.add_3d(Kind::Boid, 100, 100, 105, 0, 0, 3, 0); // 5 behind the first, both heading +z
    const Metrics m = compute_metrics(w, p, 1);
    EXPECT_DOUBLE_EQ(m.polarization, 1.0);
    EXPECT_DOUBLE_EQ(m.nnd_mean, 5.0) << "the z distance counts";
    EXPECT_DOUBLE_EQ(m.accuracy, 0.5) << "a heading at right angles to +x";
    EXPECT_DOUBLE_EQ(m.speed_mean, 2.5);
    EXPECT_DOUBLE_EQ(summarize(w).polarization, 1.0);
}

TEST(SolidTrajectory, NpyFramesHoldSixColumns) {
    const Params p = solid_params();
    const World<float> w = spawn_world<float>(p, AgentCounts{3, 0, 0, 0}, 1);
    const auto path = std::filesystem::temp_directory_path() / "boids_solid_trajectory.npy";
    {
        TrajectoryWriter<float> out(path, w.size(), 3);
        out.write_frame(w, 0);
        out.write_frame(w, 1);
        out.close();
    }
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(bytes.find("2, 3, 6)"), std::string::npos);
    const std::size_t data = bytes.size() - 2 * 3 * 6 * sizeof(float);
    float z1 = 0;
    std::memcpy(&z1, bytes.data() + data + 6 * sizeof(float) + 2 * sizeof(float), sizeof(float));
    EXPECT_EQ(z1, w.z[1]) << "row 1's third column is its z";
    std::filesystem::remove(path);
}

TEST(SolidParams, RefusesWhatHasNoThirdAxis) {
    Params p;
    EXPECT_THROW(set_param(p, "dimensions", "4"), InputError);
    EXPECT_THROW(set_param(p, "dimensions", "2.5"), InputError);
    set_param(p, "dimensions", "3");
    EXPECT_EQ(p.dimensions, 3);
    EXPECT_EQ(get_param(p, "dimensions"), "3");
    EXPECT_NO_THROW(validate(p));
    const auto refused = [](const char* key, const char* value) {
        Params q;
        q.dimensions = 3;
        set_param(q, key, value);
        try {
            validate(q);
            ADD_FAILURE() << key << " = " << value << " must be refused in 3D";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    };
    refused("model", "topological");
    refused("model", "vicsek");
    refused("model", "couzin");
    refused("update", "sequential");
    refused("speed_estimate", "alpha-max-beta-min");
    refused("line_of_sight_factor", "1");
    refused("depth", "100"); // front + back margins are 200
    EXPECT_THROW(set_param(p, "depth", "0"), InputError);
    EXPECT_THROW(set_param(p, "margin_front", "-1"), InputError);
    Params q;
    set_param(q, "margin", "30");
    EXPECT_EQ(q.margin_front, 30);
    EXPECT_EQ(q.margin_back, 30);
    // The lab's fixed point is planar.
    Params fix = solid_params();
    EXPECT_THROW((Simulation<Fix15>(fix, World<Fix15>{})), InputError);
}

} // namespace
} // namespace boids
