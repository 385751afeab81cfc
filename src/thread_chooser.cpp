#include "boids/detail/thread_chooser.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace boids::detail {

namespace {

/// The other option is timed again once this many times its estimated step has passed on the one in use
/// (so a probe costs at most about 1/probe_spacing of the time), and never within min_steps_between.
constexpr double probe_spacing = 32.0;
constexpr int min_steps_between = 4;
/// The other option must be this much faster to be taken (measurements of equal options differ a little).
constexpr double switch_margin = 0.85;

} // namespace

void ThreadChooser::State::Option::add(double t) {
    std::rotate(ms.begin(), ms.begin() + 1, ms.end());
    ms.back() = t;
    samples = std::min<int>(samples + 1, static_cast<int>(ms.size()));
}

double ThreadChooser::State::Option::estimate() const {
    // The mean, not the median: on a busy machine the steps on all threads are mostly quick but some wait
    // a whole time slice, and those decide the throughput.
    double sum = 0;
    for (std::size_t k = ms.size() - static_cast<std::size_t>(samples); k < ms.size(); ++k) {
        sum += ms[k];
    }
    return sum / samples;
}

ThreadChooser::ThreadChooser(Memory* memory, RunningElsewhere running)
    : memory_(memory != nullptr ? memory : &Memory::process()),
      running_(running != nullptr ? running : &running_elsewhere) {}

int ThreadChooser::running_elsewhere() {
    // /proc/loadavg: "0.52 0.58 0.59 3/512 12345", the fourth field runnable entities / all; the reader is
    // one of the runnable. The least of three reads half a millisecond apart leaves out what only flickers
    // (a shell pipeline's other programs as they start, before they wait for input). This process's own
    // worker threads count while they spin after a parallel region: at worst a chooser then starts on one
    // thread and finds all threads faster at its first probe.
    int least = -1;
    for (int read = 0; read < 3; ++read) {
        if (read > 0) {
            std::this_thread::sleep_for(std::chrono::microseconds(500));
        }
        std::FILE* file = std::fopen("/proc/loadavg", "r");
        if (file == nullptr) {
            return -1;
        }
        double one = 0, five = 0, fifteen = 0;
        int runnable = 0, all = 0;
        const int fields = std::fscanf(file, "%lf %lf %lf %d/%d", &one, &five, &fifteen, &runnable, &all);
        std::fclose(file);
        if (fields != 5) {
            return -1;
        }
        least = least < 0 ? runnable - 1 : std::min(least, runnable - 1);
    }
    return std::max(least, 0);
}

int ThreadChooser::threads_for_step(int all, std::size_t agents, Clock::time_point now) {
    if (all <= 1) {
        return 1;
    }
    if (!started_) {
        started_ = true;
        if (!memory_->recall(agents, now, state_) && running_() >= 1) {
            state_.on_one = true;
            state_.started_busy = true;
        }
    }
    agents_ = agents;
    const State::Option& other = state_.on_one ? state_.all : state_.one;
    // All threads not yet timed after a busy start: as if they cost assumed_busy_ms a step (a time slice
    // waited for); otherwise an option not yet timed is timed after min_steps_between steps.
    const double other_ms = other.samples > 0     ? other.estimate()
                            : state_.started_busy ? assumed_busy_ms
                                                  : 0.0;
    probing_ =
        state_.steps_since_probe >= min_steps_between && state_.since_probe_ms >= probe_spacing * other_ms;
    return state_.on_one != probing_ ? 1 : all;
}

void ThreadChooser::record(int threads, double ms, Clock::time_point now) {
    State& s = state_;
    (threads == 1 ? s.one : s.all).add(ms);
    if (probing_) {
        probing_ = false;
        s.since_probe_ms = 0;
        s.steps_since_probe = 0;
    } else {
        s.since_probe_ms += ms;
        ++s.steps_since_probe;
    }
    const State::Option& in_use = s.on_one ? s.one : s.all;
    const State::Option& other = s.on_one ? s.all : s.one;
    if (other.samples > 0 && in_use.samples > 0 && other.estimate() < switch_margin * in_use.estimate()) {
        s.on_one = !s.on_one;
        s.since_probe_ms = 0;
        s.steps_since_probe = 0;
    }
    memory_->leave(s, agents_, now);
}

ThreadChooser::Memory& ThreadChooser::Memory::process() {
    static Memory memory;
    return memory;
}

void ThreadChooser::Memory::leave(const State& state, std::size_t agents, Clock::time_point now) {
    const std::lock_guard lock(mutex_);
    state_ = state;
    agents_ = agents;
    left_at_ = now;
}

bool ThreadChooser::Memory::recall(std::size_t agents, Clock::time_point now, State& out) const {
    const std::lock_guard lock(mutex_);
    const auto size = static_cast<double>(agents);
    const auto left_size = static_cast<double>(agents_);
    if (agents_ == 0 || now - left_at_ > fresh_for || size > size_factor * left_size ||
        left_size > size_factor * size) {
        return false;
    }
    out = state_;
    return true;
}

} // namespace boids::detail
