// `boids`: the command-line front end. Exit codes: 0 success, 2 bad input, 1 internal error.

#include "boids/error.hpp"
#include "boids/params.hpp"
#include "boids/scenario.hpp"
#include "run_command.hpp"
#include "sweep_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

namespace {

constexpr int exit_bad_input = 2;

void add_run_options(CLI::App& cmd, boids::cli::RunOptions& o) {
    cmd.add_flag("--headless", o.headless, "Run without a window and print a summary");
    cmd.add_option("--preset", o.preset, "Built-in scene: " + [] {
        std::string names;
        for (const auto& n : boids::preset_names()) {
            names += (names.empty() ? "" : ", ") + n;
        }
        return names + " (default " + std::string(boids::default_preset) + ")";
    }());
    cmd.add_option("--scenario", o.scenario_file, "Scene from a TOML scenario file");
    cmd.add_option("--set", o.settings, "Override a parameter: key=value (repeatable; see `boids params`)");
    cmd.add_option("--boids", o.boids, "Number of boids");
    cmd.add_option("--scouts1", o.scouts1, "Number of scouts biased to the right (+x)");
    cmd.add_option("--scouts2", o.scouts2, "Number of scouts biased to the left (-x)");
    cmd.add_option("--predators", o.predators, "Number of predators");
    cmd.add_option("--seed", o.seed, "Seed of the random initial state");
    cmd.add_option("--init", o.init_file, "Start from a state CSV instead of random spawning");
    cmd.add_option("--steps", o.steps, "Number of steps to run (default 1000)");
    cmd.add_option("--dump", o.dump_file, "Write the final state CSV here");
    cmd.add_option("--precision", o.precision, "Scalar type: f32 (default) | f64");
    cmd.add_option("--threads", o.threads, "Worker threads; 0 = all (default)");
    cmd.add_option("--metrics", o.metrics_file, "Write order parameters to this CSV (step 0 and every K steps)");
    cmd.add_option("--metrics-every", o.metrics_every, "K for --metrics (default 1)");
    cmd.add_option("--trajectory", o.trajectory_file, "Write positions and velocities to this .csv or .npy");
    cmd.add_option("--trajectory-every", o.trajectory_every, "K for --trajectory (default 1)");
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
        } else if (info.kind == std::string_view("bool")) {
            allowed = "true | false";
        } else if (info.key == std::string_view("model")) {
            allowed = "classic | vicsek | couzin";
        } else {
            allowed = "margin | wrap";
        }
        std::printf("%-22s %-10s %-22s %s\n", std::string(info.key).c_str(),
                    boids::get_param(defaults, info.key).c_str(), allowed.c_str(), std::string(info.help).c_str());
    }
    std::printf("%-22s %-10s %-22s %s\n", "margin", "", "[0, 10000000]", "sets all four margins (write-only)");
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"boids: Craig Reynolds' flocking, as in Cornell ECE 4760 (classic rules, predators, scouts)"};
    app.require_subcommand(0, 1);
    boids::cli::RunOptions run_options;
    CLI::App* run = app.add_subcommand("run", "Run a scene and print a summary");
    add_run_options(*run, run_options);
    boids::cli::SweepOptions sweep_options;
    CLI::App* sweep = app.add_subcommand("sweep", "Run every (value, seed) of one varied key; one CSV row each");
    add_run_options(*sweep, sweep_options.scene);
    sweep->add_option("--vary", sweep_options.vary,
                      "KEY=START:STOP:COUNT[:log]: a numeric parameter, an agent count, or scouts1_fraction");
    sweep->add_option("--seeds", sweep_options.seeds, "Runs per value, seeds --seed, --seed + 1, ... (default 1)");
    sweep->add_option("--burn-in", sweep_options.burn_in, "Steps before averaging starts (default 0)");
    sweep->add_option("--every", sweep_options.every, "Steps between metric samples after the burn-in (default 1)");
    sweep->add_option("--metric", sweep_options.metrics,
                      "Metrics to average, comma-separated (default polarization): polarization, milling, "
                      "nnd_mean, groups, speed_mean, speed_std, frac_right, frac_left, accuracy, side_right");
    sweep->add_option("--out", sweep_options.out, "CSV written row by row; re-running resumes it");
    CLI::App* presets = app.add_subcommand("presets", "List the built-in scenes");
    CLI::App* params = app.add_subcommand("params", "List every parameter key with its default and range");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "boids: " << e.what() << " (see boids --help)\n";
        return exit_bad_input;
    }

    try {
        if (presets->parsed()) {
            print_presets();
            return 0;
        }
        if (params->parsed()) {
            print_params();
            return 0;
        }
        if (sweep->parsed()) {
            boids::cli::run_sweep(sweep_options);
            return 0;
        }
        if (!run->parsed()) {
            // The main job: no window exists yet, so the default scene runs headless.
            std::puts("boids: running the default scene headless (boids --help lists the commands)");
        }
        boids::cli::run_headless(boids::cli::make_run_plan(run_options));
        return 0;
    } catch (const boids::InputError& e) {
        std::cerr << "boids: " << e.what() << "\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << "boids: internal error: " << e.what() << "\n";
        return 1;
    }
}
