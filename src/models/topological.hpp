#pragma once
// The topological model of PyNBoids (Nikolaus Stromberg): each boid steers its heading by its k nearest
// neighbours (docs/MODEL.md §4).

#include "../topological_policy.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids::models {

struct Topological {
    static constexpr Model id = Model::Topological;
    static constexpr std::string_view name = "topological";
    static constexpr std::string_view title = "Topological (PyNBoids)";
    static constexpr ModelAbilities abilities{
        .fix15 = true, .sequential = true, .hunting = true, .turns_at_margins = true};

    template <auto Member>
    static double& own(Params& p) {
        return p.topological.*Member;
    }

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {{"k_neighbours", 1, 64, "topological: number of nearest neighbours followed (integer)", own<&TopologicalParams::k_neighbours>, "k nearest", 1, 64, SliderScale::Linear, true}},
        {{"coherence", 0, 100, "topological: aligns with the neighbours within 5 body lengths + 2 coherence", own<&TopologicalParams::coherence>, "coherence"}},
        {{"avoidance", 0, 100, "topological: too close when the nearest is within 1 body length + avoidance: it then turns away from the mean heading", own<&TopologicalParams::avoidance>, "avoidance"}},
        {{"adherence", 0, 100, "topological: tolerates 0.5 + adherence / 200 degrees of heading error", own<&TopologicalParams::adherence>, "adherence"}},
        {{"topological_speed", 0, 10000, "topological: base speed in pixels per second (60 steps per second)", own<&TopologicalParams::speed>, "speed (px/s)", 0, 1000}},
        {{"body_length", 0, 1000, "topological: boid size in pixels", own<&TopologicalParams::body_length>, "body length", 0, 100}},
        {{"search_cell", 0, world_max, "topological: 0 = the k nearest anywhere; > 0 = only in the 3 x 3 block of cells of this size around the boid's (PyNBoids: 100)", own<&TopologicalParams::search_cell>, "search cell (0 = anywhere)", 0, 400}},
    });
    // clang-format on

    static void validate(const Params&) {}
    /// The k-nearest search works with any cell size: 0 lets the grid choose fine cells.
    static double grid_range(const Params&) { return 0.0; }
    /// The distance within which a boid aligns with its neighbours.
    static double link_range(const Params& p) {
        return p.topological.body_length * 5 + p.topological.coherence * 2;
    }

    template <class Real>
    static topological::Policy<Real> policy(const Params& p, const classic::Constants<Real>& c, long long) {
        return topological::Policy<Real>(p, c);
    }
};

} // namespace boids::models
