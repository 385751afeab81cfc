#pragma once
// `boids run`: options and the headless run.

#include "boids/scalar.hpp"
#include "boids/scenario.hpp"
#include "boids/trace.hpp"
#include "boids/world.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace boids::cli {

/// What the user asked for on the command line, before validation.
struct RunOptions {
    bool headless = false;
    std::string preset;
    std::string scenario_file;
    std::vector<std::string> settings;  ///< key=value
    std::vector<std::string> obstacles; ///< "circle X Y R" | "rect X0 Y0 X1 Y1"
    std::vector<std::string> food;      ///< "X Y [RANGE [STRENGTH]]"
    std::string boids, scouts1, scouts2, predators;
    std::string seed;
    std::string init_file;
    std::string steps;   ///< empty = 1000, or until `quit` with --control
    std::string control; ///< --control PORT: serve the control port while running
    std::string control_host = "127.0.0.1";
    std::string rate; ///< steps per second with --control
    std::string dump_file;
    std::string precision = "f32";
    std::string threads = "0";
    std::string update;         ///< synchronous | sequential (sets the `update` parameter)
    std::string speed_estimate; ///< exact | alpha-max-beta-min (sets `speed_estimate`)
    std::string trace_file;
    std::string trace_every = "1";
    std::string trace_format = "csv";
    std::string command_line; ///< recorded in trace headers
    std::string record_file;  ///< --record: a video (.mp4/.gif, one frame per step) or the last frame (.png)
    std::string frame_size = "960x720";
    std::string record_every = "1";     ///< --record-every: one video frame every K steps
    std::string record_fps;             ///< --fps: the video's frames per second (empty: as the flock flew)
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
    bool steps_given = false;        ///< --steps was on the command line
    std::optional<int> control_port; ///< serve the control port (0 = any free port)
    std::string control_host = "127.0.0.1";
    double rate = 0.0; ///< steps per second with --control; 0 = as fast as possible
    std::optional<std::string> dump_file;
    Precision precision = Precision::F32;
    int threads = 0;
    std::optional<std::string> trace_file;
    long long trace_every = 1;
    TraceFormat trace_format = TraceFormat::Csv;
    std::string command_line;
    std::optional<std::string> record_file;
    int frame_width = 960;
    int frame_height = 720;
    long long record_every = 1;
    int record_fps = 0; ///< 0: the scene's rate over record_every, so the video plays as the flock flew
    std::optional<std::string> metrics_file;
    long long metrics_every = 1;
    std::optional<std::string> trajectory_file;
    long long trajectory_every = 1;
};

/// Parses a frame count in [0, 10^9]. Throws InputError naming `flag`.
[[nodiscard]] long long parse_frames(const std::string& flag, const std::string& text);

/// Parses a frame size "WxH" (each in [16, 8192]). Throws InputError naming `flag`.
[[nodiscard]] std::pair<int, int> parse_frame_size(const std::string& flag, const std::string& text);

/// Parses a whole-string integer option in [lo, hi]; the message names the flag, the value and the range.
[[nodiscard]] long long parse_integer(std::string_view flag, const std::string& value, long long lo,
                                      long long hi);

/// Applies key=value settings (--set) to a scenario's parameters. Throws InputError.
void apply_settings(Scenario& scenario, const std::vector<std::string>& settings);

/// Resolves the options (preset or file, then --set, counts and seed). Throws InputError.
[[nodiscard]] RunPlan make_run_plan(const RunOptions& options);

/// Prints a run's summary: scene, `workers` (threads, ranks), steps, agents, timing (`per_step`), flock
/// measures and the state hash.
template <class Real>
void print_summary(const RunPlan& plan, const World<Real>& world, const Params& params,
                   const std::string& workers, const std::string& per_step, long long steps, double seconds);

/// Opens a metrics CSV and writes its header. Throws InputError when it cannot be created.
[[nodiscard]] std::FILE* open_metrics(const std::string& path);

/// Runs headless and prints the summary to stdout. Throws InputError for unreadable/unwritable files.
/// With a control port, serves it while running (see docs/USER_GUIDE.md, "The control port").
void run_headless(const RunPlan& plan);

} // namespace boids::cli
