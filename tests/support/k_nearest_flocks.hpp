#pragma once
// The k-nearest searches' tests: flocks that exercise them (uniform, crowded) and a check run on every SIMD
// target this CPU runs (Highway's targets, forced one at a time).

#include "boids/world.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

namespace boids::testing {

/// `n` agents uniform in a square of `side`, every 31st a predator (which the flock grid leaves out).
template <class Real>
World<Real> uniform(int n, double side, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, side);
    World<Real> w;
    for (int i = 0; i < n; ++i) {
        w.add(i % 31 == 0 ? Kind::Predator : Kind::Boid, static_cast<Real>(u(rng)), static_cast<Real>(u(rng)),
              Real(0), Real(0), 0);
    }
    return w;
}

/// A few tight crowds in an otherwise empty square: cells holding many agents, and many holding none.
template <class Real>
World<Real> crowds(int n, double side, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, side);
    std::normal_distribution<double> spread(0, side / 60);
    World<Real> w;
    double cx = 0, cy = 0;
    for (int i = 0; i < n; ++i) {
        if (i % 200 == 0) {
            cx = u(rng);
            cy = u(rng);
        }
        const auto at = [&](double c) { return std::clamp(c + spread(rng), 0.0, std::nextafter(side, 0.0)); };
        w.add(Kind::Boid, static_cast<Real>(at(cx)), static_cast<Real>(at(cy)), Real(0), Real(0), 0);
    }
    return w;
}

/// A square lattice of n x n agents `spacing` apart from the origin.
inline World<float> lattice(int n, float spacing) {
    World<float> w;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            w.add(Kind::Boid, spacing * static_cast<float>(i), spacing * static_cast<float>(j), 0, 0, 0);
        }
    }
    return w;
}

/// Runs `check` once on each SIMD target this machine runs.
template <class Check>
void on_every_target(const Check& check) {
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        check();
    }
    hwy::SetSupportedTargetsForTest(0);
}

} // namespace boids::testing
