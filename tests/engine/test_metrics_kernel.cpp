// The metrics' SIMD neighbour scan (src/metrics_kernel.cpp) against the plain scan, its reference
// (reference_metrics): every metric the same double and the same group count, on every SIMD instruction
// set the CPU offers, at 1 and 2 threads, in both precisions, on a torus and in margin mode, in 2D and 3D.

#include "boids/fast_path.hpp"
#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace boids {
namespace {

/// Every field of two Metrics, bit for bit (a double compared through its bits: -0 and NaN included).
void expect_same_bits(const Metrics& a, const Metrics& b, const std::string& what) {
    const auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v); };
    EXPECT_EQ(a.groups, b.groups) << what;
    for (std::string_view name : metric_names()) {
        EXPECT_EQ(bits(metric_value(a, name)), bits(metric_value(b, name)))
            << what << ": " << name << " " << metric_value(a, name) << " vs " << metric_value(b, name);
    }
}

/// The SIMD metrics at 1 and 2 threads on every instruction set equal the reference's.
template <class Real>
void expect_simd_equals_reference(const World<Real>& world, const Params& params, const std::string& what) {
    const Metrics reference = reference_metrics(world, params, 1);
    EXPECT_GT(reference.nnd_mean, 0.0) << what << ": a flock with neighbours";
    for (const std::string& target : fast_path_targets()) {
        set_fast_path_target(target);
        for (int threads : {1, 2}) {
            expect_same_bits(compute_metrics(world, params, threads), reference,
                             what + " on " + target + " at " + std::to_string(threads) + " threads");
        }
    }
    set_fast_path_target("auto");
}

/// A W20 flock (uniform on a torus, 20 neighbours in range on average) stepped a little, so that it holds
/// clumps and gaps, and its margin-mode twin: a bounded world where the grid covers the bounding box.
template <class Real>
World<Real> stepped(const Params& params, const AgentCounts& counts, std::uint64_t seed, int steps) {
    Simulation<Real> sim(params, spawn_world<Real>(params, counts, seed));
    sim.set_threads(2);
    sim.step(steps);
    return sim.world();
}

TEST(MetricsKernel, SameBitsAsThePlainScanOnATorus) {
    const Scenario s = w20_scenario(6000);
    expect_simd_equals_reference(stepped<float>(s.params, s.agents, 3, 8), s.params, "W20 f32");
    expect_simd_equals_reference(stepped<double>(s.params, s.agents, 4, 8), s.params, "W20 f64");
    const Scenario solid = w20_3d_scenario(6000);
    expect_simd_equals_reference(stepped<float>(solid.params, solid.agents, 5, 4), solid.params,
                                 "W20 3D f32");
}

TEST(MetricsKernel, SameBitsInMarginModeWithPredatorsAndLoners) {
    Params p = w20_scenario(4000).params;
    p.boundary = Boundary::Margin;
    World<float> w = stepped<float>(p, AgentCounts{4000, 30, 30, 3}, 6, 6);
    // Agents far from everyone (the exhaustive search finds their nearest), two at the same spot (distance
    // 0 counts), one just outside the link range of another.
    w.add(Kind::Boid, -5000.0f, -5000.0f, 1.0f, 0.0f, 0.0f);
    w.add(Kind::Boid, 90000.0f, 100.0f, 0.0f, 1.0f, 0.0f);
    w.add(Kind::Boid, w.x[7], w.y[7], -1.0f, 0.0f, 0.0f);
    w.add(Kind::Boid, w.x[8] + static_cast<float>(p.visual_range), w.y[8], 0.0f, -1.0f, 0.0f);
    expect_simd_equals_reference(w, p, "margin f32");

    Params solid = w20_3d_scenario(3000).params;
    solid.boundary = Boundary::Margin;
    expect_simd_equals_reference(stepped<double>(solid, AgentCounts{3000, 0, 0, 2}, 7, 4), solid,
                                 "margin 3D f64");
}

TEST(MetricsKernel, SameBitsInADenseFlock) {
    // 20,000 boids on a 400 x 400 torus: each agent has about 600 others within the link range, so the
    // kernel's list of links (256) fills and is united and emptied several times in one agent's scan.
    Params p = w20_scenario(20'000).params;
    p.width = p.height = 400;
    const World<float> w = spawn_world<float>(p, AgentCounts{20'000, 0, 0, 0}, 3);
    expect_simd_equals_reference(w, p, "dense f32");
}

TEST(MetricsKernel, SameBitsOnSmallToriAndOtherLinkRanges) {
    // A torus two cells wide (every line visited once, not three times), and a link range far beyond the
    // grid's visual range (Vicsek's interaction radius: one group).
    Params p = w20_scenario(200).params;
    p.width = 100;
    p.height = 3000;
    expect_simd_equals_reference(stepped<float>(p, AgentCounts{300, 0, 0, 0}, 8, 3), p, "narrow torus");
    Params vicsek = w20_scenario(3000).params;
    vicsek.model = Model::Vicsek;
    set_number(vicsek, "interaction_radius", 120);
    const World<float> w = stepped<float>(w20_scenario(3000).params, AgentCounts{3000, 0, 0, 0}, 9, 3);
    expect_simd_equals_reference(w, vicsek, "vicsek link range");
}

} // namespace
} // namespace boids
