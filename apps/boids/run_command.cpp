#include "run_command.hpp"

#include "boids/error.hpp"
#include "boids/hash.hpp"
#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"
#include "boids/trajectory.hpp"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace boids::cli {

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
}

namespace {

/// Opens a metrics CSV and writes its header. Throws InputError when it cannot be created.
std::FILE* open_metrics(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        throw InputError("metrics file " + path + ": cannot create it (" + std::strerror(errno) + ")");
    }
    std::fprintf(f, "%s\n", metrics_csv_header().c_str());
    return f;
}

template <class Real>
void run(const RunPlan& plan) {
    const Scenario& sc = plan.scenario;
    World<Real> world = plan.init_file ? read_state_csv<Real>(*plan.init_file, sc.params)
                                       : spawn_world<Real>(sc.params, sc.agents, sc.seed);
    Simulation<Real> sim(sc.params, std::move(world));
    sim.set_threads(plan.threads);

    // Metrics and trajectory frames are taken at step 0 and every K steps after; the rest runs in one go.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> metrics_out(
        plan.metrics_file ? open_metrics(*plan.metrics_file) : nullptr,
        [](std::FILE* f) { return std::fclose(f); });
    std::optional<TrajectoryWriter<Real>> trajectory;
    if (plan.trajectory_file) {
        trajectory.emplace(*plan.trajectory_file, sim.world().size());
    }
    const auto observe = [&] {
        const long long t = sim.steps_taken();
        if (metrics_out && t % plan.metrics_every == 0) {
            Metrics m = compute_metrics(sim.world(), sim.params(), plan.threads);
            m.step = t;
            std::fprintf(metrics_out.get(), "%s\n", metrics_csv_row(m).c_str());
        }
        if (trajectory && t % plan.trajectory_every == 0) {
            trajectory->write_frame(sim.world(), t);
        }
    };
    const bool observing = plan.metrics_file || plan.trajectory_file;
    const auto start = std::chrono::steady_clock::now();
    if (observing) {
        observe();
        for (long long s = 0; s < plan.steps; ++s) {
            sim.step(1);
            observe();
        }
    } else {
        sim.step(plan.steps);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (plan.dump_file) {
        write_state_csv(*plan.dump_file, sim.world());
    }
    if (trajectory) {
        trajectory->close();
    }
    if (metrics_out && std::fflush(metrics_out.get()) != 0) {
        throw InputError("metrics file " + *plan.metrics_file + ": cannot write it (" + std::strerror(errno) +
                         ")");
    }

    const AgentCounts counts = sim.world().counts();
    const FlockSummary summary = summarize(sim.world());
    const StepProfile& total = sim.total_profile();
    const double per_step = plan.steps > 0 ? 1.0 / static_cast<double>(plan.steps) : 0.0;
    std::printf("boids run: %s, %s, %d threads, %s\n", sc.name.c_str(),
                plan.precision == Precision::F32 ? "f32" : "f64", sim.threads(),
                plan.init_file ? ("state " + *plan.init_file).c_str() : ("seed " + std::to_string(sc.seed)).c_str());
    std::printf("  steps         %lld\n", plan.steps);
    std::printf("  agents        %lld boids, %lld scout1, %lld scout2, %lld predators\n", counts.boids, counts.scouts1,
                counts.scouts2, counts.predators);
    std::printf("  wall time     %.3f s (%.1f steps/s)\n", seconds,
                seconds > 0 ? static_cast<double>(plan.steps) / seconds : 0.0);
    std::printf("  per step      %.3f ms: grid %.3f, neighbours %.3f, integrate %.3f\n", total.total_ms * per_step,
                total.grid_build_ms * per_step, total.neighbours_ms * per_step, total.integrate_ms * per_step);
    const Metrics metrics = compute_metrics(sim.world(), sim.params(), plan.threads);
    std::printf("  model         %s\n", std::string(model_name(sc.params.model)).c_str());
    std::printf("  mean speed    %.4f px/step (std %.4f)\n", metrics.speed_mean, metrics.speed_std);
    std::printf("  polarization  %.4f\n", metrics.polarization);
    std::printf("  milling       %.4f\n", metrics.milling);
    std::printf("  nnd mean      %.4f px\n", metrics.nnd_mean);
    std::printf("  groups        %lld (link range %g)\n", metrics.groups, link_range(sim.params()));
    std::printf("  moving right  %.4f, left %.4f\n", metrics.frac_right, metrics.frac_left);
    std::printf("  state hash    %016llx\n", static_cast<unsigned long long>(state_hash(sim.world())));
    if (plan.dump_file) {
        std::printf("  state written to %s\n", plan.dump_file->c_str());
    }
    if (plan.metrics_file) {
        std::printf("  metrics written to %s (every %lld steps)\n", plan.metrics_file->c_str(),
                    plan.metrics_every);
    }
    if (trajectory) {
        std::printf("  trajectory written to %s (%lld frames)\n", plan.trajectory_file->c_str(),
                    trajectory->frames());
    }
    if (!summary.finite) {
        throw std::runtime_error("the state became non-finite; please report this with the command line");
    }
}

} // namespace

namespace {

bool has_setting(const std::vector<std::string>& settings, std::string_view key) {
    for (const std::string& s : settings) {
        if (s.substr(0, s.find('=')) == key) {
            return true;
        }
    }
    return false;
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
    validate(plan.scenario.params);

    const std::pair<const char*, const std::string*> counts[] = {
        {"boids", &o.boids}, {"scouts1", &o.scouts1}, {"scouts2", &o.scouts2}, {"predators", &o.predators}};
    for (const auto& [key, value] : counts) {
        if (value->empty()) {
            continue;
        }
        if (!o.init_file.empty()) {
            throw InputError(std::string("--") + key + " cannot be combined with --init (the state file gives the agents)");
        }
        set_agent_count(plan.scenario.agents, key, parse_integer(std::string("--") + key, *value, 0, 100'000'000));
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
        plan.metrics_file = o.metrics_file;
    }
    plan.metrics_every = parse_integer("--metrics-every", o.metrics_every, 1, 1'000'000'000'000LL);
    if (!o.trajectory_file.empty()) {
        (void)trajectory_format(o.trajectory_file); // reject a bad extension before running
        plan.trajectory_file = o.trajectory_file;
    }
    plan.trajectory_every = parse_integer("--trajectory-every", o.trajectory_every, 1, 1'000'000'000'000LL);
    if (!o.init_file.empty()) {
        plan.init_file = o.init_file;
    }
    if (!o.dump_file.empty()) {
        plan.dump_file = o.dump_file;
    }
    plan.steps = parse_integer("--steps", o.steps, 0, 1'000'000'000'000LL);
    plan.threads = static_cast<int>(parse_integer("--threads", o.threads, 0, 1024));
    if (o.precision == "f32") {
        plan.precision = Precision::F32;
    } else if (o.precision == "f64") {
        plan.precision = Precision::F64;
    } else {
        throw InputError(invalid_value_message("--precision", "'" + o.precision + "'", "allowed values are f32 | f64"));
    }
    return plan;
}

void run_headless(const RunPlan& plan) {
    if (plan.precision == Precision::F64) {
        run<double>(plan);
    } else {
        run<float>(plan);
    }
}

} // namespace boids::cli
