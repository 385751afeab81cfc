// The fast passes of the Vicsek, Couzin, weighted and topological models (src/slot_order_pass.hpp,
// src/models/*_fast.hpp, src/lane_group_pass.hpp, src/heading_lanes_kernel.cpp,
// src/weighted_lanes_kernel.cpp) against their plain path, the policy path the switch
// Simulation::set_fast_path(false) forces: the same grid, the same candidates in the same order and the
// same arithmetic, so every field agrees to the bit after many steps, on one and two threads, in f32 and
// f64, on a torus and in an open world with margins, with scouts, predators, agents at rest and agents on
// top of one another, and on every SIMD target of this CPU.

#include "boids/fix15.hpp"
#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include "../support/every_simd_target.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <string>

namespace boids {
namespace {

/// A model's preset in a world of about 20 neighbours per agent, on a torus or an open plane with margins
/// (where the flock is free to leave the world: the grid then follows its bounding box).
Params model_params(const std::string& preset, Boundary boundary) {
    Scenario s = load_preset(preset);
    Params p = s.params;
    p.boundary = boundary;
    p.update = UpdateOrder::Synchronous; // Downey's presets update in place, which no fast path runs
    const double side = std::sqrt(900 * 3.14159 * link_range(p) * link_range(p) / w20_mean_neighbours);
    p.width = p.height = side;
    set_param(p, "margin", boundary == Boundary::Wrap ? "0" : std::to_string(side / 10));
    return p;
}

/// The flock of model_params, with agents that test the edge cases: two on the same spot, one at rest,
/// one far outside the world, and (for the models that have them) predators.
template <class Real>
World<Real> model_world(const Params& p, long long predators) {
    World<Real> w = spawn_world<Real>(p, AgentCounts{800, 60, 40, predators}, 11);
    const Real cx = Real(p.width / 2), cy = Real(p.height / 2);
    const Real v = w.vx[0];
    w.add(Kind::Boid, cx, cy, v, Real(0), Real(0));
    w.add(Kind::Boid, cx, cy, Real(0), v, Real(0));                              // on top of the previous one
    w.add(Kind::Boid, cx + Real(p.width / 1000), cy, Real(0), Real(0), Real(0)); // at rest, beside them
    if (p.boundary != Boundary::Wrap) {
        w.add(Kind::Scout1, Real(-10 * p.width), cy, v, v, Real(p.scout1_bias)); // far outside
    }
    return w;
}

template <class Real>
void expect_same_world(const World<Real>& a, const World<Real>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    ASSERT_EQ(a.z.size(), b.z.size()) << what;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a.kind[i], b.kind[i]) << what << ", agent " << i;
        ASSERT_EQ(a.x[i], b.x[i]) << what << ", agent " << i;
        ASSERT_EQ(a.y[i], b.y[i]) << what << ", agent " << i;
        ASSERT_EQ(a.vx[i], b.vx[i]) << what << ", agent " << i;
        ASSERT_EQ(a.vy[i], b.vy[i]) << what << ", agent " << i;
        ASSERT_EQ(a.bias[i], b.bias[i]) << what << ", agent " << i;
        ASSERT_EQ(a.target[i], b.target[i]) << what << ", agent " << i;
        ASSERT_EQ(a.rest[i], b.rest[i]) << what << ", agent " << i;
        if (!a.z.empty()) {
            ASSERT_EQ(a.z[i], b.z[i]) << what << ", agent " << i;
            ASSERT_EQ(a.vz[i], b.vz[i]) << what << ", agent " << i;
        }
    }
    EXPECT_EQ(state_hash(a), state_hash(b)) << what;
}

/// `steps` steps of the plain path on one thread against the fast path on one and two threads.
template <class Real>
void expect_fast_equals_plain(const Params& p, const World<Real>& start, int steps, const std::string& what) {
    Simulation<Real> plain(p, start);
    plain.set_fast_path(false);
    plain.set_threads(1);
    for (int s = 0; s < steps; ++s) {
        plain.step();
        ASSERT_FALSE(plain.last_step_fast()) << what << ": the switch forces the plain path";
    }
    EXPECT_NE(state_hash(plain.world()), state_hash(start)) << what << ": the flock moved";
    for (const int threads : {1, 2}) {
        Simulation<Real> fast(p, start);
        fast.set_threads(threads);
        for (int s = 0; s < steps; ++s) {
            fast.step();
            ASSERT_TRUE(fast.last_step_fast()) << what << ", step " << s;
        }
        expect_same_world(fast.world(), plain.world(), what + ", " + std::to_string(threads) + " threads");
    }
}

struct Case {
    const char* preset;
    long long predators;      ///< the models that move predators hunt with them
    const char* name;         ///< the case's name
    bool exact_torus = false; ///< topological: the k nearest anywhere, minimum images on a torus
};

/// model_params with the case's own parameter.
Params case_params(const Case& c, Boundary boundary) {
    Params p = model_params(c.preset, boundary);
    if (c.exact_torus) {
        set_param(p, "search_cell", "0");
        set_param(p, "wrap_style", "torus");
    }
    return p;
}

class ModelFastPass : public ::testing::TestWithParam<Case> {};

TEST_P(ModelFastPass, GivesThePlainPathsBitsF32AndF64OnATorusAndWithMargins) {
    for (const Boundary boundary : {Boundary::Wrap, Boundary::Margin}) {
        const Params p = case_params(GetParam(), boundary);
        const std::string what =
            std::string(GetParam().name) + (boundary == Boundary::Wrap ? ", torus" : ", margins");
        expect_fast_equals_plain(p, model_world<float>(p, GetParam().predators), 30, what + ", f32");
        expect_fast_equals_plain(p, model_world<double>(p, GetParam().predators), 30, what + ", f64");
    }
}

TEST_P(ModelFastPass, GivesThePlainPathsBitsOnEverySimdTarget) {
    const Params p = case_params(GetParam(), Boundary::Wrap);
    const World<float> start = model_world<float>(p, GetParam().predators);
    Simulation<float> plain(p, start);
    plain.set_fast_path(false);
    plain.step(15);
    const std::uint64_t expected = state_hash(plain.world());
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        Simulation<float> fast(p, start);
        fast.step(15);
        EXPECT_TRUE(fast.last_step_fast());
        EXPECT_EQ(state_hash(fast.world()), expected) << "SIMD target " << hwy::TargetName(target);
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST_P(ModelFastPass, GivesThePlainPathsBitsOnATorusOfFewCells) {
    // Two cells across: the 3 x 3 block visits each line once, and the runs of slots break at the seam.
    Params p = case_params(GetParam(), Boundary::Wrap);
    const double range = link_range(p);
    p.width = 2.5 * range;
    p.height = 7.5 * range;
    World<double> start = spawn_world<double>(p, AgentCounts{300, 10, 10, GetParam().predators}, 3);
    expect_fast_equals_plain(p, start, 30, std::string(GetParam().name) + ", narrow torus");
}

// The topological model with PyNBoids' own choices (the 3 x 3 block of 100-pixel cells, the sprite wrap)
// and with the exact k nearest on a torus.
TEST_P(ModelFastPass, GivesThePlainPathsBitsWhereEveryCandidateIsInRange) {
    // Clusters of 5 to 41 agents, each within a tenth of the range of its centre: an agent's candidates are
    // all in range, and its list is as long as its runs of slots, whatever their length modulo the lanes.
    Params p = case_params(GetParam(), Boundary::Wrap);
    const double range = link_range(p);
    World<double> start = spawn_world<double>(p, AgentCounts{200, 0, 0, GetParam().predators}, 5);
    for (int cluster = 0; cluster < 10; ++cluster) {
        const double cx = p.width * (0.05 + 0.09 * cluster), cy = p.height * (0.1 + 0.08 * cluster);
        const int members = 5 + 4 * cluster;
        for (int m = 0; m < members; ++m) {
            const double angle = 2.399963 * m; // spread around the centre
            const double r = 0.1 * range * std::sqrt((m + 0.5) / members);
            start.add(Kind::Boid, cx + r * std::cos(angle), cy + r * std::sin(angle),
                      start.vx[0] * std::cos(angle), start.vx[0] * std::sin(angle), 0.0);
        }
    }
    expect_fast_equals_plain(p, start, 10, std::string(GetParam().name) + ", clusters");
}

TEST_P(ModelFastPass, GivesThePlainPathsBitsInLoneAndCrowdedCells) {
    // A sparse flock (most cells hold one agent or none) and a crowd of 301 in one cell: more agents than
    // a chunk of slots (slot_chunk, 256), so the crowd's lanes are split between chunks, and not a multiple
    // of any vector's lanes.
    Params p = case_params(GetParam(), Boundary::Wrap);
    const double range = link_range(p);
    p.width = p.height = 40 * range;
    World<double> start = spawn_world<double>(p, AgentCounts{150, 5, 5, GetParam().predators}, 9);
    const double cx = 20.5 * range, cy = 20.5 * range;
    for (int m = 0; m < 301; ++m) {
        const double angle = 2.399963 * m;
        const double r = 0.3 * range * std::sqrt((m + 0.5) / 301);
        start.add(Kind::Boid, cx + r * std::cos(angle), cy + r * std::sin(angle),
                  start.vx[0] * std::cos(angle), start.vx[0] * std::sin(angle), 0.0);
    }
    expect_fast_equals_plain(p, start, 10, std::string(GetParam().name) + ", lone and crowded cells");
}

INSTANTIATE_TEST_SUITE_P(Models, ModelFastPass,
                         ::testing::Values(Case{"vicsek", 0, "vicsek"}, Case{"couzin", 0, "couzin"},
                                           Case{"downey-2d", 2, "weighted"}, Case{"pynboids", 2, "pynboids"},
                                           Case{"pynboids", 2, "topological_exact", true}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ModelFastPass, WeightedIn3DGivesThePlainPathsBits) {
    for (const Boundary boundary : {Boundary::Wrap, Boundary::Margin}) {
        Scenario s = load_preset("downey-3d");
        Params p = s.params;
        p.boundary = boundary;
        p.update = UpdateOrder::Synchronous;
        const double r = link_range(p);
        const double side = std::cbrt(500 * 4.19 * r * r * r / w20_mean_neighbours);
        p.width = p.height = p.depth = side;
        set_param(p, "margin", boundary == Boundary::Wrap ? "0" : std::to_string(side / 10));
        const std::string what = boundary == Boundary::Wrap ? "3D torus" : "3D margins";
        expect_fast_equals_plain(p, spawn_world<float>(p, AgentCounts{900, 0, 0, 2}, 7), 15, what + ", f32");
        expect_fast_equals_plain(p, spawn_world<double>(p, AgentCounts{500, 0, 0, 2}, 7), 30, what + ", f64");
    }
}

TEST(ModelFastPass, TilesAcrossCellsGiveThePlainPathsBitsInEveryShapeOfGrid) {
    // The weighted model's and Couzin's agents go in tiles of a vector's agents across a row's cells
    // (lane_group_pass.hpp) on AVX2 and AVX-512: tori of five to nine columns (the fewest tiles take, with
    // seams on both sides of every tile's block), open worlds with margins, and flocks from a few agents per
    // cell (tiles across several cells) to crowds (tiles within one), on every SIMD target.
    for (const char* preset : {"downey-2d", "couzin"}) {
        for (const Boundary boundary : {Boundary::Wrap, Boundary::Margin}) {
            for (const double columns : {5.5, 7.2, 9.9}) {
                for (const long long per_cell : {2, 9, 30}) {
                    Params p = model_params(preset, boundary);
                    const double range = link_range(p);
                    p.width = columns * range;
                    p.height = 6.5 * range;
                    const auto count = static_cast<long long>(per_cell * columns * 6.5);
                    const std::string what =
                        std::string(preset) + (boundary == Boundary::Wrap ? ", torus" : ", margins") + ", " +
                        std::to_string(columns) + " ranges wide, " + std::to_string(per_cell) + " per cell";
                    testing::expect_every_target_plain(
                        p, spawn_world<float>(p, AgentCounts{count, count / 10, 0, 0}, 17), 6, what);
                }
            }
        }
    }
}

TEST(ModelFastPass, SequentialUpdateAndFixedPointKeepThePlainPath) {
    Params p = model_params("downey-2d", Boundary::Wrap);
    p.update = UpdateOrder::Sequential;
    Simulation<double> sequential(p, model_world<double>(p, 0));
    sequential.step();
    EXPECT_FALSE(sequential.last_step_fast());
    p.update = UpdateOrder::Synchronous;
    Simulation<Fix15> fixed(p, spawn_world<Fix15>(p, AgentCounts{200, 0, 0, 0}, 1));
    fixed.step();
    EXPECT_FALSE(fixed.last_step_fast());
}

} // namespace
} // namespace boids
