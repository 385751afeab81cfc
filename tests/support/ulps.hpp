#pragma once
// The engine's own mathematical functions' tests: how far a result lies from the truth.

#include <cmath>

namespace boids::testing {

/// |value - truth| in units in the last place of the double nearest the truth.
inline double ulps(double value, long double truth) {
    const double nearest = static_cast<double>(truth);
    const double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
    return static_cast<double>(std::fabs(static_cast<long double>(value) - truth) / ulp);
}

} // namespace boids::testing
