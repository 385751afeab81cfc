// Removing the most recently added agents: every column follows, the order of the others is kept, and
// pursuit locks follow their prey.

#include "boids/world_edit.hpp"

#include <gtest/gtest.h>

using namespace boids;

namespace {

/// Agents 0..n-1 with x = their index, kinds cycling boid, boid, scout1, predator.
World<double> numbered(int n) {
    World<double> w;
    const Kind kinds[] = {Kind::Boid, Kind::Boid, Kind::Scout1, Kind::Predator};
    for (int i = 0; i < n; ++i) {
        w.add(kinds[i % 4], i, 100 + i, 1, 2, kinds[i % 4] == Kind::Scout1 ? 0.001 : 0, -1, i % 3);
    }
    return w;
}

} // namespace

TEST(WorldEdit, CountOfReadsAndWritesTheKindsCount) {
    AgentCounts c{1, 2, 3, 4};
    EXPECT_EQ(count_of(c, Kind::Boid), 1);
    EXPECT_EQ(count_of(c, Kind::Scout1), 2);
    EXPECT_EQ(count_of(c, Kind::Scout2), 3);
    count_of(c, Kind::Predator) += 10;
    EXPECT_EQ(c, (AgentCounts{1, 2, 3, 14}));
}

TEST(WorldEdit, RemovesTheNewestOfEachKindInOnePassKeepingTheOthersInOrder) {
    World<double> w = numbered(12); // boids 0 1 4 5 8 9, scouts1 2 6 10, predators 3 7 11
    remove_newest(w, {3, 1, 0, 2});
    ASSERT_EQ(w.size(), 6u);
    const double expected_x[] = {0, 1, 2, 3, 4, 6};
    for (std::size_t i = 0; i < w.size(); ++i) {
        EXPECT_EQ(w.x[i], expected_x[i]) << i;
        EXPECT_EQ(w.y[i], 100 + expected_x[i]);
        EXPECT_EQ(w.rest[i], static_cast<int>(expected_x[i]) % 3);
    }
    EXPECT_EQ(w.counts(), (AgentCounts{3, 2, 0, 1}));
    // Every column has the new size.
    for (const auto* column : {&w.x, &w.y, &w.vx, &w.vy, &w.bias}) {
        EXPECT_EQ(column->size(), 6u);
    }
    EXPECT_EQ(w.target.size(), 6u);
    EXPECT_EQ(w.rest.size(), 6u);
    // More than there are removes them all.
    remove_newest(w, Kind::Boid, 99);
    EXPECT_EQ(w.counts(), (AgentCounts{0, 2, 0, 1}));
}

TEST(WorldEdit, PursuitLocksFollowTheirPreyOrAreReleased) {
    World<double> w = numbered(8); // boids 0 1 4 5, scouts1 2 6, predators 3 7
    w.target[3] = 5;
    w.target[7] = 4;
    remove_newest(w, Kind::Boid, 1); // agent 5 goes; 6 and 7 move up one
    ASSERT_EQ(w.size(), 7u);
    EXPECT_EQ(w.target[3], -1);        // its prey is gone
    EXPECT_EQ(w.target[6], 4);         // the old agent 7; its prey kept its index
    remove_newest(w, Kind::Scout1, 2); // agents 2 and 5 (the old 6): the prey 4 becomes 3
    ASSERT_EQ(w.size(), 5u);
    EXPECT_EQ(w.kind[4], Kind::Predator);
    EXPECT_EQ(w.target[4], 3);
    EXPECT_EQ(w.x[3], 4.0);
}

TEST(WorldEdit, NothingToRemoveLeavesTheWorldAlone) {
    World<double> w = numbered(5);
    const World<double> before = w;
    remove_newest(w, {0, 0, 0, 0});
    remove_newest(w, Kind::Scout2, 3); // there are none
    EXPECT_EQ(w, before);
}
