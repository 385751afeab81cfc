#include "run_command.hpp"

#include "boids/error.hpp"
#include "boids/hash.hpp"
#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"

#include "headless_recording.hpp"
#include "video_recorder.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <tuple>

namespace boids::cli {

namespace {

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

template <class Real>
void run(const RunPlan& plan) {
    const Scenario& sc = plan.scenario;
    World<Real> world = plan.init_file ? read_state_csv<Real>(*plan.init_file, sc.params)
                                       : spawn_world<Real>(sc.params, sc.agents, sc.seed);
    Simulation<Real> sim(sc.params, std::move(world));
    sim.set_threads(plan.threads);

    // A video gets one frame per step (after it); a PNG gets the final state only.
    std::unique_ptr<render::HeadlessRecording> recording;
    if (plan.record_file) {
        recording = std::make_unique<render::HeadlessRecording>(*plan.record_file, plan.frame_width,
                                                                plan.frame_height, 30);
    }
    const bool video = recording && !render::is_png_path(*plan.record_file);
    const auto start = std::chrono::steady_clock::now();
    if (video) {
        for (long long i = 1; i <= plan.steps; ++i) {
            sim.step(1);
            if (i % plan.record_every == 0) {
                recording->add_frame(sim.world(), sim.params());
            }
        }
    } else {
        sim.step(plan.steps);
    }
    if (recording && !video) {
        recording->add_frame(sim.world(), sim.params());
    }
    if (recording) {
        recording->finish();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (plan.dump_file) {
        write_state_csv(*plan.dump_file, sim.world());
    }

    const AgentCounts counts = sim.world().counts();
    const FlockSummary summary = summarize(sim.world());
    const StepProfile& total = sim.total_profile();
    const double per_step = plan.steps > 0 ? 1.0 / static_cast<double>(plan.steps) : 0.0;
    std::printf("boids run: %s, %s, %d threads, %s\n", sc.name.c_str(),
                plan.precision == Precision::F32 ? "f32" : "f64", sim.threads(),
                plan.init_file ? ("state " + *plan.init_file).c_str()
                               : ("seed " + std::to_string(sc.seed)).c_str());
    std::printf("  steps         %lld\n", plan.steps);
    std::printf("  agents        %lld boids, %lld scout1, %lld scout2, %lld predators\n", counts.boids,
                counts.scouts1, counts.scouts2, counts.predators);
    std::printf("  wall time     %.3f s (%.1f steps/s)\n", seconds,
                seconds > 0 ? static_cast<double>(plan.steps) / seconds : 0.0);
    std::printf("  per step      %.3f ms: grid %.3f, neighbours %.3f, integrate %.3f\n",
                total.total_ms * per_step, total.grid_build_ms * per_step, total.neighbours_ms * per_step,
                total.integrate_ms * per_step);
    std::printf("  mean speed    %.4f px/step\n", summary.mean_speed);
    std::printf("  polarization  %.4f\n", summary.polarization);
    std::printf("  state hash    %016llx\n", static_cast<unsigned long long>(state_hash(sim.world())));
    if (plan.dump_file) {
        std::printf("  state written to %s\n", plan.dump_file->c_str());
    }
    if (recording) {
        std::printf("  recorded      %lld frame%s (%dx%d) to %s\n", recording->frames(),
                    recording->frames() == 1 ? "" : "s", plan.frame_width, plan.frame_height,
                    plan.record_file->c_str());
    }
    if (!summary.finite) {
        throw std::runtime_error("the state became non-finite; please report this with the command line");
    }
}

} // namespace

RunPlan make_run_plan(const RunOptions& o) {
    RunPlan plan;
    if (!o.preset.empty() && !o.scenario_file.empty()) {
        throw InputError("--preset and --scenario are exclusive: give one scene");
    }
    plan.scenario = !o.scenario_file.empty() ? load_scenario_file(o.scenario_file)
                                             : load_preset(o.preset.empty() ? default_preset : o.preset);
    for (const std::string& setting : o.settings) {
        const auto eq = setting.find('=');
        if (eq == std::string::npos) {
            throw InputError(invalid_value_message("--set", "'" + setting + "'", "expected key=value"));
        }
        set_param(plan.scenario.params, setting.substr(0, eq), setting.substr(eq + 1));
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
    if (!o.init_file.empty()) {
        plan.init_file = o.init_file;
    }
    if (!o.dump_file.empty()) {
        plan.dump_file = o.dump_file;
    }
    if (!o.record_file.empty()) {
        if (!render::is_png_path(o.record_file)) {
            render::check_video_target("--record", o.record_file);
        }
        plan.record_file = o.record_file;
    }
    std::tie(plan.frame_width, plan.frame_height) = parse_frame_size("--size", o.frame_size);
    plan.record_every = parse_integer("--record-every", o.record_every, 1, 1'000'000'000LL);
    plan.steps = parse_integer("--steps", o.steps, 0, 1'000'000'000'000LL);
    plan.threads = static_cast<int>(parse_integer("--threads", o.threads, 0, 1024));
    if (o.precision == "f32") {
        plan.precision = Precision::F32;
    } else if (o.precision == "f64") {
        plan.precision = Precision::F64;
    } else {
        throw InputError(
            invalid_value_message("--precision", "'" + o.precision + "'", "allowed values are f32 | f64"));
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
    if (plan.precision == Precision::F64) {
        run<double>(plan);
    } else {
        run<float>(plan);
    }
}

} // namespace boids::cli
