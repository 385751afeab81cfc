// The groups of the Vicsek and Couzin fast passes (src/lane_group_pass.hpp): consecutive slots whose
// agents the grid gives the same candidate runs, which the SIMD kernel (src/heading_lanes_kernel.cpp)
// takes in lanes. Their sums against the plain path are tested in test_slot_order_pass.cpp.

#include "lane_group_pass.hpp"

#include "boids/world.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace boids {
namespace {

/// Agents spread over a side x side square, some on one spot, and (`outside`) some far outside it.
template <class Real>
World<Real> scattered(double side, bool outside) {
    World<Real> w;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, side);
    for (int i = 0; i < 1500; ++i) {
        w.add(Kind::Boid, Real(u(rng)), Real(u(rng)), Real(1), Real(0), Real(0));
    }
    for (int i = 0; i < 40; ++i) { // one spot: a cell with many agents
        w.add(Kind::Boid, Real(side / 3), Real(side / 3), Real(0), Real(1), Real(0));
    }
    for (int i = 0; outside && i < 6; ++i) { // outside the square, where a grid with its bounds clamps them
        w.add(Kind::Boid, Real(-10 * side - i), Real(side / 2), Real(1), Real(1), Real(0));
        w.add(Kind::Boid, Real(side / 2), Real(3 * side + i), Real(1), Real(1), Real(0));
    }
    return w;
}

/// The groups of [begin, end) tile it in order, and every agent's own query gives its group's runs.
/// Returns the number of groups.
template <class Real>
int expect_groups_share_runs(const SpatialGrid<Real>& grid, std::uint32_t begin, std::uint32_t end,
                             const std::string& what) {
    std::uint32_t next = begin;
    int groups = 0;
    for_each_lane_group(grid, begin, end, [&](fast::LaneGroup group, const fast::CandidateRuns& runs) {
        ++groups;
        EXPECT_EQ(group.first, next) << what;
        EXPECT_GT(group.count, 0u) << what;
        next = group.first + group.count;
        for (std::uint32_t s = group.first; s < next; ++s) {
            const fast::CandidateRuns own = candidate_runs(grid, grid.x(s), grid.y(s));
            ASSERT_EQ(own.count, runs.count) << what << ", slot " << s;
            for (int k = 0; k < runs.count; ++k) {
                EXPECT_EQ(own.begin[k], runs.begin[k]) << what << ", slot " << s;
                EXPECT_EQ(own.end[k], runs.end[k]) << what << ", slot " << s;
            }
        }
    });
    EXPECT_EQ(next, end) << what;
    return groups;
}

template <class Real>
void expect_lane_groups(bool wrap) {
    const double side = 300.0, range = 10.0;
    const World<Real> w = scattered<Real>(side, !wrap); // on a torus every position is inside
    // On the open plane, the extent of the square alone (as a grid over part of a flock is given the
    // whole flock's): the agents outside it are binned into its edge cells, where their queries differ
    // from their cell-mates'.
    detail::GridExtent square{w.size(), detail::MemberBox{{0, 0, 0}, {side, side, 0}}};
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, range, wrap, side, side, 0.0, 1, false, wrap ? nullptr : &square);
    const auto slots = static_cast<std::uint32_t>(grid.size());
    const std::string what =
        std::string(wrap ? "torus" : "open plane") + (sizeof(Real) == 4 ? ", f32" : ", f64");
    // The whole grid, the fast pass' chunks, and ranges that cut cells anywhere.
    const int whole = expect_groups_share_runs(grid, 0, slots, what);
    int cells = 0; // the non-empty cells
    const auto starts = grid.cell_starts();
    for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
        cells += starts[c + 1] > starts[c] ? 1 : 0;
    }
    if (wrap) {
        EXPECT_EQ(whole, cells) << what << ": a group per cell";
    } else {
        EXPECT_GT(whole, cells) << what << ": the clamped cells split where their agents' queries differ";
    }
    for (std::uint32_t begin = 0; begin < slots; begin += slot_chunk) {
        expect_groups_share_runs(grid, begin, std::min(begin + slot_chunk, slots), what + ", chunks");
    }
    for (std::uint32_t begin = 0; begin < slots; begin += 97) {
        expect_groups_share_runs(grid, begin, std::min(begin + 97, slots), what + ", ranges of 97");
    }
    expect_groups_share_runs(grid, 5, 5, what + ", empty");
}

TEST(LaneGroupPass, GroupsShareTheirAgentsCandidateRuns) {
    expect_lane_groups<float>(true);
    expect_lane_groups<float>(false);
    expect_lane_groups<double>(true);
    expect_lane_groups<double>(false);
}

} // namespace
} // namespace boids
