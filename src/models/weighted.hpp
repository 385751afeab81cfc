#pragma once
// Downey's weighted boids (Think Linear Algebra / his VPython notebook): four requests weighed into one
// goal, and a carrot the flock loves (docs/MODEL.md §5).

#include "../weighted_policy.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids::models {

struct Weighted {
    static constexpr Model id = Model::Weighted;
    static constexpr std::string_view name = "weighted";
    static constexpr std::string_view title = "Weighted (Downey)";
    static constexpr ModelAbilities abilities{
        .three_d = true, .fix15 = true, .sequential = true, .hunting = true, .carrot = true};

    template <auto Member>
    static double& own(Params& p) {
        return p.weighted.*Member;
    }

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {{"center_radius", 0, range_max, "weighted: radius of the center request", own<&WeightedParams::center_radius>, "center radius", allowed, allowed, SliderScale::Log}},
        {{"center_angle", 0, pi, "weighted: half-angle of the center request, radians", own<&WeightedParams::center_angle>, "center angle (rad)"}},
        {{"avoid_radius", 0, range_max, "weighted: radius of the avoid request (boids and carrot)", own<&WeightedParams::avoid_radius>, "avoid radius", allowed, allowed, SliderScale::Log}},
        {{"avoid_angle", 0, pi, "weighted: half-angle of the avoid request, radians", own<&WeightedParams::avoid_angle>, "avoid angle (rad)"}},
        {{"align_radius", 0, range_max, "weighted: radius of the align request", own<&WeightedParams::align_radius>, "align radius", allowed, allowed, SliderScale::Log}},
        {{"align_angle", 0, pi, "weighted: half-angle of the align request, radians", own<&WeightedParams::align_angle>, "align angle (rad)"}},
        {{"w_center", 0, 1000, "weighted: weight of the center request", own<&WeightedParams::w_center>, "w center", 0, 100}},
        {{"w_avoid", 0, 1000, "weighted: weight of the avoid request", own<&WeightedParams::w_avoid>, "w avoid", 0, 100}},
        {{"w_align", 0, 1000, "weighted: weight of the align request", own<&WeightedParams::w_align>, "w align", 0, 100}},
        {{"w_love", 0, 1000, "weighted: weight of the love request (toward the carrot)", own<&WeightedParams::w_love>, "w love", 0, 100}},
        {{"maneuverability", 0, 1, "weighted: mu, how fast a boid turns toward its goal", own<&WeightedParams::maneuverability>, "mu (maneuverability)"}},
        {{"time_step", 0, 1000, "weighted: dt, distance flown per step at unit speed", own<&WeightedParams::time_step>, "dt", 0, 10}},
        {{"carrot_x", -world_max, world_max, "weighted: carrot (attractor) x", own<&WeightedParams::carrot_x>, "carrot x"}},
        {{"carrot_y", -world_max, world_max, "weighted: carrot (attractor) y", own<&WeightedParams::carrot_y>, "carrot y"}},
        {{"carrot_z", -world_max, world_max, "weighted, 3D: carrot (attractor) z", own<&WeightedParams::carrot_z>, "carrot z (3D)"}},
    });
    // clang-format on

    static void validate(const Params&) {}
    /// The query range: the largest of the three neighbourhoods.
    static double grid_range(const Params& p) {
        return std::fmax(p.weighted.center_radius,
                         std::fmax(p.weighted.avoid_radius, p.weighted.align_radius));
    }
    /// The center request's radius.
    static double link_range(const Params& p) { return p.weighted.center_radius; }

    template <class Real>
    static weighted::Policy<Real> policy(const Params& p, const classic::Constants<Real>& c, long long) {
        return weighted::Policy<Real>(p, c);
    }
};

} // namespace boids::models
