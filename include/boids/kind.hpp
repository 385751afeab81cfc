#pragma once
/// The kinds of agent in a world.

#include <cstdint>
#include <optional>
#include <string_view>

namespace boids {

/// What an agent is. Scouts flock like boids but carry a bias toward +x (scout1) or -x (scout2);
/// predators ignore the flock and are avoided by it.
enum class Kind : std::uint8_t { Boid = 0, Scout1 = 1, Scout2 = 2, Predator = 3 };

inline constexpr int kind_count = 4;

/// The state-file name of a kind: "boid", "scout1", "scout2", "predator".
[[nodiscard]] std::string_view kind_name(Kind kind);

/// Parses a state-file kind name; nullopt when it is none of the four.
[[nodiscard]] std::optional<Kind> parse_kind(std::string_view name);

/// True for the agents that flock (boids and scouts), i.e. everything but predators.
[[nodiscard]] constexpr bool is_flocking(Kind kind) {
    return kind != Kind::Predator;
}

} // namespace boids
