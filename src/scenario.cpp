#include "boids/scenario.hpp"

#include "boids/error.hpp"
#include "boids/file_io.hpp"
#include "presets.hpp"
#include "text.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

namespace boids::detail {
/// A toml++ assertion that failed on malformed input (see TOML_ASSERT below).
struct TomlAssertion {};
} // namespace boids::detail

// Debian's toml++ 3.3.0 asserts (aborts) on some malformed input in builds without NDEBUG, such as the
// sanitizer and fuzz trees. screen_toml refuses the cases known; any other becomes an exception here and is
// refused like other invalid TOML.
// In the parser's few noexcept functions the throw ends the program, as the assertion did.
#define TOML_ASSERT(expr) ((expr) ? static_cast<void>(0) : throw ::boids::detail::TomlAssertion{})
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wexceptions"
#else
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wterminate"
#endif
#include <toml++/toml.h>
#if defined(__clang__)
#pragma clang diagnostic pop
#else
#pragma GCC diagnostic pop
#endif

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

/// A number field of an array-of-tables entry.
double number_field(const toml::table& t, std::string_view key, std::string_view source,
                    const std::string& what, std::optional<double> fallback = std::nullopt) {
    const toml::node* node = t.get(key);
    if (node == nullptr) {
        if (fallback) {
            return *fallback;
        }
        throw InputError(at(source, t) + ": " + what + " needs '" + std::string(key) + "'");
    }
    if (const auto v = node->value<double>()) {
        return *v;
    }
    throw InputError(at(source, *node) + ": " + what + "." + std::string(key) + " must be a number");
}

void reject_unknown(const toml::table& t, std::initializer_list<std::string_view> known,
                    std::string_view source, const std::string& what) {
    for (const auto& [key, value] : t) {
        if (std::find(known.begin(), known.end(), key.str()) == known.end()) {
            throw InputError(at(source, value) + ": unknown key '" + std::string(key.str()) + "' in " + what);
        }
    }
}

/// [[obstacles]]: shape = "circle" (x, y, radius, optional z: a sphere in 3D) or "rect" (x0, y0, x1, y1,
/// optional z0, z1: a box in 3D).
std::vector<Obstacle> parse_obstacles(const toml::node& node, std::string_view source) {
    const auto* array = node.as_array();
    if (array == nullptr) {
        throw InputError(at(source, node) + ": obstacles must be an array of tables ([[obstacles]])");
    }
    std::vector<Obstacle> out;
    for (const toml::node& entry : *array) {
        const auto* t = entry.as_table();
        const std::string what = "obstacle " + std::to_string(out.size() + 1);
        if (t == nullptr) {
            throw InputError(at(source, entry) + ": " + what + " must be a table");
        }
        const std::string shape =
            t->get("shape") ? t->get("shape")->value_or(std::string("?")) : std::string("?");
        Obstacle o;
        if (shape == "circle") {
            reject_unknown(*t, {"shape", "x", "y", "z", "radius"}, source, what);
            o.shape = Obstacle::Shape::Circle;
            o.x = number_field(*t, "x", source, what);
            o.y = number_field(*t, "y", source, what);
            if (t->get("z")) {
                o.z = number_field(*t, "z", source, what);
            }
            o.radius = number_field(*t, "radius", source, what);
        } else if (shape == "rect") {
            reject_unknown(*t, {"shape", "x0", "y0", "x1", "y1", "z0", "z1"}, source, what);
            o.shape = Obstacle::Shape::Rect;
            o.x0 = number_field(*t, "x0", source, what);
            o.y0 = number_field(*t, "y0", source, what);
            o.x1 = number_field(*t, "x1", source, what);
            o.y1 = number_field(*t, "y1", source, what);
            if (t->get("z0")) {
                o.z0 = number_field(*t, "z0", source, what);
            }
            if (t->get("z1")) {
                o.z1 = number_field(*t, "z1", source, what);
            }
        } else {
            throw InputError(at(source, *t) + ": " + what + ": shape = '" + shape +
                             "' is invalid: allowed shapes are circle | rect");
        }
        validate(o, at(source, *t) + ": " + what);
        out.push_back(o);
    }
    return out;
}

/// [view]: the viewer's camera; every key optional.
SceneView parse_view(const toml::node& node, std::string_view source) {
    const auto* t = node.as_table();
    if (t == nullptr) {
        throw InputError(at(source, node) + ": [view] must be a table");
    }
    reject_unknown(*t, {"zoom", "center_x", "center_y", "yaw", "pitch"}, source, "[view]");
    SceneView view;
    const auto read = [&](std::string_view key, double lo, double hi) -> std::optional<double> {
        if (!t->contains(key)) {
            return std::nullopt;
        }
        const double v = number_field(*t, key, source, "[view]");
        if (!(v >= lo && v <= hi)) {
            throw InputError(at(source, *t->get(key)) + ": view." + std::string(key) + " = " +
                             text::shortest(v) + ": allowed range is [" + text::readable(lo) + ", " +
                             text::readable(hi) + "]");
        }
        return v;
    };
    view.zoom = read("zoom", 1e-3, 1e3);
    view.center_x = read("center_x", -1e9, 1e9);
    view.center_y = read("center_y", -1e9, 1e9);
    view.yaw = read("yaw", -1e3, 1e3);
    view.pitch = read("pitch", -1e3, 1e3);
    return view;
}

/// [[food]]: x, y, optional z (3D), range, strength, optional path = [[x, y], ...] and speed.
std::vector<FoodSource> parse_food_sources(const toml::node& node, std::string_view source) {
    const auto* array = node.as_array();
    if (array == nullptr) {
        throw InputError(at(source, node) + ": food must be an array of tables ([[food]])");
    }
    std::vector<FoodSource> out;
    for (const toml::node& entry : *array) {
        const auto* t = entry.as_table();
        const std::string what = "food source " + std::to_string(out.size() + 1);
        if (t == nullptr) {
            throw InputError(at(source, entry) + ": " + what + " must be a table");
        }
        reject_unknown(*t, {"x", "y", "z", "range", "strength", "path", "speed"}, source, what);
        FoodSource f;
        if (t->get("z")) {
            f.z = number_field(*t, "z", source, what);
        }
        f.range = number_field(*t, "range", source, what, f.range);
        f.strength = number_field(*t, "strength", source, what, f.strength);
        f.speed = number_field(*t, "speed", source, what, f.speed);
        if (const toml::node* path = t->get("path")) {
            const auto* points = path->as_array();
            if (points == nullptr) {
                throw InputError(at(source, *path) + ": " + what + ".path must be an array of [x, y] points");
            }
            for (const toml::node& point : *points) {
                const auto* xy = point.as_array();
                if (xy == nullptr || xy->size() != 2 || !(*xy)[0].value<double>() ||
                    !(*xy)[1].value<double>()) {
                    throw InputError(at(source, point) + ": " + what +
                                     ".path points must be [x, y] number pairs");
                }
                f.path.emplace_back(*(*xy)[0].value<double>(), *(*xy)[1].value<double>());
            }
            f.x = number_field(*t, "x", source, what, f.path.empty() ? 0.0 : f.path.front().first);
            f.y = number_field(*t, "y", source, what, f.path.empty() ? 0.0 : f.path.front().second);
        } else {
            f.x = number_field(*t, "x", source, what);
            f.y = number_field(*t, "y", source, what);
        }
        validate(f, at(source, *t) + ": " + what);
        out.push_back(std::move(f));
    }
    return out;
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

namespace {

/// Whether toml++ 3.3.0's test for non-ASCII whitespace reaches its "unreachable" code for `c` (its
/// table of ranges misses these: U+00A1..U+0499, U+2C5E..U+3057 but U+3000, U+FB26..U+FEFE).
bool whitespace_test_unreachable(char32_t c) {
    return (c >= 0xA1 && c <= 0x499) || (c >= 0x2C5E && c <= 0x3057 && c != 0x3000) ||
           (c >= 0xFB26 && c <= 0xFEFE);
}

/// What toml++ 3.3.0 skips after a line-ending backslash in a multi-line basic string before it tests the
/// next character: spaces, tabs and line breaks, and the non-ASCII code points its whitespace test takes
/// as horizontal whitespace (the byte-order mark U+FEFF among them).
bool skipped_after_backslash(char32_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xA0 || c == 0x1680 || c == 0x180E ||
           (c >= 0x2000 && c <= 0x200B) || c == 0x202F || (c >= 0x205F && c <= 0x2060) || c == 0x3000 ||
           c == 0xFEFF;
}

/// Where TOML allows only ASCII (outside strings and comments), the first fault toml++ 3.3.0 cannot take
/// gracefully, as (offset, what is wrong): a non-ASCII character, or a [table] header that does not start
/// with a key (its key parser asserts on the first character); and in a multi-line basic string, a character
/// its whitespace test cannot take first after a backslash (where a line-ending backslash would skip
/// whitespace, valid TOML in part, but the reader's behaviour there is undefined). Strings are basic ("..."),
/// literal ('...') or multi-line; an unterminated one ends at its line break, where the parser reports it.
/// Brackets inside values (arrays, inline tables) are counted so that an array's line starting with '[' is
/// not a header. A multi-line string ends, as in the parser, at the end of a run of three to five of its
/// quotes (one or two of them the string's last characters); a shorter run is part of the string.
std::optional<std::pair<std::size_t, const char*>> first_bare_fault(std::string_view text) {
    enum class In { Bare, Comment, Basic, Literal, MultiBasic, MultiLiteral } in = In::Bare;
    std::string open;       // the open '[' and '{' of values, innermost last
    bool line_start = true; // only spaces and tabs so far on this line
    const auto key_start = [](char k) {
        return (k >= 'A' && k <= 'Z') || (k >= 'a' && k <= 'z') || (k >= '0' && k <= '9') || k == '_' ||
               k == '-' || k == '"' || k == '\'' || k == ']';
    };
    // A quote starts a string only where a key or a value starts. Inside a bare token (invalid anyway) the
    // parser's look-ahead for a value's type reads on through quotes and brackets up to a terminator, so
    // there they are ordinary characters. On the key side of a line, '=' and '.' end a token too. A key
    // starts a line, an inline table and each of its entries; a value starts each entry of an array, on
    // any of its lines.
    bool in_token = false;
    bool key_side = true;
    const auto entry_is_key = [&] { return open.empty() || open.back() == '{'; };
    const auto terminator = [](char t) {
        return t == ' ' || t == '\t' || t == '\n' || t == '\r' || t == ',' || t == ']' || t == '}' ||
               t == '#';
    };
    std::size_t i = 0;
    // In a multi-line string, passes the run of its quote `q` at `i` (at most five): three or more end it.
    const auto pass_quotes = [&](char q) {
        std::size_t run = 1;
        while (run < 5 && i + run < text.size() && text[i + run] == q) {
            ++run;
        }
        in = run >= 3 ? In::Bare : in;
        i += run - 1;
    };
    for (; i < text.size(); ++i) {
        const char c = text[i];
        const std::string_view rest = text.substr(i);
        const bool was_line_start = line_start;
        line_start = c == '\n' || (line_start && (c == ' ' || c == '\t'));
        switch (in) {
        case In::Bare: {
            // Whether this character separates tokens (then the next one may start a string).
            const bool separator = terminator(c) || (key_side && (c == '=' || c == '.'));
            key_side = c == '=' ? false : key_side;
            key_side = (c == '\n' || (c == ',' && !open.empty())) ? entry_is_key() : key_side;
            key_side = !in_token && c == '{' ? true : key_side;
            if (c == '#') {
                in = In::Comment;
            } else if (!in_token && (rest.starts_with("\"\"\"") || rest.starts_with("'''"))) {
                in = c == '"' ? In::MultiBasic : In::MultiLiteral;
                i += 2;
            } else if (!in_token && (c == '"' || c == '\'')) {
                in = c == '"' ? In::Basic : In::Literal;
            } else if (static_cast<unsigned char>(c) >= 0x80) {
                return std::pair{i,
                                 "a non-ASCII character outside a string or comment; keys and values outside "
                                 "quotes are ASCII"};
            } else if (c == '[' && open.empty() && was_line_start) {
                std::size_t k = i + 1;
                k += k < text.size() && text[k] == '[' ? 1 : 0;
                while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) {
                    ++k;
                }
                if (k < text.size() && !key_start(text[k])) {
                    return std::pair{k, "a [table] header must start with a key"};
                }
                i = k - 1; // the header's key is read on from here
            } else if ((c == '[' || c == '{') && !in_token) {
                open.push_back(c); // an array or an inline table opens: a value or a key starts next
            } else {
                if ((c == ']' || c == '}') && !open.empty()) {
                    open.pop_back();
                }
                in_token = !separator;
            }
            break;
        }
        case In::Comment:
            if (c == '\n') { // the line break ends the comment and, as in Bare, starts an entry
                in = In::Bare;
                key_side = entry_is_key();
                in_token = false;
            }
            break;
        case In::Basic:
        case In::MultiBasic:
            if (c == '\\' && in == In::MultiBasic) {
                // After a backslash toml++ asks whether what follows is whitespace (a line-ending backslash),
                // and after the line break again of every character until one is not.
                std::size_t k = i + 1;
                while (k < text.size() && skipped_after_backslash(text::code_point_at(text, k))) {
                    k += text::utf8_length(text[k]);
                }
                if (k < text.size() && whitespace_test_unreachable(text::code_point_at(text, k))) {
                    return std::pair{k,
                                     "a non-ASCII character first after a backslash in a multi-line string, "
                                     "which the TOML reader cannot read there; write it as a \\u escape"};
                }
            }
            if (c == '\\') {
                ++i; // an escaped character, a quote included
            } else if (in == In::Basic && (c == '"' || c == '\n')) {
                in = In::Bare;
            } else if (in == In::MultiBasic && c == '"') {
                pass_quotes('"');
            }
            break;
        case In::Literal:
            in = (c == '\'' || c == '\n') ? In::Bare : in;
            break;
        case In::MultiLiteral:
            if (c == '\'') {
                pass_quotes('\'');
            }
            break;
        }
    }
    return std::nullopt;
}

/// Refuses what Debian's toml++ 3.3.0 must not see, all of it invalid TOML anyway: a NUL byte (an assertion
/// in the parser aborts), invalid UTF-8, a non-ASCII character outside strings and comments or first after a
/// backslash in a multi-line string (its whitespace test reaches "unreachable" code for some, e.g. a file
/// starting with U+FEFD) and a header without a key. Returns the text without a byte-order mark.
std::string_view screen_toml(std::string_view text, std::string_view source) {
    const auto at_byte = [&](std::size_t offset) {
        return std::string(source) + " line " + std::to_string(text::line_of(text, offset)) + ": ";
    };
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        throw InputError(at_byte(nul) + "a NUL byte; a scenario file is UTF-8 text");
    }
    if (const auto bad = text::invalid_utf8_at(text)) {
        throw InputError(at_byte(*bad) + "byte " + std::to_string(*bad) +
                         " is not valid UTF-8; a scenario file is UTF-8 text");
    }
    if (text.starts_with("\xEF\xBB\xBF")) {
        text.remove_prefix(3);
    }
    if (const auto fault = first_bare_fault(text)) {
        throw InputError(at_byte(fault->first) + fault->second);
    }
    return text;
}

} // namespace

Scenario parse_scenario(std::string_view toml_text, std::string_view source) {
    toml_text = screen_toml(toml_text, source);
    toml::table root;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        throw InputError(std::string(source) + " line " + std::to_string(e.source().begin.line) +
                         ": not valid TOML: " + std::string(e.description()));
    } catch (const detail::TomlAssertion&) {
        throw InputError(std::string(source) + ": not valid TOML (its structure is malformed)");
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
        } else if (k == "rate") {
            const auto* v = node.as_integer();
            if (v == nullptr || v->get() < min_rate || v->get() > max_rate) {
                throw InputError(at(source, node) + ": rate must be a whole number of steps per second in [" +
                                 std::to_string(min_rate) + ", " + std::to_string(max_rate) + "]");
            }
            scenario.rate = static_cast<int>(v->get());
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
            for (const auto& [param, value] : *table) { // against the model the table chose, in any order
                try {
                    require_key_used(scenario.params, param.str());
                } catch (const InputError& e) {
                    throw InputError(at(source, value) + ": " + e.what());
                }
            }
        } else if (k == "view") {
            scenario.view = parse_view(node, source);
        } else if (k == "obstacles") {
            scenario.params.obstacles = parse_obstacles(node, source);
        } else if (k == "food") {
            scenario.params.food = parse_food_sources(node, source);
        } else {
            throw InputError(
                at(source, node) + ": unknown key '" + std::string(k) +
                "'; a scenario has description, seed, rate, [agents], [params], [view], [[obstacles]] and "
                "[[food]]");
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
    return parse_scenario(read_text_file(path, "scenario file", max_scenario_file_bytes), path.string());
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

namespace {

/// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_string(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string number(double v) {
    return text::shortest(v);
}

void write_optional(std::string& out, std::string_view key, const std::optional<double>& v) {
    if (v) {
        out += std::string(key) + " = " + number(*v) + "\n";
    }
}

} // namespace

std::string scenario_toml(const Scenario& scenario) {
    std::string out;
    if (!scenario.description.empty()) {
        out += "description = " + toml_string(scenario.description) + "\n";
    }
    out += "seed = " + std::to_string(scenario.seed) + "\n";
    out += "rate = " + std::to_string(scenario.rate) + "\n";
    const AgentCounts& a = scenario.agents;
    out += "\n[agents]\nboids = " + std::to_string(a.boids) + "\nscouts1 = " + std::to_string(a.scouts1) +
           "\nscouts2 = " + std::to_string(a.scouts2) + "\npredators = " + std::to_string(a.predators) + "\n";
    // Every key the model reads, so the file says the whole scene whatever the defaults become.
    out += "\n[params]\n";
    for (const ParamInfo& info : param_table()) {
        if (!key_used_by(info, scenario.params.model)) {
            continue;
        }
        const std::string value = get_param(scenario.params, info.key);
        out += std::string(info.key) + " = " +
               (info.kind == "number" || info.kind == "bool" ? value : toml_string(value)) + "\n";
    }
    const SceneView& v = scenario.view;
    if (v != SceneView{}) {
        out += "\n[view]\n";
        write_optional(out, "zoom", v.zoom);
        write_optional(out, "center_x", v.center_x);
        write_optional(out, "center_y", v.center_y);
        write_optional(out, "yaw", v.yaw);
        write_optional(out, "pitch", v.pitch);
    }
    for (const Obstacle& o : scenario.params.obstacles) {
        out += "\n[[obstacles]]\n";
        if (o.shape == Obstacle::Shape::Circle) {
            out += "shape = \"circle\"\nx = " + number(o.x) + "\ny = " + number(o.y) +
                   "\nradius = " + number(o.radius) + "\n";
            write_optional(out, "z", o.z);
        } else {
            out += "shape = \"rect\"\nx0 = " + number(o.x0) + "\ny0 = " + number(o.y0) +
                   "\nx1 = " + number(o.x1) + "\ny1 = " + number(o.y1) + "\n";
            write_optional(out, "z0", o.z0);
            write_optional(out, "z1", o.z1);
        }
    }
    for (const FoodSource& f : scenario.params.food) {
        out += "\n[[food]]\nx = " + number(f.x) + "\ny = " + number(f.y) + "\n";
        write_optional(out, "z", f.z);
        out += "range = " + number(f.range) + "\nstrength = " + number(f.strength) + "\n";
        if (!f.path.empty()) {
            out += "path = [";
            for (std::size_t i = 0; i < f.path.size(); ++i) {
                out += std::string(i == 0 ? "" : ", ") + "[" + number(f.path[i].first) + ", " +
                       number(f.path[i].second) + "]";
            }
            out += "]\n";
        }
        out += "speed = " + number(f.speed) + "\n";
    }
    return out;
}

void save_scenario_file(const Scenario& scenario, const std::filesystem::path& path) {
    const std::string text = scenario_toml(scenario);
    write_file_atomically("scene file", path, [&](std::ostream& os) { os << text; });
}

} // namespace boids
