#pragma once
// The squared distance the k-nearest searches rank a candidate by (internal): k_nearest's, which its fast
// searches (k_nearest_two_rings.cpp, k_nearest_tiles.cpp) reproduce to the bit.

#include "classic_rules.hpp"

namespace boids {

/// From (px, py) to the candidate at (x, y): the offset the policy then receives (the agent minus the
/// candidate's nearest image on a torus of width x height, in Real), each part widened to double, squared
/// and summed (no FMA).
template <class Real>
double k_nearest_distance2(Real px, Real py, Real x, Real y, bool wrap, Real width, Real height) {
    if (wrap) {
        x = classic::nearest_image(px, x, width, width / Real(2));
        y = classic::nearest_image(py, y, height, height / Real(2));
    }
    const Real dx = px - x, dy = py - y;
    const double ddx = static_cast<double>(dx), ddy = static_cast<double>(dy);
    return ddx * ddx + ddy * ddy;
}

} // namespace boids
