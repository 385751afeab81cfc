#pragma once
/// How many threads a step uses when the user left it to the library (internal; held by Simulation).

#include <array>

namespace boids::detail {

/// Chooses between all the threads and one, by the step times it measures.
///
/// A step's phases meet at barriers; on a machine whose cores are held by other processes each barrier
/// waits for a descheduled thread's next time slice, and a step of a few milliseconds can take ten times
/// as long on all threads as on one. No load figure says this in advance (the load average lags by a
/// minute and counts this process), so the chooser times both: it keeps the option that has been faster
/// over its last few steps, and now and then runs a step on the other to see whether that has changed.
/// The probes are spaced so that they cost at most about 1/32 of the stepping time even when the other
/// option is much slower. Any thread count gives the same bits, so this is purely a matter of speed.
class ThreadChooser {
public:
    /// Threads for the next step, `all` (> 1) or 1.
    [[nodiscard]] int threads_for_step(int all);
    /// Records that the step just taken on `threads` (as returned by threads_for_step) took `ms`.
    void record(int threads, double ms);

private:
    /// The last few step times of one option; its estimate is their mean.
    struct Option {
        std::array<double, 3> ms{};
        int samples = 0;
        void add(double t);
        [[nodiscard]] double estimate() const;
    };
    Option all_, one_;
    bool on_one_ = false;       ///< the option in use: one thread, else all
    bool probing_ = false;      ///< the next step runs the other option once
    double since_probe_ms_ = 0; ///< stepping time on the option in use since the other was last timed
    int steps_since_probe_ = 0;
};

} // namespace boids::detail
