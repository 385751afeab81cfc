#pragma once
// Fixed-rate stepping decoupled from the frame rate, without a death spiral. No GL here.

namespace boids::viewer {

/// How many simulation steps a frame should take.
struct StepBudget {
    long long steps = 0;
    bool dropped = false; ///< backlog beyond the catch-up limit was dropped: the step cannot keep the rate
};

/// Accumulates real time and converts it to whole steps at a fixed rate (the lab's constant 30 steps/s).
/// When stepping falls behind by more than `max_backlog_s`, the excess is dropped instead of being
/// caught up later (which would make every frame slower still: the death spiral), and the frame says so.
class StepClock {
public:
    explicit StepClock(double max_backlog_s = 0.1) : max_backlog_s_(max_backlog_s) {}

    /// Steps due after `elapsed_s` of real time at `steps_per_s` (> 0).
    StepBudget advance(double elapsed_s, double steps_per_s);

    /// Forgets any accumulated time (after a pause, a reset or a rate change).
    void reset() { accumulated_steps_ = 0.0; }

private:
    double max_backlog_s_;
    double accumulated_steps_ = 0.0;
};

} // namespace boids::viewer
