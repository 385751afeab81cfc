#include "viewer_control.hpp"

#include "boids/control_protocol.hpp"
#include "boids/error.hpp"
#include "boids/params.hpp"
#include "boids/precision.hpp"
#include "panel_mapping.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <vector>

namespace boids::viewer {

namespace {

std::vector<std::string> words(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::vector<std::string> out;
    for (std::string w; in >> w;) {
        out.push_back(w);
    }
    return out;
}

/// A whole-string integer in [lo, hi], or nullopt.
std::optional<long long> integer(const std::string& text, long long lo, long long hi) {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc{} || ptr != end || v < lo || v > hi) {
        return std::nullopt;
    }
    return v;
}

/// The agent-count key (boids, scouts1, scouts2, predators) of a kind as the protocol names it
/// (boid, scout1, scout2, predator; the plural forms are accepted too); empty if unknown.
std::string count_key(std::string_view kind) {
    return kind == "boid" || kind == "boids"           ? "boids"
           : kind == "scout1" || kind == "scouts1"     ? "scouts1"
           : kind == "scout2" || kind == "scouts2"     ? "scouts2"
           : kind == "predator" || kind == "predators" ? "predators"
                                                       : "";
}

std::string stats_line(const ViewerState& s) {
    const ViewerStats& st = s.stats;
    std::ostringstream out;
    out << "ok steps=" << st.steps_taken << " boids=" << st.agents.boids << " scouts1=" << st.agents.scouts1
        << " scouts2=" << st.agents.scouts2 << " predators=" << st.agents.predators
        << " paused=" << (s.paused ? "true" : "false") << " steps_per_s=" << st.sim_steps_per_s
        << " fps=" << st.render_fps << " step_ms=" << st.last_profile.total_ms
        << " precision=" << precision_name(s.precision);
    return out.str();
}

} // namespace

std::string execute_viewer_command(ViewerState& state, std::string_view line) {
    const std::vector<std::string> w = words(line);
    if (w.empty()) {
        return "error empty command; commands: set get params stats pause resume step reset spawn remove "
               "quit";
    }
    const std::string& cmd = w[0];
    const auto usage = [](const char* form) { return std::string("error usage: ") + form; };
    if (cmd == "set" && w.size() == 3 && w[1] == "precision") { // the viewer's scalar switch
        const auto p = parse_precision(w[2]);
        if (!p) {
            return "error precision = '" + w[2] + "' is invalid: allowed values are " + precision_choices();
        }
        if (const auto why = precision_switch_error(state.params, *p)) {
            return "error " + *why;
        }
        if (*p != state.precision) {
            state.precision_request = *p;
        }
        return "ok precision=" + w[2];
    }
    if (cmd == "get" && w.size() == 2 && w[1] == "precision") {
        return "ok precision=" + std::string(precision_name(state.precision));
    }
    if (cmd == "set") {
        if (w.size() != 3) {
            return usage("set KEY VALUE");
        }
        if (const auto why = apply_param_edit(state.params, w[1], std::string_view(w[2]))) {
            return "error " + *why;
        }
        return "ok " + w[1] + "=" + get_param(state.params, w[1]);
    }
    if (cmd == "get") {
        if (w.size() != 2 || !is_param_key(w[1]) || w[1] == "margin") {
            return w.size() != 2 ? usage("get KEY") : "error unknown parameter '" + w[1] + "'";
        }
        return "ok " + w[1] + "=" + get_param(state.params, w[1]);
    }
    if (cmd == "params" && w.size() == 1) {
        return "ok " + format_params(state.params);
    }
    if (cmd == "stats" && w.size() == 1) {
        return stats_line(state);
    }
    if ((cmd == "pause" || cmd == "resume") && w.size() == 1) {
        state.paused = cmd == "pause";
        return std::string("ok paused=") + (state.paused ? "true" : "false");
    }
    if (cmd == "step") {
        const auto n = w.size() == 1
                           ? std::optional<long long>(1)
                           : (w.size() == 2 ? integer(w[1], 1, max_steps_per_request) : std::nullopt);
        if (!n) {
            return "error step N: N must be an integer in [1, " + std::to_string(max_steps_per_request) + "]";
        }
        // The same bound as the headless port's, counting the steps already queued: the window cannot be
        // made to owe more work than one request may ask for.
        try {
            check_step_request(*n, static_cast<std::size_t>(state.stats.agents.total()), state.single_steps);
        } catch (const InputError& e) {
            return std::string("error ") + e.what();
        }
        state.paused = true; // like the `.` key: single steps pause the flock
        state.single_steps += *n;
        return "ok queued=" + std::to_string(state.single_steps);
    }
    if (cmd == "reset" && w.size() == 1) {
        state.reset = true;
        return "ok reset";
    }
    if (cmd == "spawn" || cmd == "remove") {
        if (w.size() != 3) {
            return usage(cmd == "spawn" ? "spawn KIND N" : "remove KIND N");
        }
        AgentCounts wanted = state.counts;
        const std::string key = count_key(w[1]);
        if (key.empty()) {
            return "error kind = '" + w[1] + "' is invalid: allowed kinds are boid, scout1, scout2, predator";
        }
        const long long now = count_value(wanted, key);
        const auto n = integer(w[2], 0, max_spawn_per_call);
        if (!n) {
            return "error N = '" + w[2] + "' is invalid: expected an integer in [0, " +
                   std::to_string(max_spawn_per_call) + "]";
        }
        const long long next = cmd == "spawn" ? now + *n : std::max(0LL, now - *n);
        if (const auto why = apply_count_edit(wanted, key, next)) {
            return "error " + *why;
        }
        state.counts = wanted;
        return "ok " + key + "=" + std::to_string(next);
    }
    if (cmd == "quit" && w.size() == 1) {
        state.quit = true;
        return "ok quit";
    }
    return "error unknown command '" + std::string(line.substr(0, 64)) +
           "'; commands: set get params stats pause resume step reset spawn remove quit";
}

} // namespace boids::viewer
