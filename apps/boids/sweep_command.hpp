#pragma once
// `boids sweep`: every (value, seed) combination of one varied key, runs in parallel, one CSV row each.

#include "run_command.hpp"

#include <string>
#include <vector>

namespace boids::mpi {
class Communicator;
} // namespace boids::mpi

namespace boids::cli {

/// What the user asked for, before validation. The scene options are those of `boids run`.
struct SweepOptions {
    RunOptions scene;
    std::string vary;          ///< KEY=START:STOP:COUNT[:log]
    std::string seeds = "1";   ///< runs per value, with seeds seed, seed + 1, ...
    std::string burn_in = "0"; ///< steps before averaging starts
    std::string every = "1";   ///< steps between samples after the burn-in
    std::string metrics = "polarization";
    std::string out;
};

/// One point of the varied key: its value and the text written to the CSV (and matched on resume).
struct SweepValue {
    double value;
    std::string text;
};

/// Parses KEY=START:STOP:COUNT[:log] into the key and its values (duplicates after rounding dropped).
/// KEY is a numeric parameter, an agent count (boids, scouts1, scouts2, predators) or scouts1_fraction
/// (the share of scouts1 among boids + scouts1, the total held). Throws InputError.
[[nodiscard]] std::pair<std::string, std::vector<SweepValue>> parse_vary(const std::string& vary);

/// Runs the sweep, appending to (resuming) the output file. Throws InputError for bad input. Under MPI the
/// ranks share the runs and rank 0 writes the same file, row for row, as one process would.
void run_sweep(const SweepOptions& options, const mpi::Communicator& ranks);

} // namespace boids::cli
