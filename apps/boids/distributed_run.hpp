#pragma once
// `mpirun -np R boids run --headless ...`: one flock over R ranks, the same outputs as one process.

#include "run_command.hpp"

namespace boids::mpi {
class Communicator;
} // namespace boids::mpi

namespace boids::cli {

/// Runs the plan's flock over the ranks of `ranks` (mpi::DistributedSimulation). Rank 0 reads the initial
/// state, writes --dump, --metrics and --trajectory from the flock gathered in global agent order, and
/// prints the summary; they equal those of the same run in one process byte for byte (the timing lines
/// aside). Throws InputError on every rank for input a distributed run cannot take.
void run_distributed(const RunPlan& plan, const mpi::Communicator& ranks);

} // namespace boids::cli
