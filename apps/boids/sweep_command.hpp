#pragma once
// `boids sweep`: every combination of the values of the varied keys, times the seeds, run in parallel
// (boids/sweep.hpp); one CSV row of time averages per run and, with --series, one row per sampled step.

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
    std::vector<std::string> vary; ///< one axis each: KEY=START:STOP:COUNT[:log] or KEY=V1,V2,...
    std::string seeds = "1";       ///< runs per combination, with seeds seed, seed + 1, ...
    std::string burn_in = "0";     ///< steps before averaging starts
    std::string every = "1";       ///< steps between samples after the burn-in
    std::string metrics = "polarization";
    std::string out;
    std::string series;       ///< --series FILE: every run's metrics at step 0 and every K steps
    std::string series_every; ///< K (empty = 1)
};

/// Runs the sweep, appending to (resuming) the output files. Throws InputError for bad input. Under MPI the
/// ranks share the runs and rank 0 writes the same files, row for row, as one process would.
void run_sweep(const SweepOptions& options, const mpi::Communicator& ranks);

} // namespace boids::cli
