#pragma once
// The noise's draws over arrays, in SIMD lanes (internal; counter_noise.hpp's mixes, uniforms, log_unit and
// gaussian, each operation in its order), compiled for every instruction set Highway targets and
// dispatched at run time. Each entry has the scalar function's bits.

#include <cstddef>
#include <cstdint>

namespace boids::noise {

/// normal_draw(step_key, ids[i], stream) for i < n: its u1[i] and u2[i].
void normal_draw_lanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n, std::uint64_t stream,
                       double* u1, double* u2);

/// out[i] = uniform01(step_key, ids[i], stream) for i < n.
void uniform_lanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n, std::uint64_t stream,
                   double* out);

/// out[i] = gaussian(u1[i], u2[i]) for i < n.
void gaussian_lanes(const double* u1, const double* u2, std::size_t n, double* out);

} // namespace boids::noise
