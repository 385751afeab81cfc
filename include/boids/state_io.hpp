#pragma once
/// Reading and writing world states as CSV (the CLI's `--init` and `--dump` format).
///
/// Format: a first line `# boids state: N agents, step S` (the agent count lets a reader refuse a
/// truncated file; the step index lets a run continue exactly: the models' noise, moving food and every
/// schedule follow it), then a header row naming the columns, then one agent per row. Columns
/// `kind,x,y,vx,vy` are required, `bias` is optional (0 when absent), in any order; `kind` is boid, scout1,
/// scout2 or predator. Numbers are written in shortest round-trip form, so reading a dump gives back the
/// identical state. Reading also accepts files without the first line (step 0, count unchecked), other `#`
/// comment lines before the header row, and a UTF-8 byte-order mark.

#include "boids/params.hpp"
#include "boids/world.hpp"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string_view>

namespace boids {

/// The largest state file read (a 100-million-agent 3D state with extension columns is about 12 GB).
constexpr std::uintmax_t max_state_file_bytes = std::uintmax_t{16} << 30;

/// Parses a state from CSV text; `source` names it in messages. Throws InputError naming the line, also
/// when the agent count in the first line does not match the rows (a truncated file). Without a bias
/// column, scouts start from their group's bias in `params`. `step`, when given, receives the step index
/// the state was saved at (0 when the file does not say).
template <class Real>
[[nodiscard]] World<Real> parse_state_csv(std::string_view text, std::string_view source,
                                          const Params& params = Params{}, long long* step = nullptr);

/// Reads a state file (see read_text_file: no directories, devices that never end or binary files).
/// Throws InputError if it cannot be read or is malformed.
template <class Real>
[[nodiscard]] World<Real> read_state_csv(const std::filesystem::path& path, const Params& params = Params{},
                                         long long* step = nullptr);

/// A number as state files write it: shortest round-trip form for IEEE scalars, the exact decimal of
/// to_float for fix15.
template <class Real>
[[nodiscard]] std::string format_number(Real value);

/// Writes the first line (agent count, `step`) and `kind,x,y,vx,vy,bias` rows in the world's agent order.
template <class Real>
void write_state_csv(std::ostream& out, const World<Real>& world, long long step = 0);

/// Writes a state file atomically (write_file_atomically: the old file survives any failure or kill).
/// Throws InputError if the path cannot be written, IoError if writing fails.
template <class Real>
void write_state_csv(const std::filesystem::path& path, const World<Real>& world, long long step = 0);

} // namespace boids
