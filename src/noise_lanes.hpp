#pragma once
// The noise's Gaussian draws over arrays, in SIMD lanes (internal; counter_noise.hpp's log_unit and
// gaussian, each operation in its order), compiled for every instruction set Highway targets and
// dispatched at run time. Each entry has the scalar function's bits.

#include <cstddef>

namespace boids::noise {

/// out[i] = gaussian(u1[i], u2[i]) for i < n.
void gaussian_lanes(const double* u1, const double* u2, std::size_t n, double* out);

} // namespace boids::noise
