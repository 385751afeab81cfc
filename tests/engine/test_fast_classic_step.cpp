// The fast classic step (src/fast_classic_step.cpp, src/fast_classic_kernel-inl.h) against the plain grid
// step, its reference. The kernel sums every neighbour in the plain path's order with the same
// operations, so without predators the two agree to the bit, on every SIMD instruction set the CPU
// offers, in both precisions and boundary modes; the f64 comparison with the brute-force oracle is in
// test_reference_oracle.cpp.

#include "classic_rules.hpp"

#include "boids/error.hpp"
#include "boids/fast_path.hpp"
#include "boids/food.hpp"
#include "boids/hash.hpp"
#include "boids/obstacle.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

namespace boids {
namespace {

/// A flock that exercises every rule: dynamic-bias scouts, agents far outside the world in margin mode,
/// a pair of agents at the same spot, and (optionally) predators.
Params busy_params(Boundary boundary) {
    Params p;
    p.boundary = boundary;
    p.dynamic_bias = true;
    p.width = 900;
    p.height = 700;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 80;
    p.turn_factor = 0.05;
    p.max_speed = 9;
    p.min_speed = 2;
    p.bias_increment = 0.0004;
    return p;
}

/// The busy flock in a 3D world: a box as deep as it is high, with front and back margins.
Params busy_params_3d(Boundary boundary) {
    Params p = busy_params(boundary);
    p.dimensions = 3;
    p.depth = 600;
    p.margin_front = p.margin_back = 80;
    return p;
}

template <class Real>
World<Real> busy_world(const Params& p, long long predators) {
    World<Real> w = spawn_world<Real>(p, AgentCounts{1200, 40, 40, predators}, 5);
    if (p.dimensions == 3) {
        w.add_3d(Kind::Boid, Real(-3000), Real(200), Real(100), Real(1), Real(0), Real(0), Real(0));
        w.add_3d(Kind::Boid, Real(-2990), Real(205), Real(-2000), Real(1), Real(0), Real(1), Real(0));
        w.add_3d(Kind::Scout2, Real(5000), Real(-4000), Real(9000), Real(0), Real(2), Real(0),
                 Real(p.scout2_bias));
        w.add_3d(Kind::Boid, Real(300), Real(300), Real(300), Real(2), Real(1), Real(0), Real(0));
        w.add_3d(Kind::Boid, Real(300), Real(300), Real(300), Real(-1), Real(2), Real(0),
                 Real(0)); // same spot
        w.add_3d(Kind::Boid, Real(310), Real(300), Real(305), Real(0), Real(0), Real(0), Real(0)); // stopped
        return w;
    }
    w.add(Kind::Boid, Real(-3000), Real(200), Real(1), Real(0), Real(0));
    w.add(Kind::Boid, Real(-2990), Real(205), Real(1), Real(0), Real(0));
    w.add(Kind::Scout2, Real(5000), Real(-4000), Real(0), Real(2), Real(p.scout2_bias));
    w.add(Kind::Boid, Real(300), Real(300), Real(2), Real(1), Real(0));
    w.add(Kind::Boid, Real(300), Real(300), Real(-1), Real(2), Real(0)); // same spot as the previous one
    return w;
}

template <class Real>
Simulation<Real> make_sim(const Params& p, const World<Real>& w, bool fast, int threads) {
    Simulation<Real> sim(p, w);
    sim.set_fast_path(fast);
    sim.set_threads(threads);
    return sim;
}

/// Two worlds bit for bit: every agent's state, and their hashes.
template <class Real>
void expect_same_world(const World<Real>& a, const World<Real>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a.x[i], b.x[i]) << "agent " << i;
        ASSERT_EQ(a.y[i], b.y[i]) << "agent " << i;
        ASSERT_EQ(a.vx[i], b.vx[i]) << "agent " << i;
        ASSERT_EQ(a.vy[i], b.vy[i]) << "agent " << i;
        ASSERT_EQ(a.bias[i], b.bias[i]) << "agent " << i;
        ASSERT_EQ(a.target[i], b.target[i]) << "agent " << i;
        ASSERT_EQ(a.rest[i], b.rest[i]) << "agent " << i;
    }
    ASSERT_EQ(a.z.size(), b.z.size());
    for (std::size_t i = 0; i < a.z.size(); ++i) {
        ASSERT_EQ(a.z[i], b.z[i]) << "agent " << i;
        ASSERT_EQ(a.vz[i], b.vz[i]) << "agent " << i;
    }
    EXPECT_EQ(state_hash(a), state_hash(b));
}

/// Steps both paths side by side; the fast one without looking at its world in between (its flock
/// stays in cell order), then compares the final states bit for bit; `end` is the final state.
template <class Real>
void compare_fast_and_plain(const Params& p, const World<Real>& start, int steps, World<Real>& end) {
    Simulation<Real> fast = make_sim(p, start, true, 2);
    Simulation<Real> plain = make_sim(p, start, false, 2);
    for (int s = 0; s < steps; ++s) {
        fast.step();
        plain.step();
        ASSERT_TRUE(fast.last_step_fast()) << "step " << s;
        ASSERT_FALSE(plain.last_step_fast());
    }
    expect_same_world(fast.world(), plain.world());
    end = fast.world();
}

template <class Real>
World<Real> expect_fast_equals_plain(const Params& p, const World<Real>& start, int steps) {
    World<Real> end;
    compare_fast_and_plain(p, start, steps, end);
    return end;
}

// A flock strung out far along one axis (a state file can ask for it) steps with a grid that follows the
// agent count, on both paths, with the same bits.
TEST(FastClassicStep, AgentsSpreadFarApartStepWithASmallGrid) {
    for (const double spread : {1e16, 1e30}) {
        Params p;
        World<float> w;
        for (int i = 0; i < 50; ++i) {
            w.add(Kind::Boid, static_cast<float>(i % 2 == 0 ? -spread : spread),
                  240.0f + static_cast<float>(i), 3.0f, 1.0f, 0.0f);
        }
        w.add(Kind::Boid, 320.0f, 240.0f, 3.0f, 0.0f, 0.0f);
        Simulation<float> fast(p, w), plain(p, w);
        plain.set_fast_path(false);
        fast.step(5);
        plain.step(5);
        EXPECT_TRUE(fast.last_step_fast()) << spread;
        EXPECT_EQ(state_hash(fast.world()), state_hash(plain.world())) << spread;
        for (std::size_t i = 0; i < fast.world().size(); ++i) {
            ASSERT_TRUE(std::isfinite(fast.world().x[i]) && std::isfinite(fast.world().vx[i])) << spread;
        }
    }
}

TEST(FastClassicStep, BitIdenticalToPlainPathF32Margin) {
    const Params p = busy_params(Boundary::Margin);
    expect_fast_equals_plain(p, busy_world<float>(p, 0), 40);
}

TEST(FastClassicStep, BitIdenticalToPlainPathF32Wrap) {
    const Params p = busy_params(Boundary::Wrap);
    expect_fast_equals_plain(p, busy_world<float>(p, 0), 40);
}

TEST(FastClassicStep, BitIdenticalToPlainPathF64Margin) {
    const Params p = busy_params(Boundary::Margin);
    expect_fast_equals_plain(p, busy_world<double>(p, 0), 40);
}

TEST(FastClassicStep, BitIdenticalToPlainPathF64Wrap) {
    const Params p = busy_params(Boundary::Wrap);
    expect_fast_equals_plain(p, busy_world<double>(p, 0), 40);
}

TEST(FastClassicStep, TwoPredatorsGiveThePlainPathsBits) {
    // With at most two predators in range of a boid the predator sums commute, so the bits still agree.
    const Params p = busy_params(Boundary::Margin);
    expect_fast_equals_plain(p, busy_world<float>(p, 2), 40);
    expect_fast_equals_plain(p, busy_world<double>(p, 2), 40);
}

TEST(FastClassicStep, ProtectedRangeZeroOrAboveVisualRange) {
    // The kernel's general candidate test: the agent itself excluded explicitly, and the |dx|, |dy| box;
    // with and without a field of view.
    for (const double fov : {360.0, 200.0}) {
        Params p = busy_params(Boundary::Wrap);
        p.fov_angle = fov;
        p.protected_range = 0;
        expect_fast_equals_plain(p, busy_world<float>(p, 0), 20);
        p.protected_range = 50;
        p.boundary = Boundary::Margin;
        expect_fast_equals_plain(p, busy_world<double>(p, 0), 20);
    }
}

TEST(FastClassicStep, ThreeDimensionsGiveThePlainPathsBits) {
    // The 3D kernel: a third cell coordinate, 3 x 3 x 3 candidate blocks, front and back margins, the
    // depth seam of the torus, and predators fleeing in space.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        const Params p = busy_params_3d(boundary);
        expect_fast_equals_plain(p, busy_world<float>(p, 0), 40);
        expect_fast_equals_plain(p, busy_world<double>(p, 0), 40);
        expect_fast_equals_plain(p, busy_world<float>(p, 2), 40);
        expect_fast_equals_plain(p, busy_world<double>(p, 2), 40);
    }
    Params general = busy_params_3d(Boundary::Wrap);
    general.protected_range = 0;
    expect_fast_equals_plain(general, busy_world<float>(general, 0), 20);
    general.protected_range = 50;
    general.boundary = Boundary::Margin;
    expect_fast_equals_plain(general, busy_world<double>(general, 0), 20);
}

TEST(FastClassicStep, ThreeDimensionalCullingKeepsEveryNeighbourFarFromTheOrigin) {
    // The 3D kernel skips candidates beyond the visual range of a tile's bounding box. Far from the origin
    // an f32 position's last place is large (0.125 at 2e6): a dense clump there, with neighbours right at
    // the edge of the visual range, must still get the plain path's bits.
    Params p = busy_params_3d(Boundary::Margin);
    p.visual_range = 40;
    World<float> w;
    for (int i = 0; i < 600; ++i) {
        const float t = static_cast<float>(i);
        const float ring = 39.9f + 0.01f * static_cast<float>(i % 7); // about the visual range apart
        w.add_3d(Kind::Boid, 2.0e6f + ring * std::cos(t), -1.0e6f + ring * std::sin(t), 3.0e6f + 0.37f * t,
                 std::cos(1.3f * t), std::sin(1.3f * t), 0.5f, 0.0f);
    }
    expect_fast_equals_plain(p, w, 30);
}

TEST(FastClassicStep, SparseLinesOfAWrapWorldGiveThePlainPathsBits) {
    // Half an agent per cell on a long torus (the grid holds up to two cells per agent): the slots of a
    // vector often span more columns than a vector of cell bounds, and the kernel bins those by division;
    // the others (and the agents crossing a seam) by comparison with the bounds.
    Params p = busy_params(Boundary::Wrap);
    p.width = 9000;
    p.height = 400;
    expect_fast_equals_plain(p, spawn_world<float>(p, AgentCounts{1200, 0, 0, 0}, 11), 40);
    expect_fast_equals_plain(p, spawn_world<double>(p, AgentCounts{1200, 0, 0, 0}, 12), 40);
}

std::string scene_name(const Params& p) {
    return std::to_string(p.dimensions) + "D, " + (p.boundary == Boundary::Wrap ? "wrap" : "margin");
}

/// The fast path on each SIMD target this CPU runs gives the plain path's state after `steps` steps; `what`
/// names the scene in a failure.
template <class Real>
void expect_plain_bits_on_every_simd_target(const Params& p, const World<Real>& start, int steps,
                                            const std::string& what = "") {
    Simulation<Real> plain = make_sim(p, start, false, 2);
    plain.step(steps);
    const std::uint64_t expected = state_hash(plain.world());
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        Simulation<Real> fast = make_sim(p, start, true, 2);
        fast.step(steps);
        EXPECT_TRUE(fast.last_step_fast()) << "SIMD target " << hwy::TargetName(target) << ", " << what;
        EXPECT_EQ(state_hash(fast.world()), expected)
            << "SIMD target " << hwy::TargetName(target) << ", " << what;
    }
    hwy::SetSupportedTargetsForTest(0);
}

/// The busy flock hunted by six predators, with two boids that share one spot and one velocity far from
/// the others (they stay together: each sees the other at offset 0) and a predator near them, which sees
/// two prey exactly as near (the lock goes to the lower index).
template <class Real>
World<Real> hunting_world(const Params& p) {
    World<Real> w = busy_world<Real>(p, 6);
    const bool deep = p.dimensions == 3;
    const auto add = [&](Kind kind, double x, double y, double vx, double vy) {
        if (deep) {
            w.add_3d(kind, Real(x), Real(y), Real(p.depth / 2), Real(vx), Real(vy), Real(0), Real(0));
        } else {
            w.add(kind, Real(x), Real(y), Real(vx), Real(vy), Real(0));
        }
    };
    add(Kind::Boid, 150, 120, 1, 0.5);
    add(Kind::Boid, 150, 120, 1, 0.5);
    add(Kind::Predator, 130, 110, 1, 0.5);
    return w;
}

/// What the predators' locks did over a run.
struct LockEvents {
    int acquired = 0;    ///< from no prey to one
    int switched = 0;    ///< the prey escaped and the nearest other boid in sight took its place
    int lost = 0;        ///< the prey escaped and no boid was in sight
    int across_seam = 0; ///< a predator and its prey on either side of a wrap seam (nearest images)
};

/// Steps both paths side by side with hunting predators (the fast one on two threads and on one) without
/// looking at the fast ones' worlds, and compares the final states (positions, velocities and locks) bit
/// for bit. Returns what the plain path's locks did, step by step.
template <class Real>
LockEvents expect_hunt_gives_plain_bits(const Params& p, const World<Real>& start, int steps) {
    Simulation<Real> fast = make_sim(p, start, true, 2);
    Simulation<Real> fast_alone = make_sim(p, start, true, 1);
    Simulation<Real> plain = make_sim(p, start, false, 2);
    LockEvents events;
    std::vector<std::int32_t> before = plain.world().target;
    for (int s = 0; s < steps; ++s) {
        fast.step();
        fast_alone.step();
        plain.step();
        EXPECT_TRUE(fast.last_step_fast()) << "step " << s;
        const World<Real>& w = plain.world();
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w.kind[i] != Kind::Predator) {
                continue;
            }
            const std::int32_t was = before[i], now = w.target[i];
            events.acquired += was < 0 && now >= 0;
            events.switched += was >= 0 && now >= 0 && now != was;
            events.lost += was >= 0 && now < 0;
            if (now >= 0 && p.boundary == Boundary::Wrap) {
                const auto t = static_cast<std::size_t>(now);
                const auto apart = [](Real a, Real b, double side) {
                    return std::abs(static_cast<double>(a) - static_cast<double>(b)) > side / 2;
                };
                events.across_seam += apart(w.x[i], w.x[t], p.width) || apart(w.y[i], w.y[t], p.height) ||
                                      (p.dimensions == 3 && apart(w.z[i], w.z[t], p.depth));
            }
        }
        before = w.target;
    }
    expect_same_world(fast.world(), plain.world());
    expect_same_world(fast_alone.world(), plain.world());
    return events;
}

/// Chasing and pursuing predators in 2D or 3D: margins and wrap, both scalar types, a vision shorter than a
/// grid cell (the visual range, 40) and one reaching four cells out, with and without their own speed.
void expect_hunts_give_plain_bits(int dimensions) {
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        for (const PredatorBehavior behavior : {PredatorBehavior::ChaseCentroid, PredatorBehavior::Pursue}) {
            LockEvents total;
            for (const double vision : {30.0, 150.0}) {
                Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
                p.predator_behavior = behavior;
                p.predator_vision = vision;
                p.predator_speed = vision < p.visual_range ? 7.0 : 0.0;
                SCOPED_TRACE(std::to_string(dimensions) + "D, " +
                             (boundary == Boundary::Wrap ? "wrap" : "margin") + ", " +
                             (behavior == PredatorBehavior::Pursue ? "pursue" : "chase") + ", vision " +
                             std::to_string(vision));
                const LockEvents events = expect_hunt_gives_plain_bits(p, hunting_world<double>(p), 60);
                expect_hunt_gives_plain_bits(p, hunting_world<float>(p), 40);
                if (behavior == PredatorBehavior::Pursue) {
                    EXPECT_GT(events.acquired, 0);
                }
                total.switched += events.switched;
                total.lost += events.lost;
                total.across_seam += events.across_seam;
            }
            if (behavior == PredatorBehavior::Pursue) { // prey escaped, and the hunt went on
                EXPECT_GT(total.switched, 0);
                EXPECT_GT(total.lost, 0);
                if (boundary == Boundary::Wrap) {
                    EXPECT_GT(total.across_seam, 0);
                }
            }
        }
    }
}

TEST(FastClassicStep, HuntingPredatorsGiveThePlainPathsBits) {
    expect_hunts_give_plain_bits(2);
}

TEST(FastClassicStep, HuntingPredatorsIn3DGiveThePlainPathsBits) {
    expect_hunts_give_plain_bits(3);
}

TEST(FastClassicStep, PredatorsFirstGiveThePlainPathsBits) {
    // The ECE 4760 lab page's order (predator_order = before-flocking): the boids flee before cohesion and
    // alignment, which then read the kicked velocity. The lab's predators and hunting ones, with a predator
    // range that reaches well into the flock.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.predator_order = PredatorOrder::BeforeFlocking;
            p.predator_range = 120;
            SCOPED_TRACE(scene_name(p));
            expect_fast_equals_plain(p, busy_world<float>(p, 4), 20);
            expect_fast_equals_plain(p, busy_world<double>(p, 4), 10);
            p.predator_behavior = PredatorBehavior::Pursue;
            expect_hunt_gives_plain_bits(p, hunting_world<float>(p), 20);
            expect_plain_bits_on_every_simd_target(p, hunting_world<float>(p), 10, scene_name(p));
        }
    }
}

TEST(FastClassicStep, ManyPredatorsGiveThePlainPathsBits) {
    // Beyond a few predators each vector of agents scans only those within reach of its lanes (along its
    // line, then its own extent; across the torus's seams by their images): the same sums in the same world
    // order. A predator range that reaches well into the flock, predators fleeing and hunting in both orders.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            for (const PredatorOrder order : {PredatorOrder::AfterEdges, PredatorOrder::BeforeFlocking}) {
                Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
                p.predator_range = 120;
                p.predator_order = order;
                SCOPED_TRACE(scene_name(p) +
                             (order == PredatorOrder::BeforeFlocking ? ", before" : ", after"));
                const World<float> flock = busy_world<float>(p, 150);
                ASSERT_EQ(std::count(flock.kind.begin(), flock.kind.end(), Kind::Predator), 150);
                expect_fast_equals_plain(p, flock, 20);
                expect_fast_equals_plain(p, busy_world<double>(p, 150), 10);
                p.predator_behavior = PredatorBehavior::Pursue;
                expect_hunt_gives_plain_bits(p, busy_world<float>(p, 100), 15);
            }
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.predator_range = 120;
            expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 150), 10, scene_name(p));
        }
    }
    // A torus three cells wide with a predator range beyond its width: every image of a predator lies within
    // reach of a vector's lanes, and each is listed (then one kept per predator).
    Params narrow = busy_params(Boundary::Wrap);
    narrow.width = 130;
    narrow.margin_left = narrow.margin_right = 10;
    narrow.predator_range = 200;
    SCOPED_TRACE("narrow torus");
    expect_fast_equals_plain(narrow, spawn_world<float>(narrow, AgentCounts{400, 0, 0, 40}, 3), 10);
    expect_fast_equals_plain(narrow, spawn_world<double>(narrow, AgentCounts{400, 0, 0, 40}, 3), 10);
}

TEST(FastClassicStep, LabSpeedEstimateGivesThePlainPathsBits) {
    // The lab's alpha-max-beta-min estimate of the speed (planar: 3D worlds refuse it) in the speed limits,
    // with a narrow band of speeds that most boids cross each step, the lab's predators among them.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = busy_params(boundary);
        p.speed_estimate = SpeedEstimate::AlphaMaxBetaMin;
        p.min_speed = 3;
        p.max_speed = 4;
        SCOPED_TRACE(scene_name(p));
        expect_fast_equals_plain(p, busy_world<float>(p, 2), 20);
        expect_fast_equals_plain(p, busy_world<double>(p, 2), 10);
        expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 2), 10, scene_name(p));
    }
}

TEST(FastClassicStep, PredatorsAtTheirOwnSpeedGiveThePlainPathsBits) {
    // The lab's predator at a speed of its own: it keeps turning back at the margins.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.predator_speed = 11;
            expect_hunt_gives_plain_bits(p, hunting_world<float>(p), 40);
        }
    }
}

TEST(FastClassicStep, HuntingPredatorsGiveThePlainPathsBitsOnEverySimdTarget) {
    for (const int dimensions : {2, 3}) {
        Params p = dimensions == 3 ? busy_params_3d(Boundary::Wrap) : busy_params(Boundary::Wrap);
        p.predator_behavior = PredatorBehavior::Pursue;
        SCOPED_TRACE(std::to_string(dimensions) + "D");
        expect_plain_bits_on_every_simd_target(p, hunting_world<double>(p), 20);
    }
}

/// The busy flock with a field of view, and agents that put the kernel's view test to its edges: a boid at
/// rest (it sees all around), boids on a coordinate axis (their lanes take the exact test), and a boid
/// with neighbours square to its heading and dead behind it (at 180 degrees, on the cone's edge).
template <class Real>
World<Real> busy_world_with_view(const Params& p) {
    World<Real> w = busy_world<Real>(p, 0);
    const bool deep = p.dimensions == 3;
    const auto add = [&](double x, double y, double vx, double vy) {
        if (deep) {
            w.add_3d(Kind::Boid, Real(x), Real(y), Real(300), Real(vx), Real(vy), Real(0), Real(0));
        } else {
            w.add(Kind::Boid, Real(x), Real(y), Real(vx), Real(vy), Real(0));
        }
    };
    add(450, 350, 0, 0);       // at rest
    add(0, 100, 2, 1);         // on the y axis
    add(500, 0, -1, 2);        // on the x axis
    add(600, 400, 3, 0);       // heading +x, with
    add(600, 410, 0.5, 2);     // a neighbour square to its left,
    add(600, 390, -2, 1);      // one square to its right,
    add(590, 400, 1, 1);       // one dead behind
    add(600.5, 400.25, 2, -2); // and one close ahead
    return w;
}

TEST(FastClassicStep, FieldOfViewGivesThePlainPathsBits) {
    // The view test runs in the kernel's lanes, and near the cone's edge in double as the plain path asks
    // it: 2D and 3D, margins and wrap, both scalar types, wide and narrow cones, the edge of 180 degrees.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            for (const double fov : {270.0, 180.0, 100.0}) {
                Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
                p.fov_angle = fov;
                SCOPED_TRACE(std::to_string(dimensions) + "D, fov " + std::to_string(fov) +
                             (boundary == Boundary::Wrap ? ", wrap" : ", margin"));
                expect_fast_equals_plain(p, busy_world_with_view<float>(p), 30);
                expect_fast_equals_plain(p, busy_world_with_view<double>(p), 20);
            }
        }
    }
}

TEST(FastClassicStep, FieldOfViewTakesTheExactTestForOffsetsTooSmallToSquare) {
    // An agent a hair's breadth from the world's left edge, and a neighbour dead behind it on the edge:
    // their offset squared vanishes in the scalar type, so the lanes' cheap view test would call the
    // neighbour seen. Such lanes take the exact test (view_lanes), which hides it, as the plain path does.
    // No protected range: the neighbour would be averaged and turn the agent.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = busy_params(boundary);
        p.fov_angle = 270;
        p.protected_range = 0;
        SCOPED_TRACE(scene_name(p));
        const auto behind = [&]<class Real>(Real tiny) {
            World<Real> w = busy_world<Real>(p, 0);
            w.add(Kind::Boid, tiny, Real(100), Real(3), Real(0), Real(0));
            w.add(Kind::Boid, Real(0), Real(100), Real(0), Real(2), Real(0));
            return w;
        };
        expect_fast_equals_plain(p, behind(1e-30f), 3);
        expect_fast_equals_plain(p, behind(1e-170), 3);
    }
}

TEST(FastClassicStep, FieldOfViewDecidesACandidateOnTheConesEdgeAsThePlainPath) {
    // A field of view of 90 degrees and neighbours at exactly 45 degrees from an agent's heading: in the
    // lanes' type the cheap test ties (30 against 30), where the plain path's double test hides them
    // (30 < 30.000000000000004). Only the margin around the cheap test's tie sends these to the exact test.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.fov_angle = 90;
            p.protected_range = 0;
            const auto edges = [&]<class Real>(Real) {
                World<Real> w = busy_world<Real>(p, 0);
                const auto add = [&](double x, double y, double z) {
                    if (dimensions == 3) {
                        w.add_3d(Kind::Boid, Real(x), Real(y), Real(z), Real(3), Real(0), Real(0), Real(0));
                    } else {
                        w.add(Kind::Boid, Real(x), Real(y), Real(3), Real(0), Real(0));
                    }
                };
                add(600, 400, 300);
                add(610, 410, 300); // on the first one's cone, to its left
                add(610, 390, 300); // and to its right
                if (dimensions == 3) {
                    add(610, 400, 310); // and above
                }
                return w;
            };
            expect_fast_equals_plain(p, edges(0.0f), 1);
            expect_fast_equals_plain(p, edges(0.0), 1);
            expect_plain_bits_on_every_simd_target(p, edges(0.0f), 1, scene_name(p));
        }
    }
}

TEST(FastClassicStep, FieldOfViewGivesThePlainPathsBitsOnEverySimdTarget) {
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.fov_angle = 240;
            expect_plain_bits_on_every_simd_target(p, busy_world_with_view<float>(p), 15, scene_name(p));
        }
    }
}

TEST(FastClassicStep, GravityAndDiveSpeedGiveThePlainPathsBits) {
    // Gravity before the limits; a dive speed above the lower limit (one division per component serves
    // both limits) and below it (the lower limit first), and no lower limit at all.
    struct Case {
        double gravity, max_dive_speed, min_speed;
    };
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            for (const Case& k : {Case{0.3, 5, 2}, Case{0.3, 1.5, 2}, Case{0.3, 6, 0}, Case{0, 4, 2}}) {
                Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
                p.gravity = k.gravity;
                p.max_dive_speed = k.max_dive_speed;
                p.min_speed = k.min_speed;
                SCOPED_TRACE(scene_name(p) + ", gravity " + std::to_string(k.gravity) + ", dive " +
                             std::to_string(k.max_dive_speed) + ", min " + std::to_string(k.min_speed));
                const World<float> end = expect_fast_equals_plain(p, busy_world<float>(p, 0), 20);
                if (k.gravity > 0 && k.max_dive_speed >= k.min_speed) { // the dive limit was met
                    int diving = 0;
                    for (std::size_t i = 0; i < end.size(); ++i) {
                        const double vz = end.vz.empty() ? 0.0 : end.vz[i];
                        const double speed =
                            std::sqrt(end.vx[i] * end.vx[i] + end.vy[i] * end.vy[i] + vz * vz);
                        diving += end.vy[i] > 0 && std::abs(speed - k.max_dive_speed) < 1e-3;
                    }
                    EXPECT_GT(diving, 10);
                }
            }
            Params p = dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary);
            p.gravity = 0.3;
            p.max_dive_speed = 1.5;
            expect_fast_equals_plain(p, busy_world<double>(p, 0), 10);
            p.max_dive_speed = 5;
            expect_fast_equals_plain(p, busy_world<double>(p, 0), 10);
            expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 0), 10, scene_name(p));
        }
    }
}

/// Obstacles amid the busy flock: circles (spheres in 3D) and a rectangle (a column through the depth), one
/// close to the world's corner (where agents cross the seams in wrap mode), and in 3D a box.
Params with_obstacles(Params p) {
    p.obstacle_margin = 40;
    p.obstacle_turn_factor = 0.8;
    const auto circle = [&](double x, double y, double r) {
        Obstacle o;
        o.x = x;
        o.y = y;
        o.radius = r;
        p.obstacles.push_back(o);
    };
    const auto rect = [&](double x0, double y0, double x1, double y1) {
        Obstacle o;
        o.shape = Obstacle::Shape::Rect;
        o.x0 = x0, o.y0 = y0, o.x1 = x1, o.y1 = y1;
        p.obstacles.push_back(o);
    };
    circle(450, 350, 90);
    circle(50, 60, 40);
    rect(150, 480, 330, 540);
    if (p.dimensions == 3) {
        rect(600, 100, 720, 220);
        p.obstacles.back().z0 = 100;
        p.obstacles.back().z1 = 260;
    }
    return p;
}

/// Flocking agents within obstacle_margin of an obstacle's surface.
template <class Real>
int agents_near_obstacles(const World<Real>& w, const Params& p) {
    int near = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        for (const Obstacle& o : p.obstacles) {
            const double x = w.x[i], y = w.y[i];
            const SurfaceDistance sd =
                p.dimensions == 3 ? surface_distance(o, x, y, w.z[i], p.depth) : surface_distance(o, x, y);
            if (w.kind[i] != Kind::Predator && sd.distance < p.obstacle_margin) {
                ++near;
                break;
            }
        }
    }
    return near;
}

TEST(FastClassicStep, ObstaclesGiveThePlainPathsBits) {
    // The push near an obstacle and the keep-out after the move, in lanes where a reach box cannot rule an
    // obstacle out; the busy world's agents at (300, 300) start close to the circle, the flock flies into
    // them all.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            const Params p =
                with_obstacles(dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary));
            SCOPED_TRACE(scene_name(p));
            const World<float> end = expect_fast_equals_plain(p, busy_world<float>(p, 0), 30);
            expect_fast_equals_plain(p, busy_world<double>(p, 0), 10);
            expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 0), 10, scene_name(p));
            EXPECT_GT(agents_near_obstacles(end, p), 5); // the flock met the obstacles
        }
    }
}

/// The busy world's obstacles with predators among them: four spawned, and four flying at the obstacles
/// (two at the circle in the middle, two at the rectangle's column, one of each a little off its centre).
template <class Real>
World<Real> predators_among_obstacles(const Params& p) {
    World<Real> w = busy_world<Real>(p, 4);
    const auto add = [&](double x, double y, double vx, double vy) {
        if (p.dimensions == 3) {
            w.add_3d(Kind::Predator, Real(x), Real(y), Real(p.depth / 2), Real(vx), Real(vy), Real(0),
                     Real(0));
        } else {
            w.add(Kind::Predator, Real(x), Real(y), Real(vx), Real(vy), Real(0));
        }
    };
    add(330, 350, 6, 0);
    add(450, 230, 0.5, 7);
    add(240, 440, 0, 6);
    add(160, 600, 1, -8);
    return w;
}

/// Steps a plain simulation and counts the steps in which some predator ended somewhere other than where
/// its velocity took it: the obstacles' keep-out moved it.
template <class Real>
int predators_kept_out(const Params& p, const World<Real>& start, int steps) {
    Simulation<Real> plain = make_sim(p, start, false, 2);
    const classic::Constants<Real> c(p);
    int kept_out = 0;
    for (int s = 0; s < steps; ++s) {
        const World<Real> before = plain.world();
        plain.step();
        const World<Real>& w = plain.world();
        bool moved = false;
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w.kind[i] != Kind::Predator) {
                continue;
            }
            Real x = before.x[i] + w.vx[i], y = before.y[i] + w.vy[i];
            if (c.wrap) {
                x = classic::wrap_position(x, c.width);
                y = classic::wrap_position(y, c.height);
            }
            moved = moved || x != w.x[i] || y != w.y[i];
        }
        kept_out += moved;
    }
    return kept_out;
}

TEST(FastClassicStep, PredatorsAmongObstaclesGiveThePlainPathsBits) {
    // Predators are kept out of obstacles as the flock is (the plain path's integrate phase moves every
    // agent alike), and past a margin they keep turning back (predators::Behavior::turns_as_in_spec):
    // the lab's predator, chasing and pursuing ones, at the boids' speed limits and at a speed of their own.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            const Params scene =
                with_obstacles(dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary));
            int kept_out = 0;
            for (const PredatorBehavior behavior :
                 {PredatorBehavior::Edge, PredatorBehavior::ChaseCentroid, PredatorBehavior::Pursue}) {
                Params p = scene;
                p.predator_behavior = behavior;
                p.predator_vision = 150;
                p.predator_speed = behavior == PredatorBehavior::ChaseCentroid ? 7.0 : 0.0;
                SCOPED_TRACE(scene_name(p) + ", predator behaviour " +
                             std::to_string(static_cast<int>(behavior)));
                const World<float> start = predators_among_obstacles<float>(p);
                expect_hunt_gives_plain_bits(p, start, 20);
                expect_hunt_gives_plain_bits(p, predators_among_obstacles<double>(p), 10);
                kept_out += predators_kept_out(p, start, 20);
                if (behavior == PredatorBehavior::Pursue) {
                    expect_plain_bits_on_every_simd_target(p, start, 10, scene_name(p));
                }
            }
            EXPECT_GT(kept_out, 3) << scene_name(scene) << ": the predators never met the obstacles";
        }
    }
}

/// Food amid the busy flock: a source circling a square, and a fixed one (in 3D off the middle depth).
Params with_food(Params p) {
    FoodSource circling;
    circling.path = {{200, 200}, {700, 200}, {700, 500}, {200, 500}};
    circling.speed = 3;
    circling.range = 150;
    circling.strength = 0.3;
    p.food.push_back(circling);
    FoodSource fixed;
    fixed.x = 650;
    fixed.y = 450;
    fixed.range = 120;
    fixed.strength = 0.2;
    if (p.dimensions == 3) {
        fixed.z = 200;
    }
    p.food.push_back(fixed);
    return p;
}

/// Flocking agents within a food source's range after `step` steps.
template <class Real>
int agents_near_food(const World<Real>& w, const Params& p, long long step) {
    int near = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        for (const FoodSource& f : p.food) {
            const auto [fx, fy] = f.position(step);
            const double dz = p.dimensions == 3 ? f.z.value_or(p.depth / 2) - w.z[i] : 0.0;
            const double dx = fx - w.x[i], dy = fy - w.y[i];
            if (w.kind[i] != Kind::Predator && dx * dx + dy * dy + dz * dz < f.range * f.range) {
                ++near;
                break;
            }
        }
    }
    return near;
}

TEST(FastClassicStep, FoodGivesThePlainPathsBits) {
    // The pull toward a source where it is at each step, in lanes that a source's reach box holds.
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            const Params p = with_food(dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary));
            SCOPED_TRACE(scene_name(p));
            const World<float> end = expect_fast_equals_plain(p, busy_world<float>(p, 0), 30);
            expect_fast_equals_plain(p, busy_world<double>(p, 0), 10);
            expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 0), 10, scene_name(p));
            EXPECT_GT(agents_near_food(end, p, 30), 50); // the flock met the sources
        }
    }
}

/// Perching on a ledge across the busy flock's world, gravity bringing the agents down onto it, short rests.
Params with_perching(Params p) {
    p.perch_rest_min = 2;
    p.perch_rest_max = 9;
    p.ledge_y = 420;
    p.ledge_x0 = 100;
    p.ledge_x1 = 800;
    p.gravity = 0.3;
    p.max_dive_speed = 7;
    return p;
}

TEST(FastClassicStep, PerchingGivesThePlainPathsBits) {
    // Landing, resting and taking off, in lanes (the rest travels with the slots and is written back); the
    // rest times hash the agent's id, which a world that is part of a larger flock is given (the f32 run
    // below; the fast world is looked at after every step, as a viewer does).
    for (const int dimensions : {2, 3}) {
        for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
            const Params p =
                with_perching(dimensions == 3 ? busy_params_3d(boundary) : busy_params(boundary));
            SCOPED_TRACE(scene_name(p));
            expect_fast_equals_plain(p, busy_world<double>(p, 0), 10);
            expect_plain_bits_on_every_simd_target(p, busy_world<float>(p, 0), 15, scene_name(p));
            const World<float> start = busy_world<float>(p, 0);
            std::vector<std::uint32_t> ids(start.size());
            for (std::size_t i = 0; i < ids.size(); ++i) {
                ids[i] = static_cast<std::uint32_t>(7 * ids.size() - 3 * i);
            }
            Simulation<float> fast = make_sim(p, start, true, 2);
            Simulation<float> plain = make_sim(p, start, false, 2);
            fast.set_agent_ids(ids);
            plain.set_agent_ids(ids);
            int resting = 0;
            for (int s = 0; s < 30; ++s) {
                fast.step();
                plain.step();
                ASSERT_TRUE(fast.last_step_fast());
                ASSERT_EQ(fast.world().rest, plain.world().rest) << "step " << s;
                for (const std::int32_t r : plain.world().rest) {
                    resting += r > 0;
                }
            }
            EXPECT_EQ(state_hash(fast.world()), state_hash(plain.world()));
            EXPECT_EQ(fast.world().rest, plain.world().rest);
            EXPECT_GT(resting, 200); // agent-steps at rest
        }
    }
}

/// The busy flock, and for Flake's line of sight boids away from it (in margin mode) each with two
/// neighbours ahead at exactly the same distance on either side of its heading: the one of lower index
/// decides the side of the sidestep. The pairs sit at several heights, so that a row of cells separates
/// some of them and the grid order is not the world order.
template <class Real>
World<Real> busy_world_with_sight(const Params& p) {
    World<Real> w = busy_world_with_view<Real>(p);
    for (int k = 0; k < 4; ++k) {
        const double x = -1000 - 100 * k, y = -1000 - 10 * k;
        w.add(Kind::Boid, Real(x), Real(y), Real(2), Real(0), Real(0));
        w.add(Kind::Boid, Real(x + 20), Real(y + 15), Real(2), Real(0), Real(0)); // ahead, on one side,
        w.add(Kind::Boid, Real(x + 20), Real(y - 15), Real(2), Real(0), Real(0)); // on the other, as near
    }
    return w;
}

TEST(FastClassicStep, LineOfSightGivesThePlainPathsBits) {
    // The sight cone is tested in the kernel's lanes (exactly, as the field of view is), the nearest
    // neighbour ahead is kept by the plain path's own double test, and the sidestep taken in double: narrow
    // and wide sight angles, with and without a field of view, margins and wrap, both scalar types.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        for (const auto& [angle, fov] : {std::pair{15.0, 360.0}, {60.0, 360.0}, {40.0, 250.0}}) {
            Params p = busy_params(boundary);
            p.line_of_sight_factor = 0.8;
            p.line_of_sight_angle = angle;
            p.fov_angle = fov;
            SCOPED_TRACE("sight angle " + std::to_string(angle) + ", fov " + std::to_string(fov) +
                         (boundary == Boundary::Wrap ? ", wrap" : ", margin"));
            const World<float> start = busy_world_with_sight<float>(p);
            expect_fast_equals_plain(p, start, 30);
            expect_fast_equals_plain(p, busy_world_with_sight<double>(p), 20);
            // The sidestep is taken: without it the flock flies otherwise.
            Params blind = p;
            blind.line_of_sight_factor = 0;
            Simulation<float> with = make_sim(p, start, true, 2), without = make_sim(blind, start, true, 2);
            with.step(3);
            without.step(3);
            EXPECT_NE(state_hash(with.world()), state_hash(without.world()));
        }
    }
}

TEST(FastClassicStep, LineOfSightSeesANeighbourTooCloseToSquare) {
    // A neighbour a hair's breadth ahead of an agent on the world's left edge: their offset squared
    // vanishes in the scalar type, but the plain path's double test sees it ahead and sidesteps.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = busy_params(boundary);
        p.line_of_sight_factor = 0.8;
        SCOPED_TRACE(scene_name(p));
        const auto ahead = [&]<class Real>(Real tiny) {
            World<Real> w = busy_world<Real>(p, 0);
            w.add(Kind::Boid, Real(0), Real(100), Real(3), Real(0), Real(0));
            w.add(Kind::Boid, tiny, Real(100), Real(0), Real(2), Real(0));
            return w;
        };
        expect_fast_equals_plain(p, ahead(1e-30f), 3);
        expect_fast_equals_plain(p, ahead(1e-170), 3);
    }
}

TEST(FastClassicStep, LineOfSightDecidesANeighbourOnTheConesEdgeAsThePlainPath) {
    // A sight angle of 45 degrees and neighbours at exactly 45 degrees from an agent's heading: the
    // plain path's double test hides them (30 < 30.000000000000004), so the agent does not sidestep. The
    // kernel notes every candidate its lanes' cheap test cannot rule out, these among them, and the
    // settling decides them by that double test.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = busy_params(boundary);
        p.line_of_sight_factor = 0.8;
        p.line_of_sight_angle = 45;
        SCOPED_TRACE(scene_name(p));
        const auto edges = [&]<class Real>(Real) {
            World<Real> w = busy_world<Real>(p, 0);
            w.add(Kind::Boid, Real(600), Real(400), Real(3), Real(0), Real(0));
            w.add(Kind::Boid, Real(610), Real(410), Real(3), Real(0), Real(0)); // on its cone, to its left
            w.add(Kind::Boid, Real(610), Real(390), Real(3), Real(0), Real(0)); // and to its right
            return w;
        };
        expect_fast_equals_plain(p, edges(0.0f), 1);
        expect_fast_equals_plain(p, edges(0.0), 1);
        expect_plain_bits_on_every_simd_target(p, edges(0.0f), 1, scene_name(p));
    }
}

TEST(FastClassicStep, LineOfSightGivesThePlainPathsBitsOnEverySimdTarget) {
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = busy_params(boundary);
        p.line_of_sight_factor = 0.5;
        p.line_of_sight_angle = 45;
        SCOPED_TRACE(boundary == Boundary::Wrap ? "wrap" : "margin");
        expect_plain_bits_on_every_simd_target(p, busy_world_with_sight<float>(p), 15);
    }
}

TEST(FastClassicStep, EveryExtensionAtOnceGivesThePlainPathsBits) {
    // The kernel's extensions one after another in one agent's step, in the plain path's order: the field
    // of view, the line of sight, obstacles, food, gravity and the dive speed, perching; and all of them
    // with predators hunting.
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        Params p = with_perching(with_food(with_obstacles(busy_params(boundary))));
        p.fov_angle = 300;
        p.line_of_sight_factor = 0.6;
        p.line_of_sight_angle = 40;
        SCOPED_TRACE(scene_name(p));
        expect_fast_equals_plain(p, busy_world_with_sight<float>(p), 25);
        expect_fast_equals_plain(p, busy_world_with_sight<double>(p), 15);
        expect_plain_bits_on_every_simd_target(p, busy_world_with_sight<float>(p), 10, scene_name(p));
        Params hunting = p;
        hunting.predator_behavior = PredatorBehavior::Pursue;
        hunting.predator_speed = 7;
        expect_fast_equals_plain(hunting, busy_world<float>(hunting, 6), 25);
    }
}

TEST(FastClassicStep, BitIdenticalOnEverySimdTargetOfThisCpu) {
    const Params p = busy_params(Boundary::Wrap);
    const World<float> start = busy_world<float>(p, 0);
    Simulation<float> plain = make_sim(p, start, false, 2);
    plain.step(15);
    const std::uint64_t expected = state_hash(plain.world());
    std::vector<std::string> seen;
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        seen.emplace_back(fast_path_isa());
        EXPECT_EQ(seen.back(), hwy::TargetName(target));
        Simulation<float> fast = make_sim(p, start, true, 2);
        fast.step(15);
        EXPECT_TRUE(fast.last_step_fast());
        EXPECT_EQ(state_hash(fast.world()), expected) << "SIMD target " << seen.back();
    }
    hwy::SetSupportedTargetsForTest(0);
    EXPECT_GE(seen.size(), 1u);
    std::string names;
    for (const std::string& name : seen) {
        names += " " + name;
    }
    std::printf("[ SIMD targets checked:%s ]\n", names.c_str());
}

/// f32 lanes of Highway's portable fallback with the scalar target chosen: EMU128 (4 lanes, what clang
/// builds get) or SCALAR (1, GCC's).
std::size_t fallback_lanes() {
    return std::string(fast_path_isa()) == "EMU128" ? 4u : 1u;
}

TEST(FastClassicStep, TheNamedSimdTargetRunsUntilAutoReturnsToTheBest) {
    const std::string best = fast_path_isa();
    const std::vector<std::string> names = fast_path_targets();
    ASSERT_GE(names.size(), 2u);
    EXPECT_EQ(names.front(), "auto");
    EXPECT_EQ(names.back(), "scalar"); // Highway's portable fallback runs everywhere

    const Params p = busy_params(Boundary::Wrap);
    const World<float> start = busy_world<float>(p, 0);
    Simulation<float> plain = make_sim(p, start, false, 2);
    plain.step(10);
    for (const std::string& name : names) {
        set_fast_path_target(name);
        const std::string isa = fast_path_isa();
        if (name == "auto") {
            EXPECT_EQ(isa, best);
        } else if (name == "scalar") {
            EXPECT_TRUE(isa == "EMU128" || isa == "SCALAR") << isa;
            EXPECT_EQ(fast_path_lanes(false), fallback_lanes()) << isa;
        } else {
            std::string lower = isa; // Highway's names: "AVX3", "AVX2", "SSE4", "SSSE3"
            for (char& ch : lower) {
                ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            }
            EXPECT_EQ(lower, name);
        }
        Simulation<float> fast = make_sim(p, start, true, 2);
        fast.step(10);
        EXPECT_TRUE(fast.last_step_fast());
        EXPECT_EQ(state_hash(fast.world()), state_hash(plain.world())) << name;
    }

    // A name this CPU does not run changes nothing.
    set_fast_path_target("scalar");
    try {
        set_fast_path_target("avx9");
        ADD_FAILURE() << "avx9 accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("SIMD target = 'avx9' is invalid: this CPU runs auto | "),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(fast_path_lanes(false), fallback_lanes());
    set_fast_path_target("auto");
    EXPECT_EQ(fast_path_isa(), best);
}

TEST(FastClassicStep, W20OnSeveralThreadsGivesThePlainPathsBitsOnEverySimdTarget) {
    // Large enough for the fast path to use every thread: several rows per thread, whole-vector stores
    // inside a row, cells binned by the kernel for the next step's sort and agents changing cell.
    const Scenario s = w20_scenario(20'000);
    const World<float> start = spawn_world<float>(s.params, s.agents, s.seed);
    Simulation<float> plain = make_sim(s.params, start, false, 2);
    plain.step(30);
    const std::uint64_t expected = state_hash(plain.world());
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (const int threads : {2, 4}) {
            Simulation<float> fast = make_sim(s.params, start, true, threads);
            fast.step(30);
            EXPECT_TRUE(fast.last_step_fast());
            EXPECT_EQ(state_hash(fast.world()), expected)
                << "SIMD target " << hwy::TargetName(target) << ", " << threads << " threads";
        }
    }
    hwy::SetSupportedTargetsForTest(0);

    const World<double> start64 = spawn_world<double>(s.params, s.agents, s.seed);
    Simulation<double> plain64 = make_sim(s.params, start64, false, 2);
    Simulation<double> fast64 = make_sim(s.params, start64, true, 2);
    plain64.step(30);
    fast64.step(30);
    EXPECT_TRUE(fast64.last_step_fast());
    EXPECT_EQ(state_hash(fast64.world()), state_hash(plain64.world()));
}

TEST(FastClassicStep, W20In3DOnSeveralThreadsGivesThePlainPathsBitsOnEverySimdTarget) {
    const Scenario s = w20_3d_scenario(12'000);
    const World<float> start = spawn_world<float>(s.params, s.agents, s.seed);
    Simulation<float> plain = make_sim(s.params, start, false, 2);
    plain.step(20);
    const std::uint64_t expected = state_hash(plain.world());
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (const int threads : {1, 2, 4}) {
            Simulation<float> fast = make_sim(s.params, start, true, threads);
            fast.step(20);
            EXPECT_TRUE(fast.last_step_fast());
            EXPECT_EQ(state_hash(fast.world()), expected)
                << "SIMD target " << hwy::TargetName(target) << ", " << threads << " threads";
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(FastClassicStep, LinesHandedOutSeveralAtATimeGiveThePlainPathsBits) {
    // The neighbour pass hands each thread chunks of neighbouring lines, about 64 chunks per thread. On
    // two or more threads the smaller worlds above have a line per chunk; this one (3D W20 at 40,000: a
    // cube of 20 cells a side, 400 lines) has 3 lines per chunk on 2 threads, and 400 is not a multiple
    // of 3.
    const Scenario s = w20_3d_scenario(40'000);
    ASSERT_EQ(static_cast<int>(s.params.width / s.params.visual_range), 20);
    const World<float> start = spawn_world<float>(s.params, s.agents, s.seed);
    Simulation<float> plain = make_sim(s.params, start, false, 2);
    plain.step(8);
    const std::uint64_t expected = state_hash(plain.world());
    for (const int threads : {2, 4}) {
        Simulation<float> fast = make_sim(s.params, start, true, threads);
        fast.step(8);
        EXPECT_TRUE(fast.last_step_fast());
        EXPECT_EQ(state_hash(fast.world()), expected) << threads << " threads";
    }
}

TEST(FastClassicStep, DeterministicForOneTwoAndFourThreads) {
    const Scenario s = w20_scenario(20'000);
    const World<float> start = spawn_world<float>(s.params, s.agents, s.seed);
    std::uint64_t one = 0;
    for (const int threads : {1, 2, 4}) {
        Simulation<float> sim = make_sim(s.params, start, true, threads);
        sim.step(25);
        EXPECT_TRUE(sim.last_step_fast());
        const std::uint64_t h = state_hash(sim.world());
        if (threads == 1) {
            one = h;
        }
        EXPECT_EQ(h, one) << threads << " threads";
    }
    Params margin = busy_params(Boundary::Margin);
    const World<double> busy = busy_world<double>(margin, 3);
    std::uint64_t first = 0;
    for (const int threads : {1, 2, 4}) {
        Simulation<double> sim = make_sim(margin, busy, true, threads);
        sim.step(25);
        const std::uint64_t h = state_hash(sim.world());
        first = threads == 1 ? h : first;
        EXPECT_EQ(h, first) << threads << " threads";
    }
}

TEST(FastClassicStep, LookingAtTheWorldBetweenStepsChangesNothing) {
    // Reading world() writes the cell-ordered flock back; editing it makes the next step reload it.
    const Params p = busy_params(Boundary::Wrap);
    const World<float> start = busy_world<float>(p, 2);
    Simulation<float> untouched = make_sim(p, start, true, 2);
    untouched.step(30);
    Simulation<float> watched = make_sim(p, start, true, 2);
    const Simulation<float>& read_only = watched;
    for (int s = 0; s < 30; ++s) {
        watched.step();
        if (s % 3 == 0) {
            (void)state_hash(read_only.world()); // const access: the flock stays in cell order
        } else if (s % 3 == 1) {
            (void)watched.world(); // mutable access: the world becomes the only copy again
        }
    }
    EXPECT_EQ(state_hash(watched.world()), state_hash(untouched.world()));
    Simulation<float> copy = watched; // a copy carries the state on
    copy.step(5);
    watched.step(5);
    EXPECT_EQ(state_hash(copy.world()), state_hash(watched.world()));
}

TEST(FastClassicStep, AWorldReadAfterEveryStepIsWrittenBackByTheStep) {
    // Once the world has been read, the next step writes the new state into the world's rows as it ends
    // (scouts' biases and z included), and the read skips the write-back: every read sees the plain path's
    // state, as does a read after a step that nobody looked at before.
    for (const Params& p : {busy_params(Boundary::Wrap), busy_params_3d(Boundary::Margin)}) {
        const World<float> start = busy_world<float>(p, 0);
        Simulation<float> fast = make_sim(p, start, true, 2);
        Simulation<float> plain = make_sim(p, start, false, 2);
        const Simulation<float>& reader = fast;
        for (int s = 0; s < 24; ++s) {
            fast.step();
            plain.step();
            ASSERT_TRUE(fast.last_step_fast());
            if (s % 4 != 3) { // three steps read after, one not: the step after it writes back no row
                ASSERT_EQ(state_hash(reader.world()), state_hash(plain.world()))
                    << "step " << s << " in " << p.dimensions << "D";
            }
        }
        EXPECT_EQ(state_hash(reader.world()), state_hash(plain.world())) << p.dimensions << "D";
    }
}

TEST(FastClassicStep, EditingTheWorldBetweenStepsIsSeen) {
    const Params p = busy_params(Boundary::Margin);
    Simulation<float> fast = make_sim(p, busy_world<float>(p, 1), true, 2);
    Simulation<float> plain = make_sim(p, busy_world<float>(p, 1), false, 2);
    fast.step(5);
    plain.step(5);
    for (Simulation<float>* sim : {&fast, &plain}) {
        sim->world().add(Kind::Scout1, 450.0f, 350.0f, 1.0f, 1.0f, 0.001f);
        sim->world().erase(7);
        sim->world().vx[3] = 0.0f;
        sim->world().vy[3] = 0.0f;
    }
    fast.step(5);
    plain.step(5);
    EXPECT_TRUE(fast.last_step_fast());
    EXPECT_EQ(state_hash(fast.world()), state_hash(plain.world()));
}

TEST(FastClassicStep, FallsBackToThePlainPathWhereItDoesNotApply) {
    Params p = busy_params(Boundary::Margin);
    // Any number of predators takes the fast path (each vector scans those within its reach).
    Simulation<float> many = make_sim(p, busy_world<float>(p, 400), true, 2);
    many.step();
    EXPECT_TRUE(many.last_step_fast());
    // A torus under 3 cells across.
    Params narrow = p;
    narrow.boundary = Boundary::Wrap;
    narrow.width = 100;
    narrow.margin_left = narrow.margin_right = 10;
    Simulation<float> small = make_sim(narrow, spawn_world<float>(narrow, {50, 0, 0, 0}, 1), true, 2);
    small.step();
    EXPECT_FALSE(small.last_step_fast());
    // A visual range of zero; switching it on again mid-run picks the fast path up.
    Params blind = p;
    blind.visual_range = 0;
    Simulation<float> sim = make_sim(blind, busy_world<float>(p, 0), true, 2);
    sim.step();
    EXPECT_FALSE(sim.last_step_fast());
    sim.set_params(p);
    sim.step();
    EXPECT_TRUE(sim.last_step_fast());
    Simulation<float> forced = make_sim(p, busy_world<float>(p, 0), false, 2);
    forced.step();
    EXPECT_FALSE(forced.last_step_fast());
    // Every extension the model's table marks as the fast path's takes it; the others the plain path.
    for (const auto& [key, value, fast] : {std::tuple{"fov_angle", "270", true},
                                           {"line_of_sight_factor", "0.5", true},
                                           {"predator_behavior", "pursue", true},
                                           {"predator_speed", "8", true},
                                           {"gravity", "0.1", true},
                                           {"max_dive_speed", "5", true},
                                           {"perch_rest_max", "20", true},
                                           {"predator_order", "before-flocking", true},
                                           {"speed_estimate", "alpha-max-beta-min", true}}) {
        Params extended = p;
        set_param(extended, key, value);
        Simulation<float> one = make_sim(extended, busy_world<float>(p, 0), true, 2);
        one.step();
        EXPECT_EQ(one.last_step_fast(), fast) << key;
    }
    // Food takes the fast path, and so do obstacles, with and without predators among them.
    const Params fed = with_food(p);
    Simulation<float> feeding = make_sim(fed, busy_world<float>(fed, 2), true, 2);
    feeding.step();
    EXPECT_TRUE(feeding.last_step_fast());
    const Params blocked = with_obstacles(p);
    Simulation<float> clear = make_sim(blocked, busy_world<float>(blocked, 0), true, 2);
    clear.step();
    EXPECT_TRUE(clear.last_step_fast());
    Simulation<float> hunted = make_sim(blocked, busy_world<float>(blocked, 2), true, 2);
    hunted.step();
    EXPECT_TRUE(hunted.last_step_fast());
    // On a torus, an obstacle whose keep-out could push an agent across the world's edge (the plain path
    // wraps it only as the next step begins) takes the plain path.
    Params seam = with_obstacles(busy_params(Boundary::Wrap));
    Simulation<float> inside = make_sim(seam, busy_world<float>(seam, 0), true, 2);
    inside.step();
    EXPECT_TRUE(inside.last_step_fast());
    seam.obstacles[1].x = 5; // the circle near the corner, now across the seam
    Simulation<float> across = make_sim(seam, busy_world<float>(seam, 0), true, 2);
    across.step();
    EXPECT_FALSE(across.last_step_fast());
}

TEST(FastClassicStep, ProfileIsFilled) {
    const Scenario s = w20_scenario(5000);
    Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    sim.step(3);
    const StepProfile& last = sim.last_profile();
    EXPECT_GT(last.grid_build_ms, 0.0);
    EXPECT_GT(last.neighbours_ms, 0.0);
    EXPECT_GE(last.total_ms, last.grid_build_ms + last.neighbours_ms);
    EXPECT_GE(sim.total_profile().total_ms, last.total_ms);
    // The fast steps counted, in one step's profile and in the total; the plain path's are not.
    EXPECT_EQ(last.fast_steps, 1);
    EXPECT_EQ(sim.total_profile().fast_steps, 3);
    sim.set_fast_path(false);
    sim.step(2);
    EXPECT_EQ(sim.last_profile().fast_steps, 0);
    EXPECT_EQ(sim.total_profile().fast_steps, 3);
    EXPECT_GT(fast_path_lanes(false), 0u);
    EXPECT_GE(fast_path_lanes(false), fast_path_lanes(true));
}

} // namespace
} // namespace boids
