#pragma once
// `boids run`: options and the headless run.

#include "boids/scalar.hpp"
#include "boids/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace boids::cli {

/// What the user asked for on the command line, before validation.
struct RunOptions {
    bool headless = false;
    std::string preset;
    std::string scenario_file;
    std::vector<std::string> settings; ///< key=value
    std::string boids, scouts1, scouts2, predators;
    std::string seed;
    std::string init_file;
    std::string steps = "1000";
    std::string dump_file;
    std::string precision = "f32";
    std::string threads = "0";
    std::string metrics_file;           ///< metrics CSV (--metrics)
    std::string metrics_every = "1";    ///< steps between metrics rows
    std::string trajectory_file;        ///< .csv or .npy (--trajectory)
    std::string trajectory_every = "1"; ///< steps between trajectory frames
};

/// A validated run: everything resolved into engine types.
struct RunPlan {
    Scenario scenario;
    std::optional<std::string> init_file;
    long long steps = 0;
    std::optional<std::string> dump_file;
    Precision precision = Precision::F32;
    int threads = 0;
    std::optional<std::string> metrics_file;
    long long metrics_every = 1;
    std::optional<std::string> trajectory_file;
    long long trajectory_every = 1;
};

/// Parses a whole-string integer option in [lo, hi]; the message names the flag, the value and the range.
[[nodiscard]] long long parse_integer(std::string_view flag, const std::string& value, long long lo,
                                      long long hi);

/// Applies key=value settings (--set) to a scenario's parameters. Throws InputError.
void apply_settings(Scenario& scenario, const std::vector<std::string>& settings);

/// Resolves the options (preset or file, then --set, counts and seed). Throws InputError.
[[nodiscard]] RunPlan make_run_plan(const RunOptions& options);

/// Runs headless and prints the summary to stdout. Throws InputError for unreadable/unwritable files.
void run_headless(const RunPlan& plan);

} // namespace boids::cli
