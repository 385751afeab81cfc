#include "position_lanes.hpp"

#include "classic_rules.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace boids {
namespace {

template <class Real>
bool same_bits(Real a, Real b) {
    return std::memcmp(&a, &b, sizeof(Real)) == 0;
}

/// Moves that land a position on the torus's edges and just beside them, far outside both ways, on -0,
/// the infinities and NaN, and random moves inside and across the edges.
template <class Real>
void probes(Real length, std::vector<Real>& p, std::vector<Real>& v) {
    constexpr Real inf = std::numeric_limits<Real>::infinity();
    const Real tiny = std::numeric_limits<Real>::denorm_min();
    const Real landings[] = {Real(0),
                             Real(-0.0),
                             length,
                             std::nextafter(length, Real(0)),
                             std::nextafter(length, inf),
                             std::nextafter(Real(0), -inf),
                             -tiny,
                             Real(-1e-9),
                             Real(-3.5) * length,
                             Real(7.25) * length,
                             Real(2) * length,
                             -length,
                             inf,
                             -inf,
                             std::numeric_limits<Real>::quiet_NaN(),
                             std::numeric_limits<Real>::max()};
    for (const Real at : landings) {
        p.push_back(at); // with no move: the wrap alone
        v.push_back(Real(0));
        p.push_back(length / 2); // a move there from the middle
        v.push_back(at - length / 2);
    }
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> where(0.0, static_cast<double>(length));
    std::uniform_real_distribution<double> move(-0.02 * static_cast<double>(length),
                                                0.02 * static_cast<double>(length));
    while (p.size() < 303) { // an odd count: a partial last vector on every target
        p.push_back(static_cast<Real>(where(rng) < 0.1 * static_cast<double>(length) ? 0.0 : where(rng)));
        v.push_back(static_cast<Real>(move(rng)));
    }
}

// A vector of agents at a time, the positions move and wrap to the bits of one agent at a time (p + v,
// then classic::wrap_position), on every SIMD target and for every count a last vector may hold; with no
// move, the wrap alone; without the torus, the sum alone.
template <class Real>
void expect_the_scalar_bits(Real length) {
    std::vector<Real> p, v;
    probes(length, p, v);
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (const bool wrap : {true, false}) {
            for (const bool moved : {true, false}) {
                for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3},
                                                std::size_t{7}, std::size_t{9}, std::size_t{17}, p.size()}) {
                    std::vector<Real> out(p.begin(), p.begin() + count);
                    out.push_back(Real(12345));
                    move_positions(out.data(), moved ? v.data() : nullptr, count, wrap, length);
                    for (std::size_t i = 0; i < count; ++i) {
                        const Real sum = moved ? p[i] + v[i] : p[i];
                        const Real expected = wrap ? classic::wrap_position(sum, length) : sum;
                        ASSERT_TRUE(same_bits(out[i], expected))
                            << "SIMD target " << hwy::TargetName(target) << ", p " << p[i] << ", v " << v[i]
                            << ": " << out[i] << " against " << expected << (wrap ? " (wrap)" : "");
                    }
                    ASSERT_EQ(out[count], Real(12345))
                        << "written past the count, " << hwy::TargetName(target);
                }
            }
        }
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(PositionLanes, MoveAndWrapAsOneAgentAtATimeOnEverySimdTarget) {
    expect_the_scalar_bits<float>(125.331f);
    expect_the_scalar_bits<double>(125.331);
    expect_the_scalar_bits<float>(1.0f / 3.0f); // a length of no short binary form
    expect_the_scalar_bits<double>(640.0);
}

} // namespace
} // namespace boids
