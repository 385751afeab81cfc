// Model behaviours beyond the classic rules: field of view, the topological model.

#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "models/weighted.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace boids {
namespace {

Params open_field() {
    Params p;
    p.width = p.height = 1000;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 10;
    p.min_speed = 0;
    p.max_speed = 100;
    return p;
}

World<double> one_step(const Params& p, const World<double>& w) {
    Simulation<double> sim(p, w);
    sim.step();
    return sim.world();
}

TEST(FieldOfView, IgnoresANeighbourBehindAndSeesOneAhead) {
    Params p = open_field();
    p.fov_angle = 270; // a 90 degree blind cone behind
    World<double> behind;
    behind.add(Kind::Boid, 500, 500, 1, 0, 0);
    behind.add(Kind::Boid, 480, 500, 0, 2, 0); // directly behind the first (which flies +x)
    World<double> out = one_step(p, behind);
    EXPECT_DOUBLE_EQ(out.vx[0], 1.0) << "a neighbour behind must be ignored";
    EXPECT_DOUBLE_EQ(out.vy[0], 0.0);

    World<double> ahead;
    ahead.add(Kind::Boid, 500, 500, 1, 0, 0);
    ahead.add(Kind::Boid, 520, 500, 0, 2, 0); // directly ahead
    out = one_step(p, ahead);
    EXPECT_NEAR(out.vx[0], 0.96, 1e-12) << "cohesion and alignment as without a field of view";
    EXPECT_NEAR(out.vy[0], 0.1, 1e-12);

    p.fov_angle = 360;
    out = one_step(p, behind);
    EXPECT_NE(out.vx[0], 1.0) << "with the full circle the neighbour behind counts";
}

TEST(FieldOfView, TheConeIsHalfTheAngleOnEitherSide) {
    Params p = open_field();
    World<double> side;
    side.add(Kind::Boid, 500, 500, 1, 0, 0);
    side.add(Kind::Boid, 498, 520, 0, 2, 0); // 95.7 degrees off the heading
    p.fov_angle = 200;                       // sees 100 degrees either side
    EXPECT_NE(one_step(p, side).vy[0], 0.0);
    p.fov_angle = 180; // sees 90 degrees either side
    EXPECT_EQ(one_step(p, side).vy[0], 0.0);
}

Params topological() {
    Params p = open_field();
    p.model = Model::Topological;
    p.boundary = Boundary::Wrap;
    return p;
}

TEST(Topological, SpeedGrowsWithFewerNeighbours) {
    Params p = topological();
    World<double> pair;
    pair.add(Kind::Boid, 500, 500, 2.5, 0, 0);
    pair.add(Kind::Boid, 600, 500, 2.5, 0, 0);
    const World<double> out = one_step(p, pair);
    // One neighbour of 7: (150 + (7 - 1) * 5) px/s at 60 steps/s = 3 px/step.
    EXPECT_NEAR(std::hypot(out.vx[0], out.vy[0]), 3.0, 1e-12);

    World<double> crowd;
    for (int i = 0; i < 8; ++i) {
        crowd.add(Kind::Boid, 300 + 60.0 * i, 500, 2.5, 0, 0);
    }
    // Seven neighbours each: 150 px/s = 2.5 px/step.
    EXPECT_NEAR(std::hypot(one_step(p, crowd).vx[0], one_step(p, crowd).vy[0]), 2.5, 1e-12);
}

TEST(Topological, AlignsWithTheMeanHeadingWhenCloseAndTurnsAwayFromTheNearest) {
    Params p = topological();
    // Three boids flying +y, one flying +x among them, 40 px apart: the centroid is within 5 body
    // lengths (85 px), so the odd one turns toward the mean heading (+y, i.e. 90 degrees) by 2 degrees.
    World<double> w;
    w.add(Kind::Boid, 500, 500, 2.5, 0, 0);
    w.add(Kind::Boid, 540, 500, 0, 2.5, 0);
    w.add(Kind::Boid, 460, 500, 0, 2.5, 0);
    w.add(Kind::Boid, 500, 540, 0, 2.5, 0);
    World<double> out = one_step(p, w);
    const double heading = std::atan2(out.vy[0], out.vx[0]) * 180 / std::acos(-1.0);
    EXPECT_NEAR(heading, 2.0, 1e-9);

    // Neighbours heading +y (90 degrees). At 30 px the boid turns toward their heading (+y); with the
    // nearest 10 px away (closer than one body length, 17 px) PyNBoids reverses the turn: away.
    World<double> near;
    near.add(Kind::Boid, 500, 500, 2.5, 0, 0);
    near.add(Kind::Boid, 530, 501, 0, 2.5, 0);
    near.add(Kind::Boid, 700, 700, 0, 2.5, 0);
    EXPECT_GT(one_step(p, near).vy[0], 0.0);
    World<double> close = near;
    close.x[1] = 510;
    EXPECT_LT(one_step(p, close).vy[0], 0.0);
}

TEST(Topological, OnlyTheKNearestMatter) {
    Params p = topological();
    set_number(p, "k_neighbours", 2);
    World<double> a;
    a.add(Kind::Boid, 500, 500, 2.5, 0, 0);
    a.add(Kind::Boid, 530, 500, 0, 2.5, 0);
    a.add(Kind::Boid, 470, 500, 0, 2.5, 0);
    World<double> b = a;
    a.add(Kind::Boid, 500, 600, 0, -2.5, 0); // a third neighbour, farther than the first two
    b.add(Kind::Boid, 500, 620, 2.5, 0, 0);  // the same place, other heading
    EXPECT_EQ(one_step(p, a).vx[0], one_step(p, b).vx[0]);
    EXPECT_EQ(one_step(p, a).vy[0], one_step(p, b).vy[0]);
}

TEST(Topological, FlocksFormAndStaysDeterministic) {
    Params p = topological();
    p.width = 1200;
    p.height = 800;
    const World<double> start = spawn_world<double>(p, AgentCounts{200, 0, 0, 0}, 4760);
    Simulation<double> one(p, start), two(p, start);
    one.set_threads(1);
    two.set_threads(2);
    const double before = summarize(start).polarization;
    one.step(3000);
    two.step(3000);
    EXPECT_TRUE(one.world() == two.world());
    EXPECT_GT(summarize(one.world()).polarization, before + 0.3) << "headings must order";
}

TEST(Topological, PyNBoidsSearchesOnlyTheBlockOfCellsAroundItsOwn) {
    Params p = topological();
    p.boundary = Boundary::Margin;
    World<double> w;
    w.add(Kind::Boid, 150, 450, 2.5, 0, 0); // in cell (1, 4): its block is cells 0..2 x 3..5
    for (int i = 0; i < 3; ++i) {
        w.add(Kind::Boid, 220 + 20.0 * i, 450, 2.5, 0, 0); // cell 2: inside the block
        w.add(Kind::Boid, 310 + 20.0 * i, 450, 2.5, 0, 0); // cell 3: outside, yet among the 7 nearest
    }
    // Anywhere: six neighbours, (150 + 1 * 5) px/s. In the block: three, (150 + 4 * 5) px/s.
    EXPECT_NEAR(one_step(p, w).vx[0] * 60, 155.0, 1e-9);
    set_number(p, "search_cell", 100);
    EXPECT_NEAR(one_step(p, w).vx[0] * 60, 170.0, 1e-9);
    p.update = UpdateOrder::Sequential; // the in-place pass searches the same block
    EXPECT_NEAR(one_step(p, w).vx[0] * 60, 170.0, 1e-9);
}

TEST(Topological, PyNBoidsHeadingsInZeroTo360MoveTheDeadBand) {
    // Heading -0.3 degrees (359.7 in PyNBoids' range); the neighbours' mean heading -0.1 degrees is within
    // the 0.5 degree dead band, but |-0.1 - 359.7| is not: PyNBoids turns, by 2 degrees.
    Params p = topological();
    const double rad = std::acos(-1.0) / 180;
    World<double> w;
    w.add(Kind::Boid, 500, 500, 2.5 * std::cos(-0.3 * rad), 2.5 * std::sin(-0.3 * rad), 0);
    w.add(Kind::Boid, 530, 500, 2.5 * std::cos(-0.1 * rad), 2.5 * std::sin(-0.1 * rad), 0);
    w.add(Kind::Boid, 470, 500, 2.5 * std::cos(-0.1 * rad), 2.5 * std::sin(-0.1 * rad), 0);
    const auto heading = [&](const World<double>& o) { return std::atan2(o.vy[0], o.vx[0]) / rad; };
    EXPECT_NEAR(heading(one_step(p, w)), -0.3, 1e-9) << "signed: within the dead band, no turn";
    set_param(p, "heading_range", "positive");
    EXPECT_NEAR(heading(one_step(p, w)), 1.7, 1e-9) << "positive: turns toward it by the full 2 degrees";
}

TEST(Topological, PyNBoidsWrapsOnceTheSpriteIsOffScreenAndSeesNoSeam) {
    Params p = topological();
    p.width = 1200;
    p.height = 800;
    set_param(p, "wrap_style", "sprite");
    World<double> w;
    w.add(Kind::Boid, -5, 400, -2.5, 0, 0); // flying left; its 15 px sprite still shows at x = -5
    Simulation<double> sim(p, w);
    sim.step();
    const double step = (150.0 + 7 * 5) / 60; // alone: seven neighbours missing
    EXPECT_NEAR(sim.world().x[0], -5 - step, 1e-12) << "still partly on screen: not wrapped";
    sim.step();
    EXPECT_EQ(sim.world().x[0], 1200.0) << "wholly off screen before this move: put on the right edge";
    // On the exact torus the same boid wraps at once.
    set_param(p, "wrap_style", "torus");
    EXPECT_NEAR(one_step(p, w).x[0], 1200 - 5 - step, 1e-9);

    // Across the seam: on the torus the boid at x = 1195 is 10 px from the one at x = 5, too close, and it
    // turns away from the mean heading; with the sprite wrap it is 1190 px away, and the boid flies on.
    World<double> seam;
    seam.add(Kind::Boid, 5, 400, 2.5, 0, 0);
    seam.add(Kind::Boid, 1195, 400, 0, 2.5, 0);
    seam.add(Kind::Boid, 100, 400, 0, 2.5, 0);
    set_number(p, "k_neighbours", 2);
    EXPECT_LT(one_step(p, seam).vy[0], 0.0) << "torus: away from the mean heading (+y)";
    set_param(p, "wrap_style", "sprite");
    EXPECT_EQ(one_step(p, seam).vy[0], 0.0) << "sprite wrap: the centroid is straight ahead";
}

TEST(ModelParams, BadValuesAreRejected) {
    Params p;
    EXPECT_THROW(set_param(p, "fov_angle", "400"), InputError);
    EXPECT_THROW(set_param(p, "fov_angle", "-1"), InputError);
    EXPECT_THROW(set_param(p, "k_neighbours", "0"), InputError);
    EXPECT_THROW(set_param(p, "k_neighbours", "65"), InputError);
    EXPECT_THROW(set_param(p, "model", "flocky"), InputError);
    EXPECT_THROW(set_param(p, "coherence", "101"), InputError);
    EXPECT_THROW(set_param(p, "topological_speed", "nan"), InputError);
    set_param(p, "k_neighbours", "2.5");
    EXPECT_THROW(validate(p), InputError);
    set_param(p, "model", "topological");
    EXPECT_EQ(p.model, Model::Topological);
}

} // namespace
} // namespace boids

namespace boids {
namespace {

TEST(Weighted, NearestOffsetIsTheCLibrarysRemainderToTheBit) {
    // Offsets to the carrot, ties (halves, 1.5 and 2 lengths), zeros of both signs, lengths of every size,
    // and values past twice the length (the C library's own).
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(-2.2, 2.2);
    std::uniform_real_distribution<double> scale(-6, 6);
    int differ = 0, cases = 0;
    const auto check = [&](double x, double length) {
        ++cases;
        const double want = std::remainder(x, length), got = weighted::nearest_offset(x, length);
        differ += std::bit_cast<std::uint64_t>(want) != std::bit_cast<std::uint64_t>(got);
    };
    for (int i = 0; i < 200000; ++i) {
        const double length = std::pow(10.0, scale(rng)) * (1 + unit(rng) * 0.1);
        check(unit(rng) * length, length);
        for (const double k : {0.5, 1.0, 1.5, 2.0}) {
            for (const double sign : {1.0, -1.0}) {
                const double tie = sign * k * length;
                check(tie, length);
                check(std::nextafter(tie, 0.0), length);
                check(std::nextafter(tie, sign * 1e308), length);
            }
        }
    }
    for (const double x : {0.0, -0.0, 5e-324, -5e-324, 1e308, -1e308}) {
        check(x, 640.0);
    }
    EXPECT_EQ(differ, 0) << "of " << cases;
}

TEST(Weighted, OneStepComputedByHand) {
    Params p;
    p.model = Model::Weighted; // Downey's defaults: radii 1 / 0.3 / 0.5, angles 1 / pi / 1, weights 3 10 1 10
    set_number(p, "time_step", 0.25); // not Downey's 0.1: align must not depend on it
    p.width = p.height = 10;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 0;
    set_number(p, "carrot_x", 4);
    set_number(p, "carrot_y", 3);
    World<double> w;
    w.add(Kind::Boid, 3, 3, 0.25, 0, 0);     // A flies +x at unit speed (0.25 per step)
    w.add(Kind::Boid, 3.2, 3.1, 0, 0.25, 0); // B: 0.2236 from A, 0.46 rad off A's heading
    Simulation<double> sim(p, w);
    sim.step();
    // A sees B in all three neighbourhoods; the carrot (1 away) is outside the avoid radius.
    //   center = (0.2, 0.1); avoid = -(0.2, 0.1); align = B's heading (0, 1); love = (1, 0)
    //   goal = 3 center + 10 avoid + 1 align + 10 love = (8.6, 0.3), normalised
    const double gx = 8.6 / std::sqrt(74.05), gy = 0.3 / std::sqrt(74.05);
    double vx = 0.9 * 1 + 0.1 * gx, vy = 0.9 * 0 + 0.1 * gy; // (1 - mu) vel + mu goal
    const double norm = std::sqrt(vx * vx + vy * vy);
    vx /= norm;
    vy /= norm;
    EXPECT_NEAR(sim.world().vx[0], 0.25 * vx, 1e-15);
    EXPECT_NEAR(sim.world().vy[0], 0.25 * vy, 1e-15);
    EXPECT_NEAR(sim.world().x[0], 3 + 0.25 * vx, 1e-15);
    EXPECT_NEAR(sim.world().y[0], 3 + 0.25 * vy, 1e-15);
    // B flies +y: A is 2.03 rad off its heading, so only the all-round avoid request sees it.
    //   avoid = -(A - B) = (0.2, 0.1); love = limit((0.8, -0.1)) = (0.8, -0.1)
    //   goal = 10 (0.2, 0.1) + 10 (0.8, -0.1) = (10, 0) -> (1, 0); vel = 0.9 (0, 1) + 0.1 (1, 0)
    const double bn = std::sqrt(0.81 + 0.01);
    EXPECT_NEAR(sim.world().vx[1], 0.25 * 0.1 / bn, 1e-15);
    EXPECT_NEAR(sim.world().vy[1], 0.25 * 0.9 / bn, 1e-15);
}

TEST(Classic, ThePredatorOrderOfEachSourcePage) {
    // ece4760's numbers: a boid flying +x, a neighbour 10 px ahead flying +y, a predator 40 px ahead.
    const Scenario s = load_preset("ece4760");
    World<double> w;
    w.add(Kind::Boid, 160, 120, 1, 0, 0);
    w.add(Kind::Boid, 170, 120, 0, 1, 0);
    w.add(Kind::Predator, 200, 120, 0, 1, 0);
    const auto direction = [&](PredatorOrder order) {
        Params p = s.params;
        p.predator_order = order;
        const World<double> o = one_step(p, w);
        return o.vx[0] / o.vy[0]; // the speed limit scales both alike
    };
    // The lab page: the kick first (vx = 1 - 0.4), then cohesion and alignment read it:
    //   vx = 0.6 + 10 * 0.0005 + (0 - 0.6) * 0.05 = 0.575, vy = (1 - 0) * 0.05 = 0.05
    EXPECT_NEAR(direction(PredatorOrder::BeforeFlocking), 0.575 / 0.05, 1e-9);
    // Adams' VGA page: vx = 1 + 0.005 + (0 - 1) * 0.05 = 0.955, then the kick: 0.555
    EXPECT_NEAR(direction(PredatorOrder::AfterEdges), 0.555 / 0.05, 1e-9);
}

TEST(Weighted, TheFlockGathersAroundTheCarrot) {
    Scenario s = load_preset("downey-2d");
    set_number(s.params, "carrot_x", 8); // far from where the flock starts, in [1, 3] x [1, 3]
    set_number(s.params, "carrot_y", 8);
    s.params.width = s.params.height = 10;
    s.params.margin_right = s.params.margin_bottom = 7;
    Simulation<double> sim(s.params, spawn_world<double>(s.params, s.agents, 3));
    const auto mean_distance = [&] {
        double sum = 0;
        for (std::size_t i = 0; i < sim.world().size(); ++i) {
            sum += std::hypot(sim.world().x[i] - get_number(s.params, "carrot_x"),
                              sim.world().y[i] - get_number(s.params, "carrot_y"));
        }
        return sum / static_cast<double>(sim.world().size());
    };
    const double start = mean_distance();
    sim.step(300);
    EXPECT_GT(start, 6.0);
    EXPECT_LT(mean_distance(), 1.5) << "love pulls every boid to the carrot";
    sim.step(300);
    EXPECT_LT(mean_distance(), 1.5) << "and they stay around it";
    for (std::size_t i = 0; i < sim.world().size(); ++i) {
        EXPECT_NEAR(std::hypot(sim.world().vx[i], sim.world().vy[i]), 0.1, 1e-12) << "unit speed times dt";
    }
}

} // namespace
} // namespace boids
