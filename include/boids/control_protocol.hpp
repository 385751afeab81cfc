#pragma once
/// The control port's line protocol, independent of sockets: one command line in, one reply line out.
///
/// Commands (words separated by spaces or tabs):
///   set KEY VALUE   get KEY   params   stats   pause   resume   step [N]   reset
///   spawn KIND N    remove KIND N      quit    help
/// `set precision f32|f64|fix15` and `get precision` switch and read the session's scalar type (the flock
/// carries over exactly). The headless run, the viewer and Python all answer through this one function.
/// Every command is answered by exactly one line (without the newline here): `ok ...` or `error <why>`.
/// Values in replies are `key=value` pairs separated by single spaces.

#include "boids/simulation_controller.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace boids {

/// Longest accepted command line in bytes, not counting the newline.
inline constexpr std::size_t max_control_line = 4096;

/// Most agent-steps (steps times agents) one `step N` request may ask for, counting steps already queued
/// and not yet taken: the simulation's thread answers nobody while it steps, so the work one command can
/// give it is bounded (about a second at a million agents in a sparse scene; one step is always allowed).
inline constexpr long long max_agent_steps_per_request = 10'000'000;

/// The most steps a `step N` request may add with `agents` agents when `queued` steps already wait (a
/// loop that queues steps, such as the viewer's): min(max_steps_per_request, max_agent_steps_per_request /
/// agents, at least 1) minus `queued`, never below 0.
[[nodiscard]] long long step_request_limit(std::size_t agents, long long queued = 0);

/// Throws InputError naming `step N`, the value and the bound when `steps` is not in
/// [1, step_request_limit(agents, queued)].
void check_step_request(long long steps, std::size_t agents, long long queued = 0);

/// Most neighbour pairs a step may be expected to visit after a `spawn` or a `set` (see
/// expected_neighbour_pairs): a command that would take the flock past it is refused, since every later
/// step would hold the simulation's thread for seconds (a million boids in the 640 x 480 default world have
/// about 16,000 neighbours each: 1.6e10 pairs, a minute a step). Commands that lower the work are allowed.
inline constexpr double max_expected_neighbour_pairs = 1e9;

/// The neighbour pairs one step visits for `agents` agents spread evenly over the world of `params`: the
/// agents times the agents within visual_range of one (its share of the world's area, or volume in 3D).
[[nodiscard]] double expected_neighbour_pairs(const Params& params, long long agents);

/// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
[[nodiscard]] bool is_valid_utf8(std::string_view text);

/// Why a raw line (newline removed, a trailing carriage return allowed) cannot be a command, as an
/// `error ...` reply; empty when its framing is acceptable. Checks length, UTF-8 and control characters.
[[nodiscard]] std::string check_control_line(std::string_view line);

/// Runs one command line against `controller` and returns the reply line. Never throws for bad input:
/// a rejected command leaves the controller unchanged and returns `error <why>`.
[[nodiscard]] std::string execute_control_command(SimulationController& controller, std::string_view line);

/// The `key=value ...` text of `stats` (without the leading "ok ").
[[nodiscard]] std::string format_stats(const SessionStats& stats);

/// The `key=value ...` text of `params` (without the leading "ok "), every readable key in table order.
[[nodiscard]] std::string format_params(const Params& params);

} // namespace boids
