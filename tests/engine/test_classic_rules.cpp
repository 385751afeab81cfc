// Each sub-step of the classic model (docs/MODEL.md §2) on two- and three-agent set-ups, with expected values
// worked out by hand (the arithmetic is written out so a reader can check it).

#include "boids/simulation.hpp"

#include <gtest/gtest.h>

namespace boids {
namespace {

/// A large world with small margins and speed limits out of the way, so one rule can be seen alone.
Params isolated() {
    Params p;
    p.width = 1000;
    p.height = 1000;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 10;
    p.min_speed = 0;
    p.max_speed = 100;
    return p;
}

World<double> step_once(const Params& p, World<double> w) {
    Simulation<double> sim(p, std::move(w));
    sim.step();
    return sim.world();
}

constexpr double eps = 1e-12;

TEST(ClassicRules, CohesionAndAlignmentTowardTheNeighbourAverage) {
    World<double> w;
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Boid, 520, 500, 0, 2, 0); // 20 px apart: visible (< 40), not protected (>= 8)
    const World<double> out = step_once(isolated(), w);
    // A: vx = 1 + (520-500)*0.0005 + (0-1)*0.05 = 0.96; vy = 0 + 0 + (2-0)*0.05 = 0.1
    EXPECT_NEAR(out.vx[0], 0.96, eps);
    EXPECT_NEAR(out.vy[0], 0.1, eps);
    EXPECT_NEAR(out.x[0], 500.96, eps);
    EXPECT_NEAR(out.y[0], 500.1, eps);
    // B: vx = 0 + (500-520)*0.0005 + (1-0)*0.05 = 0.04; vy = 2 + 0 + (0-2)*0.05 = 1.9
    EXPECT_NEAR(out.vx[1], 0.04, eps);
    EXPECT_NEAR(out.vy[1], 1.9, eps);
    EXPECT_NEAR(out.y[1], 501.9, eps);
}

TEST(ClassicRules, SeparationInsideTheProtectedRangeOnly) {
    World<double> w;
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Boid, 505, 500, 1, 0, 0); // 5 px: protected, so no cohesion/alignment from it
    w.add(Kind::Boid, 700, 700, 1, 0, 0); // far away: ignored
    const World<double> out = step_once(isolated(), w);
    // A: close_dx = 500 - 505 = -5 -> vx = 1 + (-5)(0.05) = 0.75; B: vx = 1 + 5(0.05) = 1.25
    EXPECT_NEAR(out.vx[0], 0.75, eps);
    EXPECT_NEAR(out.vx[1], 1.25, eps);
    EXPECT_NEAR(out.vy[0], 0.0, eps);
    EXPECT_NEAR(out.vx[2], 1.0, eps);
}

TEST(ClassicRules, EdgesTurnBackInsideTheMargins) {
    World<double> w;
    w.add(Kind::Boid, 5, 995, 1, 1, 0);      // left of 10 and below 990
    w.add(Kind::Boid, 995, 5, 1, 1, 0);      // right of 990 and above 10
    w.add(Kind::Boid, 500, 500, 1, 1, 0);    // inside: untouched
    w.add(Kind::Predator, 2, 500, -1, 0, 0); // predators turn at edges too
    const World<double> out = step_once(isolated(), w);
    EXPECT_NEAR(out.vx[0], 1.2, eps);
    EXPECT_NEAR(out.vy[0], 0.8, eps);
    EXPECT_NEAR(out.vx[1], 0.8, eps);
    EXPECT_NEAR(out.vy[1], 1.2, eps);
    EXPECT_NEAR(out.vx[2], 1.0, eps);
    EXPECT_NEAR(out.vy[2], 1.0, eps);
    EXPECT_NEAR(out.vx[3], -0.8, eps);
}

TEST(ClassicRules, PredatorsPushAwayBySignPerAxis) {
    Params p = isolated();
    World<double> w;
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Predator, 520, 490, 0, 1, 0); // dx = -20 (push -x), dy = +10 (push +y)
    World<double> out = step_once(p, w);
    EXPECT_NEAR(out.vx[0], 1 - 0.5, eps);
    EXPECT_NEAR(out.vy[0], 0 + 0.5, eps);
    EXPECT_NEAR(out.vx[1], 0.0, eps) << "a predator ignores boids";
    EXPECT_NEAR(out.vy[1], 1.0, eps);

    w = World<double>{};
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Predator, 440, 500, 0, 1, 0); // dx = +60, dy = 0: only x is pushed
    out = step_once(p, w);
    EXPECT_NEAR(out.vx[0], 1.5, eps);
    EXPECT_NEAR(out.vy[0], 0.0, eps);

    w = World<double>{};
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Predator, 580, 580, 0, 1, 0); // inside the 100 box, but 113 px away: ignored
    out = step_once(p, w);
    EXPECT_NEAR(out.vx[0], 1.0, eps);
    EXPECT_NEAR(out.vy[0], 0.0, eps);
}

TEST(ClassicRules, StaticScoutBiasPullsTowardItsSide) {
    Params p = isolated();
    p.scout2_bias = 0.5;
    World<double> w;
    w.add(Kind::Scout1, 100, 100, 2, 0, 0.25);
    w.add(Kind::Scout2, 800, 800, 2, 0, 0.5);
    const World<double> out = step_once(p, w);
    EXPECT_NEAR(out.vx[0], 0.75 * 2 + 0.25 * 1, eps); // (1 - bias) vx + bias (+1)
    EXPECT_NEAR(out.vx[1], 0.5 * 2 + 0.5 * -1, eps);  // (1 - bias) vx + bias (-1)
    EXPECT_EQ(out.bias[0], 0.25) << "static bias does not change";
}

TEST(ClassicRules, DynamicBiasStaysWithinItsBounds) {
    Params p = isolated();
    p.dynamic_bias = true; // max_bias 0.01, bias_increment 0.00004
    World<double> w;
    w.add(Kind::Scout1, 100, 100, 2, 0, 0.01);     // at max, moving right: stays at max
    w.add(Kind::Scout1, 300, 300, -2, 0, 0.00004); // at min, moving left: stays at min
    w.add(Kind::Scout2, 500, 500, -2, 0, 0.001);   // moving left (its way): grows
    w.add(Kind::Scout2, 700, 700, 2, 0, 0.001);    // moving right: shrinks
    const World<double> out = step_once(p, w);
    EXPECT_NEAR(out.bias[0], 0.01, eps);
    EXPECT_NEAR(out.vx[0], 0.99 * 2 + 0.01, eps);
    EXPECT_NEAR(out.bias[1], 0.00004, eps);
    EXPECT_NEAR(out.vx[1], (1 - 0.00004) * -2 + 0.00004, eps);
    EXPECT_NEAR(out.bias[2], 0.00104, eps);
    EXPECT_NEAR(out.vx[2], (1 - 0.00104) * -2 - 0.00104, eps);
    EXPECT_NEAR(out.bias[3], 0.00096, eps);
}

TEST(ClassicRules, SpeedIsClampedBothWaysWithOneFactor) {
    Params p = isolated();
    p.min_speed = 3;
    p.max_speed = 6;
    World<double> w;
    w.add(Kind::Boid, 100, 100, 8, 6, 0); // speed 10 -> (4.8, 3.6): both scaled by 6/10
    w.add(Kind::Boid, 300, 300, 0, 1, 0); // speed 1 -> (0, 3)
    w.add(Kind::Boid, 500, 500, 3, 4, 0); // speed 5: inside the limits
    w.add(Kind::Boid, 700, 700, 0, 0, 0); // speed 0 exactly -> (min_speed, 0)
    w.add(Kind::Predator, 900, 900, 0, 0, 0);
    const World<double> out = step_once(p, w);
    EXPECT_NEAR(out.vx[0], 4.8, eps);
    EXPECT_NEAR(out.vy[0], 3.6, eps);
    EXPECT_NEAR(out.vx[1], 0.0, eps);
    EXPECT_NEAR(out.vy[1], 3.0, eps);
    EXPECT_NEAR(out.vx[2], 3.0, eps);
    EXPECT_NEAR(out.vy[2], 4.0, eps);
    EXPECT_EQ(out.vx[3], 3.0);
    EXPECT_EQ(out.vy[3], 0.0);
    EXPECT_EQ(out.x[3], 703.0);
    EXPECT_EQ(out.vx[4], 3.0);
}

TEST(ClassicRules, WrapUsesTheNearestImageAndWrapsPositions) {
    Params p = isolated();
    p.boundary = Boundary::Wrap;
    World<double> w;
    w.add(Kind::Boid, 995, 500, 1, 0, 0);
    w.add(Kind::Boid, 15, 500, 1, 0, 0); // 20 px to the right across the seam
    const World<double> out = step_once(p, w);
    // A sees B at x = 1015: vx = 1 + (1015 - 995)*0.0005 + 0 = 1.01; no edge turning in wrap mode
    EXPECT_NEAR(out.vx[0], 1.01, eps);
    EXPECT_NEAR(out.vx[1], 0.99, eps);
    EXPECT_NEAR(out.x[0], 996.01, 1e-9);
    World<double> edge;
    edge.add(Kind::Boid, 999.5, 0.5, 1, -1, 0);
    const World<double> moved = step_once(p, edge);
    EXPECT_NEAR(moved.x[0], 0.5, 1e-9);
    EXPECT_NEAR(moved.y[0], 999.5, 1e-9);
}

TEST(ClassicRules, AcrossTheSeamTheNeighbourIsSeenAtItsNearestImageToTheBit) {
    // In f32 a boid at x = 0.7 sees one at 990.1 across the seam of a 1000 px torus at its image
    // 990.1 - 1000 (exact: Sterbenz), and sums that image; its offset is 0.7 - image, one rounding. The
    // older arithmetic, 0.7 - ((0.7 - 990.1) + 1000), gives -9.900037 for the image instead of -9.900024:
    // the fast kernel lists the images, so the plain path must define the sum this way.
    Params p = isolated();
    p.boundary = Boundary::Wrap;
    for (const bool fast : {false, true}) {
        SCOPED_TRACE(fast ? "fast path" : "plain path");
        World<float> w;
        w.add(Kind::Boid, 0.7f, 500, 1, 0, 0);
        w.add(Kind::Boid, 990.1f, 500, 1, 0, 0); // same velocity: alignment adds exactly 0
        Simulation<float> sim(p, std::move(w));
        sim.set_fast_path(fast);
        sim.step();
        const float image = 990.1f - 1000.0f;
        ASSERT_EQ(image + 1000.0f, 990.1f); // exact
        const auto centering = static_cast<float>(p.centering_factor),
                   matching = static_cast<float>(p.matching_factor);
        const float vx = 1.0f + (image / 1.0f - 0.7f) * centering + (1.0f / 1.0f - 1.0f) * matching;
        EXPECT_EQ(sim.world().vx[0], vx);
        EXPECT_EQ(sim.world().x[0], 0.7f + vx);
        // B sees A at 0.7 + 1000.
        const float image_a = 0.7f + 1000.0f;
        const float vx_b = 1.0f + (image_a / 1.0f - 990.1f) * centering + (1.0f / 1.0f - 1.0f) * matching;
        EXPECT_EQ(sim.world().vx[1], vx_b);
    }
}

TEST(ClassicRules, UpdateIsSynchronous) {
    // Two boids approaching head-on: each must react to the other's *old* velocity, so the result is
    // symmetric. An in-place update would give the second boid the first one's new velocity.
    World<double> w;
    w.add(Kind::Boid, 490, 500, 2, 0, 0);
    w.add(Kind::Boid, 510, 500, -2, 0, 0);
    const World<double> out = step_once(isolated(), w);
    EXPECT_NEAR(out.vx[0], -out.vx[1], eps);
    EXPECT_NEAR(out.x[0] - 500, 500 - out.x[1], eps);
}

} // namespace
} // namespace boids
