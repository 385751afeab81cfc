#pragma once
// `boids bench`: the W20 benchmark table and the lab's "largest flock at a frame rate" challenge.

#include <string>

namespace boids::cli {

/// What the user asked for on the command line, before validation.
struct BenchOptions {
    std::string sizes; ///< flock sizes, comma-separated (empty: 10000,100000,1000000; --models: 100000)
    std::string seconds = "2"; ///< timed wall time per size (rounds repeat until reached)
    std::string warmup = "20"; ///< warm-up steps per round
    std::string steps = "20";  ///< timed steps per round (W20 table)
    std::string threads = "0";
    std::string dimensions; ///< W20 in 2D, 3D or both (empty: 2,3; --models: 2)
    std::string precision = "f32";
    std::string target;  ///< SIMD instruction set of the fast path (empty: BOIDS_SIMD_TARGET, else the best)
    bool plain = false;  ///< force the plain grid path (the reference) instead of the fast SIMD path
    bool models = false; ///< the every-model table instead of W20's
    bool max_flock = false; ///< find the largest vga-predator flock holding --rate steps/s
    std::string rate = "30";
    std::string limit = "10000000"; ///< largest flock --max-flock may try
    std::string busy_limit = "0.5"; ///< cores other processes may hold before --max-flock reports nothing
};

/// The exit status of `boids bench --max-flock` when other processes held the machine so much that the
/// figure would measure them rather than the flock (nothing is reported).
inline constexpr int exit_machine_too_busy = 3;

/// Validates the options and runs the benchmark, printing to stdout. Returns the exit status (0, or
/// exit_machine_too_busy). Throws InputError for bad options.
int run_bench(const BenchOptions& options);

} // namespace boids::cli
