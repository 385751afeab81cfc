#include "grow_controller.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace boids::viewer {

GrowController::GrowController(double target_steps_per_s, long long start_flock, double hold_fraction,
                               double resolution)
    : target_(target_steps_per_s), hold_fraction_(hold_fraction), resolution_(resolution),
      next_(std::max(1LL, start_flock)) {
    assert(target_steps_per_s > 0 && resolution > 1.0);
}

long long GrowController::observe(long long flock, double steps_per_s) {
    if (finished_) {
        return next_;
    }
    // Measurements are noisy: a later one contradicting the bracket wins, so the search never gets stuck.
    if (holds(steps_per_s)) {
        largest_held_ = std::max(largest_held_, flock);
        if (smallest_missed_ != 0 && smallest_missed_ <= largest_held_) {
            smallest_missed_ = 0;
        }
    } else {
        if (smallest_missed_ == 0 || flock < smallest_missed_) {
            smallest_missed_ = flock;
        }
        if (largest_held_ >= smallest_missed_) {
            largest_held_ = smallest_missed_ / 2;
        }
    }
    if (smallest_missed_ == 0) {
        next_ = largest_held_ * 2; // no ceiling yet: double
    } else if (largest_held_ == 0) {
        next_ = smallest_missed_ / 2; // even the start was too big: halve
        if (next_ < 1) {
            finished_ = true;
            next_ = 0;
        }
    } else if (static_cast<double>(smallest_missed_) <= resolution_ * static_cast<double>(largest_held_)) {
        finished_ = true;
        next_ = largest_held_;
    } else {
        next_ = static_cast<long long>(std::llround(
            std::sqrt(static_cast<double>(largest_held_) * static_cast<double>(smallest_missed_))));
        next_ = std::clamp(next_, largest_held_ + 1, smallest_missed_ - 1);
    }
    return next_;
}

} // namespace boids::viewer
