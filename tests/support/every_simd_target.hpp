#pragma once
// The lanes kernels' tests: a simulation on the plain path against the fast path on every SIMD target
// this CPU runs (Highway's targets, forced one at a time), compared by state hash.

#include "boids/hash.hpp"
#include "boids/simulation.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <string>

namespace boids::testing {

/// The state hash after `steps` steps of `start` on the plain path, on one thread. The fast path on every
/// SIMD target of this CPU is expected to take its fast pass and give the same state, and the flock to
/// have moved.
template <class Real>
std::uint64_t expect_every_target_plain(const Params& p, const World<Real>& start, int steps,
                                        const std::string& what) {
    Simulation<Real> plain(p, start);
    plain.set_fast_path(false);
    plain.set_threads(1);
    plain.step(steps);
    const std::uint64_t expected = state_hash(plain.world());
    EXPECT_NE(expected, state_hash(start)) << what << ": the flock moved";
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        Simulation<Real> fast(p, start);
        fast.set_threads(1);
        fast.step(steps);
        EXPECT_TRUE(fast.last_step_fast()) << what;
        EXPECT_EQ(state_hash(fast.world()), expected) << what << ", SIMD target " << hwy::TargetName(target);
    }
    hwy::SetSupportedTargetsForTest(0);
    return expected;
}

} // namespace boids::testing
