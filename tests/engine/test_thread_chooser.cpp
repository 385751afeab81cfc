// The thread chooser (src/thread_chooser.cpp) fed made-up step times: it keeps the faster option, moves to
// one thread within a few steps when steps on all threads start waiting for other processes, moves back
// when the machine is quiet again, spends little of the stepping time on the slower option, and hands what
// it learned to the next chooser of a like flock, so that many short runs learn a busy machine once; and a
// chooser with nothing to start from starts on one thread where other processes are running.

#include "boids/detail/thread_chooser.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>

namespace boids::detail {
namespace {

using Clock = ThreadChooser::Clock;
constexpr std::size_t flock = 10'000;

struct Flight {
    int steps_on_one = 0;
    double ms = 0; ///< stepping time
    int last_threads = 0;
};

/// Steps `steps` times; a step on `threads` takes cost(threads) ms, by the clock `now`.
Flight fly(ThreadChooser& chooser, int steps, const std::function<double(int)>& cost,
           Clock::time_point& now) {
    Flight run;
    for (int s = 0; s < steps; ++s) {
        const int threads = chooser.threads_for_step(4, flock, now);
        EXPECT_TRUE(threads == 1 || threads == 4) << threads;
        const double ms = cost(threads);
        now += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
        chooser.record(threads, ms, now);
        run.steps_on_one += threads == 1;
        run.ms += ms;
        run.last_threads = threads;
    }
    return run;
}

double quiet(int threads) {
    return threads == 1 ? 2.0 : 0.6;
}
double busy(int threads) {
    return threads == 1 ? 4.0 : 40.0; // every barrier waits for a time slice
}

/// The run queue as a test sets it, not as the machine running the tests has it.
int nobody_running() {
    return 0;
}
int two_running() {
    return 2;
}

/// A chooser with a memory of its own, so that the tests do not hand states to each other.
struct Fixture {
    ThreadChooser::Memory memory;
    Clock::time_point now{};
    Flight fly(ThreadChooser& chooser, int steps, const std::function<double(int)>& cost) {
        return boids::detail::fly(chooser, steps, cost, now);
    }
};

TEST(ThreadChooser, OneThreadAvailableIsOneThread) {
    Fixture f;
    ThreadChooser chooser(&f.memory, nobody_running);
    for (int s = 0; s < 100; ++s) {
        EXPECT_EQ(chooser.threads_for_step(1, flock), 1);
        chooser.record(1, 1.0);
    }
}

/// 2000 steps on a quiet machine by a chooser that saw `running` at its start end on all threads, within
/// `margin` of the time all threads alone would take, having timed one thread at least once.
void expect_quiet_run_on_all_threads(ThreadChooser::RunningElsewhere running, double margin) {
    Fixture f;
    ThreadChooser chooser(&f.memory, running);
    const Flight run = f.fly(chooser, 2000, quiet);
    EXPECT_EQ(run.last_threads, 4);
    EXPECT_LT(run.ms, margin * 2000 * quiet(4)) << run.steps_on_one << " steps on one thread";
    EXPECT_GE(run.steps_on_one, 1); // it does look
}

TEST(ThreadChooser, AQuietMachineStepsOnAllThreadsAndProbesRarely) {
    // The probes on one thread cost at most a few percent of the time all threads alone would take.
    expect_quiet_run_on_all_threads(nobody_running, 1.05);
}

TEST(ThreadChooser, AFirstChooserAmongRunningProcessesStartsOnOneThread) {
    // Other processes running as it starts: a short run never steps on all threads.
    Fixture f;
    ThreadChooser chooser(&f.memory, two_running);
    const Flight short_run = f.fly(chooser, 40, busy);
    EXPECT_EQ(short_run.steps_on_one, 40);
    // A long one times all threads now and then, at a small cost, and stays on one.
    const Flight long_run = f.fly(chooser, 3000, busy);
    EXPECT_LT(long_run.steps_on_one, 3000);
    EXPECT_LT(long_run.ms, 1.1 * 3000 * busy(1));
    EXPECT_EQ(long_run.last_threads, 1);
}

TEST(ThreadChooser, AFirstChooserAmongProcessesThatStopFindsAllThreads) {
    // The processes seen at the start finish: the first probe finds all threads faster, soon enough.
    expect_quiet_run_on_all_threads(two_running, 1.15);
}

TEST(ThreadChooser, AFirstChooserOnAQuietMachineStartsOnAllThreads) {
    Fixture f;
    ThreadChooser chooser(&f.memory, nobody_running);
    EXPECT_EQ(chooser.threads_for_step(4, flock), 4);
}

TEST(ThreadChooser, ARememberedChoiceOutweighsTheRunQueue) {
    Fixture f;
    {
        ThreadChooser quiet_run(&f.memory, nobody_running);
        EXPECT_EQ(f.fly(quiet_run, 50, quiet).last_threads, 4);
    }
    ThreadChooser chooser(&f.memory, two_running);
    EXPECT_EQ(chooser.threads_for_step(4, flock, f.now + std::chrono::seconds(1)), 4);
}

TEST(ThreadChooser, TheRunQueueIsReadFromTheKernel) {
    const int running = ThreadChooser::running_elsewhere();
    EXPECT_GE(running, 0); // Linux has /proc/loadavg
    EXPECT_LT(running, 1 << 20);
}

TEST(ThreadChooser, ABusyMachineMovesToOneThreadAndBackWhenQuietAgain) {
    Fixture f;
    ThreadChooser chooser(&f.memory, nobody_running);
    f.fly(chooser, 200, quiet);
    // The load arrives: within a few steps the chooser is on one thread, and the probes on all threads
    // cost a few percent over one thread alone.
    const Flight first = f.fly(chooser, 10, busy);
    EXPECT_EQ(first.last_threads, 1);
    const Flight loaded = f.fly(chooser, 3000, busy);
    EXPECT_LT(loaded.ms, 1.1 * 3000 * busy(1)) << 3000 - loaded.steps_on_one << " steps on all threads";
    EXPECT_EQ(loaded.last_threads, 1);
    // The load leaves: back on all threads within a few probes.
    const Flight after = f.fly(chooser, 3000, quiet);
    EXPECT_EQ(after.last_threads, 4);
    const Flight settled = f.fly(chooser, 1000, quiet);
    EXPECT_LT(settled.ms, 1.05 * 1000 * quiet(4));
}

TEST(ThreadChooser, EqualOptionsDoNotFlap) {
    Fixture f;
    ThreadChooser chooser(&f.memory, nobody_running);
    int switches = 0, last = 0;
    for (int s = 0; s < 1000; ++s) {
        const int threads = chooser.threads_for_step(2, flock);
        chooser.record(threads, s % 2 == 0 ? 1.0 : 1.05);
        switches += threads != last;
        last = threads;
    }
    EXPECT_LT(switches, 100); // only the probes and their returns
}

/// Steps `runs` short runs of `steps` each, a new chooser per run, all leaving their states in `memory`.
Flight fly_short_runs(Fixture& f, ThreadChooser::Memory* memory, int runs, int steps,
                      const std::function<double(int)>& cost) {
    Flight total;
    for (int r = 0; r < runs; ++r) {
        ThreadChooser chooser(memory, nobody_running);
        const Flight run = f.fly(chooser, steps, cost);
        total.steps_on_one += run.steps_on_one;
        total.ms += run.ms;
    }
    return total;
}

TEST(ThreadChooser, ShortRunsOnABusyMachineLearnItOnce) {
    // A hundred runs of 40 steps, as the bench's rounds: without the memory each run learns the load in
    // its first steps, on all threads, each waiting a time slice; with it only the first run does.
    Fixture with_memory;
    const Flight remembered = fly_short_runs(with_memory, &with_memory.memory, 100, 40, busy);
    EXPECT_LT(remembered.ms, 1.1 * 100 * 40 * busy(1)) << 4000 - remembered.steps_on_one << " steps on all";

    Fixture forgetful;
    double forgotten_ms = 0;
    for (int r = 0; r < 100; ++r) {
        ThreadChooser::Memory own; // each run its own, empty, memory
        forgotten_ms += fly_short_runs(forgetful, &own, 1, 40, busy).ms;
    }
    EXPECT_GT(forgotten_ms, 1.5 * 100 * 40 * busy(1)); // what the memory saves
}

TEST(ThreadChooser, ANewChooserContinuesTheProbesOfTheLast) {
    // The probe schedule carries over: short runs on a quiet machine still probe one thread now and then,
    // and no more often than one long run would.
    Fixture f;
    const Flight runs = fly_short_runs(f, &f.memory, 200, 10, quiet);
    EXPECT_GE(runs.steps_on_one, 1);
    EXPECT_LT(runs.ms, 1.05 * 2000 * quiet(4));
}

TEST(ThreadChooser, AStaleOrUnlikeMemoryIsNotUsed) {
    Fixture f;
    {
        ThreadChooser busy_run(&f.memory, nobody_running);
        EXPECT_EQ(f.fly(busy_run, 50, busy).last_threads, 1);
    }
    const auto first_threads = [&](std::size_t agents, Clock::time_point at) {
        ThreadChooser chooser(&f.memory, nobody_running);
        return chooser.threads_for_step(4, agents, at);
    };
    EXPECT_EQ(first_threads(flock, f.now + std::chrono::seconds(1)), 1);         // like and recent
    EXPECT_EQ(first_threads(flock * 3 / 2, f.now + std::chrono::seconds(1)), 1); // within 2x
    EXPECT_EQ(first_threads(flock * 3, f.now + std::chrono::seconds(1)), 4);     // three times larger
    EXPECT_EQ(first_threads(flock / 3, f.now + std::chrono::seconds(1)), 4);     // three times smaller
    EXPECT_EQ(first_threads(flock, f.now + std::chrono::seconds(6)), 4);         // left 6 s ago
}

} // namespace
} // namespace boids::detail
