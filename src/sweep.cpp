#include "boids/sweep.hpp"

#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/params.hpp"
#include "boids/precision.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "text.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace boids {

namespace {

constexpr std::string_view axis_syntax = "expected KEY=START:STOP:COUNT[:log] or KEY=V1,V2,...";

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto end = s.find(sep, start);
        parts.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) {
            return parts;
        }
        start = end + 1;
    }
}

double parse_double(const std::string& field, const std::string& text) {
    const auto value = text::parse_finite<double>(text);
    if (!value) {
        throw InputError(invalid_value_message(field, "'" + text + "'", "expected a finite number"));
    }
    return *value;
}

/// The text of an axis value: a whole number for agent counts, the shortest round-trip form otherwise.
std::string value_text(std::string_view key, double value) {
    return is_count_sweep_key(key) ? std::to_string(std::llround(value)) : text::shortest(value);
}

/// Applies one axis value to a scenario (validated by set_param / set_agent_count).
void apply_value(Scenario& sc, const std::string& key, const SweepValue& v) {
    if (key == "scouts1_fraction") {
        const long long total = sc.agents.boids + sc.agents.scouts1;
        const auto informed = static_cast<long long>(std::llround(v.value * static_cast<double>(total)));
        set_agent_count(sc.agents, "scouts1", informed);
        set_agent_count(sc.agents, "boids", total - informed);
    } else if (is_count_sweep_key(key)) {
        set_agent_count(sc.agents, key, std::llround(v.value));
    } else {
        set_param(sc.params, key, v.text);
        require_key_used(sc.params, key);
    }
}

/// Applies every axis's value of `point` to `sc`.
void apply_point(Scenario& sc, const SweepPlan& plan, const std::vector<std::size_t>& point) {
    for (std::size_t a = 0; a < plan.axes.size(); ++a) {
        apply_value(sc, plan.axes[a].key, plan.axes[a].values[point[a]]);
    }
}

/// Advances `point` like an odometer, the last axis fastest; false after the last combination.
bool next_point(std::vector<std::size_t>& point, const std::vector<SweepAxis>& axes) {
    for (std::size_t a = axes.size(); a-- > 0;) {
        if (++point[a] < axes[a].values.size()) {
            return true;
        }
        point[a] = 0;
    }
    return false;
}

void require_range(const char* field, long long value, long long lo, long long hi) {
    if (value < lo || value > hi) {
        throw InputError(invalid_value_message(field, std::to_string(value),
                                               "allowed range is [" + std::to_string(lo) + ", " +
                                                   std::to_string(hi) + "]"));
    }
}

/// The time averages and the series of one run in scalar type Real.
template <class Real>
SweepResult run_in(const SweepPlan& plan, const Scenario& sc, const std::vector<long long>& series_steps) {
    Simulation<Real> sim(sc.params, spawn_world<Real>(sc.params, sc.agents, sc.seed));
    sim.set_threads(1); // parallelism is across runs
    const std::size_t k = plan.metrics.size();
    SweepResult result{std::vector<double>(k, 0.0), {}};
    result.series.reserve(series_steps.size() * k);
    long long samples = 0;
    std::size_t next_series = 0;
    for (long long t = 0;;) {
        const bool averaged = t > plan.burn_in && (t - plan.burn_in) % plan.every == 0;
        const bool in_series = next_series < series_steps.size() && series_steps[next_series] == t;
        if (averaged || in_series) {
            const Metrics m = compute_metrics(sim.world(), sim.params(), 1);
            for (std::size_t i = 0; i < k; ++i) {
                const double x = metric_value(m, plan.metrics[i]);
                if (averaged) {
                    result.averages[i] += x;
                }
                if (in_series) {
                    result.series.push_back(x);
                }
            }
            samples += averaged ? 1 : 0;
            next_series += in_series ? 1 : 0;
        }
        if (t == plan.steps) {
            break;
        }
        // Straight to the next sample: the steps between need not stop.
        long long next = t < plan.burn_in ? plan.burn_in + plan.every
                                          : plan.burn_in + ((t - plan.burn_in) / plan.every + 1) * plan.every;
        if (next_series < series_steps.size()) {
            next = std::min(next, series_steps[next_series]);
        }
        next = std::min(next, plan.steps);
        sim.step(next - t);
        t = next;
    }
    for (double& s : result.averages) {
        s /= static_cast<double>(samples);
    }
    return result;
}

/// Refuses a metric named twice (its columns would share a name).
void require_distinct_metrics(std::string_view field, const std::vector<std::string>& metrics) {
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        if (std::find(metrics.begin(), metrics.begin() + static_cast<std::ptrdiff_t>(i), metrics[i]) !=
            metrics.begin() + static_cast<std::ptrdiff_t>(i)) {
            throw InputError(invalid_value_message(std::string(field), "'" + metrics[i] + "'",
                                                   "each metric may be named once; this one is named twice"));
        }
    }
}

} // namespace

bool is_count_sweep_key(std::string_view key) {
    return key == "boids" || key == "scouts1" || key == "scouts2" || key == "predators";
}

bool is_sweep_key(std::string_view key) {
    if (is_count_sweep_key(key) || key == "scouts1_fraction") {
        return true;
    }
    const ParamInfo* info = find_param(key);
    return info != nullptr && info->kind == std::string_view("number");
}

SweepAxis parse_sweep_axis(std::string_view field, const std::string& spec) {
    const std::string f(field);
    const auto bad = [&](const std::string& why) {
        return InputError(invalid_value_message(f, "'" + spec + "'", why));
    };
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw bad(std::string(axis_syntax));
    }
    const std::string key = spec.substr(0, eq);
    const std::string rest = spec.substr(eq + 1);
    if (rest.empty()) {
        throw bad("the axis has no values; " + std::string(axis_syntax));
    }
    if (rest.find(':') == std::string::npos) {
        std::vector<double> values;
        for (const std::string& v : split(rest, ',')) {
            values.push_back(parse_double(f + " " + key, v));
        }
        return make_sweep_axis(field, key, values);
    }
    const auto parts = split(rest, ':');
    if (parts.size() != 3 && !(parts.size() == 4 && parts[3] == "log")) {
        throw bad(std::string(axis_syntax));
    }
    const double start = parse_double(f + " START", parts[0]);
    const double stop = parse_double(f + " STOP", parts[1]);
    const long long count = [&] {
        const auto n = text::parse_finite<long long>(parts[2]);
        if (!n || *n < 1 || *n > max_sweep_values) {
            throw InputError(invalid_value_message(f + " COUNT", "'" + parts[2] + "'",
                                                   "expected an integer in [1, " +
                                                       std::to_string(max_sweep_values) + "]"));
        }
        return *n;
    }();
    const bool log = parts.size() == 4;
    if (log && !(start > 0.0 && stop > 0.0)) {
        throw bad("a log sweep needs START > 0 and STOP > 0");
    }
    if (key == "scouts1_fraction" && !(start >= 0.0 && start <= 1.0 && stop >= 0.0 && stop <= 1.0)) {
        throw bad("scouts1_fraction must lie in [0, 1]");
    }
    SweepAxis axis{key, {}};
    std::set<std::string> seen;
    for (long long i = 0; i < count; ++i) {
        const double f01 = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
        double v = log ? start * std::pow(stop / start, f01) : start + (stop - start) * f01;
        if (i == count - 1) {
            v = stop; // exactly the endpoint, whatever the rounding
        }
        if (is_count_sweep_key(key)) {
            v = static_cast<double>(std::llround(v));
        }
        std::string t = value_text(key, v);
        if (seen.insert(t).second) { // counts rounded to the same number are run once
            axis.values.push_back({v, std::move(t)});
        }
    }
    return axis;
}

SweepAxis make_sweep_axis(std::string_view field, const std::string& key, std::span<const double> values) {
    const std::string f = std::string(field) + " " + key;
    if (values.empty()) {
        throw InputError(f + ": the axis has no values; give at least one");
    }
    if (values.size() > static_cast<std::size_t>(max_sweep_values)) {
        throw InputError(invalid_value_message(f, std::to_string(values.size()) + " values",
                                               "at most " + std::to_string(max_sweep_values) + " per axis"));
    }
    SweepAxis axis{key, {}};
    std::set<std::string> seen;
    for (const double v : values) {
        if (!std::isfinite(v)) {
            throw InputError(invalid_value_message(f, text::shortest(v), "expected a finite number"));
        }
        if (is_count_sweep_key(key) && v != std::round(v)) {
            throw InputError(
                invalid_value_message(f, text::shortest(v), "an agent count must be a whole number"));
        }
        if (key == "scouts1_fraction" && !(v >= 0.0 && v <= 1.0)) {
            throw InputError(
                invalid_value_message(f, text::shortest(v), "scouts1_fraction must lie in [0, 1]"));
        }
        std::string t = value_text(key, v);
        if (!seen.insert(t).second) {
            throw InputError(
                invalid_value_message(f, t, "each value may appear once; this one is given twice"));
        }
        axis.values.push_back({v, std::move(t)});
    }
    return axis;
}

std::vector<std::string> parse_sweep_metrics(std::string_view field, const std::string& list) {
    std::vector<std::string> metrics;
    for (const std::string& m : split(list, ',')) {
        if (m == "all") {
            metrics.insert(metrics.end(), metric_names().begin(), metric_names().end());
            continue;
        }
        try {
            (void)metric_value(Metrics{}, m); // throws naming the allowed metrics
        } catch (const InputError& e) {
            throw InputError(std::string(field) + ": " + e.what() + " (or all)");
        }
        metrics.push_back(m);
    }
    require_distinct_metrics(field, metrics);
    return metrics;
}

void validate_sweep(const SweepPlan& plan, std::string_view axes_field) {
    const std::string field(axes_field);
    if (plan.axes.empty()) {
        throw InputError(field + ": missing; give at least one varied key (" + std::string(axis_syntax) +
                         ")");
    }
    const std::string model(model_name(plan.scenario.params.model));
    for (std::size_t a = 0; a < plan.axes.size(); ++a) {
        const SweepAxis& axis = plan.axes[a];
        if (!is_sweep_key(axis.key)) {
            throw InputError(invalid_value_message(
                field, "'" + axis.key + "'",
                "KEY must be a numeric parameter of the " + model +
                    " model (see `boids params`), boids, scouts1, scouts2, predators or scouts1_fraction"));
        }
        if (axis.values.empty()) {
            throw InputError(field + " " + axis.key + ": the axis has no values; give at least one");
        }
        for (std::size_t b = 0; b < a; ++b) {
            if (plan.axes[b].key == axis.key) {
                throw InputError(invalid_value_message(
                    field, "'" + axis.key + "'", "each key may be varied once; this one is given twice"));
            }
        }
    }
    require_range("seeds", plan.seeds, 1, 1'000'000);
    const auto max_seed = static_cast<long long>(find_param("noise_seed")->max);
    if (plan.base_seed > static_cast<std::uint64_t>(max_seed - plan.seeds + 1)) {
        throw InputError(invalid_value_message("seed", std::to_string(plan.base_seed),
                                               "the last run's seed (seed + seeds - 1) must not exceed " +
                                                   std::to_string(max_seed)));
    }
    require_range("steps", plan.steps, 1, 1'000'000'000'000LL);
    require_range("burn_in", plan.burn_in, 0, plan.steps - 1);
    require_range("every", plan.every, 1, plan.steps - plan.burn_in);
    if (plan.series_every != 0) {
        require_range("series_every", plan.series_every, 1, plan.steps);
    }
    if (plan.metrics.empty()) {
        throw InputError("metrics: missing; give at least one of " + [] {
            std::string names;
            for (std::string_view n : metric_names()) {
                names += (names.empty() ? "" : " | ") + std::string(n);
            }
            return names;
        }());
    }
    for (const std::string& m : plan.metrics) {
        (void)metric_value(Metrics{}, m); // throws naming the allowed metrics
    }
    require_distinct_metrics("metrics", plan.metrics);
    // Counted in long double: a product of axis sizes cannot overflow before it is refused.
    long double runs = static_cast<long double>(plan.seeds);
    for (const SweepAxis& axis : plan.axes) {
        runs *= static_cast<long double>(axis.values.size());
    }
    if (runs > static_cast<long double>(max_sweep_runs)) {
        throw InputError(invalid_value_message(
            field, std::to_string(static_cast<unsigned long long>(runs)) + " runs (values x seeds)",
            "a sweep may have at most " + std::to_string(max_sweep_runs)));
    }
    // Every combination's scenario, before any runs: a bad one is named up front, not after hours.
    std::vector<std::size_t> point(plan.axes.size(), 0);
    do {
        Scenario sc = plan.scenario;
        try {
            apply_point(sc, plan, point);
            validate(sc.params);
        } catch (const InputError& e) {
            std::string values;
            for (std::size_t a = 0; a < point.size(); ++a) {
                values +=
                    (a == 0 ? " " : ", ") + plan.axes[a].key + " = " + plan.axes[a].values[point[a]].text;
            }
            throw InputError(field + values + ": " + e.what());
        }
    } while (next_point(point, plan.axes));
}

std::size_t sweep_run_count(const SweepPlan& plan) {
    std::size_t runs = static_cast<std::size_t>(plan.seeds);
    for (const SweepAxis& axis : plan.axes) {
        runs *= axis.values.size();
    }
    return runs;
}

std::vector<SweepRun> sweep_runs(const SweepPlan& plan) {
    std::vector<SweepRun> runs;
    runs.reserve(sweep_run_count(plan));
    std::vector<std::size_t> point(plan.axes.size(), 0);
    if (std::any_of(plan.axes.begin(), plan.axes.end(),
                    [](const SweepAxis& a) { return a.values.empty(); })) {
        return runs;
    }
    do {
        for (long long s = 0; s < plan.seeds; ++s) {
            runs.push_back({point, plan.base_seed + static_cast<std::uint64_t>(s)});
        }
    } while (next_point(point, plan.axes));
    return runs;
}

Scenario sweep_scenario(const SweepPlan& plan, const SweepRun& run) {
    Scenario sc = plan.scenario;
    sc.seed = run.seed;
    sc.params.noise_seed = static_cast<double>(run.seed); // first, so that an axis over noise_seed wins
    apply_point(sc, plan, run.point);
    return sc;
}

std::vector<long long> sweep_series_steps(const SweepPlan& plan) {
    std::vector<long long> steps;
    if (plan.series_every > 0) {
        for (long long t = 0; t <= plan.steps; t += plan.series_every) {
            steps.push_back(t);
        }
    }
    return steps;
}

SweepResult run_sweep_run(const SweepPlan& plan, const SweepRun& run) {
    const Scenario sc = sweep_scenario(plan, run);
    const std::vector<long long> series_steps = sweep_series_steps(plan);
    return with_precision(plan.precision, [&]<class Real>() { return run_in<Real>(plan, sc, series_steps); });
}

int run_sweep_runs(const SweepPlan& plan, std::span<const SweepRun> runs, int workers,
                   const std::function<void(std::size_t, SweepResult&&)>& deliver) {
    // Workers take runs in order; results are delivered in run order (a finished run waits for the earlier
    // ones), so what a deliver call sees never depends on the number of workers or on their timing.
    std::vector<std::optional<SweepResult>> results(runs.size());
    std::size_t next_to_deliver = 0;
    std::atomic<std::size_t> next_run{0};
    std::mutex mutex;
    std::exception_ptr failure;
    const auto stop = [&](std::exception_ptr e) {
        failure = failure ? failure : std::move(e);
        next_run = runs.size();
    };
    const auto work = [&] {
        while (true) {
            const std::size_t i = next_run.fetch_add(1);
            if (i >= runs.size()) {
                return;
            }
            std::optional<SweepResult> result;
            try {
                result = run_sweep_run(plan, runs[i]);
            } catch (...) {
                const std::lock_guard lock(mutex);
                stop(std::current_exception());
                return;
            }
            const std::lock_guard lock(mutex);
            results[i] = std::move(result);
            while (!failure && next_to_deliver < results.size() && results[next_to_deliver]) {
                try {
                    deliver(next_to_deliver, std::move(*results[next_to_deliver]));
                } catch (...) {
                    stop(std::current_exception());
                    return;
                }
                results[next_to_deliver].reset();
                ++next_to_deliver;
            }
        }
    };
    const int available = workers > 0 ? workers : static_cast<int>(std::thread::hardware_concurrency());
    const auto count = static_cast<int>(
        std::max<std::size_t>(1, std::min(runs.size(), static_cast<std::size_t>(std::max(1, available)))));
    std::vector<std::thread> pool;
    for (int t = 0; t < count; ++t) {
        pool.emplace_back(work);
    }
    for (auto& t : pool) {
        t.join();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
    return count;
}

} // namespace boids
