#include "boids/detail/thread_chooser.hpp"

#include <algorithm>

namespace boids::detail {

namespace {

/// The other option is timed again once this many times its estimated step has passed on the one in use
/// (so a probe costs at most about 1/probe_spacing of the time), and never within min_steps_between.
constexpr double probe_spacing = 32.0;
constexpr int min_steps_between = 4;
/// The other option must be this much faster to be taken (measurements of equal options differ a little).
constexpr double switch_margin = 0.85;

} // namespace

void ThreadChooser::Option::add(double t) {
    std::rotate(ms.begin(), ms.begin() + 1, ms.end());
    ms.back() = t;
    samples = std::min<int>(samples + 1, static_cast<int>(ms.size()));
}

double ThreadChooser::Option::estimate() const {
    // The mean, not the median: on a busy machine the steps on all threads are mostly quick but some wait
    // a whole time slice, and those decide the throughput.
    double sum = 0;
    for (std::size_t k = ms.size() - static_cast<std::size_t>(samples); k < ms.size(); ++k) {
        sum += ms[k];
    }
    return sum / samples;
}

int ThreadChooser::threads_for_step(int all) {
    if (all <= 1) {
        return 1;
    }
    const Option& other = on_one_ ? all_ : one_;
    probing_ = steps_since_probe_ >= min_steps_between &&
               (other.samples == 0 || since_probe_ms_ >= probe_spacing * other.estimate());
    return on_one_ != probing_ ? 1 : all;
}

void ThreadChooser::record(int threads, double ms) {
    (threads == 1 ? one_ : all_).add(ms);
    if (probing_) {
        probing_ = false;
        since_probe_ms_ = 0;
        steps_since_probe_ = 0;
    } else {
        since_probe_ms_ += ms;
        ++steps_since_probe_;
    }
    const Option& in_use = on_one_ ? one_ : all_;
    const Option& other = on_one_ ? all_ : one_;
    if (other.samples > 0 && in_use.samples > 0 && other.estimate() < switch_margin * in_use.estimate()) {
        on_one_ = !on_one_;
        since_probe_ms_ = 0;
        steps_since_probe_ = 0;
    }
}

} // namespace boids::detail
