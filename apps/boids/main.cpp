// `boids`: the command-line front end. Exit codes: 0 success, 2 bad input (a flag, a value, an input file,
// an output path that cannot be written), 1 a failure while writing (disk full, I/O error) or an internal
// error.

#include "bench_command.hpp"
#include "boids/control_server.hpp"
#include "boids/error.hpp"
#include "boids/params.hpp"
#include "boids/scenario.hpp"
#include "boids/version.hpp"
#include "distributed_run.hpp"
#include "mpi/communicator.hpp"
#include "run_command.hpp"
#include "sweep_command.hpp"

#include <CLI/CLI.hpp>

#if BOIDS_HAVE_VIEWER
#include "video_recorder.hpp"
#include "viewer.hpp"
#endif

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

namespace {

constexpr int exit_bad_input = 2;
constexpr int exit_write_failed = 1;

/// The options that choose a scene and how it is computed, shared by `run` and `view`.
void add_scene_options(CLI::App& cmd, boids::cli::RunOptions& o) {
    cmd.add_option(
        "--preset", o.preset, "Built-in scene: " + [] {
            std::string names;
            for (const auto& n : boids::preset_names()) {
                names += (names.empty() ? "" : ", ") + n;
            }
            return names + " (default " + std::string(boids::default_preset) + ")";
        }());
    cmd.add_option("--scenario", o.scenario_file, "Scene from a TOML scenario file");
    cmd.add_option("--set", o.settings, "Override a parameter: key=value (repeatable; see `boids params`)");
    cmd.add_option("--obstacle", o.obstacles,
                   "Add an obstacle: 'circle X Y R' or 'rect X0 Y0 X1 Y1' (repeatable)");
    cmd.add_option("--food", o.food, "Add a food source: 'X Y [RANGE [STRENGTH]]' (repeatable)");
    cmd.add_option("--boids", o.boids, "Number of boids");
    cmd.add_option("--scouts1", o.scouts1, "Number of scouts biased to the right (+x)");
    cmd.add_option("--scouts2", o.scouts2, "Number of scouts biased to the left (-x)");
    cmd.add_option("--predators", o.predators, "Number of predators");
    cmd.add_option("--seed", o.seed, "Seed of the random initial state");
    cmd.add_option("--init", o.init_file, "Start from a state CSV instead of random spawning");
    cmd.add_option("--precision", o.precision,
                   "Scalar type: f32 (default) | f64 | fix15 (the lab's fixed point)");
    cmd.add_option("--threads", o.threads, "Worker threads; 0 = all (default)");
    cmd.add_option("--update", o.update,
                   "synchronous | sequential (in place, one boid after another: the lab's loop, Downey's, "
                   "PyNBoids'; the downey and pynboids presets' default)");
    cmd.add_option("--speed-estimate", o.speed_estimate, "exact (default) | alpha-max-beta-min");
}

void add_run_options(CLI::App& cmd, boids::cli::RunOptions& o) {
    cmd.add_flag("--headless", o.headless, "Run without a window and print a summary");
    add_scene_options(cmd, o);
    cmd.add_option("--steps", o.steps, "Number of steps to run (default 1000; with --control, until `quit`)");
    cmd.add_option("--dump", o.dump_file, "Write the final state CSV here");
    cmd.add_option("--trace", o.trace_file,
                   "Golden trace: write the state every --trace-every steps to FILE");
    cmd.add_option("--trace-every", o.trace_every, "Steps between traced states (default 1)");
    cmd.add_option("--trace-format", o.trace_format,
                   "csv (default) | c-header (raw fix15 arrays; needs fix15)");
    cmd.add_option("--control", o.control,
                   "Serve the control port on this TCP port (0 = any free port; see docs/USER_GUIDE.md)");
    cmd.add_option("--control-host", o.control_host,
                   "Address the control port listens on (default 127.0.0.1)");
    cmd.add_option("--rate", o.rate,
                   "Steps per second with --control (default 30, flat out with --steps; 0 = flat out)");
    cmd.add_option("--record", o.record_file,
                   "Record offscreen (EGL): FILE.mp4|.gif gets one frame per step, FILE.png the final state");
    cmd.add_option("--size", o.frame_size, "Frame size of --record, WIDTHxHEIGHT (default 960x720)");
    cmd.add_option("--record-every", o.record_every,
                   "With a video --record: one frame every K steps (default 1)");
    cmd.add_option("--fps", o.record_fps,
                   "With a video --record: frames per second, 1 to 240 (default: the scene's rate / K, so "
                   "the video plays as the flock flies in the viewer)");
    cmd.add_option("--metrics", o.metrics_file,
                   "Write order parameters to this CSV (step 0 and every K steps)");
    cmd.add_option("--metrics-every", o.metrics_every, "K for --metrics (default 1)");
    cmd.add_option("--trajectory", o.trajectory_file, "Write positions and velocities to this .csv or .npy");
    cmd.add_option("--trajectory-every", o.trajectory_every, "K for --trajectory (default 1)");
}

/// `boids view` options beyond the scene's.
struct ViewCliOptions {
    std::string rate; ///< empty: the scene's own rate
    bool grow = false;
    std::string size = "1280x800";
    bool hide_panel = false;
    bool paused = false;
    std::string frames = "0";
    std::string screenshot;
    std::string record;
    std::string control;                    ///< --control PORT (0 = any free port)
    std::string control_host = "127.0.0.1"; ///< --control-host
    std::string scene_file;                 ///< the positional FILE: a scene to open
};

void add_view_options(CLI::App& cmd, boids::cli::RunOptions& o, ViewCliOptions& v) {
    cmd.add_option("scene", v.scene_file,
                   "A scene file to open, as --scenario FILE does (the viewer's Save scene writes one)");
    add_scene_options(cmd, o);
    cmd.add_option("--rate", v.rate,
                   "Simulation steps per second: 1 to 1000 | max (default: the scene's rate, e.g. "
                   "pynboids 60, downey-2d 10, ece4760 30)");
    cmd.add_flag("--grow", v.grow,
                 "Start in grow mode: add boids while the rate holds, show the largest flock");
    cmd.add_option("--size", v.size, "Window size, WIDTHxHEIGHT (default 1280x800)");
    cmd.add_flag("--hide-panel", v.hide_panel, "Start with the control panel hidden (key h shows it)");
    cmd.add_flag("--paused", v.paused, "Start paused (space resumes)");
    cmd.add_option("--frames", v.frames, "Quit after this many frames (default 0: run until closed)");
    cmd.add_option("--screenshot", v.screenshot, "With --frames: save the last frame as this PNG file");
    cmd.add_option("--record", v.record, "Record every frame to FILE.mp4 or FILE.gif through ffmpeg");
    cmd.add_option("--control", v.control,
                   "Serve the control port on this TCP port (0 = any free port; see docs/USER_GUIDE.md)");
    cmd.add_option("--control-host", v.control_host,
                   "Address the control port listens on (default 127.0.0.1)");
}

#if BOIDS_HAVE_VIEWER
/// Resolves `boids view`'s options. Throws InputError.
boids::viewer::ViewerOptions make_viewer_options(boids::cli::RunOptions o, const ViewCliOptions& v) {
    using boids::InputError;
    if (!v.scene_file.empty()) {
        if (!o.scenario_file.empty()) {
            throw InputError("scene file '" + v.scene_file + "' and --scenario '" + o.scenario_file +
                             "' both name the scene; give one");
        }
        o.scenario_file = v.scene_file;
    }
    const boids::cli::RunPlan plan = boids::cli::make_run_plan(o);
    boids::viewer::ViewerOptions vo;
    vo.scenario = plan.scenario;
    if (!o.scenario_file.empty()) {
        vo.scene_file = o.scenario_file; // Save scene writes back to the file that was opened
    }
    vo.init_file = plan.init_file;
    vo.precision = plan.precision;
    vo.threads = plan.threads;
    const std::optional<boids::viewer::SimRate> rate =
        v.rate.empty() ? std::optional(boids::viewer::SimRate{plan.scenario.rate})
                       : boids::viewer::parse_sim_rate(v.rate);
    if (!rate) {
        throw InputError(boids::invalid_value_message(
            "--rate", "'" + v.rate + "'",
            "allowed values are a whole number of steps per second from 1 to 1000 | max"));
    }
    vo.rate = *rate;
    vo.grow = v.grow;
    std::tie(vo.window_width, vo.window_height) = boids::cli::parse_frame_size("--size", v.size);
    vo.hide_panel = v.hide_panel;
    vo.paused = v.paused;
    vo.frames = boids::cli::parse_frames("--frames", v.frames);
    if (!v.screenshot.empty()) {
        if (vo.frames == 0) {
            throw InputError("--screenshot needs --frames N (the frame to save)");
        }
        if (v.screenshot.size() < 4 || v.screenshot.compare(v.screenshot.size() - 4, 4, ".png") != 0) {
            throw InputError(boids::invalid_value_message("--screenshot", "'" + v.screenshot + "'",
                                                          "expected a file name ending in .png"));
        }
    }
    vo.screenshot_path = v.screenshot;
    vo.record_path = v.record;
    return vo;
}
#endif

void add_bench_options(CLI::App& cmd, boids::cli::BenchOptions& o) {
    cmd.add_option("--sizes", o.sizes,
                   "Flock sizes, comma-separated (default 10000,100000,1000000; --models: 100000)");
    cmd.add_option("--seconds", o.seconds,
                   "Timed wall time per size; rounds repeat until reached (default 2)");
    cmd.add_option("--warmup", o.warmup, "Warm-up steps per round, after a fresh spawn (default 20)");
    cmd.add_option("--steps", o.steps, "Timed steps per round (default 20)");
    cmd.add_option("--threads", o.threads, "Worker threads; 0 = all (default)");
    cmd.add_option("--precision", o.precision, "Scalar type: f32 (default) | f64");
    cmd.add_option("--dimensions", o.dimensions, "W20 in 2 | 3 | 2,3 dimensions (default 2,3; --models: 2)");
    cmd.add_option("--target", o.target,
                   "SIMD instruction set of the fast path: auto | avx3 | avx2 | sse4 | ssse3 | scalar, those "
                   "this CPU runs (default: $BOIDS_SIMD_TARGET, else auto, the best)");
    cmd.add_flag("--plain", o.plain,
                 "Force the plain grid path (the readable reference) instead of the SIMD path");
    cmd.add_flag("--models", o.models,
                 "Every model and every classic extension at W20's neighbour count, 2D, --sizes default "
                 "100000: ns per boid-step on 1 and the default threads, over the classic fast path's");
    cmd.add_flag("--max-flock", o.max_flock,
                 "Find by bisection the largest vga-predator flock (at its density) holding --rate steps/s");
    cmd.add_option("--rate", o.rate, "Steps per second --max-flock must hold (default 30)");
    cmd.add_option("--limit", o.limit, "Largest flock --max-flock tries (default 10000000)");
    cmd.add_option(
        "--busy-limit", o.busy_limit,
        "Cores other processes may hold on average during --max-flock before it refuses to report a "
        "figure (exit 3; default 0.5)");
}

/// An option given an empty value (`--control ""`) would read as "not given"; it is refused instead.
void reject_empty_values(const CLI::App& app) {
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() == 0 || option->get_type_size_min() == 0) {
            continue; // not given, or a flag
        }
        for (const std::string& value : option->results()) {
            if (value.empty()) {
                throw boids::InputError(
                    boids::invalid_value_message(option->get_name(), "''", "give a value"));
            }
        }
    }
    for (const CLI::App* sub : app.get_subcommands()) {
        reject_empty_values(*sub);
    }
}

/// A message as one line on stderr: line breaks and other control characters (from a file's content or
/// a library's text) become spaces or '?'.
std::string one_line(std::string message) {
    for (char& c : message) {
        if (c == '\n' || c == '\r' || c == '\t') {
            c = ' ';
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            c = '?';
        }
    }
    return message;
}

void print_presets() {
    for (const auto& name : boids::preset_names()) {
        const boids::Scenario s = boids::load_preset(name);
        std::printf("%-14s %s\n", name.c_str(), s.description.c_str());
    }
}

void print_params() {
    const boids::Params defaults;
    std::printf("%-22s %-10s %-22s %s\n", "key", "default", "allowed", "meaning");
    for (const auto& info : boids::param_table()) {
        std::string allowed;
        if (info.kind == std::string_view("number")) {
            char lo[32], hi[32];
            std::snprintf(lo, sizeof lo, "%.10g", info.min);
            std::snprintf(hi, sizeof hi, "%.10g", info.max);
            allowed = std::string("[") + lo + ", " + hi + "]";
        } else {
            allowed = boids::choice_list(info.key);
        }
        // Which models read the key, unless every model does.
        std::string readers;
        bool everyone = true;
        for (const boids::Model m : boids::all_models()) {
            if (boids::key_used_by(info, m)) {
                readers += (readers.empty() ? "" : ", ") + std::string(boids::model_name(m));
            } else {
                everyone = false;
            }
        }
        std::printf("%-22s %-10s %-22s %s%s\n", std::string(info.key).c_str(),
                    boids::get_param(defaults, info.key).c_str(), allowed.c_str(),
                    std::string(info.help).c_str(), everyone ? "" : (" [" + readers + "]").c_str());
    }
    std::printf("%-22s %-10s %-22s %s\n", "margin", "", "[0, 10000000]",
                "sets all four margins (write-only)");
}

/// Drawing with Mesa's software OpenGL shares the cores with the simulation's OpenMP threads, which by
/// default spin after each parallel region and starve the rasterizer (10x slower frames on 2 cores).
/// libgomp reads OMP_WAIT_POLICY only at start-up, so a drawing command restarts itself once with a passive
/// policy unless the user chose one.
void prefer_passive_openmp(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY") != nullptr) {
        return;
    }
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", argv);
    // If the restart is impossible, carry on with the default policy: slower, still correct.
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "boids: Craig Reynolds' flocking, as in Cornell ECE 4760 (classic rules, predators, scouts)"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", "boids " + std::string(boids::version), "Print the version and exit");
    boids::cli::RunOptions run_options;
    CLI::App* run = app.add_subcommand("run", "Run a scene and print a summary");
    add_run_options(*run, run_options);
    boids::cli::RunOptions view_scene;
    ViewCliOptions view_options;
    CLI::App* view = app.add_subcommand("view", "Open the interactive viewer (needs a display)");
    add_view_options(*view, view_scene, view_options);
    boids::cli::SweepOptions sweep_options;
    CLI::App* sweep = app.add_subcommand(
        "sweep", "Run every combination of the varied keys' values, times the seeds; one CSV row per run");
    add_scene_options(*sweep, sweep_options.scene);
    sweep->add_option("--steps", sweep_options.scene.steps, "Steps per run (default 1000)");
    sweep
        ->add_option("--vary", sweep_options.vary,
                     "KEY=START:STOP:COUNT[:log] or KEY=V1,V2,...: a numeric parameter, an agent count, or "
                     "scouts1_fraction; repeat for more keys (every combination is run)")
        ->take_all();
    sweep->add_option("--seeds", sweep_options.seeds,
                      "Runs per combination, seeds --seed, --seed + 1, ... (default 1)");
    sweep->add_option("--burn-in", sweep_options.burn_in, "Steps before averaging starts (default 0)");
    sweep->add_option("--every", sweep_options.every,
                      "Steps between metric samples after the burn-in (default 1)");
    sweep->add_option("--metric", sweep_options.metrics,
                      "Metrics to average, comma-separated, or all (default polarization): polarization, "
                      "milling, nnd_mean, groups, speed_mean, speed_std, frac_right, frac_left, accuracy, "
                      "side_right");
    sweep->add_option("--out", sweep_options.out, "CSV written row by row; re-running resumes it");
    sweep->add_option("--series", sweep_options.series,
                      "CSV of every run's metrics at step 0 and every --series-every steps (long format: "
                      "run, varied keys, seed, step, metrics); resumed with --out");
    sweep->add_option("--series-every", sweep_options.series_every,
                      "Steps between the rows of --series (default 1)");
    CLI::App* presets = app.add_subcommand("presets", "List the built-in scenes");
    CLI::App* params = app.add_subcommand("params", "List every parameter key with its default and range");
    boids::cli::BenchOptions bench_options;
    CLI::App* bench = app.add_subcommand(
        "bench", "Benchmark: the W20 table, --models or --max-flock (docs/PERFORMANCE.md)");
    add_bench_options(*bench, bench_options);

    for (int i = 0; i < argc; ++i) {
        run_options.command_line += (i == 0 ? "boids" : std::string(" ") + argv[i]);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (boids::mpi::launcher_rank() == 0) { // under mpirun every rank parses the same line
            std::cerr << "boids: " << one_line(e.what()) << " (see boids --help)\n";
        }
        return exit_bad_input;
    }

    // The drawing commands: view, no subcommand (the viewer, or a recording without a display), and
    // run --record. The others (bench and sweep above all) keep libgomp's spinning default: a passive
    // policy puts a futex wake-up on every fork and barrier of a step (measured: W20 at 10k boids ran
    // at 1,900 steps/s instead of 3,800).
    const bool draws = view->parsed() || app.get_subcommands().empty() || !run_options.record_file.empty();
    if (draws) {
        prefer_passive_openmp(argv);
    }

    // Under mpirun or srun this process is one rank of a job; otherwise a job of one.
    std::optional<boids::mpi::Communicator> ranks;
    try {
        ranks.emplace(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "boids: " << one_line(e.what()) << "\n";
        return exit_bad_input;
    }
    // Every rank meets the same bad input; one of them says so.
    const auto report = [&](const std::string& message) {
        if (ranks->root()) {
            std::cerr << message << "\n";
        }
    };
    try {
        reject_empty_values(app);
        if (ranks->distributed() && !sweep->parsed() && !(run->parsed() && run_options.headless)) {
            throw boids::InputError(
                "under mpirun, boids runs `run --headless` and `sweep`; give one of them");
        }
        if (presets->parsed()) {
            print_presets();
            return 0;
        }
        if (params->parsed()) {
            print_params();
            return 0;
        }
        if (sweep->parsed()) {
            boids::cli::run_sweep(sweep_options, *ranks);
            return 0;
        }
        if (bench->parsed()) {
            return boids::cli::run_bench(bench_options);
        }
#if BOIDS_HAVE_VIEWER
        if (view->parsed()) {
            std::string why;
            boids::viewer::ViewerOptions options = make_viewer_options(view_scene, view_options);
            // The control port: the server's threads queue command lines; the viewer runs them once per
            // frame, between steps, against its session, exactly as the headless run does.
            std::unique_ptr<boids::ControlServer> server;
            if (!view_options.control.empty()) {
                const long long port = boids::cli::parse_integer("--control", view_options.control, 0, 65535);
                server = std::make_unique<boids::ControlServer>(
                    boids::ControlServerOptions{view_options.control_host, static_cast<int>(port)});
                std::printf("control: listening on %s:%d\n", server->host().c_str(), server->port());
                std::fflush(stdout);
                options.hook = [&server](boids::viewer::ViewerState&, boids::SimulationController& session) {
                    server->apply_pending(session);
                };
            } else if (view_options.control_host != "127.0.0.1") {
                throw boids::InputError("--control-host needs --control PORT");
            }
            if (!boids::viewer::run_viewer(options, why)) {
                std::cerr << "boids view: " << why
                          << "; use boids run --headless (with --record for a video)\n";
                return exit_bad_input;
            }
            return 0;
        }
        if (!run->parsed()) {
            // The main job: the viewer on the default scene when a display exists...
            std::string why;
            if (boids::viewer::run_viewer(make_viewer_options(view_scene, view_options), why)) {
                return 0;
            }
            // ...otherwise the same scene headless, with a video of it (a PNG without ffmpeg).
            // A short clip: 640x480, one frame every 4 steps (250 frames for the default 1000 steps).
            run_options.record_file = boids::render::ffmpeg_available() ? "boids.mp4" : "boids.png";
            run_options.frame_size = "640x480";
            run_options.record_every = "4";
            std::printf("boids: %s, so the default scene runs headless and is recorded to %s\n", why.c_str(),
                        run_options.record_file.c_str());
            std::fflush(stdout);
        }
#else
        if (view->parsed()) {
            std::cerr << "boids view: this build has no viewer (configured with BOIDS_BUILD_VIEWER=OFF); "
                         "boids run --headless runs a scene without it\n";
            return exit_bad_input;
        }
        if (!run->parsed()) { // the main job without a viewer: the default scene, headless
            std::printf("boids: this build has no viewer, so the default scene runs headless\n");
            std::fflush(stdout);
        }
#endif
        if (ranks->distributed()) {
            boids::cli::run_distributed(boids::cli::make_run_plan(run_options), *ranks);
            return 0;
        }
        boids::cli::run_headless(boids::cli::make_run_plan(run_options));
        return 0;
    } catch (const boids::InputError& e) {
        report("boids: " + one_line(e.what()));
        return exit_bad_input;
    } catch (const boids::IoError& e) {
        report("boids: " + one_line(e.what()));
        return exit_write_failed;
    } catch (const std::exception& e) {
        if (ranks->distributed()) {
            // Bad input and write failures reach every rank alike (Communicator::on_root); this may have
            // been one rank's alone, and the others would wait on it for ever: it speaks and ends the job.
            std::cerr << "boids: rank " << ranks->rank() << ": internal error: " << one_line(e.what())
                      << "\n";
            ranks->abort(1);
        }
        report("boids: internal error: " + one_line(e.what()));
        return 1;
    }
}
