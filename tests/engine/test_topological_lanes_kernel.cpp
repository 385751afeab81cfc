// The topological model's steering in SIMD lanes (src/topological_lanes_kernel.cpp) against
// topological::Policy's bearings and new_heading on the plain path, on every SIMD target: both heading
// ranges, the torus and the sprite wrap, margins (agents deep within them, outside the world, and margins
// of zero width), agents that flee their nearest, and agents with one neighbour or none.

#include "boids/hash.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include "../support/every_simd_target.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <string>

namespace boids {
namespace {

using boids::testing::expect_every_target_plain;

/// The pynboids preset in a 600 x 400 world with `boundary`, `heading_range` and the exact k nearest.
Params steering_params(Boundary boundary, const char* heading_range, const char* margin) {
    Params p = load_preset("pynboids").params;
    p.boundary = boundary;
    p.update = UpdateOrder::Synchronous;
    p.width = 600;
    p.height = 400;
    set_param(p, "search_cell", "0");
    set_param(p, "heading_range", heading_range);
    set_param(p, "margin", margin);
    return p;
}

/// A flock with agents that test the steering's branches: two on nearly one spot (each flees the other),
/// one outside the world (deeper than any margin), one in each corner, and two on the world's edges (whose
/// depth into a margin of zero width is 0 / 0).
template <class Real>
World<Real> steering_world(const Params& p, std::uint64_t seed) {
    World<Real> w = spawn_world<Real>(p, AgentCounts{300, 0, 0, 0}, seed);
    w.add(Kind::Boid, Real(300), Real(200), Real(1), Real(0), Real(0));
    w.add(Kind::Boid, Real(301), Real(200.5), Real(0), Real(1), Real(0));
    w.add(Kind::Boid, Real(-40), Real(420), Real(-1), Real(1), Real(0));
    w.add(Kind::Boid, Real(0), Real(10), Real(0), Real(1), Real(0));
    w.add(Kind::Boid, Real(250), Real(0), Real(1), Real(0), Real(0));
    for (const double x : {2.0, 598.0}) {
        for (const double y : {3.0, 397.0}) {
            w.add(Kind::Boid, Real(x), Real(y), Real(1), Real(-1), Real(0));
        }
    }
    return w;
}

TEST(TopologicalLanes, SteerAsThePlainPath) {
    for (const char* range : {"signed", "positive"}) {
        for (const Boundary boundary : {Boundary::Wrap, Boundary::Margin}) {
            for (const char* margin : {"50", "0", "left 0"}) {
                if (boundary == Boundary::Wrap && std::string(margin) != "50") {
                    continue;
                }
                const bool left_only = std::string(margin) == "left 0";
                Params p = steering_params(boundary, range, left_only ? "50" : margin);
                if (left_only) { // 0 / 0 first among the depths, finite ones after it
                    set_param(p, "margin_left", "0");
                }
                const std::string what = std::string(range) +
                                         (boundary == Boundary::Wrap ? ", sprite wrap" : ", margins ") +
                                         (boundary == Boundary::Wrap ? "" : margin);
                expect_every_target_plain(p, steering_world<float>(p, 3), 12, what + ", f32");
                expect_every_target_plain(p, steering_world<double>(p, 4), 12, what + ", f64");
                if (boundary == Boundary::Wrap) {
                    set_param(p, "wrap_style", "torus");
                    expect_every_target_plain(p, steering_world<float>(p, 5), 12, what + ", torus, f32");
                }
            }
        }
    }
}

TEST(TopologicalLanes, SteerAgentsWithOneNeighbourOrNone) {
    // Fewer agents than k: each has one neighbour (two agents) or none (one), and keeps its heading
    // but for the margins.
    for (const int agents : {1, 2}) {
        Params p = steering_params(Boundary::Margin, "signed", "50");
        World<float> w;
        w.add(Kind::Boid, 20.0f, 30.0f, 1.0f, 0.5f, 0.0f);
        if (agents == 2) {
            w.add(Kind::Boid, 300.0f, 200.0f, -1.0f, 0.0f, 0.0f);
        }
        expect_every_target_plain(p, w, 5, std::to_string(agents) + " agents");
    }
}

} // namespace
} // namespace boids
