#pragma once
/// A simulation of any precision with the operations a live session needs: parameters by key, agents
/// added and removed by kind, reset, state files, statistics, and pause/quit flags for the loop that
/// drives it. The control port (control_server.hpp) and the Python module are built on it.

#include "boids/kind.hpp"
#include "boids/metrics.hpp"
#include "boids/precision.hpp"
#include "boids/profile.hpp"
#include "boids/scenario.hpp"
#include "boids/spawn.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace boids {

/// How a session starts: a scene (parameters, agent counts, seed), optionally a state file to start
/// from instead of spawning, the scalar type and the thread count.
struct SimulationSetup {
    Scenario scenario;
    std::optional<std::filesystem::path> init_file; ///< start from this state CSV instead of spawning
    Precision precision = Precision::F32;
    int threads = 0; ///< 0 = all available
};

/// A snapshot of a session's state for `stats` (control port) and `World.stats()` (Python).
struct SessionStats {
    long long steps = 0; ///< steps since the start or the last reset / load
    AgentCounts counts;
    FlockSummary summary;
    StepProfile last_step;
    StepProfile total;
    std::uint64_t state_hash = 0;
    bool paused = false;
    Precision precision = Precision::F32;
    int threads = 0;
};

/// Most agents one `spawn` may add, and most agents a session may hold.
inline constexpr long long max_spawn_per_call = 1'000'000;
inline constexpr long long max_session_agents = 100'000'000;
/// Most steps one `step N` request may take (keeps the driving loop responsive).
inline constexpr long long max_steps_per_request = 100'000;

/// Parses an agent kind as users write it: the state-file name (boid, scout1, scout2, predator) or the
/// count key (boids, scouts1, scouts2, predators). Throws InputError naming `field`.
[[nodiscard]] Kind require_kind(std::string_view field, std::string_view name);

/// The count key of a kind: boids, scouts1, scouts2, predators.
[[nodiscard]] std::string_view kind_count_key(Kind kind);

/// Owns one simulation and its starting point. Not thread-safe: one thread drives it (the control
/// server queues commands for that thread, see ControlServer::apply_pending).
class SimulationController {
public:
    /// Builds the starting world. Throws InputError for bad parameters or an unreadable state file.
    explicit SimulationController(SimulationSetup setup);

    /// Advances `steps` steps (ignores the pause flag: pausing is for the driving loop).
    void step(long long steps = 1);

    /// The current parameters.
    [[nodiscard]] const Params& params() const;
    /// Sets one parameter by key with the CLI's validation (a key the model does not read is refused);
    /// on error nothing changes.
    void set_param(std::string_view key, std::string_view value);
    /// Replaces every parameter at once (validated; on error nothing changes).
    void set_params(const Params& params);
    /// The text form of one parameter. Throws InputError for an unknown key.
    [[nodiscard]] std::string get_param(std::string_view key) const;

    /// Adds `count` agents of `kind` at random (a seeded stream of its own, so sessions replay exactly).
    void spawn(Kind kind, long long count);
    /// Removes the `count` most recently added agents of `kind`. Throws InputError if there are fewer.
    void remove(Kind kind, long long count);

    /// Adds `count` agents of `kind` around (x, y) within a square of side `spread` (place_agents), from
    /// the same stream as spawn(). Throws InputError for a bad count.
    void place(Kind kind, double x, double y, long long count, double spread);
    /// Adds or removes agents so that there are `wanted` of each kind: removals take the most recently
    /// added agents, additions come from the spawn() stream. The viewer's counts and its grow mode use it;
    /// the session limit applies, not spawn()'s per-call limit. On error nothing changes.
    void set_counts(const AgentCounts& wanted);

    /// Back to the starting agents (same seed or state file), keeping the current parameters; the step
    /// count and timings restart from zero.
    void reset();
    /// Starts `scene` instead: its parameters, agent counts and seed become the starting point that
    /// reset() returns to (a state file given at construction no longer applies). On error nothing
    /// changes.
    void restart(const Scenario& scene);
    /// The scene reset() returns to, with the current parameters.
    [[nodiscard]] Scenario scene() const;

    /// Carries the flock over into another scalar type (exact: through the state file's text form, as a
    /// saved state would). Throws InputError, changing nothing, when the parameters do not fit it.
    void set_precision(Precision precision);

    /// Replaces the agents with a state file (CLI CSV format); the step count restarts from zero.
    void load_state(const std::filesystem::path& path);
    /// Writes the agents as a state file (CLI CSV format).
    void save_state(const std::filesystem::path& path) const;

    /// The hash of the state's exact bits (state_hash in hash.hpp).
    [[nodiscard]] std::uint64_t state_hash() const;
    /// A snapshot for `stats` and Python's `World.stats()`.
    [[nodiscard]] SessionStats stats() const;
    /// The agents by kind.
    [[nodiscard]] AgentCounts counts() const;
    /// The number of agents.
    [[nodiscard]] std::size_t size() const;
    /// Steps since the start or the last reset / load.
    [[nodiscard]] long long steps_taken() const;
    /// Timing of the last step.
    [[nodiscard]] const StepProfile& last_profile() const;
    /// Timing summed over every step so far.
    [[nodiscard]] const StepProfile& total_profile() const;

    /// The session's scalar type.
    [[nodiscard]] Precision precision() const { return setup_.precision; }
    /// How the session started.
    [[nodiscard]] const SimulationSetup& setup() const { return setup_; }
    /// Threads used per step; 0 = all available.
    void set_threads(int threads);
    /// Threads used per step (0 resolved to all available).
    [[nodiscard]] int threads() const;

    /// The driving loop stops stepping while paused (step() still works).
    [[nodiscard]] bool paused() const { return paused_; }
    void set_paused(bool paused) { paused_ = paused; }
    /// Set by `quit`; the driving loop ends when it sees it.
    [[nodiscard]] bool quit_requested() const { return quit_requested_; }
    void request_quit() { quit_requested_ = true; }

    /// Calls `f(Simulation<Real>&)` with the simulation in its own scalar type.
    template <class F>
    decltype(auto) visit(F&& f) {
        return std::visit(std::forward<F>(f), simulation_);
    }
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit(std::forward<F>(f), simulation_);
    }

private:
    /// Throws InputError when `count` agents of `kind` may not be added in one request.
    void check_spawn_count(Kind kind, long long count) const;
    [[nodiscard]] AnySimulation make_simulation(const Params& params) const;
    [[nodiscard]] AnySimulation load_simulation(const Params& params,
                                                const std::filesystem::path& path) const;

    SimulationSetup setup_;
    AnySimulation simulation_;
    Spawner spawner_;
    bool paused_ = false;
    bool quit_requested_ = false;
};

} // namespace boids
