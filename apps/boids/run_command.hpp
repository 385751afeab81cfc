#pragma once
// `boids run`: options and the headless run.

#include "boids/scalar.hpp"
#include "boids/scenario.hpp"

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
    std::vector<std::string> settings; ///< key=value
    std::string boids, scouts1, scouts2, predators;
    std::string seed;
    std::string init_file;
    std::string steps = "1000";
    std::string dump_file;
    std::string precision = "f32";
    std::string threads = "0";
    std::string record_file; ///< --record: a video (.mp4/.gif, one frame per step) or the last frame (.png)
    std::string frame_size = "960x720";
    std::string record_every = "1"; ///< --record-every: one video frame every K steps
};

/// A validated run: everything resolved into engine types.
struct RunPlan {
    Scenario scenario;
    std::optional<std::string> init_file;
    long long steps = 0;
    std::optional<std::string> dump_file;
    Precision precision = Precision::F32;
    int threads = 0;
    std::optional<std::string> record_file;
    int frame_width = 960;
    int frame_height = 720;
    long long record_every = 1;
};

/// Parses a frame count in [0, 10^9]. Throws InputError naming `flag`.
[[nodiscard]] long long parse_frames(const std::string& flag, const std::string& text);

/// Parses a frame size "WxH" (each in [16, 8192]). Throws InputError naming `flag`.
[[nodiscard]] std::pair<int, int> parse_frame_size(const std::string& flag, const std::string& text);

/// Resolves the options (preset or file, then --set, counts and seed). Throws InputError.
[[nodiscard]] RunPlan make_run_plan(const RunOptions& options);

/// Runs headless and prints the summary to stdout. Throws InputError for unreadable/unwritable files.
void run_headless(const RunPlan& plan);

} // namespace boids::cli
