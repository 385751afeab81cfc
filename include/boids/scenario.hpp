#pragma once
/// Scenarios: parameters, agent counts and seed, from TOML files or the built-in presets (presets/).
///
/// A scenario file:
///     description = "..."          # optional
///     seed = 1                      # optional
///     rate = 60                     # optional: steps per second the viewer starts at (1 to 1000)
///     [agents]
///     boids = 500                   # boids, scouts1, scouts2, predators; absent = 0
///     [params]
///     visual_range = 40             # any key of param_table(); absent = default
///     [view]                        # optional: the viewer's camera (zoom, center_x, center_y, yaw, pitch)
///     [[obstacles]] / [[food]]      # optional: see docs/USER_GUIDE.md

#include "boids/params.hpp"
#include "boids/spawn.hpp"
#include "boids/world.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boids {

/// The viewer's step rate when a scenario names none (the ECE 4760 lab's 30 steps per second), and the
/// rates a scenario or the viewer may ask for.
inline constexpr int default_rate = 30;
inline constexpr int min_rate = 1;
inline constexpr int max_rate = 1000;

/// Where the viewer's camera looks, saved with a scene (every field optional: absent = the start view).
struct SceneView {
    std::optional<double> zoom;               ///< 2D and 3D: 1 = the whole world fits the window
    std::optional<double> center_x, center_y; ///< 2D: the world point at the view's centre
    std::optional<double> yaw, pitch;         ///< 3D: the orbit camera's angles, radians
    bool operator==(const SceneView&) const = default;
};

struct Scenario {
    std::string name; ///< preset name or file path
    std::string description;
    Params params;
    AgentCounts agents;
    std::uint64_t seed = default_seed;
    int rate = default_rate; ///< steps per second the viewer starts at: its source's rate
    SceneView view;          ///< the viewer's camera, when the scene was saved from the viewer
};

/// The scenario as TOML text that parse_scenario reads back to the same scenario (every parameter the
/// model reads, the agents, seed, rate, camera, obstacles and food; numbers in shortest round-trip form).
[[nodiscard]] std::string scenario_toml(const Scenario& scenario);

/// Writes scenario_toml(scenario) to `path` (atomically). Throws IoError when it cannot be written.
void save_scenario_file(const Scenario& scenario, const std::filesystem::path& path);

/// The preset the CLI runs when none is named.
inline constexpr std::string_view default_preset = "vga-predator";

/// Parses scenario TOML text; `source` names it in messages. Throws InputError.
[[nodiscard]] Scenario parse_scenario(std::string_view toml_text, std::string_view source);

/// Reads a scenario file. Throws InputError.
[[nodiscard]] Scenario load_scenario_file(const std::filesystem::path& path);

/// The largest scenario file read (scenes with many obstacles stay far below).
constexpr std::uintmax_t max_scenario_file_bytes = std::uintmax_t{16} << 20;

/// A built-in preset by name. Throws InputError listing the names when it is unknown.
[[nodiscard]] Scenario load_preset(std::string_view name);

/// Names of the built-in presets, sorted.
[[nodiscard]] std::vector<std::string> preset_names();

/// The TOML text of a built-in preset (empty if unknown).
[[nodiscard]] std::string_view preset_source(std::string_view name);

/// Sets an agent count by key (boids, scouts1, scouts2, predators). Throws InputError.
void set_agent_count(AgentCounts& counts, std::string_view key, long long value);

} // namespace boids
