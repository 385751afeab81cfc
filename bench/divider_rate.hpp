#pragma once
// How fast the CPU's divider takes IEEE square roots and divisions of doubles at each vector width, on the
// SIMD target BOIDS_SIMD_TARGET names (docs/PERFORMANCE.md §3.2, "The divider at each width"). Couzin's
// candidate loop takes a square root and two divisions per candidate and vector of agents whichever lanes
// the candidate reaches, so whether a wider vector costs the divider more decides what a wider tile buys:
// on Zen 5 an instruction costs the same at 128, 256 and 512 bits, on the Intel Xeon of that section a
// 512-bit one costs twice a 256-bit one.
//
// Not a product path: boids_bench's DividerIssue times it; tests/bench holds its sums to scalar code.

#include <cstddef>
#include <cstdint>

namespace boids::bench {

enum class DividerOp { SquareRoot, Division };

struct DividerRun {
    double sum = 0;        ///< the lanes' results summed, lane by lane in order of the streams (below)
    std::size_t lanes = 0; ///< the lanes of a vector: the width asked for, or the target's widest if less
};

/// `count` rounds of four independent streams, each an instruction of `op` on a vector of `lanes` doubles
/// (2, 4 or 8: 128, 256 or 512 bits) starting at `seed`: stream k's lane j takes x = seed + k + j / 8,
/// then x + 2^-20 each round; a square root of x, or x divided by 1.25. Four streams keep the divider busy
/// whatever the latency of the additions around it.
DividerRun divider_run(DividerOp op, std::size_t lanes, std::uint64_t count, double seed);

} // namespace boids::bench
