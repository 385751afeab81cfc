// The thread chooser (src/thread_chooser.cpp) fed made-up step times: it keeps the faster option, moves to
// one thread within a few steps when steps on all threads start waiting for other processes, moves back
// when the machine is quiet again, and spends little of the stepping time on the slower option.

#include "boids/detail/thread_chooser.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace boids::detail {
namespace {

struct Flight {
    int steps_on_one = 0;
    double ms = 0; ///< stepping time
    int last_threads = 0;
};

/// Steps `steps` times; a step on `threads` takes cost(threads) ms.
Flight fly(ThreadChooser& chooser, int steps, const std::function<double(int)>& cost) {
    Flight run;
    for (int s = 0; s < steps; ++s) {
        const int threads = chooser.threads_for_step(4);
        EXPECT_TRUE(threads == 1 || threads == 4) << threads;
        const double ms = cost(threads);
        chooser.record(threads, ms);
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

TEST(ThreadChooser, OneThreadAvailableIsOneThread) {
    ThreadChooser chooser;
    for (int s = 0; s < 100; ++s) {
        EXPECT_EQ(chooser.threads_for_step(1), 1);
        chooser.record(1, 1.0);
    }
}

TEST(ThreadChooser, AQuietMachineStepsOnAllThreadsAndProbesRarely) {
    ThreadChooser chooser;
    const Flight run = fly(chooser, 2000, quiet);
    EXPECT_EQ(run.last_threads, 4);
    // The probes on one thread cost at most a few percent of the time all threads alone would take.
    EXPECT_LT(run.ms, 1.05 * 2000 * quiet(4)) << run.steps_on_one << " steps on one thread";
    EXPECT_GE(run.steps_on_one, 1); // it does look
}

TEST(ThreadChooser, ABusyMachineMovesToOneThreadAndBackWhenQuietAgain) {
    ThreadChooser chooser;
    fly(chooser, 200, quiet);
    // The load arrives: within a few steps the chooser is on one thread, and the probes on all threads
    // cost a few percent over one thread alone.
    const Flight first = fly(chooser, 10, busy);
    EXPECT_EQ(first.last_threads, 1);
    const Flight loaded = fly(chooser, 3000, busy);
    EXPECT_LT(loaded.ms, 1.1 * 3000 * busy(1)) << 3000 - loaded.steps_on_one << " steps on all threads";
    EXPECT_EQ(loaded.last_threads, 1);
    // The load leaves: back on all threads within a few probes.
    const Flight after = fly(chooser, 3000, quiet);
    EXPECT_EQ(after.last_threads, 4);
    const Flight settled = fly(chooser, 1000, quiet);
    EXPECT_LT(settled.ms, 1.05 * 1000 * quiet(4));
}

TEST(ThreadChooser, EqualOptionsDoNotFlap) {
    ThreadChooser chooser;
    int switches = 0, last = 0;
    for (int s = 0; s < 1000; ++s) {
        const int threads = chooser.threads_for_step(2);
        chooser.record(threads, s % 2 == 0 ? 1.0 : 1.05);
        switches += threads != last;
        last = threads;
    }
    EXPECT_LT(switches, 100); // only the probes and their returns
}

} // namespace
} // namespace boids::detail
