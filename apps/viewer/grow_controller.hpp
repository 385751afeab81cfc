#pragma once
// "Grow until the frame rate drops" (lab week 3): finds the largest flock that keeps the target step rate.
// No GL here; the viewer feeds it one measurement per window and flies the flock size it returns.

namespace boids::viewer {

/// Searches the largest flock that holds a target step rate: doubles the flock while the rate holds, then
/// bisects (geometrically) between the largest size that held and the smallest that did not, until they
/// are within `resolution` of each other.
class GrowController {
public:
    /// `target_steps_per_s` > 0; the search starts from `start_flock` (at least 1).
    GrowController(double target_steps_per_s, long long start_flock, double hold_fraction = 0.95,
                   double resolution = 1.05);

    /// Reports that `flock` agents achieved `steps_per_s` over a measurement window. Returns the flock
    /// size to fly next (the largest that held once finished()).
    long long observe(long long flock, double steps_per_s);

    /// True when the search has converged; next_flock() is then the answer.
    [[nodiscard]] bool finished() const { return finished_; }
    /// The largest flock that held the rate so far (0 if none did).
    [[nodiscard]] long long largest_held() const { return largest_held_; }
    /// The smallest flock that missed the rate so far (0 if none did).
    [[nodiscard]] long long smallest_missed() const { return smallest_missed_; }
    /// The flock size to fly now.
    [[nodiscard]] long long next_flock() const { return next_; }
    [[nodiscard]] double target() const { return target_; }

    /// True when `steps_per_s` counts as holding the target rate.
    [[nodiscard]] bool holds(double steps_per_s) const { return steps_per_s >= hold_fraction_ * target_; }

private:
    double target_;
    double hold_fraction_;
    double resolution_;
    long long largest_held_ = 0;
    long long smallest_missed_ = 0;
    long long next_;
    bool finished_ = false;
};

} // namespace boids::viewer
