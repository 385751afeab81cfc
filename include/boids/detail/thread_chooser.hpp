#pragma once
/// How many threads a step uses when the user left it to the library (internal; held by Simulation).

#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>

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
///
/// A chooser with nothing to start from looks at the run queue once: where other processes are running on
/// some core at that moment, it starts on one thread and first times all threads after probe spacing's
/// share of stepping (as if a step on all threads cost at least `assumed_busy_ms`), so that a short run on a
/// busy machine never waits for a time slice; otherwise it starts on all threads.
///
/// What a chooser has learned outlives its Simulation: each step leaves it in a `ThreadChooser::Memory`
/// (the process's own, unless a test gives another), and a new chooser whose flock is of a like size
/// starts from it if it is recent. A program that makes many short Simulations (a sweep, the bench, a
/// notebook re-running a cell) then learns a busy machine once, not in the first steps of every run,
/// each of which would wait a time slice on all threads.
class ThreadChooser {
public:
    using Clock = std::chrono::steady_clock;

    /// The timings behind a choice: what a chooser hands to the next one.
    struct State {
        /// The last few step times of one option; its estimate is their mean.
        struct Option {
            std::array<double, 3> ms{};
            int samples = 0;
            void add(double t);
            [[nodiscard]] double estimate() const;
        };
        Option all, one;
        bool on_one = false;       ///< the option in use: one thread, else all
        bool started_busy = false; ///< started on one thread, other processes running: all not timed yet
        double since_probe_ms = 0; ///< stepping time on the option in use since the other was last timed
        int steps_since_probe = 0;
    };

    class Memory;

    /// Processes (threads) other than the caller running on some core at this moment, or -1 if unknown.
    using RunningElsewhere = int (*)();
    /// The kernel's count (/proc/loadavg's runnable entities, less the caller), the least of a few reads.
    static int running_elsewhere();

    /// What a first probe of all threads is scheduled by on a busy machine, in ms per step.
    static constexpr double assumed_busy_ms = 5.0;

    /// A chooser that leaves what it learns in, and starts from, `memory` (by default the process's), and
    /// reads the run queue with `running` (by default running_elsewhere()).
    explicit ThreadChooser(Memory* memory = nullptr, RunningElsewhere running = nullptr);

    /// Threads for the next step of a flock of `agents`, `all` (> 1) or 1.
    [[nodiscard]] int threads_for_step(int all, std::size_t agents, Clock::time_point now = Clock::now());
    /// Records that the step just taken on `threads` (as returned by threads_for_step) took `ms`.
    void record(int threads, double ms, Clock::time_point now = Clock::now());

private:
    Memory* memory_;
    RunningElsewhere running_;
    State state_;
    std::size_t agents_ = 0;
    bool started_ = false; ///< has looked into the memory
    bool probing_ = false; ///< the next step runs the other option once
};

/// The last state a chooser left, with the flock size and the time it was left at; safe to share between
/// threads (Simulations in several threads of one program each leave theirs; the latest wins).
class ThreadChooser::Memory {
public:
    /// The process's memory, which choosers use unless given another.
    static Memory& process();

    /// A new chooser of `agents` at `now` starts from the last state left if it was left within
    /// `fresh_for` by a flock within a factor of `size_factor` of this one's size.
    static constexpr Clock::duration fresh_for = std::chrono::seconds(5);
    static constexpr double size_factor = 2.0;

    void leave(const State& state, std::size_t agents, Clock::time_point now);
    /// Whether a state applies to `agents` at `now`; if so, copies it into `out`.
    bool recall(std::size_t agents, Clock::time_point now, State& out) const;

private:
    mutable std::mutex mutex_;
    State state_;
    std::size_t agents_ = 0; ///< 0: nothing left yet
    Clock::time_point left_at_{};
};

} // namespace boids::detail
