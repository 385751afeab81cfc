#include "run_command.hpp"

#include "boids/control_server.hpp"
#include "boids/error.hpp"
#include "boids/fast_path.hpp"
#include "boids/file_io.hpp"
#include "boids/fix15.hpp"
#include "boids/hash.hpp"
#include "boids/metrics.hpp"
#include "boids/precision.hpp"
#include "boids/simulation.hpp"
#include "boids/simulation_controller.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"
#include "boids/trajectory.hpp"

#if BOIDS_HAVE_VIEWER
#include "headless_recording.hpp"
#include "video_recorder.hpp"
#endif

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>

namespace boids::cli {

/// Parses a whole-string integer option in [lo, hi]; the message names the flag, the value and the range.
long long parse_integer(std::string_view flag, const std::string& value, long long lo, long long hi) {
    long long parsed = 0;
    const char* last = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), last, parsed);
    if (value.empty() || ec != std::errc{} || ptr != last || parsed < lo || parsed > hi) {
        throw InputError(invalid_value_message(std::string(flag), "'" + value + "'",
                                               "expected an integer in [" + std::to_string(lo) + ", " +
                                                   std::to_string(hi) + "]"));
    }
    return parsed;
}

void apply_settings(Scenario& scenario, const std::vector<std::string>& settings) {
    for (const std::string& setting : settings) {
        const auto eq = setting.find('=');
        if (eq == std::string::npos) {
            throw InputError(invalid_value_message("--set", "'" + setting + "'", "expected key=value"));
        }
        set_param(scenario.params, setting.substr(0, eq), setting.substr(eq + 1));
    }
    for (const std::string& setting : settings) { // against the model the settings leave
        require_key_used(scenario.params, setting.substr(0, setting.find('=')));
    }
}

/// Opens a metrics CSV and writes its header. Throws InputError when it cannot be created.
std::FILE* open_metrics(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        throw InputError("metrics file " + path + ": cannot create it (" + std::strerror(errno) + ")");
    }
    std::fprintf(f, "%s\n", metrics_csv_header().c_str());
    return f;
}

namespace {

/// True when --set gave `key`.
bool has_setting(const std::vector<std::string>& settings, std::string_view key) {
    for (const std::string& setting : settings) {
        if (setting.substr(0, setting.find('=')) == key) {
            return true;
        }
    }
    return false;
}

} // namespace

template <class Real>
void print_summary(const RunPlan& plan, const World<Real>& world, const Params& params,
                   const std::string& workers, const std::string& per_step, long long steps, double seconds) {
    const Scenario& sc = plan.scenario;
    const AgentCounts counts = world.counts();
    const FlockSummary summary = summarize(world);
    std::printf("boids run: %s, %s, %s update, %s, %s\n", sc.name.c_str(),
                std::string(precision_name(plan.precision)).c_str(), get_param(params, "update").c_str(),
                workers.c_str(),
                plan.init_file ? ("state " + *plan.init_file).c_str()
                               : ("seed " + std::to_string(sc.seed)).c_str());
    std::printf("  steps         %lld\n", steps);
    std::printf("  agents        %lld boids, %lld scout1, %lld scout2, %lld predators\n", counts.boids,
                counts.scouts1, counts.scouts2, counts.predators);
    std::printf("  wall time     %.3f s (%.1f steps/s)\n", seconds,
                seconds > 0 ? static_cast<double>(steps) / seconds : 0.0);
    std::printf("  per step      %s\n", per_step.c_str());
    const Metrics metrics = compute_metrics(world, params, plan.threads);
    std::printf("  model         %s\n", std::string(model_name(params.model)).c_str());
    std::printf("  mean speed    %.4f px/step (std %.4f)\n", metrics.speed_mean, metrics.speed_std);
    std::printf("  polarization  %.4f\n", metrics.polarization);
    std::printf("  milling       %.4f\n", metrics.milling);
    std::printf("  nnd mean      %.4f px\n", metrics.nnd_mean);
    std::printf("  groups        %lld (link range %g)\n", metrics.groups, link_range(params));
    std::printf("  moving right  %.4f, left %.4f\n", metrics.frac_right, metrics.frac_left);
    std::printf("  state hash    %016llx\n", static_cast<unsigned long long>(state_hash(world)));
    if (plan.dump_file) {
        std::printf("  state written to %s\n", plan.dump_file->c_str());
    }
    if (plan.trace_file) {
        std::printf("  trace written to %s\n", plan.trace_file->c_str());
    }
    if (plan.metrics_file) {
        std::printf("  metrics written to %s (every %lld steps)\n", plan.metrics_file->c_str(),
                    plan.metrics_every);
    }
    if (plan.trajectory_file) {
        std::printf("  trajectory written to %s (every %lld steps)\n", plan.trajectory_file->c_str(),
                    plan.trajectory_every);
    }
    if (!summary.finite) {
        throw std::runtime_error("the state became non-finite; please report this with the command line");
    }
}

template void print_summary(const RunPlan&, const World<float>&, const Params&, const std::string&,
                            const std::string&, long long, double);
template void print_summary(const RunPlan&, const World<double>&, const Params&, const std::string&,
                            const std::string&, long long, double);
template void print_summary(const RunPlan&, const World<Fix15>&, const Params&, const std::string&,
                            const std::string&, long long, double);

namespace {

/// The summary of a run in this process.
template <class Real>
void print_summary(const RunPlan& plan, const Simulation<Real>& sim, long long steps, double seconds) {
    const StepProfile& total = sim.total_profile();
    const double per_step = steps > 0 ? 1.0 / static_cast<double>(steps) : 0.0;
    char line[200];
    std::snprintf(line, sizeof line,
                  "%.3f ms: grid %.3f, neighbours %.3f, integrate %.3f (fast path on %lld of %lld steps%s%s)",
                  total.total_ms * per_step, total.grid_build_ms * per_step, total.neighbours_ms * per_step,
                  total.integrate_ms * per_step, total.fast_steps, steps, total.fast_steps > 0 ? ", " : "",
                  total.fast_steps > 0 ? fast_path_isa() : "");
    print_summary(plan, sim.world(), sim.params(), std::to_string(sim.threads()) + " threads", line, steps,
                  seconds);
}

/// --rate: steps per second in [0, 1e6], 0 meaning as fast as possible.
double parse_rate(const std::string& value) {
    double parsed = 0.0;
    const char* last = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), last, parsed);
    if (value.empty() || ec != std::errc{} || ptr != last || !(parsed >= 0.0 && parsed <= 1e6)) {
        throw InputError(
            invalid_value_message("--rate", "'" + value + "'",
                                  "expected steps per second in [0, 1000000] (0 = as fast as possible)"));
    }
    return parsed;
}

template <class Real>
void run(const RunPlan& plan) {
    const Scenario& sc = plan.scenario;
    long long first_step = 0; // a continued state carries the step it was saved at
    World<Real> world = plan.init_file ? read_state_csv<Real>(*plan.init_file, sc.params, &first_step)
                                       : spawn_world<Real>(sc.params, sc.agents, sc.seed);
    Simulation<Real> sim(sc.params, std::move(world));
    sim.set_steps_taken(first_step);
    sim.set_threads(plan.threads);

    std::optional<TraceWriter<Real>> trace;
    if (plan.trace_file) {
        trace.emplace(*plan.trace_file, plan.trace_format, sim.params(), plan.trace_every, plan.command_line);
        trace->record(0, sim.world());
    }
    // A video gets one frame per step (after it); a PNG gets the final state only.
#if BOIDS_HAVE_VIEWER
    std::unique_ptr<render::HeadlessRecording> recording;
    if (plan.record_file) {
        // The scene's rate (steps per second: its source's) over the steps per frame, so that the video
        // plays at the speed the flock flies in the viewer; --fps states another.
        const render::FrameRate fps =
            plan.record_fps > 0 ? render::FrameRate{plan.record_fps, 1}
                                : render::FrameRate{plan.scenario.rate, static_cast<int>(plan.record_every)};
        recording = std::make_unique<render::HeadlessRecording>(*plan.record_file, plan.frame_width,
                                                                plan.frame_height, fps);
    }
    const bool video = recording && !render::is_png_path(*plan.record_file);
    const auto add_frame = [&] { recording->add_frame(sim.world(), sim.params(), sim.steps_taken()); };
#else
    const bool video = false; // a build without the viewer has no recorder (make_run_plan refuses --record)
    const auto add_frame = [] {};
#endif
    // Metrics and trajectory frames are taken at step 0 and every K steps after.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> metrics_out(
        plan.metrics_file ? open_metrics(*plan.metrics_file) : nullptr,
        [](std::FILE* f) { return std::fclose(f); });
    std::optional<TrajectoryWriter<Real>> trajectory;
    if (plan.trajectory_file) {
        trajectory.emplace(*plan.trajectory_file, sim.world().size(), sim.params().dimensions);
    }
    const auto observe = [&](long long t) {
        if (metrics_out && t % plan.metrics_every == 0) {
            Metrics m = compute_metrics(sim.world(), sim.params(), plan.threads);
            m.step = t;
            if (std::fprintf(metrics_out.get(), "%s\n", metrics_csv_row(m).c_str()) < 0) {
                throw IoError("metrics file " + *plan.metrics_file + ": cannot write it (" +
                              std::strerror(errno) + ")");
            }
        }
        if (trajectory && t % plan.trajectory_every == 0) {
            trajectory->write_frame(sim.world(), t);
        }
        if (video && t > 0 && t % plan.record_every == 0) {
            add_frame();
        }
        if (trace && t > 0 && t % plan.trace_every == 0) {
            trace->record(t, sim.world());
        }
    };
    const bool observing = video || trace || metrics_out != nullptr || trajectory.has_value();
    const auto start = std::chrono::steady_clock::now();
    if (observing) {
        observe(0);
        for (long long i = 1; i <= plan.steps; ++i) {
            sim.step(1);
            observe(i);
        }
    } else {
        sim.step(plan.steps);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (trajectory) {
        trajectory->close();
    }
    if (metrics_out && (std::ferror(metrics_out.get()) != 0 || std::fflush(metrics_out.get()) != 0)) {
        throw IoError("metrics file " + *plan.metrics_file + ": cannot write it (" + std::strerror(errno) +
                      ")");
    }
    if (trace) {
        trace->finish();
    }
#if BOIDS_HAVE_VIEWER
    if (recording && !video) {
        add_frame();
    }
    if (recording) {
        recording->finish();
    }
#endif

    if (plan.dump_file) {
        write_state_csv(*plan.dump_file, sim.world(), sim.steps_taken());
    }
    print_summary(plan, sim, plan.steps, seconds);
#if BOIDS_HAVE_VIEWER
    if (recording) {
        std::printf("  recorded      %lld frame%s (%dx%d) to %s\n", recording->frames(),
                    recording->frames() == 1 ? "" : "s", plan.frame_width, plan.frame_height,
                    plan.record_file->c_str());
    }
#endif
}

volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int) {
    interrupted = 1;
}

/// The headless run with a control port: steps at `plan.rate` steps per second (or flat out), running
/// queued commands between steps, until `quit`, Ctrl-C / SIGTERM, or --steps steps if given.
void run_controlled(const RunPlan& plan) {
    SimulationSetup setup{plan.scenario, std::nullopt, plan.precision, plan.threads};
    if (plan.init_file) {
        setup.init_file = *plan.init_file;
    }
    SimulationController controller(std::move(setup));
    const long long first_step = controller.steps_taken(); // a state from --init carries its step
    ControlServer server({plan.control_host, *plan.control_port});
    std::printf("control: listening on %s:%d\n", server.host().c_str(), server.port());
    std::fflush(stdout);

    interrupted = 0;
    const auto previous_int = std::signal(SIGINT, on_interrupt);
    const auto previous_term = std::signal(SIGTERM, on_interrupt);
    using clock = std::chrono::steady_clock;
    const auto period =
        plan.rate > 0
            ? std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(1.0 / plan.rate))
            : clock::duration::zero();
    // While paused, wake at least this often to notice Ctrl-C.
    const auto idle = std::chrono::milliseconds(100);
    const auto start = clock::now();
    auto next_step = start;
    while (!controller.quit_requested() && !interrupted) {
        server.apply_pending(controller);
        if (controller.quit_requested() ||
            (plan.steps_given && controller.steps_taken() - first_step >= plan.steps)) {
            break;
        }
        const auto now = clock::now();
        if (controller.paused() || now < next_step) {
            // Answer commands as they come while waiting for the next step.
            server.wait_for_pending(controller.paused() ? now + idle : std::min(next_step, now + idle));
            continue;
        }
        controller.step(1);
        // A step slower than the period does not build up a backlog of steps to catch up on.
        next_step = std::max(next_step + period, clock::now() - period);
    }
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    server.stop();
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);

    if (plan.dump_file) {
        controller.save_state(*plan.dump_file);
    }
    controller.visit(
        [&](const auto& sim) { print_summary(plan, sim, sim.steps_taken() - first_step, seconds); });
}

} // namespace

RunPlan make_run_plan(const RunOptions& o) {
    RunPlan plan;
    if (!o.preset.empty() && !o.scenario_file.empty()) {
        throw InputError("--preset and --scenario are exclusive: give one scene");
    }
    plan.scenario = !o.scenario_file.empty() ? load_scenario_file(o.scenario_file)
                                             : load_preset(o.preset.empty() ? default_preset : o.preset);
    apply_settings(plan.scenario, o.settings);
    for (const std::string& text : o.obstacles) {
        plan.scenario.params.obstacles.push_back(parse_obstacle(text));
    }
    for (const std::string& text : o.food) {
        plan.scenario.params.food.push_back(parse_food(text));
    }
    if (!o.update.empty()) {
        set_param(plan.scenario.params, "update", o.update);
    }
    if (!o.speed_estimate.empty()) {
        set_param(plan.scenario.params, "speed_estimate", o.speed_estimate);
    }
    validate(plan.scenario.params);

    const std::pair<const char*, const std::string*> counts[] = {
        {"boids", &o.boids}, {"scouts1", &o.scouts1}, {"scouts2", &o.scouts2}, {"predators", &o.predators}};
    for (const auto& [key, value] : counts) {
        if (value->empty()) {
            continue;
        }
        if (!o.init_file.empty()) {
            throw InputError(std::string("--") + key +
                             " cannot be combined with --init (the state file gives the agents)");
        }
        set_agent_count(plan.scenario.agents, key,
                        parse_integer(std::string("--") + key, *value, 0, 100'000'000));
    }
    if (!o.seed.empty()) {
        plan.scenario.seed = static_cast<std::uint64_t>(
            parse_integer("--seed", o.seed, 0, std::numeric_limits<long long>::max()));
    }
    // One seed for the whole run: the models' noise follows --seed unless noise_seed was set explicitly.
    if (!o.seed.empty() && !has_setting(o.settings, "noise_seed")) {
        plan.scenario.params.noise_seed = static_cast<double>(plan.scenario.seed % (1ULL << 53));
    }
    if (!o.metrics_file.empty()) {
        check_output_path("--metrics", o.metrics_file);
        plan.metrics_file = o.metrics_file;
    }
    plan.metrics_every = parse_integer("--metrics-every", o.metrics_every, 1, 1'000'000'000'000LL);
    if (!o.trajectory_file.empty()) {
        (void)trajectory_format(o.trajectory_file); // reject a bad extension before running
        check_output_path("--trajectory", o.trajectory_file);
        plan.trajectory_file = o.trajectory_file;
    }
    plan.trajectory_every = parse_integer("--trajectory-every", o.trajectory_every, 1, 1'000'000'000'000LL);
    if ((plan.metrics_file || plan.trajectory_file) && !o.control.empty()) {
        throw InputError("--metrics and --trajectory cannot be combined with --control");
    }
    if (!o.init_file.empty()) {
        plan.init_file = o.init_file;
    }
    if (!o.dump_file.empty()) {
        check_output_path("--dump", o.dump_file); // before the run, not after its last step
        plan.dump_file = o.dump_file;
    }
    if (!o.record_file.empty()) {
#if BOIDS_HAVE_VIEWER
        if (!render::is_png_path(o.record_file)) {
            render::check_video_target("--record", o.record_file);
        }
#else
        throw InputError(invalid_value_message("--record", "'" + o.record_file + "'",
                                               "this build of boids has no recorder (built without the "
                                               "viewer: BOIDS_BUILD_VIEWER=OFF)"));
#endif
        check_output_path("--record", o.record_file);
        plan.record_file = o.record_file;
    }
    std::tie(plan.frame_width, plan.frame_height) = parse_frame_size("--size", o.frame_size);
    plan.record_every = parse_integer("--record-every", o.record_every, 1, 1'000'000'000LL);
    if (!o.record_fps.empty()) {
        plan.record_fps = static_cast<int>(parse_integer("--fps", o.record_fps, 1, 240));
    }
    if (plan.record_file && !o.control.empty()) {
        throw InputError("--record cannot be combined with --control");
    }
    plan.steps_given = !o.steps.empty();
    plan.steps = plan.steps_given ? parse_integer("--steps", o.steps, 0, 1'000'000'000'000LL) : 1000;
    plan.threads = static_cast<int>(parse_integer("--threads", o.threads, 0, 1024));
    plan.precision = require_precision("--precision", o.precision);
    if (plan.precision == Precision::Fix15) {
        validate_fix15(plan.scenario.params);
    }
    if (!o.trace_file.empty()) {
        check_output_path("--trace", o.trace_file);
        plan.trace_file = o.trace_file;
    }
    plan.trace_every = parse_integer("--trace-every", o.trace_every, 1, 1'000'000'000'000LL);
    plan.trace_format = parse_trace_format(o.trace_format);
    if (plan.trace_file && plan.scenario.params.dimensions == 3) {
        throw InputError("--trace writes the lab's planar golden trace: it needs dimensions = 2 (the run has "
                         "dimensions = 3; use --trajectory for a 3D record)");
    }
    if (plan.trace_format == TraceFormat::CHeader && plan.precision != Precision::Fix15) {
        throw InputError("--trace-format c-header writes raw fix15 arrays: it needs --precision fix15");
    }
    if (plan.trace_file && !o.control.empty()) {
        throw InputError(
            "--trace cannot be combined with --control (a controlled run's steps are not fixed)");
    }
    plan.command_line = o.command_line;
    if (!o.control.empty()) {
        plan.control_port = static_cast<int>(parse_integer("--control", o.control, 0, 65535));
        plan.control_host = o.control_host;
        // Without --steps the run lasts until `quit`, at the scene's own rate (its source's, as the viewer
        // runs it); with --steps, flat out.
        plan.rate = !o.rate.empty()    ? parse_rate(o.rate)
                    : plan.steps_given ? 0.0
                                       : static_cast<double>(plan.scenario.rate);
    } else if (!o.rate.empty() || o.control_host != "127.0.0.1") {
        throw InputError("--rate and --control-host need --control PORT");
    }
    return plan;
}

long long parse_frames(const std::string& flag, const std::string& text) {
    return parse_integer(flag, text, 0, 1'000'000'000LL);
}

std::pair<int, int> parse_frame_size(const std::string& flag, const std::string& text) {
    const auto x = text.find('x');
    const std::string allowed = "expected WIDTHxHEIGHT, each in [16, 8192], e.g. 960x720";
    if (x == std::string::npos) {
        throw InputError(invalid_value_message(flag, "'" + text + "'", allowed));
    }
    try {
        const auto w = static_cast<int>(parse_integer(flag, text.substr(0, x), 16, 8192));
        const auto h = static_cast<int>(parse_integer(flag, text.substr(x + 1), 16, 8192));
        return {w, h};
    } catch (const InputError&) {
        throw InputError(invalid_value_message(flag, "'" + text + "'", allowed));
    }
}

void run_headless(const RunPlan& plan) {
    if (plan.control_port) {
        run_controlled(plan);
        return;
    }
    with_precision(plan.precision, [&]<class Real>() { run<Real>(plan); });
}

} // namespace boids::cli
