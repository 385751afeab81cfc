#pragma once
/// What the fast classic step (the SIMD path Simulation uses by default) runs on.

#include <cstddef>
#include <string>
#include <vector>

namespace boids {

/// The SIMD instruction set the fast path dispatched to on this CPU: "AVX3" (AVX-512), "AVX2", "SSE4",
/// "SSSE3", or "EMU128"/"SCALAR" without SIMD. Chosen once at run time, so one binary runs everywhere.
[[nodiscard]] const char* fast_path_isa();

/// SIMD lanes per vector of the dispatched kernel for single (f32) or double (f64) precision.
[[nodiscard]] std::size_t fast_path_lanes(bool double_precision);

/// The environment variable naming the instruction set the fast path runs (a value of
/// fast_path_targets()); read at the first step or query of the fast path unless set_fast_path_target()
/// chose first.
inline constexpr const char* fast_path_target_variable = "BOIDS_SIMD_TARGET";

/// The names set_fast_path_target() accepts on this CPU: "auto" (the best it supports), then those of
/// "avx3" (AVX-512), "avx2", "sse4", "ssse3" and "scalar" (no SIMD) that it runs, best first.
[[nodiscard]] std::vector<std::string> fast_path_targets();

/// Makes the fast path run the named instruction set (one of fast_path_targets()) in every Simulation of
/// the process, for measuring or testing a machine class's path; the bits are the same on every target.
/// Throws InputError naming `field` and what this CPU runs, changing nothing, for any other name. Not to
/// be called while another thread steps.
void set_fast_path_target(const std::string& name, const std::string& field = "SIMD target");

/// Applies fast_path_target_variable if it is set and no target was chosen yet (every Simulation calls it
/// when made). Throws InputError naming the variable for a value this CPU does not run.
void apply_fast_path_target_environment();

} // namespace boids
