#include "boids/simulation_controller.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/hash.hpp"
#include "boids/state_io.hpp"
#include "boids/world_edit.hpp"

#include <algorithm>
#include <array>
#include <sstream>

namespace boids {

namespace {

constexpr std::array<Kind, kind_count> all_kinds{Kind::Boid, Kind::Scout1, Kind::Scout2, Kind::Predator};

constexpr std::array<std::string_view, kind_count> count_keys{"boids", "scouts1", "scouts2", "predators"};

/// Agents added during a session come from their own stream, derived from the scene's seed, so that
/// adding agents never disturbs the starting state and a session replays exactly.
constexpr std::uint64_t spawn_stream_salt = 0x9e3779b97f4a7c15ull;

/// A simulation continuing a saved state from the step it was saved at.
template <class Real>
AnySimulation continued(const Params& params, World<Real> world, long long step) {
    AnySimulation sim(std::in_place_type<Simulation<Real>>, params, std::move(world));
    std::get<Simulation<Real>>(sim).set_steps_taken(step);
    return sim;
}

} // namespace

Kind require_kind(std::string_view field, std::string_view name) {
    if (const auto kind = parse_kind(name)) {
        return *kind;
    }
    for (std::size_t i = 0; i < count_keys.size(); ++i) {
        if (count_keys[i] == name) {
            return static_cast<Kind>(i);
        }
    }
    throw InputError(
        invalid_value_message(std::string(field), "'" + std::string(name) + "'",
                              "allowed kinds are boid, scout1, scout2, predator (or boids, scouts1, "
                              "scouts2, predators)"));
}

std::string_view kind_count_key(Kind kind) {
    return count_keys[static_cast<std::size_t>(kind)];
}

SimulationController::SimulationController(SimulationSetup setup)
    : setup_(std::move(setup)), simulation_(make_simulation(setup_.scenario.params)),
      spawner_(setup_.scenario.seed ^ spawn_stream_salt) {
    set_threads(setup_.threads);
}

AnySimulation SimulationController::make_simulation(const Params& params) const {
    validate(params);
    if (setup_.init_file) {
        return load_simulation(params, *setup_.init_file);
    }
    return with_precision(setup_.precision, [&]<class Real>() {
        return AnySimulation(std::in_place_type<Simulation<Real>>, params,
                             spawn_world<Real>(params, setup_.scenario.agents, setup_.scenario.seed));
    });
}

AnySimulation SimulationController::load_simulation(const Params& params,
                                                    const std::filesystem::path& path) const {
    return with_precision(setup_.precision, [&]<class Real>() {
        long long step = 0;
        World<Real> world = read_state_csv<Real>(path, params, &step);
        return continued(params, std::move(world), step);
    });
}

void SimulationController::step(long long steps) {
    visit([&](auto& sim) { sim.step(steps); });
}

const Params& SimulationController::params() const {
    return visit([](const auto& sim) -> const Params& { return sim.params(); });
}

void SimulationController::set_param(std::string_view key, std::string_view value) {
    Params changed = params();
    boids::set_param(changed, key, value);
    require_key_used(changed, key);
    set_params(changed);
}

void SimulationController::set_params(const Params& params) {
    visit([&](auto& sim) { sim.set_params(params); });
}

std::string SimulationController::get_param(std::string_view key) const {
    return boids::get_param(params(), key);
}

void SimulationController::check_spawn_count(Kind kind, long long count) const {
    const std::string field = "spawn " + std::string(kind_name(kind)) + " count";
    if (count < 0 || count > max_spawn_per_call) {
        throw InputError(
            invalid_value_message(field, std::to_string(count),
                                  "allowed range is [0, " + std::to_string(max_spawn_per_call) + "]"));
    }
    const long long room = max_session_agents - static_cast<long long>(size());
    if (count > room) {
        throw InputError(invalid_value_message(field, std::to_string(count),
                                               "a session holds at most " +
                                                   std::to_string(max_session_agents) + " agents; room for " +
                                                   std::to_string(room) + " more"));
    }
}

void SimulationController::spawn(Kind kind, long long count) {
    check_spawn_count(kind, count);
    visit([&](auto& sim) { spawner_.spawn(sim.world(), sim.params(), kind, count); });
}

void SimulationController::remove(Kind kind, long long count) {
    const long long present = count_of(counts(), kind);
    if (count < 0 || count > present) {
        throw InputError(invalid_value_message("remove " + std::string(kind_name(kind)) + " count",
                                               std::to_string(count),
                                               "allowed range is [0, " + std::to_string(present) + "] (the " +
                                                   std::string(kind_count_key(kind)) + " present)"));
    }
    visit([&](auto& sim) { remove_newest(sim.world(), kind, count); });
}

void SimulationController::place(Kind kind, double x, double y, long long count, double spread) {
    check_spawn_count(kind, count);
    visit([&](auto& sim) { place_agents(sim.world(), spawner_, sim.params(), kind, x, y, count, spread); });
}

void SimulationController::set_counts(const AgentCounts& wanted) {
    const AgentCounts have = counts();
    for (Kind kind : all_kinds) {
        const long long want = count_of(wanted, kind);
        if (want < 0) {
            throw InputError(invalid_value_message(std::string(kind_count_key(kind)), std::to_string(want),
                                                   "a count is at least 0"));
        }
    }
    if (wanted.total() > max_session_agents) {
        throw InputError(invalid_value_message("agents", std::to_string(wanted.total()),
                                               "a session holds at most " +
                                                   std::to_string(max_session_agents) + " agents"));
    }
    std::array<long long, kind_count> excess{};
    for (Kind kind : all_kinds) {
        excess[static_cast<std::size_t>(kind)] = std::max(0LL, count_of(have, kind) - count_of(wanted, kind));
    }
    // Additions may fail (obstacles leaving no room): spawn into a copy so that nothing changes then.
    visit([&](auto& sim) {
        auto world = sim.world();
        Spawner spawner = spawner_;
        remove_newest(world, excess);
        for (Kind kind : all_kinds) {
            const long long missing = count_of(wanted, kind) - count_of(have, kind);
            if (missing > 0) {
                spawner.spawn(world, sim.params(), kind, missing);
            }
        }
        sim.world() = std::move(world);
        spawner_ = spawner;
    });
}

void SimulationController::reset() {
    AnySimulation fresh = make_simulation(params());
    simulation_ = std::move(fresh);
    spawner_ = Spawner(setup_.scenario.seed ^ spawn_stream_salt);
    set_threads(setup_.threads);
}

void SimulationController::restart(const Scenario& scene) {
    SimulationController fresh(
        SimulationSetup{scene, std::nullopt, setup_.precision,
                        setup_.threads}); // validates and spawns; throws before anything changes
    fresh.paused_ = paused_;
    fresh.quit_requested_ = quit_requested_;
    *this = std::move(fresh);
}

Scenario SimulationController::scene() const {
    Scenario s = setup_.scenario;
    s.params = params();
    return s;
}

void SimulationController::set_precision(Precision precision) {
    if (precision == setup_.precision) {
        return;
    }
    if (precision == Precision::Fix15) {
        validate_fix15(params());
    }
    // The state file's text is exact in both directions (shortest round trip; fix15's exact decimal).
    std::ostringstream text;
    visit([&](const auto& sim) { write_state_csv(text, sim.world(), sim.steps_taken()); });
    AnySimulation converted = with_precision(precision, [&]<class Real>() {
        long long step = 0;
        World<Real> world = parse_state_csv<Real>(text.str(), "the flock", params(), &step);
        return continued(params(), std::move(world), step);
    });
    simulation_ = std::move(converted);
    setup_.precision = precision;
    set_threads(setup_.threads);
}

void SimulationController::load_state(const std::filesystem::path& path) {
    AnySimulation loaded = load_simulation(params(), path);
    simulation_ = std::move(loaded);
    set_threads(setup_.threads);
}

void SimulationController::save_state(const std::filesystem::path& path) const {
    visit([&](const auto& sim) { write_state_csv(path, sim.world(), sim.steps_taken()); });
}

std::uint64_t SimulationController::state_hash() const {
    return visit([](const auto& sim) { return boids::state_hash(sim.world()); });
}

SessionStats SimulationController::stats() const {
    SessionStats s;
    visit([&](const auto& sim) {
        s.steps = sim.steps_taken();
        s.counts = sim.world().counts();
        s.summary = summarize(sim.world());
        s.last_step = sim.last_profile();
        s.total = sim.total_profile();
        s.state_hash = boids::state_hash(sim.world());
        s.threads = sim.threads();
    });
    s.paused = paused_;
    s.precision = setup_.precision;
    return s;
}

AgentCounts SimulationController::counts() const {
    return visit([](const auto& sim) { return sim.world().counts(); });
}

std::size_t SimulationController::size() const {
    return visit([](const auto& sim) { return sim.world().size(); });
}

long long SimulationController::steps_taken() const {
    return visit([](const auto& sim) { return sim.steps_taken(); });
}

const StepProfile& SimulationController::last_profile() const {
    return visit([](const auto& sim) -> const StepProfile& { return sim.last_profile(); });
}

const StepProfile& SimulationController::total_profile() const {
    return visit([](const auto& sim) -> const StepProfile& { return sim.total_profile(); });
}

void SimulationController::set_threads(int threads) {
    if (threads < 0 || threads > 1024) {
        throw InputError(
            invalid_value_message("threads", std::to_string(threads), "allowed range is [0, 1024]"));
    }
    setup_.threads = threads;
    visit([&](auto& sim) { sim.set_threads(threads); });
}

int SimulationController::threads() const {
    return visit([](const auto& sim) { return sim.threads(); });
}

} // namespace boids
