#pragma once
// What food sources do to a classic agent (docs/MODEL.md §3), in the engine's scalar type (internal): a pull
// toward each source within its range, where the source is at this step. The plain path and the fast kernel
// call this same function, so they agree to the bit; the kernel calls it only for the lanes that the
// sources' reach boxes (food_reach_boxes) cannot rule out.

#include "boids/food.hpp"
#include "boids/params.hpp"
#include "boids/scalar.hpp"
#include "obstacle_rules.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace boids {

/// Within a food source's range: a pull toward it, where it is after `step` steps, for an agent at
/// (x, y, z) (z ignored in 2D). Computed in double.
template <class Real>
void seek_food(const Params& params, bool three_d, long long step, Real x, Real y, Real z, Real& vx, Real& vy,
               Real& vz) {
    using T = ScalarTraits<Real>;
    for (const FoodSource& f : params.food) {
        const auto [fx, fy] = f.position(step);
        const double dx = fx - static_cast<double>(x), dy = fy - static_cast<double>(y);
        const double dz = three_d ? f.z.value_or(params.depth / 2) - static_cast<double>(z) : 0.0;
        const double d = three_d ? std::sqrt(dx * dx + dy * dy + dz * dz) : std::hypot(dx, dy);
        if (d > 0 && d < f.range) {
            vx = vx + T::from_double(dx / d * f.strength);
            vy = vy + T::from_double(dy / d * f.strength);
            if (three_d) {
                vz = vz + T::from_double(dz / d * f.strength);
            }
        }
    }
}

/// The reach boxes of the world's food sources after `step` steps, in the order of params.food: each
/// source's position grown by its range on every axis (and by a part in 10^9 for the rounding of the
/// distance in double), so that seek_food changes nothing for a point outside all of them.
template <class Real>
std::vector<ReachBox<Real>> food_reach_boxes(const Params& params, bool three_d, long long step) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<ReachBox<Real>> boxes;
    for (const FoodSource& f : params.food) {
        const auto [fx, fy] = f.position(step);
        const double fz = f.z.value_or(params.depth / 2);
        const double lo[3] = {fx, fy, three_d ? fz : -inf}, hi[3] = {fx, fy, three_d ? fz : inf};
        boxes.push_back(grown_reach_box<Real>(lo, hi, f.range * (1 + 1e-9)));
    }
    return boxes;
}

} // namespace boids
