#include "boids/control_protocol.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

namespace boids {

namespace {

constexpr std::string_view command_list = "set KEY VALUE, get KEY, params, stats, pause, resume, step [N], "
                                          "reset, spawn KIND N, remove KIND N, quit, help";

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
            ++i;
        }
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
            ++i;
        }
        if (i > start) {
            words.push_back(line.substr(start, i - start));
        }
    }
    return words;
}

/// A whole-word integer in [lo, hi], or InputError naming the field.
long long parse_count(const std::string& field, std::string_view word, long long lo, long long hi) {
    const auto value = text::parse_finite<long long>(word);
    if (!value || *value < lo || *value > hi) {
        throw InputError(invalid_value_message(field, "'" + std::string(word) + "'",
                                               "expected an integer in [" + std::to_string(lo) + ", " +
                                                   std::to_string(hi) + "]"));
    }
    return *value;
}

void require_arity(std::string_view command, const std::vector<std::string_view>& words, std::size_t min_args,
                   std::size_t max_args, std::string_view usage) {
    const std::size_t args = words.size() - 1;
    if (args < min_args || args > max_args) {
        throw InputError(std::string(command) + " takes " + std::string(usage) + " (got " +
                         std::to_string(args) + " argument" + (args == 1 ? "" : "s") + ")");
    }
}

/// Refuses a command that takes the expected neighbour pairs of a step (from `agents` agents with `params`
/// to `next_agents` with `next`) past max_expected_neighbour_pairs, unless it lowers them.
void check_neighbour_work(const std::string& field, const std::string& value, const Params& params,
                          const Params& next, long long agents, long long next_agents) {
    const double before = expected_neighbour_pairs(params, agents);
    const double after = expected_neighbour_pairs(next, next_agents);
    if (after <= max_expected_neighbour_pairs || after <= before) {
        return;
    }
    const auto two_digits = [](double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2g", v);
        return std::string(text);
    };
    const double each = after / static_cast<double>(std::max(1LL, next_agents));
    throw InputError(invalid_value_message(field, "'" + value + "'",
                                           "it would give " + std::to_string(next_agents) + " agents about " +
                                               std::to_string(std::llround(each)) + " neighbours each, " +
                                               two_digits(after) +
                                               " neighbour pairs a step (spread evenly); one command "
                                               "may take a step to at most " +
                                               two_digits(max_expected_neighbour_pairs) +
                                               ": fewer agents, a larger world or a smaller visual_range"));
}

std::string count_reply(const SimulationController& controller, Kind kind) {
    const AgentCounts c = controller.counts();
    const std::array<long long, kind_count> n{c.boids, c.scouts1, c.scouts2, c.predators};
    return "ok " + std::string(kind_count_key(kind)) + "=" +
           std::to_string(n[static_cast<std::size_t>(kind)]) + " agents=" + std::to_string(c.total());
}

/// One line: newlines or carriage returns inside a message would break the framing.
std::string single_line(std::string message) {
    for (char& c : message) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return message;
}

std::string run(SimulationController& controller, const std::vector<std::string_view>& words) {
    const std::string_view command = words.front();
    if (command == "set" && words.size() == 3 && words[1] == "precision") {
        // The scalar is the session's, not a parameter: the flock carries over into it exactly.
        controller.set_precision(require_precision("precision", words[2]));
        return "ok precision=" + std::string(precision_name(controller.precision()));
    }
    if (command == "get" && words.size() == 2 && words[1] == "precision") {
        return "ok precision=" + std::string(precision_name(controller.precision()));
    }
    if (command == "set") {
        require_arity(command, words, 2, 2, "KEY VALUE");
        Params next = controller.params();
        try {
            set_param(next, words[1], words[2]);
        } catch (const InputError&) {
            next = controller.params(); // the controller's own check below says what is wrong
        }
        check_neighbour_work("set " + std::string(words[1]), std::string(words[2]), controller.params(), next,
                             static_cast<long long>(controller.size()),
                             static_cast<long long>(controller.size()));
        controller.set_param(words[1], words[2]);
        return "ok " + std::string(words[1]) + "=" +
               (words[1] == "margin" ? controller.get_param("margin_left") : controller.get_param(words[1]));
    }
    if (command == "get") {
        require_arity(command, words, 1, 1, "KEY");
        return "ok " + std::string(words[1]) + "=" + controller.get_param(words[1]);
    }
    if (command == "params") {
        require_arity(command, words, 0, 0, "no arguments");
        return "ok " + format_params(controller.params());
    }
    if (command == "stats") {
        require_arity(command, words, 0, 0, "no arguments");
        return "ok " + format_stats(controller.stats());
    }
    if (command == "pause" || command == "resume") {
        require_arity(command, words, 0, 0, "no arguments");
        controller.set_paused(command == "pause");
        return controller.paused() ? "ok paused" : "ok running";
    }
    if (command == "step") {
        require_arity(command, words, 0, 1, "an optional step count N");
        const long long n = words.size() == 2 ? parse_count("step N", words[1], 1, max_steps_per_request) : 1;
        check_step_request(n, controller.size());
        controller.step(n);
        return "ok steps=" + std::to_string(controller.steps_taken());
    }
    if (command == "reset") {
        require_arity(command, words, 0, 0, "no arguments");
        controller.reset();
        return "ok steps=0 agents=" + std::to_string(controller.size());
    }
    if (command == "spawn" || command == "remove") {
        require_arity(command, words, 2, 2, "KIND N");
        const Kind kind = require_kind(std::string(command) + " KIND", words[1]);
        const std::string field = std::string(command) + " " + std::string(kind_name(kind)) + " count";
        const long long limit = command == "spawn" ? max_spawn_per_call : max_session_agents;
        const long long n = parse_count(field, words[2], 0, limit);
        if (command == "spawn") {
            const auto agents = static_cast<long long>(controller.size());
            check_neighbour_work(field, std::string(words[2]), controller.params(), controller.params(),
                                 agents, agents + n);
            controller.spawn(kind, n);
        } else {
            controller.remove(kind, n);
        }
        return count_reply(controller, kind);
    }
    if (command == "quit") {
        require_arity(command, words, 0, 0, "no arguments");
        controller.request_quit();
        return "ok quit";
    }
    if (command == "help") {
        return "ok commands: " + std::string(command_list);
    }
    const std::string shown =
        command.size() > 64 ? std::string(command.substr(0, 64)) + "..." : std::string(command);
    throw InputError("unknown command '" + shown + "'; commands: " + std::string(command_list));
}

char hex_digit(int v) {
    return static_cast<char>(v < 10 ? '0' + v : 'a' + v - 10);
}

} // namespace

double expected_neighbour_pairs(const Params& params, long long agents) {
    const double r = params.visual_range;
    const double share = params.dimensions == 3 ? 4.0 / 3.0 * std::numbers::pi * r * r * r /
                                                      (params.width * params.height * params.depth)
                                                : std::numbers::pi * r * r / (params.width * params.height);
    const auto n = static_cast<double>(agents);
    return n * n * std::min(1.0, share);
}

long long step_request_limit(std::size_t agents, long long queued) {
    const long long by_work =
        std::max(1LL, max_agent_steps_per_request / std::max(1LL, static_cast<long long>(agents)));
    return std::max(0LL, std::min(max_steps_per_request, by_work) - std::max(0LL, queued));
}

void check_step_request(long long steps, std::size_t agents, long long queued) {
    const long long limit = step_request_limit(agents, queued);
    if (steps >= 1 && steps <= limit) {
        return;
    }
    std::string why = limit == 0 ? "no more steps may be queued: " + std::to_string(queued) + " already wait"
                                 : "expected an integer in [1, " + std::to_string(limit) + "]";
    if (steps >= 1 && limit < max_steps_per_request) {
        why += " (one request may ask for at most " + std::to_string(max_agent_steps_per_request) +
               " agent-steps; there are " + std::to_string(agents) + " agents" +
               (queued > 0 ? " and " + std::to_string(queued) + " steps queued" : "") + ")";
    }
    throw InputError(invalid_value_message("step N", "'" + std::to_string(steps) + "'", why));
}

bool is_valid_utf8(std::string_view text) {
    return !text::invalid_utf8_at(text).has_value();
}

std::string check_control_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    if (line.size() > max_control_line) {
        return "error line longer than " + std::to_string(max_control_line) + " bytes";
    }
    if (!is_valid_utf8(line)) {
        return "error line is not valid UTF-8";
    }
    for (const char c : line) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7F) {
            return std::string("error line contains control character 0x") + hex_digit(u >> 4) +
                   hex_digit(u & 0xF);
        }
    }
    return {};
}

std::string execute_control_command(SimulationController& controller, std::string_view line) {
    if (std::string framing = check_control_line(line); !framing.empty()) {
        return framing;
    }
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) {
        return "error empty line; commands: " + std::string(command_list);
    }
    try {
        return single_line(run(controller, words));
    } catch (const InputError& e) {
        return single_line(std::string("error ") + e.what());
    } catch (const std::exception& e) {
        return single_line(std::string("error internal: ") + e.what());
    }
}

std::string format_params(const Params& params) {
    std::string out;
    for (const ParamInfo& info : param_table()) {
        if (!out.empty()) {
            out += ' ';
        }
        out.append(info.key).append("=").append(get_param(params, info.key));
    }
    return out;
}

std::string format_stats(const SessionStats& s) {
    using text::shortest;
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(s.state_hash));
    return "steps=" + std::to_string(s.steps) + " paused=" + (s.paused ? "true" : "false") +
           " agents=" + std::to_string(s.counts.total()) + " boids=" + std::to_string(s.counts.boids) +
           " scouts1=" + std::to_string(s.counts.scouts1) + " scouts2=" + std::to_string(s.counts.scouts2) +
           " predators=" + std::to_string(s.counts.predators) +
           " mean_speed=" + shortest(s.summary.mean_speed) +
           " polarization=" + shortest(s.summary.polarization) +
           " step_ms=" + shortest(s.last_step.total_ms) + " grid_ms=" + shortest(s.last_step.grid_build_ms) +
           " neighbours_ms=" + shortest(s.last_step.neighbours_ms) +
           " integrate_ms=" + shortest(s.last_step.integrate_ms) + " hash=" + hash +
           " precision=" + std::string(precision_name(s.precision)) + " threads=" + std::to_string(s.threads);
}

} // namespace boids
