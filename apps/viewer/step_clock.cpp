#include "step_clock.hpp"

#include <algorithm>
#include <cmath>

namespace boids::viewer {

StepBudget StepClock::advance(double elapsed_s, double steps_per_s) {
    StepBudget budget;
    accumulated_steps_ += std::max(0.0, elapsed_s) * steps_per_s;
    // Up to one step plus the allowed backlog may run in one frame.
    const double limit = 1.0 + std::floor(max_backlog_s_ * steps_per_s);
    if (accumulated_steps_ > limit + 1.0) {
        budget.dropped = true;
        accumulated_steps_ = limit;
    }
    budget.steps = static_cast<long long>(std::floor(accumulated_steps_));
    accumulated_steps_ -= static_cast<double>(budget.steps);
    return budget;
}

} // namespace boids::viewer
