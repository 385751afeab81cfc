// The extensions of the classic model (docs/MODEL.md §3): smart predators, gravity, perching,
// Flake's clear line of sight. Each test asserts the behaviour, not just that it runs.

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace boids {
namespace {

Params open_field() {
    Params p;
    p.width = p.height = 2000;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 100;
    return p;
}

/// A blob of boids around (cx, cy) flying +x, and one predator at (px, py).
World<double> blob_and_predator(double cx, double cy, double px, double py, int boids) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-40, 40);
    World<double> w;
    for (int i = 0; i < boids; ++i) {
        w.add(Kind::Boid, cx + u(rng), cy + u(rng), 4, 0, 0);
    }
    w.add(Kind::Predator, px, py, 0, 4, 0);
    return w;
}

double distance_to_flock_centroid(const World<double>& w) {
    double sx = 0, sy = 0, px = 0, py = 0;
    int n = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w.kind[i] == Kind::Predator) {
            px = w.x[i];
            py = w.y[i];
        } else {
            sx += w.x[i];
            sy += w.y[i];
            ++n;
        }
    }
    return std::hypot(sx / n - px, sy / n - py);
}

TEST(SmartPredators, ChaseCentroidClosesOnTheFlock) {
    Params p = open_field();
    p.predator_speed = 8; // faster than the boids (max 6)
    const World<double> start = blob_and_predator(1000, 1000, 1000, 870, 60);
    p.predator_behavior = PredatorBehavior::ChaseCentroid;
    Simulation<double> chase(p, start);
    p.predator_behavior = PredatorBehavior::Edge;
    Simulation<double> edge(p, start);
    const double before = distance_to_flock_centroid(start);
    chase.step(40);
    edge.step(40);
    EXPECT_LT(distance_to_flock_centroid(chase.world()), before * 0.75);
    EXPECT_LT(distance_to_flock_centroid(chase.world()), distance_to_flock_centroid(edge.world()));
}

TEST(SmartPredators, PursuitKeepsItsPreyUntilItEscapes) {
    Params p = open_field();
    p.predator_behavior = PredatorBehavior::Pursue;
    p.predator_speed = 4.5; // slower than a fleeing boid (up to 6): prey can escape
    p.predator_vision = 80;
    Simulation<double> sim(p, blob_and_predator(1000, 1000, 1000, 930, 40));
    const std::size_t predator = sim.world().size() - 1;
    int locks = 0, kept = 0, escapes = 0;
    for (int step = 0; step < 400; ++step) {
        const World<double> before = sim.world();
        sim.step();
        const std::int32_t old_target = before.target[predator];
        const std::int32_t new_target = sim.world().target[predator];
        if (old_target >= 0) {
            const double d = std::hypot(before.x[predator] - before.x[static_cast<std::size_t>(old_target)],
                                        before.y[predator] - before.y[static_cast<std::size_t>(old_target)]);
            if (new_target == old_target) {
                ++kept;
                EXPECT_LE(d, p.predator_vision);
            } else {
                ++escapes;
                EXPECT_GT(d, p.predator_vision)
                    << "step " << step << ": the lock may only change once the prey escapes";
            }
        } else if (new_target >= 0) {
            ++locks;
            // A new lock goes to the nearest boid in sight.
            double nearest = 1e9;
            std::int32_t nearest_index = -1;
            for (std::size_t i = 0; i + 1 < before.size(); ++i) {
                const double d =
                    std::hypot(before.x[predator] - before.x[i], before.y[predator] - before.y[i]);
                if (d < nearest) {
                    nearest = d;
                    nearest_index = static_cast<std::int32_t>(i);
                }
            }
            EXPECT_EQ(new_target, nearest_index);
        }
    }
    EXPECT_GE(locks, 1);
    EXPECT_GT(kept, 20) << "the predator must follow one boid step after step";
}

TEST(SmartPredators, OwnSpeedIsHeld) {
    Params p = open_field();
    p.predator_behavior = PredatorBehavior::ChaseCentroid;
    p.predator_speed = 7.5;
    Simulation<double> sim(p, blob_and_predator(1000, 1000, 900, 900, 20));
    sim.step(10);
    const std::size_t predator = sim.world().size() - 1;
    EXPECT_NEAR(std::hypot(sim.world().vx[predator], sim.world().vy[predator]), 7.5, 1e-12);
}

/// A lone predator (nothing in sight to hunt) that starts at (x, y) with velocity (vx, vy) and flies
/// `steps` steps; returns how far it ever got outside the world (0: it never left). With an own speed, also
/// checks that it keeps it, turns included, except for braking in a corner (past two margins at once).
template <class Real>
double furthest_outside_world(const Params& p, double x, double y, double vx, double vy, int steps) {
    using T = ScalarTraits<Real>;
    World<Real> w;
    w.add(Kind::Predator, T::from_double(x), T::from_double(y), T::from_double(vx), T::from_double(vy),
          Real(0));
    Simulation<Real> sim(p, w);
    double furthest = 0;
    for (int step = 0; step < steps; ++step) {
        const bool in_corner = (x < p.margin_left || x > p.width - p.margin_right) &&
                               (y < p.margin_top || y > p.height - p.margin_bottom);
        sim.step();
        x = T::to_double(sim.world().x[0]);
        y = T::to_double(sim.world().y[0]);
        furthest = std::max({furthest, -x, x - p.width, -y, y - p.height});
        if (p.predator_speed > 0) {
            const double speed = std::hypot(T::to_double(sim.world().vx[0]), T::to_double(sim.world().vy[0]));
            EXPECT_LE(speed, p.predator_speed + 1e-3) << "step " << step;
            if (!in_corner) {
                EXPECT_NEAR(speed, p.predator_speed, 1e-3) << "step " << step;
            }
        }
    }
    return furthest;
}

struct Departure {
    double x, y, vx, vy; ///< velocity as a multiple of the predator's speed
    const char* what;
};

/// Every way out of an 800 x 600 world with margins of 100: straight through each side (one velocity
/// component exactly zero), almost straight, and through a corner.
constexpr Departure departures[] = {
    {701, 300, 1, 0, "straight out to the right"},       {99, 300, -1, 0, "straight out to the left"},
    {400, 99, 0, -1, "straight out of the top"},         {400, 501, 0, 1, "straight out of the bottom"},
    {701, 300, 1, 1e-7, "almost straight to the right"}, {701, 501, 0.6, 0.8, "out through a corner"},
};

template <class Real>
void expect_predators_come_back(const char* precision) {
    Params p;
    p.width = 800;
    p.height = 600;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 100;
    const struct {
        PredatorBehavior behavior;
        double predator_speed;
    } kinds[] = {{PredatorBehavior::Edge, 5},   {PredatorBehavior::ChaseCentroid, 5},
                 {PredatorBehavior::Pursue, 5}, {PredatorBehavior::ChaseCentroid, 0},
                 {PredatorBehavior::Pursue, 0}, {PredatorBehavior::Pursue, 6}};
    for (const auto& kind : kinds) {
        p.predator_behavior = kind.behavior;
        p.predator_speed = kind.predator_speed;
        // Without an own speed, at min_speed: the slowest, where the speed limit undoes most of a turn.
        const double speed = kind.predator_speed > 0 ? kind.predator_speed : p.min_speed;
        for (const Departure& d : departures) {
            const double out = furthest_outside_world<Real>(p, d.x, d.y, d.vx * speed, d.vy * speed, 1500);
            EXPECT_EQ(out, 0.0) << precision << ", " << get_param(p, "predator_behavior")
                                << " predator at speed " << speed << " flying " << d.what
                                << " got this far outside the world";
        }
    }
}

// Edges keep everyone in the world (docs/MODEL.md §2.5). A predator flying at its own fixed speed used to
// have the edge turn undone by the renormalisation to that speed, and one at min_speed by the speed limit:
// the turn is parallel to a velocity with a zero component, so it flew away for ever (and nearly so when that
// component was tiny).
TEST(PredatorEdges, HuntersAndFixedSpeedPredatorsComeBackFromEveryDeparture) {
    expect_predators_come_back<double>("f64");
    expect_predators_come_back<float>("f32");
    expect_predators_come_back<Fix15>("fix15");
}

TEST(PredatorEdges, SmartPredatorsPresetStaysInTheWorld) {
    const Scenario s = load_preset("smart-predators");
    Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, 3));
    sim.set_threads(1);
    double furthest = 0;
    for (int step = 0; step < 1000; ++step) {
        sim.step();
        const World<float>& w = sim.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w.kind[i] == Kind::Predator) {
                furthest = std::max({furthest, -double(w.x[i]), w.x[i] - s.params.width, -double(w.y[i]),
                                     w.y[i] - s.params.height});
            }
        }
    }
    EXPECT_EQ(furthest, 0.0) << "a pursuing predator left the world";
}

// The lab's predator (edge, the boids' speed limits) is docs/MODEL.md §2.10 to the bit, which the fast
// path and the golden traces rely on: past a margin its velocity is the plain kick, then the limits.
TEST(PredatorEdges, TheSeedsPredatorIsTheSpecsToTheBit) {
    Params p;
    World<double> w;
    w.add(Kind::Predator, 600, 300, 5, 1, 0);   // past the right margin: vx - turn, within the limits
    w.add(Kind::Predator, 300, 50, 0.1, -3, 0); // above the top: vy + turn, then back up to min_speed
    Simulation<double> sim(p, w);
    sim.step();
    EXPECT_EQ(sim.world().vx[0], 5 - p.turn_factor);
    EXPECT_EQ(sim.world().vy[0], 1);
    const double vy = -3 + p.turn_factor, speed = std::sqrt(0.1 * 0.1 + vy * vy);
    EXPECT_EQ(sim.world().vx[1], (0.1 / speed) * p.min_speed);
    EXPECT_EQ(sim.world().vy[1], (vy / speed) * p.min_speed);
}

// How a predator comes to fly with a velocity component exactly 0 without anyone setting it: an obstacle
// removes the inward part of its velocity, and a rectangle's side is axis-aligned. Out of the slide it flies
// straight down, and at the bottom margin min_speed (or its own speed) used to undo every turn: it left the
// world for ever. The lab's edge predator too, once obstacles exist (without them it stays §2.10's).
TEST(PredatorEdges, SlidingOffAWallDoesNotLetAPredatorEscape) {
    Params p;
    p.width = 800;
    p.height = 600;
    Obstacle wall;
    wall.shape = Obstacle::Shape::Rect;
    wall.x0 = 300;
    wall.x1 = 500;
    wall.y0 = 250;
    wall.y1 = 350;
    p.obstacles = {wall};
    for (const double predator_speed : {0.0, 5.0}) {
        for (const PredatorBehavior behavior : {PredatorBehavior::Edge, PredatorBehavior::Pursue}) {
            p.predator_behavior = behavior;
            p.predator_speed = predator_speed;
            World<double> w;
            w.add(Kind::Predator, 298, 300, 5, 1, 0); // head-on into the wall's left side
            Simulation<double> sim(p, w);
            sim.step();
            ASSERT_EQ(sim.world().vx[0], 0.0) << "the wall leaves it flying straight down";
            double furthest = 0;
            for (int step = 0; step < 1000; ++step) {
                sim.step();
                const World<double>& s = sim.world();
                furthest = std::max({furthest, -s.x[0], s.x[0] - p.width, -s.y[0], s.y[0] - p.height});
            }
            EXPECT_EQ(furthest, 0.0) << get_param(p, "predator_behavior") << " predator, predator_speed "
                                     << predator_speed << ": out of the world after sliding off the wall";
        }
    }
}

TEST(PredatorEdges, ObstaclesPresetPredatorStaysInTheWorld) {
    const Scenario s = load_preset("obstacles"); // the lab's edge predator among pillars and a wall
    ASSERT_EQ(s.params.predator_behavior, PredatorBehavior::Edge);
    for (const std::uint64_t seed : {1, 2}) {
        Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, seed));
        sim.set_threads(1);
        double furthest = 0;
        for (int step = 0; step < 1500; ++step) {
            sim.step();
            const World<float>& w = sim.world();
            for (std::size_t i = 0; i < w.size(); ++i) {
                if (w.kind[i] == Kind::Predator) {
                    furthest = std::max({furthest, -double(w.x[i]), w.x[i] - s.params.width, -double(w.y[i]),
                                         w.y[i] - s.params.height});
                }
            }
        }
        EXPECT_EQ(furthest, 0.0) << "seed " << seed << ": the predator left the world";
    }
}

/// Mean speed of boids flying clearly down (vy > 0.5) and clearly up (vy < -0.5) between the margins
/// (at the margins boids hover and turn, which says nothing about diving), over 400 steps.
std::pair<double, double> dive_and_climb_speeds(double gravity) {
    Params p;
    p.height = 1500;
    p.gravity = gravity;
    p.max_dive_speed = 9; // climbing stays limited to max_speed 6
    Simulation<double> sim(p, spawn_world<double>(p, AgentCounts{400, 0, 0, 0}, 3));
    double dive_sum = 0, climb_sum = 0;
    long long dives = 0, climbs = 0;
    for (int step = 0; step < 400; ++step) {
        sim.step();
        const World<double>& w = sim.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            const double speed = std::hypot(w.vx[i], w.vy[i]);
            EXPECT_LE(speed, (w.vy[i] > 0 ? 9.0 : 6.0) + 1e-9);
            if (w.y[i] < p.margin_top || w.y[i] > p.height - p.margin_bottom) {
                continue;
            }
            if (w.vy[i] > 0.5) {
                dive_sum += speed;
                ++dives;
            } else if (w.vy[i] < -0.5) {
                climb_sum += speed;
                ++climbs;
            }
        }
    }
    EXPECT_GT(dives, 1000);
    EXPECT_GT(climbs, 1000);
    return {dive_sum / static_cast<double>(dives), climb_sum / static_cast<double>(climbs)};
}

TEST(Gravity, BoidsDiveFasterThanTheyClimb) {
    const auto [dive, climb] = dive_and_climb_speeds(0.1);
    EXPECT_GT(dive, climb + 1.0);
    const auto [dive0, climb0] = dive_and_climb_speeds(0.0); // control: no gravity, no difference
    EXPECT_LT(std::abs(dive0 - climb0), 0.5);
}

TEST(Perching, RestsStillOnTheLedgeThenFlies) {
    Params p; // ledge: the bottom margin line, y = 480 - 100 = 380, from x = 100 to 540
    p.perch_rest_min = p.perch_rest_max = 12;
    World<double> w;
    w.add(Kind::Boid, 300, 377, 0.5, 4, 0); // will cross y = 380 this step
    Simulation<double> sim(p, w);
    sim.step();
    EXPECT_EQ(sim.world().y[0], 380.0) << "lands on the ledge";
    EXPECT_EQ(sim.world().rest[0], 12);
    for (int step = 1; step < 12; ++step) {
        sim.step();
        EXPECT_EQ(sim.world().vx[0], 0.0) << "step " << step;
        EXPECT_EQ(sim.world().vy[0], 0.0) << "step " << step;
        EXPECT_EQ(sim.world().y[0], 380.0);
    }
    sim.step(); // the last rest step: take off upward
    EXPECT_LT(sim.world().vy[0], 0.0);
    EXPECT_EQ(sim.world().rest[0], 0);
    sim.step(5);
    EXPECT_LT(sim.world().y[0], 380.0) << "flying again, above the ledge";
    EXPECT_GE(std::hypot(sim.world().vx[0], sim.world().vy[0]), p.min_speed - 1e-9);
}

TEST(Perching, RestTimesVaryInTheirRange) {
    Params p;
    p.perch_rest_min = 5;
    p.perch_rest_max = 50;
    World<double> w;
    for (int i = 0; i < 40; ++i) {
        w.add(Kind::Boid, 110 + 10.0 * i, 376, 0, 5, 0);
    }
    p.avoid_factor = 0; // land side by side
    p.matching_factor = 0;
    p.centering_factor = 0;
    Simulation<double> sim(p, w);
    sim.step();
    int lo = 1000, hi = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        lo = std::min(lo, sim.world().rest[i]);
        hi = std::max(hi, sim.world().rest[i]);
    }
    EXPECT_GE(lo, 5);
    EXPECT_LE(hi, 50);
    EXPECT_GT(hi - lo, 15) << "rest times must be spread over the range";
}

TEST(LineOfSight, ANeighbourDeadAheadPushesSideways) {
    Params p;
    p.width = p.height = 1000;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 10;
    p.min_speed = 0;
    p.max_speed = 100;
    World<double> w;
    w.add(Kind::Boid, 500, 500, 2, 0, 0);
    w.add(Kind::Boid, 530, 503, 2, 0,
          0); // 5.7 degrees left of A's heading (y down: +y is A's right... see below)
    Simulation<double> plain(p, w);
    plain.step();
    p.line_of_sight_factor = 0.5;
    Simulation<double> sighted(p, w);
    sighted.step();
    // A flies +x with B just to its +y side: A is pushed perpendicular to its velocity, away from B
    // (toward -y), by the factor.
    const double dx = sighted.world().vx[0] - plain.world().vx[0],
                 dy = sighted.world().vy[0] - plain.world().vy[0];
    EXPECT_NEAR(std::hypot(dx, dy), 0.5, 1e-12);
    EXPECT_NEAR(dx * plain.world().vx[0] + dy * plain.world().vy[0], 0.0, 1e-12);
    EXPECT_LT(dy, -0.49);
    // B has nobody ahead of it: unchanged.
    EXPECT_EQ(sighted.world().vy[1], plain.world().vy[1]);
}

TEST(Extensions, StateWithLocksAndRestsRoundTrips) {
    Params p;
    p.perch_rest_min = p.perch_rest_max = 20;
    p.predator_behavior = PredatorBehavior::Pursue;
    World<double> w;
    w.add(Kind::Boid, 300, 376, 0, 5, 0);
    w.add(Kind::Boid, 400, 200, 3, 0, 0);
    w.add(Kind::Predator, 420, 200, -3, 0, 0);
    Simulation<double> sim(p, w);
    sim.step();
    ASSERT_TRUE(sim.world().has_extension_state());
    std::ostringstream out;
    write_state_csv(out, sim.world());
    const std::string rows = out.str().substr(out.str().find('\n') + 1); // after "# boids state: ..."
    EXPECT_EQ(rows.substr(0, rows.find('\n')), "kind,x,y,vx,vy,bias,target,rest");
    EXPECT_TRUE(parse_state_csv<double>(out.str(), "dump") == sim.world());
    EXPECT_THROW((void)parse_state_csv<double>("kind,x,y,vx,vy,target\npredator,1,1,1,1,5\n", "t"),
                 InputError);
}

TEST(Extensions, BadValuesAreRejected) {
    Params p;
    EXPECT_THROW(set_param(p, "predator_behavior", "stalk"), InputError);
    EXPECT_THROW(set_param(p, "gravity", "-1"), InputError);
    EXPECT_THROW(set_param(p, "predator_vision", "inf"), InputError);
    EXPECT_THROW(set_param(p, "line_of_sight_angle", "200"), InputError);
    p.perch_rest_min = 10;
    p.perch_rest_max = 5;
    EXPECT_THROW(validate(p), InputError);
    p.perch_rest_max = 10.5;
    EXPECT_THROW(validate(p), InputError);
    p = Params{};
    p.update = UpdateOrder::Sequential;
    p.gravity = 0.1;
    EXPECT_THROW(validate(p), InputError) << "the lab's loop has no extensions";
}

} // namespace
} // namespace boids

namespace boids {
namespace {

TEST(Obstacles, NoBoidEverEndsAStepInside) {
    Scenario s = load_preset("obstacles");
    s.agents = AgentCounts{200, 0, 0, 1};
    Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, 17));
    sim.set_threads(1);
    long long near_misses = 0;
    for (int step = 0; step < 10000; ++step) {
        sim.step();
        const World<float>& w = sim.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            for (const Obstacle& o : s.params.obstacles) {
                const double d = surface_distance(o, w.x[i], w.y[i]).distance;
                ASSERT_GE(d, 0.0) << "agent " << i << " inside an obstacle after step " << step;
                near_misses += d < 5.0;
            }
        }
    }
    EXPECT_GT(near_misses, 100) << "the flock must actually meet the obstacles";
}

TEST(Obstacles, SignedDistanceAndNormals) {
    Obstacle c;
    c.x = c.y = 10;
    c.radius = 5;
    SurfaceDistance d = surface_distance(c, 14, 13);
    EXPECT_DOUBLE_EQ(d.distance, 0.0); // (4, 3) from the centre: on the surface
    EXPECT_DOUBLE_EQ(d.nx, 0.8);
    Obstacle r;
    r.shape = Obstacle::Shape::Rect;
    r.x0 = 0;
    r.y0 = 0;
    r.x1 = 10;
    r.y1 = 4;
    d = surface_distance(r, 5, 1); // inside, nearest the top side
    EXPECT_DOUBLE_EQ(d.distance, -1.0);
    EXPECT_DOUBLE_EQ(d.ny, -1.0);
    d = surface_distance(r, 13, 8); // outside the corner (10, 4)
    EXPECT_DOUBLE_EQ(d.distance, 5.0);
    EXPECT_THROW((void)parse_obstacle("circle 1 2"), InputError);
    EXPECT_THROW((void)parse_obstacle("circle 1 2 -3"), InputError);
    EXPECT_THROW((void)parse_obstacle("rect 5 0 1 4"), InputError);
    EXPECT_THROW((void)parse_obstacle("hexagon 1 2 3"), InputError);
    EXPECT_EQ(to_string(parse_obstacle("rect 0 0 10 4")), "rect 0 0 10 4");
}

TEST(Food, MovesAlongItsPathAndAttracts) {
    FoodSource f;
    f.path = {{0, 0}, {100, 0}, {100, 50}};
    f.speed = 30;
    EXPECT_EQ(f.position(0), (std::pair<double, double>{0, 0}));
    EXPECT_EQ(f.position(2), (std::pair<double, double>{60, 0}));
    EXPECT_EQ(f.position(4), (std::pair<double, double>{100, 20})); // 120 along: 20 up the second leg
    // Perimeter 100 + 50 + 111.8 = 261.8: step 9 (270 along) is 8.2 into the first leg again.
    EXPECT_NEAR(f.position(9).first, 270 - (150 + std::hypot(100, 50)), 1e-9);
    EXPECT_EQ(f.position(9).second, 0.0);

    Params p;
    p.width = p.height = 2000;
    FoodSource bait;
    bait.x = 1000;
    bait.y = 1000;
    bait.range = 400;
    bait.strength = 0.3;
    p.food = {bait};
    World<double> w;
    for (int i = 0; i < 20; ++i) {
        w.add(Kind::Boid, 700 + 15.0 * i, 750, 0, -3, 0); // flying away from the food
    }
    Simulation<double> fed(p, w);
    p.food.clear();
    Simulation<double> unfed(p, w);
    fed.step(60);
    unfed.step(60);
    const auto mean_distance = [&](const World<double>& world) {
        double sum = 0;
        for (std::size_t i = 0; i < world.size(); ++i) {
            sum += std::hypot(world.x[i] - 1000, world.y[i] - 1000);
        }
        return sum / static_cast<double>(world.size());
    };
    EXPECT_LT(mean_distance(fed.world()), mean_distance(unfed.world()) - 100);
    EXPECT_LT(mean_distance(fed.world()), 250);
}

TEST(Scenarios, ObstaclesAndFoodFromTomlAndBadEntries) {
    const Scenario s = load_preset("obstacles");
    ASSERT_EQ(s.params.obstacles.size(), 3u);
    EXPECT_EQ(s.params.obstacles[2].shape, Obstacle::Shape::Rect);
    ASSERT_EQ(s.params.food.size(), 1u);
    EXPECT_EQ(s.params.food[0].path.size(), 4u);
    const auto message = [](const char* toml) {
        try {
            (void)parse_scenario(toml, "bad.toml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("[[obstacles]]\nshape = \"blob\"\n").find("shape = 'blob'"), std::string::npos);
    EXPECT_NE(message("[[obstacles]]\nshape = \"circle\"\nx = 1\ny = 2\n").find("needs 'radius'"),
              std::string::npos);
    EXPECT_NE(message("[[obstacles]]\nshape = \"circle\"\nx = 1\ny = 2\nradius = 0\n").find("radius"),
              std::string::npos);
    EXPECT_NE(message("[[food]]\nx = 1\ny = 2\nrange = -5\n").find("range"), std::string::npos);
    EXPECT_NE(message("[[food]]\nx = 1\ny = 2\ncolour = 5\n").find("colour"), std::string::npos);
    EXPECT_NE(message("[[food]]\npath = [[1, 2], [3]]\n").find("path"), std::string::npos);
}

TEST(Obstacles, ANonFiniteCoordinateIsNamedWithoutAnIntegerConversion) {
    // The message writes the value; a NaN must not pass through a conversion to an integer (undefined
    // behaviour, caught by the sanitizer build's float-cast-overflow check).
    for (const double bad : {std::nan(""), 1e300, -HUGE_VAL}) {
        Obstacle o;
        o.x = bad;
        try {
            validate(o, "obstacle 1");
            FAIL() << "a non-finite or huge coordinate must be refused";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("obstacle coordinate = "), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace boids
