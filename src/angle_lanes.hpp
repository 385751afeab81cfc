#pragma once
// angle_math.hpp's functions over arrays, in SIMD lanes (internal; angle_lanes-inl.h), compiled for every
// instruction set Highway targets and dispatched at run time. Each entry has the scalar function's bits.

#include <cstddef>

namespace boids::angle {

/// sin[i], cos[i] = sin_cos(x[i]) for i < n.
void sin_cos_lanes(const double* x, std::size_t n, double* sin, double* cos);

/// angle[i] = atan2(y[i], x[i]) for i < n.
void atan2_lanes(const double* y, const double* x, std::size_t n, double* angle);

} // namespace boids::angle
