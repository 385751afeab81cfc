#pragma once
/// Reading and writing world states as CSV (the CLI's `--init` and `--dump` format).
///
/// Format: a header row naming the columns, then one agent per row. Columns `kind,x,y,vx,vy` are required,
/// `bias` is optional (0 when absent), in any order; `kind` is boid, scout1, scout2 or predator.
/// Numbers are written in shortest round-trip form, so reading a dump gives back the identical state.

#include "boids/params.hpp"
#include "boids/world.hpp"

#include <filesystem>
#include <iosfwd>
#include <string_view>

namespace boids {

/// Parses a state from CSV text; `source` names it in messages. Throws InputError naming the line.
/// Without a bias column, scouts start from their group's bias in `params`.
template <class Real>
[[nodiscard]] World<Real> parse_state_csv(std::string_view text, std::string_view source,
                                          const Params& params = Params{});

/// Reads a state file. Throws InputError if it cannot be read or is malformed.
template <class Real>
[[nodiscard]] World<Real> read_state_csv(const std::filesystem::path& path, const Params& params = Params{});

/// A number as state files write it: shortest round-trip form for IEEE scalars, the exact decimal of
/// to_float for fix15.
template <class Real>
[[nodiscard]] std::string format_number(Real value);

/// Writes `kind,x,y,vx,vy,bias` rows in the world's agent order.
template <class Real>
void write_state_csv(std::ostream& out, const World<Real>& world);

/// Writes a state file. Throws InputError if it cannot be written.
template <class Real>
void write_state_csv(const std::filesystem::path& path, const World<Real>& world);

} // namespace boids
