#include "boids/kind.hpp"

#include <array>

namespace boids {

namespace {
constexpr std::array<std::string_view, kind_count> kind_names{"boid", "scout1", "scout2", "predator"};
}

std::string_view kind_name(Kind kind) {
    return kind_names[static_cast<std::size_t>(kind)];
}

std::optional<Kind> parse_kind(std::string_view name) {
    for (std::size_t i = 0; i < kind_names.size(); ++i) {
        if (kind_names[i] == name) {
            return static_cast<Kind>(i);
        }
    }
    return std::nullopt;
}

} // namespace boids
