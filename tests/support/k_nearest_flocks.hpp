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

/// The scenes every k-nearest search is held to beside the ring search, on every target: `differences(world,
/// side, wrap, ks)` counts the agents whose lists differ from k_nearest's. Crowds (cells of many agents,
/// many of none), a lattice of equal distances on cells' edges, and flocks of 1 to 60 (grids of 1 x 1 to
/// about 8 x 8 cells).
template <class Differences>
void expect_crowds_as_the_ring_search(const Differences& differences) {
    on_every_target([&] {
        EXPECT_EQ(differences(crowds<float>(4000, 1000, 5), 1000, true, {7, 30}), 0);
        EXPECT_EQ(differences(crowds<double>(4000, 1000, 6), 1000, false, {7, 64}), 0);
    });
}
template <class Differences>
void expect_ties_as_the_ring_search(const Differences& differences) {
    const World<float> grid_of_ties = lattice(30, 10.0f);
    on_every_target([&] {
        EXPECT_EQ(differences(grid_of_ties, 300, true, {1, 4, 7, 8, 9, 13}), 0);
        EXPECT_EQ(differences(grid_of_ties, 300, false, {1, 4, 7, 8, 9, 13}), 0);
    });
}
template <class Differences>
void expect_small_flocks_as_the_ring_search(const Differences& differences) {
    on_every_target([&] {
        for (const int n : {1, 2, 8, 24, 25, 26, 40, 60}) {
            SCOPED_TRACE(n);
            EXPECT_EQ(differences(uniform<float>(n, 100, 9 + static_cast<unsigned>(n)), 100, true, {1, 7}),
                      0);
            EXPECT_EQ(differences(uniform<double>(n, 100, 9 + static_cast<unsigned>(n)), 100, false, {1, 7}),
                      0);
        }
    });
}

} // namespace boids::testing
