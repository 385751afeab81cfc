#include "boids/scenario.hpp"

#include "boids/error.hpp"
#include "presets.hpp"
#include "text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

namespace boids {

namespace {

constexpr long long max_agents = 100'000'000;

std::string at(std::string_view source, const toml::node& node) {
    const auto& where = node.source().begin;
    return std::string(source) + " line " + std::to_string(where.line);
}

/// The text form of a TOML scalar, as set_param expects it.
std::string scalar_text(const toml::node& node, std::string_view source, std::string_view key) {
    if (auto v = node.as_integer()) {
        return std::to_string(v->get());
    }
    if (auto v = node.as_floating_point()) {
        return text::shortest(v->get());
    }
    if (auto v = node.as_boolean()) {
        return v->get() ? "true" : "false";
    }
    if (auto v = node.as_string()) {
        return v->get();
    }
    throw InputError(at(source, node) + ": " + std::string(key) + " must be a number, boolean or string");
}

} // namespace

void set_agent_count(AgentCounts& counts, std::string_view key, long long value) {
    long long* slot = key == "boids"       ? &counts.boids
                      : key == "scouts1"   ? &counts.scouts1
                      : key == "scouts2"   ? &counts.scouts2
                      : key == "predators" ? &counts.predators
                                           : nullptr;
    if (slot == nullptr) {
        throw InputError("unknown agent kind '" + std::string(key) +
                         "'; allowed are boids, scouts1, scouts2, predators");
    }
    if (value < 0 || value > max_agents) {
        throw InputError(invalid_value_message(std::string(key), std::to_string(value),
                                               "allowed range is [0, " + std::to_string(max_agents) + "]"));
    }
    *slot = value;
}

Scenario parse_scenario(std::string_view toml_text, std::string_view source) {
    toml::table root;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        throw InputError(std::string(source) + " line " + std::to_string(e.source().begin.line) +
                         ": not valid TOML: " + std::string(e.description()));
    }
    Scenario scenario;
    scenario.name = std::string(source);
    for (const auto& [key, node] : root) {
        const std::string_view k = key.str();
        if (k == "description") {
            const auto* s = node.as_string();
            if (s == nullptr) {
                throw InputError(at(source, node) + ": description must be a string");
            }
            scenario.description = s->get();
        } else if (k == "seed") {
            const auto* v = node.as_integer();
            if (v == nullptr || v->get() < 0) {
                throw InputError(at(source, node) + ": seed must be a non-negative integer");
            }
            scenario.seed = static_cast<std::uint64_t>(v->get());
        } else if (k == "agents") {
            const auto* table = node.as_table();
            if (table == nullptr) {
                throw InputError(at(source, node) + ": [agents] must be a table");
            }
            for (const auto& [kind, count] : *table) {
                const auto* v = count.as_integer();
                if (v == nullptr) {
                    throw InputError(at(source, count) + ": agents." + std::string(kind.str()) +
                                     " must be an integer");
                }
                try {
                    set_agent_count(scenario.agents, kind.str(), v->get());
                } catch (const InputError& e) {
                    throw InputError(at(source, count) + ": " + e.what());
                }
            }
        } else if (k == "params") {
            const auto* table = node.as_table();
            if (table == nullptr) {
                throw InputError(at(source, node) + ": [params] must be a table");
            }
            for (const auto& [param, value] : *table) {
                try {
                    set_param(scenario.params, param.str(), scalar_text(value, source, param.str()));
                } catch (const InputError& e) {
                    throw InputError(at(source, value) + ": " + e.what());
                }
            }
        } else {
            throw InputError(at(source, node) + ": unknown key '" + std::string(k) +
                             "'; a scenario has description, seed, [agents] and [params]");
        }
    }
    try {
        validate(scenario.params);
    } catch (const InputError& e) {
        throw InputError(std::string(source) + ": " + e.what());
    }
    return scenario;
}

Scenario load_scenario_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError("cannot read scenario file '" + path.string() + "'");
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parse_scenario(buffer.str(), path.string());
}

std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    for (const auto& preset : builtin_presets()) {
        names.emplace_back(preset.name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string_view preset_source(std::string_view name) {
    for (const auto& preset : builtin_presets()) {
        if (preset.name == name) {
            return preset.toml;
        }
    }
    return {};
}

Scenario load_preset(std::string_view name) {
    const std::string_view source = preset_source(name);
    if (source.empty()) {
        std::string names;
        for (const auto& n : preset_names()) {
            names += (names.empty() ? "" : ", ") + n;
        }
        throw InputError("preset = '" + std::string(name) + "' is invalid: known presets are " + names);
    }
    Scenario scenario = parse_scenario(source, "preset " + std::string(name));
    scenario.name = std::string(name);
    return scenario;
}

} // namespace boids
