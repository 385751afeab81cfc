#pragma once
/// What the fast classic step (the SIMD path Simulation uses by default) runs on.

#include <cstddef>

namespace boids {

/// The SIMD instruction set the fast path dispatched to on this CPU: "AVX3" (AVX-512), "AVX2", "SSE4",
/// "SSSE3", or "EMU128"/"SCALAR" without SIMD. Chosen once at run time, so one binary runs everywhere.
[[nodiscard]] const char* fast_path_isa();

/// SIMD lanes per vector of the dispatched kernel for single (f32) or double (f64) precision.
[[nodiscard]] std::size_t fast_path_lanes(bool double_precision);

} // namespace boids
