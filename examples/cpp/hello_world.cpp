// Boids HelloWorld: the smallest complete program using the engine as a library.
//
// It builds a world from a built-in preset, steps it, reads the agents' positions, changes a parameter
// while the simulation runs, and prints a summary. Build it against an installed Boids with the
// CMakeLists.txt next to it (find_package(boids)), or with pkg-config:
//
//   c++ hello_world.cpp $(pkg-config --cflags --libs boids) -o hello_world

#include <boids/error.hpp>    // boids::InputError: what every bad input throws
#include <boids/hash.hpp>     // boids::state_hash: a fingerprint of every agent's bits
#include <boids/metrics.hpp>  // boids::compute_metrics: order parameters of the flock
#include <boids/params.hpp>   // boids::Params and set_param / get_param by key
#include <boids/scenario.hpp> // boids::load_preset: the built-in scenes
#include <boids/simulation.hpp>
#include <boids/spawn.hpp>   // boids::spawn_world: a random starting flock from a seed
#include <boids/version.hpp> // boids::version: the package version

#include <cinttypes>
#include <cstdio>
#include <utility>

int main() {
    std::printf("Boids %s\n", std::string(boids::version).c_str());
    try {
        // 1. A scene: parameters, agent counts and a seed. load_preset gives a built-in one (the same
        //    names as `boids presets`); a TOML file works too (boids::load_scenario_file).
        boids::Scenario scene = boids::load_preset("vga-predator");

        // 2. Adjust it before the start. Parameters are set by key with the same validation as
        //    `boids run --set key=value` (a bad key or value throws boids::InputError naming it).
        boids::set_agent_count(scene.agents, "boids", 2000);
        boids::set_param(scene.params, "visual_range", "30");
        scene.seed = 42;

        // 3. The starting world: every agent in one structure of arrays (x, y, vx, vy, kind, ...),
        //    spawned at random from the seed. float is the engine's usual scalar; double works too.
        boids::World<float> world = boids::spawn_world<float>(scene.params, scene.agents, scene.seed);

        // 4. The simulation owns the world and its parameters. Threads do not change the results:
        //    the same scene and seed give the same bits on any number of cores.
        boids::Simulation<float> sim(scene.params, std::move(world));

        // 5. Step it: one call advances any number of synchronous steps.
        sim.step(100);

        // 6. Read the agents. world() is the current state; row i of every column is agent i, and the
        //    order never changes. Positions are in pixels, y grows downward.
        const boids::World<float>& now = sim.world();
        double cx = 0.0, cy = 0.0;
        for (std::size_t i = 0; i < now.size(); ++i) {
            cx += now.x[i];
            cy += now.y[i];
        }
        std::printf("after %lld steps: %zu agents, first boid at (%.1f, %.1f), centre of mass (%.1f, %.1f)\n",
                    sim.steps_taken(), now.size(), static_cast<double>(now.x[0]),
                    static_cast<double>(now.y[0]), cx / static_cast<double>(now.size()),
                    cy / static_cast<double>(now.size()));

        // 7. Change a parameter while it runs: copy the parameters, edit, hand them back (validated as a
        //    whole; on error nothing changes).
        boids::Params faster = sim.params();
        boids::set_param(faster, "max_speed", "8");
        sim.set_params(faster);
        sim.step(100);

        // 8. Measure the flock: polarization 1 means everyone flies the same way; groups counts the flocks.
        const boids::Metrics m = boids::compute_metrics(sim.world(), sim.params());
        std::printf("after %lld steps with max_speed = %s: polarization %.3f, %lld groups, mean speed %.2f\n",
                    sim.steps_taken(), boids::get_param(sim.params(), "max_speed").c_str(), m.polarization,
                    m.groups, m.speed_mean);

        // 9. A fingerprint of the whole state, the same as `boids run --headless` prints as "state hash".
        std::printf("state hash %016" PRIx64 "\n", boids::state_hash(sim.world()));

        // 10. Bad input is an exception whose message names the field, the value and what is allowed;
        //     the parameters it was applied to are left as they were.
        try {
            boids::set_param(faster, "max_speed", "-1");
        } catch (const boids::InputError& e) {
            std::printf("rejected: %s\n", e.what());
        }
    } catch (const boids::InputError& e) {
        std::fprintf(stderr, "hello_world: %s\n", e.what());
        return 2;
    }
    return 0;
}
