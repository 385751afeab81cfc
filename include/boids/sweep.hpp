#pragma once
/// Parameter sweeps like NetLogo's BehaviorSpace: every combination of the values of several varied keys
/// (full factorial) times a number of seeds, each run's chosen metrics averaged over time and, on request,
/// sampled as a series. `boids sweep` (files, resume) and Python's boids.sweep() (arrays) are built on it.
///
/// The run list is a plain function of the plan (sweep_runs), so any engine can deal the runs out: the
/// threads of run_sweep_runs here, or processes elsewhere; a run's result depends only on the plan and
/// the run, never on who ran it or how many ran at once.

#include "boids/scalar.hpp"
#include "boids/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace boids {

/// One value of a sweep axis: the number applied and its text (shortest round-trip form, a whole number
/// for agent counts), which output files show and a resumed sweep matches.
struct SweepValue {
    double value = 0.0;
    std::string text;
};

/// One varied key and its values, in the order they are run.
struct SweepAxis {
    std::string key;
    std::vector<SweepValue> values;
};

/// The most values one axis may have, and the most runs (combinations times seeds) a sweep may have.
inline constexpr long long max_sweep_values = 100'000;
inline constexpr long long max_sweep_runs = 10'000'000;

/// True for a key a sweep can vary: a numeric parameter (see param_table()), an agent count (boids,
/// scouts1, scouts2, predators) or scouts1_fraction (the share of scouts1 among boids + scouts1, their
/// total held).
[[nodiscard]] bool is_sweep_key(std::string_view key);

/// True for the agent counts (boids, scouts1, scouts2, predators): keys whose values are whole numbers.
[[nodiscard]] bool is_count_sweep_key(std::string_view key);

/// Parses one axis, KEY=START:STOP:COUNT[:log] (COUNT values evenly or, with log, geometrically spaced,
/// both ends included; values equal after rounding kept once) or KEY=V1,V2,... (the values as given).
/// Agent counts are rounded to whole numbers. `field` names the source in messages (e.g. "--vary").
/// Throws InputError naming the field, the text and what is allowed.
[[nodiscard]] SweepAxis parse_sweep_axis(std::string_view field, const std::string& spec);

/// An axis from explicit values (at least one; no value twice; whole numbers for agent counts;
/// scouts1_fraction in [0, 1]). Throws InputError naming `field`.
[[nodiscard]] SweepAxis make_sweep_axis(std::string_view field, const std::string& key,
                                        std::span<const double> values);

/// Metric names from a comma-separated list (`all` = every metric, in metric_names() order). Throws
/// InputError naming `field` and the allowed names.
[[nodiscard]] std::vector<std::string> parse_sweep_metrics(std::string_view field, const std::string& list);

/// What a sweep runs. Build it, then validate_sweep().
struct SweepPlan {
    Scenario scenario; ///< the scene every run starts from (its seed is not used: see base_seed)
    std::vector<SweepAxis> axes;
    long long seeds = 1; ///< runs per combination, with seeds base_seed, base_seed + 1, ...
    std::uint64_t base_seed = default_seed;
    long long steps = 1000; ///< steps per run
    long long burn_in = 0;  ///< steps before averaging starts
    long long every = 1;    ///< steps between averaged samples after the burn-in
    std::vector<std::string> metrics{"polarization"};
    long long series_every = 0; ///< 0: no series; else one sample at step 0 and every series_every steps
    Precision precision = Precision::F32;
};

/// Checks a plan: at least one axis, no key twice, each key used by the scene's model, the counts and
/// step options in range, the metric names, and the scenario of every combination of values. `axes_field`
/// names the axes in messages ("--vary" for the CLI). Throws InputError.
void validate_sweep(const SweepPlan& plan, std::string_view axes_field);

/// One run of a sweep: the index of its value on each axis (in axis order) and its seed.
struct SweepRun {
    std::vector<std::size_t> point;
    std::uint64_t seed = 0;
};

/// Every run of a sweep in its fixed order: the first axis varies slowest, then the next, the seed
/// fastest (for axes a, b: a0 b0 s0, a0 b0 s1, a0 b1 s0, ...). Run i of this list is "run i" in files.
[[nodiscard]] std::vector<SweepRun> sweep_runs(const SweepPlan& plan);

/// The number of runs, without building the list.
[[nodiscard]] std::size_t sweep_run_count(const SweepPlan& plan);

/// The scenario of one run: the plan's scene with the run's values applied in axis order (a later axis
/// sees the counts an earlier one set), and the run's seed as spawn seed and noise seed.
[[nodiscard]] Scenario sweep_scenario(const SweepPlan& plan, const SweepRun& run);

/// The steps at which a run samples its series (empty without a series).
[[nodiscard]] std::vector<long long> sweep_series_steps(const SweepPlan& plan);

/// What one run measured.
struct SweepResult {
    std::vector<double> averages; ///< per metric: the mean over the samples after the burn-in
    std::vector<double> series;   ///< per series step, per metric (row-major): the sampled values
};

/// Runs one run on the calling thread (single-threaded).
[[nodiscard]] SweepResult run_sweep_run(const SweepPlan& plan, const SweepRun& run);

/// Runs `runs` on `workers` threads (0 = one per core), each run single-threaded, and hands each result
/// to `deliver(i, result)` in index order, one call at a time, as soon as it and every earlier one are
/// done. The first exception (from a run or from `deliver`) stops the workers and is rethrown here.
/// Returns the number of workers used (at most one per run).
int run_sweep_runs(const SweepPlan& plan, std::span<const SweepRun> runs, int workers,
                   const std::function<void(std::size_t, SweepResult&&)>& deliver);

} // namespace boids
