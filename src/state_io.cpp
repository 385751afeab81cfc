#include "boids/state_io.hpp"

#include "boids/error.hpp"
#include "boids/file_io.hpp"
#include "boids/fix15.hpp"
#include "boids/scalar.hpp"
#include "boids/spawn.hpp"
#include "text.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace boids {

namespace {

// z, vz (3D) are real-valued like x..bias; target, rest are the integer extension columns.
enum Column { ColKind, ColX, ColY, ColVx, ColVy, ColBias, ColZ, ColVz, ColTarget, ColRest, ColumnCount };
constexpr std::array<std::string_view, ColumnCount> column_names{"kind", "x", "y",  "vx",     "vy",
                                                                 "bias", "z", "vz", "target", "rest"};

std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(
            text::trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
        if (comma == std::string_view::npos) {
            return fields;
        }
        start = comma + 1;
    }
}

std::string where(std::string_view source, std::size_t line) {
    return std::string(source) + " line " + std::to_string(line);
}

/// Parses a number straight into Real (a float column is read as float, not through double, so a
/// dumped value reads back bit for bit).
template <class Real>
std::optional<Real> parse_scalar(std::string_view s) {
    if constexpr (std::is_floating_point_v<Real>) {
        return text::parse_finite<Real>(s);
    } else {
        const auto d = text::parse_finite<double>(s);
        return d && ScalarTraits<Real>::representable(*d)
                   ? std::optional<Real>(ScalarTraits<Real>::from_double(*d))
                   : std::nullopt;
    }
}

/// The first line of a state file: what lets a reader continue exactly (the step index) and detect a
/// truncated file (the agent count). Files without it (hand-written ones) load as step 0, unchecked.
constexpr std::string_view preamble_start = "# boids state: ";

/// Parses "# boids state: N agents, step S" into (N, S).
std::pair<std::size_t, long long> parse_preamble(std::string_view line, std::string_view source) {
    const auto bad = [&] {
        return InputError(where(source, 1) + ": '" + std::string(text::trim(line)) +
                          "' is invalid: expected '# boids state: N agents, step S'");
    };
    std::string_view rest = line.substr(preamble_start.size());
    const auto agents_end = rest.find(" agents, step ");
    if (agents_end == std::string_view::npos) {
        throw bad();
    }
    const auto agents = text::parse_finite<long long>(rest.substr(0, agents_end));
    const auto step = text::parse_finite<long long>(text::trim(rest.substr(agents_end + 14)));
    if (!agents || *agents < 0 || !step || *step < 0) {
        throw bad();
    }
    return {static_cast<std::size_t>(*agents), *step};
}

} // namespace

template <class Real>
World<Real> parse_state_csv(std::string_view text_in, std::string_view source, const Params& params,
                            long long* step) {
    World<Real> world;
    std::optional<std::size_t> promised_agents;
    if (step != nullptr) {
        *step = 0;
    }
    // A byte-order mark, as spreadsheet programs write it, is not part of the first column's name.
    if (text_in.starts_with("\xEF\xBB\xBF")) {
        text_in.remove_prefix(3);
    }
    // A written state ends with a line break: without one, a row (maybe a number) was cut. Said before any
    // row is read, so that a cut row is reported as what it is.
    if (text_in.starts_with(preamble_start) && !text_in.ends_with('\n')) {
        throw InputError(std::string(source) +
                         ": the file is truncated or damaged: its last line has no line break");
    }
    std::array<int, ColumnCount> column_of{};
    column_of.fill(-1);
    std::size_t header_fields = 0;
    bool have_header = false;
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos <= text_in.size()) {
        std::size_t end = text_in.find('\n', pos);
        if (end == std::string_view::npos) {
            end = text_in.size();
        }
        std::string_view line = text_in.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (text::trim(line).empty()) {
            continue;
        }
        if (!have_header && line.starts_with('#')) {
            if (line_no == 1 && line.starts_with(preamble_start)) {
                const auto [agents, saved_step] = parse_preamble(line, source);
                promised_agents = agents;
                if (step != nullptr) {
                    *step = saved_step;
                }
            }
            continue; // a comment before the header row
        }
        const auto fields = split_fields(line);
        if (!have_header) {
            for (std::size_t f = 0; f < fields.size(); ++f) {
                int col = -1;
                for (int c = 0; c < ColumnCount; ++c) {
                    if (fields[f] == column_names[static_cast<std::size_t>(c)]) {
                        col = c;
                    }
                }
                if (col < 0) {
                    throw InputError(where(source, line_no) + ": unknown column '" + std::string(fields[f]) +
                                     "'; allowed columns are kind, x, y, vx, vy, bias, z, vz, target, rest");
                }
                if (column_of[static_cast<std::size_t>(col)] >= 0) {
                    throw InputError(where(source, line_no) + ": column '" + std::string(fields[f]) +
                                     "' appears twice");
                }
                column_of[static_cast<std::size_t>(col)] = static_cast<int>(f);
            }
            for (int c = ColKind; c <= ColVy; ++c) {
                if (column_of[static_cast<std::size_t>(c)] < 0) {
                    throw InputError(where(source, line_no) + ": missing required column '" +
                                     std::string(column_names[static_cast<std::size_t>(c)]) +
                                     "' (the header needs kind, x, y, vx, vy; bias is optional)");
                }
            }
            if ((column_of[ColZ] >= 0) != (column_of[ColVz] >= 0)) {
                throw InputError(where(source, line_no) + ": a 3D state needs both columns z and vz");
            }
            if (column_of[ColZ] >= 0 && params.dimensions != 3) {
                throw InputError(where(source, line_no) +
                                 ": the state has z and vz columns (3D), but dimensions = 2; set "
                                 "dimensions = 3 to load it");
            }
            header_fields = fields.size();
            have_header = true;
            continue;
        }
        if (fields.size() != header_fields) {
            throw InputError(where(source, line_no) + ": " + std::to_string(fields.size()) +
                             " fields, the header has " + std::to_string(header_fields));
        }
        const auto field = [&](Column c) { return fields[static_cast<std::size_t>(column_of[c])]; };
        const auto kind = parse_kind(field(ColKind));
        if (!kind) {
            throw InputError(where(source, line_no) + ": kind = '" + std::string(field(ColKind)) +
                             "' is invalid: allowed kinds are boid, scout1, scout2, predator");
        }
        std::array<long long, 2> extension{-1, 0}; // target, rest
        for (int c = ColTarget; c <= ColRest; ++c) {
            if (column_of[static_cast<std::size_t>(c)] < 0) {
                continue;
            }
            const std::string_view text = field(static_cast<Column>(c));
            const auto parsed = text::parse_finite<long long>(text);
            const long long lo = c == ColTarget ? -1 : 0;
            if (!parsed || *parsed < lo || *parsed > 2'000'000'000) {
                throw InputError(where(source, line_no) + ": " +
                                 std::string(column_names[static_cast<std::size_t>(c)]) + " = '" +
                                 std::string(text) +
                                 "' is invalid: expected an integer >= " + std::to_string(lo));
            }
            extension[static_cast<std::size_t>(c - ColTarget)] = *parsed;
        }
        std::array<Real, ColTarget> v{};
        for (int c = ColX; c < ColTarget; ++c) {
            if (column_of[static_cast<std::size_t>(c)] < 0) {
                continue; // only bias (and z, vz in 2D) can be absent
            }
            const auto parsed = parse_scalar<Real>(field(static_cast<Column>(c)));
            if (!parsed) {
                throw InputError(
                    where(source, line_no) + ": " + std::string(column_names[static_cast<std::size_t>(c)]) +
                    " = '" + std::string(field(static_cast<Column>(c))) +
                    "' is invalid: expected a finite number" +
                    (std::is_floating_point_v<Real> ? "" : " in (-65536, 65536), the range of fix15"));
            }
            v[static_cast<std::size_t>(c)] = *parsed;
        }
        Real bias = column_of[ColBias] >= 0 ? v[ColBias]
                                            : ScalarTraits<Real>::from_double(initial_bias(params, *kind));
        if (*kind == Kind::Scout1 || *kind == Kind::Scout2) {
            if (bias < Real(0) || bias > Real(1)) {
                throw InputError(where(source, line_no) + ": bias = '" + std::string(field(ColBias)) +
                                 "' is invalid: a scout's bias must be in [0, 1]");
            }
        } else {
            bias = Real(0); // only scouts carry a bias
        }
        if (column_of[ColZ] >= 0) {
            world.add_3d(*kind, v[ColX], v[ColY], v[ColZ], v[ColVx], v[ColVy], v[ColVz], bias,
                         static_cast<std::int32_t>(extension[0]), static_cast<std::int32_t>(extension[1]));
        } else {
            world.add(*kind, v[ColX], v[ColY], v[ColVx], v[ColVy], bias,
                      static_cast<std::int32_t>(extension[0]), static_cast<std::int32_t>(extension[1]));
        }
    }
    if (!have_header) {
        throw InputError(std::string(source) +
                         ": empty state file; expected a header row 'kind,x,y,vx,vy[,bias]'");
    }
    if (promised_agents) {
        const std::string damaged = std::string(source) + ": the file is truncated or damaged: ";
        if (*promised_agents != world.size()) {
            throw InputError(damaged + "its first line promises " + std::to_string(*promised_agents) +
                             " agents, it holds " + std::to_string(world.size()));
        }
    }
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (world.target[i] >= static_cast<std::int32_t>(world.size())) {
            throw InputError(std::string(source) + ": target = " + std::to_string(world.target[i]) +
                             " is invalid: there are " + std::to_string(world.size()) + " agents");
        }
    }
    return world;
}

template <class Real>
World<Real> read_state_csv(const std::filesystem::path& path, const Params& params, long long* step) {
    return parse_state_csv<Real>(read_text_file(path, "state file", max_state_file_bytes), path.string(),
                                 params, step);
}

template <class Real>
std::string format_number(Real value) {
    if constexpr (std::is_floating_point_v<Real>) {
        return text::shortest(value);
    } else {
        return exact_decimal(value); // what to_float gives, digit for digit
    }
}

template <class Real>
void write_state_csv(std::ostream& out, const World<Real>& world, long long step) {
    // Pursuit locks and rest timers are written only when some agent has one, so classic runs keep the
    // plain six columns.
    const bool extension = world.has_extension_state();
    const bool depth = world.has_depth(); // 3D: z and vz follow the planar columns
    out << preamble_start << world.size() << " agents, step " << step << '\n';
    out << "kind,x,y,vx,vy,bias" << (depth ? ",z,vz" : "") << (extension ? ",target,rest\n" : "\n");
    std::string row;
    for (std::size_t i = 0; i < world.size(); ++i) {
        row.assign(kind_name(world.kind[i]));
        for (const Real value : {world.x[i], world.y[i], world.vx[i], world.vy[i], world.bias[i]}) {
            row += ',';
            row += format_number(value);
        }
        if (depth) {
            row += ',' + format_number(world.z[i]) + ',' + format_number(world.vz[i]);
        }
        if (extension) {
            row += ',' + std::to_string(world.target[i]) + ',' + std::to_string(world.rest[i]);
        }
        row += '\n';
        out << row;
    }
}

template <class Real>
void write_state_csv(const std::filesystem::path& path, const World<Real>& world, long long step) {
    write_file_atomically("state file", path, [&](std::ostream& out) { write_state_csv(out, world, step); });
}

template World<float> parse_state_csv(std::string_view, std::string_view, const Params&, long long*);
template World<double> parse_state_csv(std::string_view, std::string_view, const Params&, long long*);
template World<float> read_state_csv(const std::filesystem::path&, const Params&, long long*);
template World<double> read_state_csv(const std::filesystem::path&, const Params&, long long*);
template void write_state_csv(std::ostream&, const World<float>&, long long);
template void write_state_csv(std::ostream&, const World<double>&, long long);
template void write_state_csv(const std::filesystem::path&, const World<float>&, long long);
template void write_state_csv(const std::filesystem::path&, const World<double>&, long long);
template std::string format_number(float);
template std::string format_number(double);
template std::string format_number(Fix15);
template World<Fix15> parse_state_csv(std::string_view, std::string_view, const Params&, long long*);
template World<Fix15> read_state_csv(const std::filesystem::path&, const Params&, long long*);
template void write_state_csv(std::ostream&, const World<Fix15>&, long long);
template void write_state_csv(const std::filesystem::path&, const World<Fix15>&, long long);

} // namespace boids
