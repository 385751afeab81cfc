// Same inputs, same bits: for any thread count and across runs.

#include "boids/hash.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

namespace boids {
namespace {

template <class Real>
std::uint64_t run_hash(const Params& p, const AgentCounts& counts, int threads, int steps) {
    Simulation<Real> sim(p, spawn_world<Real>(p, counts, 42));
    sim.set_threads(threads);
    sim.step(steps);
    return state_hash(sim.world());
}

template <class Real>
void expect_thread_independent(const Params& p) {
    const AgentCounts counts{3000, 50, 50, 4};
    const std::uint64_t one = run_hash<Real>(p, counts, 1, 60);
    EXPECT_EQ(run_hash<Real>(p, counts, 2, 60), one);
    EXPECT_EQ(run_hash<Real>(p, counts, 4, 60), one);
    EXPECT_EQ(run_hash<Real>(p, counts, 1, 60), one) << "a second run must repeat the first";
    EXPECT_NE(run_hash<Real>(p, counts, 1, 59), one) << "the hash must see the state change";
}

TEST(Determinism, BitIdenticalFor1To4ThreadsF32Margin) {
    Params p;
    p.dynamic_bias = true;
    expect_thread_independent<float>(p);
}

TEST(Determinism, BitIdenticalFor1To4ThreadsF64Wrap) {
    Params p;
    p.boundary = Boundary::Wrap;
    expect_thread_independent<double>(p);
}

TEST(Determinism, SeedsGiveDifferentFlocks) {
    const Params p;
    EXPECT_NE(state_hash(spawn_world<float>(p, {100, 0, 0, 0}, 1)),
              state_hash(spawn_world<float>(p, {100, 0, 0, 0}, 2)));
}

} // namespace
} // namespace boids
