#pragma once
/// Food sources: attractors, fixed or moving along a closed path, that boids within range steer toward.

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace boids {

struct FoodSource {
    double x = 0, y = 0;                         ///< position when it has no path
    double range = 100;                          ///< boids closer than this steer toward it
    double strength = 0.1;                       ///< velocity change per step toward it
    std::vector<std::pair<double, double>> path; ///< waypoints of a closed loop (empty: fixed)
    double speed = 1;                            ///< pixels per step along the path
    std::optional<double> z;                     ///< 3D: its z, path included (none: the middle of the depth)

    bool operator==(const FoodSource&) const = default;

    /// Where the source is after `step` steps: fixed, or `speed * step` along its looped path.
    [[nodiscard]] std::pair<double, double> position(long long step) const;
};

/// Parses "X Y [RANGE [STRENGTH]]" (the CLI's --food; in 3D the source sits at the middle of the depth).
/// Throws InputError.
[[nodiscard]] FoodSource parse_food(std::string_view text);

/// Throws InputError unless the source is well formed.
void validate(const FoodSource& f, std::string_view where);

} // namespace boids
