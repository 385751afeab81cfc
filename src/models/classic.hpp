#pragma once
// The classic model: Adams and Land's rules from the ECE 4760 lab (docs/MODEL.md §2), and its extensions
// (§3). Everything that is "the classic model" is here: its keys, its abilities, its ranges, its policy,
// and the one list of extensions with their `any()`.

#include "../classic_policy.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids::models {

struct Classic {
    static constexpr Model id = Model::Classic;
    static constexpr std::string_view name = "classic";
    static constexpr std::string_view title = "Flocking (classic)";
    static constexpr ModelAbilities abilities{.three_d = true,
                                              .fix15 = true,
                                              .sequential = true,
                                              .hunting = true,
                                              .turns_at_margins = true,
                                              .extensions = true};

    // clang-format off
    /// The lab's rules, its predator avoidance and its scouts (ranges from the lab where it gives them).
    static constexpr auto keys = std::to_array<ModelKey>({
        {{"visual_range", 0, range_max, "neighbours closer than this steer cohesion and alignment", field<&Params::visual_range>, "visual range", 0, 200}},
        {{"protected_range", 0, range_max, "neighbours closer than this are avoided", field<&Params::protected_range>, "protected range", 0, 100}},
        {{"centering_factor", 0, 1, "cohesion gain toward the neighbours' centre", field<&Params::centering_factor>, "centering (cohesion)", 0.0002, 1, SliderScale::Log}},
        {{"avoid_factor", 0, 1, "separation gain away from too-close neighbours", field<&Params::avoid_factor>, "avoid (separation)", 0.01, 1, SliderScale::Log}},
        {{"matching_factor", 0, 1, "alignment gain toward the neighbours' mean velocity", field<&Params::matching_factor>, "matching (alignment)", 0.01, 1, SliderScale::Log}},
        {{"predator_range", 0, range_max, "boids react to predators closer than this", field<&Params::predator_range>, "predator range", allowed, allowed, SliderScale::Log}},
        {{"predator_turn_factor", 0, turn_max, "velocity change per step away from predators", field<&Params::predator_turn_factor>, "predator turn factor", allowed, allowed, SliderScale::Log}},
        {{"scout1_bias", 0, 1, "bias of scout group 1 toward +x (initial value if dynamic)", field<&Params::scout1_bias>, "scout 1 bias (+x)", allowed, allowed, SliderScale::Log}},
        {{"scout2_bias", 0, 1, "bias of scout group 2 toward -x (initial value if dynamic)", field<&Params::scout2_bias>, "scout 2 bias (-x)", allowed, allowed, SliderScale::Log}},
        {{"max_bias", 0, 1, "upper bound of a scout's dynamic bias", field<&Params::max_bias>, "max bias", allowed, allowed, SliderScale::Log}},
        {{"bias_increment", 0, 1, "dynamic bias step per step, also its lower bound", field<&Params::bias_increment>, "bias increment", allowed, allowed, SliderScale::Log}},
    });
    // clang-format on

    static void validate(const Params&) {}
    static double grid_range(const Params& p) { return p.visual_range; }
    static double link_range(const Params& p) { return p.visual_range; }

    template <class Real>
    static classic::Policy<Real> policy(const Params& p, const classic::Constants<Real>& c, long long step) {
        return classic::Policy<Real>(p, c, step);
    }
};

/// The extensions of the classic model (docs/MODEL.md §3): each one's key, when it is on, which ability a
/// model needs to take it, and whether the fast path runs it. `off_the_fast_path()` is what keeps a step
/// off the fast path, which runs the lab's rules and the extensions it marks; a new extension is one row
/// here and cannot be forgotten there.
struct Extension {
    std::string_view key;
    bool (*on)(const Params&);
    bool ModelAbilities::*needs;
    bool on_fast_path = false; ///< the fast kernel implements it (bit for bit)
};

// clang-format off
inline constexpr std::array<Extension, 12> extensions{{
    {"update", [](const Params& p) { return p.update != UpdateOrder::Synchronous; }, &ModelAbilities::sequential},
    {"speed_estimate", [](const Params& p) { return p.speed_estimate != SpeedEstimate::Exact; }, &ModelAbilities::extensions, true},
    {"fov_angle", [](const Params& p) { return p.fov_angle < 360.0; }, &ModelAbilities::extensions, true},
    {"predator_behavior", [](const Params& p) { return p.predator_behavior != PredatorBehavior::Edge; }, &ModelAbilities::hunting, true},
    {"predator_speed", [](const Params& p) { return p.predator_speed != 0.0; }, &ModelAbilities::hunting, true},
    // Only the classic model's boids flee predators; the order means nothing to the others (they do not
    // read the key), so it is not refused under them.
    {"predator_order", [](const Params& p) { return p.predator_order != PredatorOrder::AfterEdges; }, nullptr, true},
    {"gravity", [](const Params& p) { return p.gravity != 0.0; }, &ModelAbilities::extensions, true},
    {"max_dive_speed", [](const Params& p) { return p.max_dive_speed != 0.0; }, &ModelAbilities::extensions, true},
    {"line_of_sight_factor", [](const Params& p) { return p.line_of_sight_factor != 0.0; }, &ModelAbilities::extensions, true},
    {"perch_rest_max", [](const Params& p) { return p.perch_rest_max != 0.0; }, &ModelAbilities::extensions, true},
    {"food", [](const Params& p) { return !p.food.empty(); }, &ModelAbilities::extensions, true},
    // Every model keeps agents out of obstacles (the integrate phase); only the classic one also steers
    // around them.
    {"obstacles", [](const Params& p) { return !p.obstacles.empty(); }, nullptr, true},
}};

/// A numeric key of the extensions, read by the models that have the ability `needs`.
struct ExtensionKey {
    NumberKey number;
    bool ModelAbilities::*needs = &ModelAbilities::extensions;
};

/// The extensions' numeric keys (the switches `predator_behavior`, `update` and `speed_estimate` are
/// choices, in src/params.cpp). Hunting keys are read by every model that moves its predators.
inline constexpr auto extension_keys = std::to_array<ExtensionKey>({
    {{"fov_angle", 0, 360, "classic: field of view in degrees around the velocity (360 = all around)", field<&Params::fov_angle>, "field of view (deg)"}},
    {{"predator_speed", 0, speed_max, "predators fly at exactly this speed; 0 = the boids' limits", field<&Params::predator_speed>, "predator speed", 0, 20}, &ModelAbilities::hunting},
    {{"predator_vision", 0, range_max, "how far a hunting predator sees boids", field<&Params::predator_vision>, "predator vision", 0, 400}, &ModelAbilities::hunting},
    {{"predator_hunt_factor", 0, turn_max, "a hunting predator's velocity change per step toward its prey", field<&Params::predator_hunt_factor>, "predator hunt factor", allowed, allowed, SliderScale::Log}, &ModelAbilities::hunting},
    {{"gravity", 0, 100, "downward acceleration, pixels per step^2", field<&Params::gravity>, "gravity", 0, 1}},
    {{"max_dive_speed", 0, speed_max, "speed limit while descending; 0 = max_speed", field<&Params::max_dive_speed>, "max dive speed", 0, 30}},
    {{"line_of_sight_factor", 0, 10, "sideways push when a neighbour is dead ahead (Flake); 0 = off", field<&Params::line_of_sight_factor>, "line of sight push", 0, 2}},
    {{"line_of_sight_angle", 0, 180, "half-angle in degrees of dead ahead", field<&Params::line_of_sight_angle>, "sight angle (deg)", 0, 90}},
    {{"perch_rest_min", 0, 1e6, "perching: shortest rest, steps (both 0 = no perching)", field<&Params::perch_rest_min>, "perch rest min", 0, 1000, SliderScale::Linear, true}},
    {{"perch_rest_max", 0, 1e6, "perching: longest rest, steps", field<&Params::perch_rest_max>, "perch rest max", 0, 1000, SliderScale::Linear, true}},
    {{"ledge_y", -1, world_max, "perching ledge height; -1 = the bottom margin line", field<&Params::ledge_y>, "ledge y", -1, 5000}},
    {{"ledge_x0", -1, world_max, "ledge's left end; -1 = margin_left", field<&Params::ledge_x0>, "ledge left", -1, 5000}},
    {{"ledge_x1", -1, world_max, "ledge's right end; -1 = width - margin_right", field<&Params::ledge_x1>, "ledge right", -1, 5000}},
    {{"obstacle_margin", 0, range_max, "boids closer than this to an obstacle steer away", field<&Params::obstacle_margin>, "obstacle margin", 0, 200}},
    {{"obstacle_turn_factor", 0, turn_max, "velocity change per step away from an obstacle", field<&Params::obstacle_turn_factor>, "obstacle turn factor", 0, 5}},
});
// clang-format on

/// True when an extension of the classic model that the fast path does not run is on.
inline bool off_the_fast_path(const Params& p) {
    for (const Extension& e : extensions) {
        if (e.on(p) && !e.on_fast_path) {
            return true;
        }
    }
    return false;
}

} // namespace boids::models
