// The lab's fixed point (docs/MODEL.md §8): operations, a hand-computed step, closeness to f64, the
// sequential update, determinism and exact state files.

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/hash.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <sstream>

namespace boids {
namespace {

// The normative operations written out on plain integers, independent of the Fix15 type.
std::int32_t ff(double d) {
    return static_cast<std::int32_t>(d * 32768.0);
}
std::int32_t mul(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>((static_cast<std::int64_t>(a) * b) >> 15);
}
std::int32_t div(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>((static_cast<std::int64_t>(a) << 15) / b);
}
Fix15 raw(std::int32_t r) {
    return Fix15::from_raw(r);
}

TEST(Fix15, ConversionsTruncateTowardZero) {
    EXPECT_EQ(Fix15::from_double(1.0).raw, 32768);
    EXPECT_EQ(Fix15::from_double(0.2).raw, 6553);   // 6553.6 -> 6553
    EXPECT_EQ(Fix15::from_double(-0.2).raw, -6553); // -6553.6 -> -6553, not -6554
    EXPECT_EQ(Fix15::from_double(-0.00001).raw, 0); // -0.32768 -> 0
    EXPECT_EQ(Fix15::from_double(0.0005).raw, 16);  // 16.384 -> 16
    EXPECT_EQ(Fix15::from_double(-1.00001).raw, -32768);
    EXPECT_EQ(raw(-49152).to_double(), -1.5);
    EXPECT_EQ(Fix15(3).raw, 3 * 32768);
    EXPECT_EQ(Fix15(-1).raw, -32768);
}

TEST(Fix15, MulShiftsArithmeticallyAndDivTruncates) {
    EXPECT_EQ((Fix15(3) * Fix15::from_double(0.5)).raw, ff(1.5));
    EXPECT_EQ((Fix15::from_double(-1.5) * Fix15(3)).raw, ff(-4.5));
    EXPECT_EQ((raw(-1) * raw(1)).raw, -1); // (-1 * 1) >> 15 = -1: the shift floors
    EXPECT_EQ((raw(1) * raw(1)).raw, 0);
    EXPECT_EQ((raw(-3) * raw(16384)).raw, -2);     // -49152 >> 15 = -1.5 floored to -2
    EXPECT_EQ((Fix15(1) / Fix15(3)).raw, 10922);   // 10922.67 truncated
    EXPECT_EQ((Fix15(-1) / Fix15(3)).raw, -10922); // toward zero, not -10923
    EXPECT_EQ((Fix15(7) / Fix15(-2)).raw, ff(-3.5));
    for (std::int32_t a : {-100000, -7, 0, 5, 123456}) {
        for (std::int32_t b : {-40000, -3, 1, 9, 77777}) {
            EXPECT_EQ((raw(a) * raw(b)).raw, mul(a, b));
            EXPECT_EQ((raw(a) / raw(b)).raw, div(a, b));
        }
    }
}

TEST(Fix15, AdditionWrapsModulo2To32) {
    EXPECT_EQ((raw(INT32_MAX) + raw(1)).raw, INT32_MIN);
    EXPECT_EQ((raw(INT32_MIN) - raw(1)).raw, INT32_MAX);
    EXPECT_EQ((-raw(INT32_MIN)).raw, INT32_MIN);
    EXPECT_LT(raw(-5), raw(3));
    EXPECT_EQ(ScalarTraits<Fix15>::divide_by_count(raw(-7), 2).raw, -3); // C division of the raw sum
    EXPECT_EQ(ScalarTraits<Fix15>::sqrt(Fix15(9)).raw, ff(3.0));
    EXPECT_EQ(ScalarTraits<Fix15>::sqrt(Fix15::from_double(2.0)).raw, ff(std::sqrt(2.0)));
}

TEST(Fix15, ExactDecimalIsWhatToFloatGives) {
    for (std::int32_t r : {0, 1, -1, 6553, -6553, 32768, -49152, 20971520, INT32_MAX, INT32_MIN + 1}) {
        const std::string text = exact_decimal(raw(r));
        EXPECT_EQ(std::stod(text), r / 32768.0) << text;
        EXPECT_EQ(Fix15::from_double(std::stod(text)).raw, r) << text;
    }
    EXPECT_EQ(exact_decimal(raw(1)), "0.000030517578125");
    EXPECT_EQ(exact_decimal(raw(-49152)), "-1.5");
    EXPECT_EQ(exact_decimal(raw(6553)), "0.199981689453125");
}

Params lab_params() {
    Params p; // vga-predator: 640 x 480, margins 100, visual 40, protected 8, speeds 3..6
    return p;
}

TEST(Fix15, ThreeAgentStepComputedByHand) {
    World<Fix15> w;
    const auto add = [&](Kind k, double x, double y, double vx, double vy) {
        w.add(k, Fix15::from_double(x), Fix15::from_double(y), Fix15::from_double(vx), Fix15::from_double(vy),
              Fix15(0));
    };
    add(Kind::Boid, 300, 200, 1.5, -0.5); // A
    add(Kind::Boid, 310, 205, -1, 1);     // B: 11.2 px from A -> visible, not protected
    add(Kind::Boid, 303, 198, 2, 0);      // C: 3.6 px from A -> protected
    Simulation<Fix15> sim(lab_params(), w);
    sim.step();

    // Agent A by the normative formulas.
    const std::int32_t x = ff(300), y = ff(200);
    std::int32_t vx = ff(1.5), vy = ff(-0.5);
    const std::int32_t xavg = ff(310) / 1, yavg = ff(205) / 1, vxavg = ff(-1) / 1, vyavg = ff(1) / 1;
    vx = vx + mul(xavg - x, ff(0.0005)) + mul(vxavg - vx, ff(0.05));
    vy = vy + mul(yavg - y, ff(0.0005)) + mul(vyavg - vy, ff(0.05));
    const std::int32_t close_dx = x - ff(303), close_dy = y - ff(198);
    vx = vx + mul(close_dx, ff(0.05));
    vy = vy + mul(close_dy, ff(0.05));
    // (300, 200) is inside the margins: no edge turn. No predators, no scouts.
    const std::int32_t speed = ff(std::sqrt((mul(vx, vx) + mul(vy, vy)) / 32768.0));
    ASSERT_LT(speed, ff(3)); // the min-speed clamp must apply
    vx = mul(div(vx, speed), ff(3));
    vy = mul(div(vy, speed), ff(3));

    const World<Fix15>& out = sim.world();
    EXPECT_EQ(out.vx[0].raw, vx);
    EXPECT_EQ(out.vy[0].raw, vy);
    EXPECT_EQ(out.x[0].raw, x + vx);
    EXPECT_EQ(out.y[0].raw, y + vy);
    // The same numbers, pinned, so any change to the arithmetic shows here.
    EXPECT_EQ(vx, 95088);  // 1.2299 scaled to speed 3: 2.9019 * 32768
    EXPECT_EQ(vy, -24939); // -0.3226 scaled: -0.7611 * 32768

    // C: its protected neighbour is A (dx = +3, dy = -2); B is 8.6 px away (visible).
    std::int32_t cvx = ff(2), cvy = 0;
    cvx = cvx + mul(ff(310) - ff(303), ff(0.0005)) + mul(ff(-1) - ff(2), ff(0.05));
    cvy = cvy + mul(ff(205) - ff(198), ff(0.0005)) + mul(ff(1) - 0, ff(0.05));
    cvx = cvx + mul(ff(303) - ff(300), ff(0.05));
    cvy = cvy + mul(ff(198) - ff(200), ff(0.05));
    const std::int32_t cspeed = ff(std::sqrt((mul(cvx, cvx) + mul(cvy, cvy)) / 32768.0));
    if (cspeed < ff(3)) {
        cvx = mul(div(cvx, cspeed), ff(3));
        cvy = mul(div(cvy, cspeed), ff(3));
    }
    EXPECT_EQ(out.vx[2].raw, cvx);
    EXPECT_EQ(out.vy[2].raw, cvy);
}

TEST(Fix15, AlphaMaxBetaMinSpeedEstimate) {
    Params p = lab_params();
    p.speed_estimate = SpeedEstimate::AlphaMaxBetaMin;
    World<Fix15> w;
    w.add(Kind::Boid, Fix15(300), Fix15(200), Fix15(6), Fix15(2), Fix15(0));      // estimate 6.56 > 6
    w.add(Kind::Predator, Fix15(100), Fix15(300), Fix15(-1), Fix15(0), Fix15(0)); // far from the boid
    Simulation<Fix15> sim(p, w);
    sim.step();
    const std::int32_t A = ff(0.960433870103), B = ff(0.397824734759);
    const std::int32_t speed = mul(A, ff(6)) + mul(B, ff(2));
    EXPECT_EQ(sim.world().vx[0].raw, mul(div(ff(6), speed), ff(6)));
    EXPECT_EQ(sim.world().vy[0].raw, mul(div(ff(2), speed), ff(6)));
    // The predator at x = 100 is not < margin_left: edges leave it; speed 1 -> raised to 3 via the estimate.
    const std::int32_t pspeed = mul(A, ff(1)) + mul(B, 0);
    EXPECT_EQ(sim.world().vx[1].raw, mul(div(ff(-1), pspeed), ff(3)));
}

TEST(Fix15, StaysCloseToDoublePrecisionForAFewSteps) {
    const Params p = lab_params();
    const World<double> start = spawn_world<double>(p, AgentCounts{300, 10, 10, 2}, 8);
    World<Fix15> fixed;
    for (std::size_t i = 0; i < start.size(); ++i) {
        fixed.add(start.kind[i], Fix15::from_double(start.x[i]), Fix15::from_double(start.y[i]),
                  Fix15::from_double(start.vx[i]), Fix15::from_double(start.vy[i]),
                  Fix15::from_double(start.bias[i]));
    }
    Simulation<double> a(p, start);
    Simulation<Fix15> b(p, fixed);
    a.step(5);
    b.step(5);
    double worst_position = 0, worst_velocity = 0;
    for (std::size_t i = 0; i < start.size(); ++i) {
        worst_position = std::max(worst_position, std::abs(a.world().x[i] - b.world().x[i].to_double()));
        worst_position = std::max(worst_position, std::abs(a.world().y[i] - b.world().y[i].to_double()));
        worst_velocity = std::max(worst_velocity, std::abs(a.world().vx[i] - b.world().vx[i].to_double()));
    }
    EXPECT_LT(worst_position, 0.25);
    EXPECT_LT(worst_velocity, 0.1);
    EXPECT_GT(worst_position, 0.0) << "fix15 rounds: the runs cannot be identical";
}

TEST(SequentialUpdate, LaterAgentsSeeEarlierOnesAlreadyUpdated) {
    Params p;
    p.width = p.height = 1000;
    p.margin_left = p.margin_right = p.margin_top = p.margin_bottom = 10;
    p.min_speed = 0;
    p.max_speed = 100;
    World<double> w;
    w.add(Kind::Boid, 500, 500, 1, 0, 0);
    w.add(Kind::Boid, 520, 500, 0, 2, 0);
    Simulation<double> sync(p, w);
    sync.step();
    p.update = UpdateOrder::Sequential;
    Simulation<double> seq(p, w);
    seq.step();
    // A is first: it sees B's old state in both modes -> vx = 1 + 20(0.0005) - 0.05 = 0.96, vy = 0.1.
    EXPECT_EQ(sync.world().vx[0], seq.world().vx[0]);
    EXPECT_NEAR(seq.world().vx[0], 0.96, 1e-12);
    // B synchronous: from A's old state -> vx = -20(0.0005) + 0.05 = 0.04, vy = 2 - 0.1 = 1.9.
    EXPECT_NEAR(sync.world().vx[1], 0.04, 1e-12);
    EXPECT_NEAR(sync.world().vy[1], 1.9, 1e-12);
    // B sequential: A already at (500.96, 500.1) with v (0.96, 0.1):
    // vx = (500.96 - 520)(0.0005) + (0.96 - 0)(0.05) = 0.03848; vy = 2 + 0.1(0.0005) + (0.1 - 2)(0.05)
    // = 1.90505
    EXPECT_NEAR(seq.world().vx[1], 0.03848, 1e-12);
    EXPECT_NEAR(seq.world().vy[1], 1.90505, 1e-12);
}

TEST(SequentialUpdate, WorksInEveryPrecisionAndIsReproducible) {
    Params p = lab_params();
    p.update = UpdateOrder::Sequential;
    p.dynamic_bias = true;
    const AgentCounts counts{150, 5, 5, 1};
    Simulation<float> f(p, spawn_world<float>(p, counts, 1));
    Simulation<double> d(p, spawn_world<double>(p, counts, 1));
    Simulation<Fix15> x(p, spawn_world<Fix15>(p, counts, 1));
    Simulation<Fix15> x2(p, spawn_world<Fix15>(p, counts, 1));
    x2.set_threads(4);
    f.step(30);
    d.step(30);
    x.step(30);
    x2.step(30);
    EXPECT_EQ(state_hash(x.world()), state_hash(x2.world()));
    EXPECT_NEAR(f.world().x[0], d.world().x[0], 1.0);
    EXPECT_NEAR(x.world().x[0].to_double(), d.world().x[0], 5.0);
    p.update = UpdateOrder::Synchronous;
    Simulation<Fix15> sync(p, spawn_world<Fix15>(p, counts, 1));
    sync.step(30);
    EXPECT_NE(state_hash(sync.world()), state_hash(x.world()));
}

TEST(Fix15, DeterministicForAnyThreadCount) {
    Params p = lab_params();
    p.dynamic_bias = true;
    const AgentCounts counts{2000, 40, 40, 3};
    std::uint64_t hashes[3];
    int k = 0;
    for (int threads : {1, 2, 4}) {
        Simulation<Fix15> sim(p, spawn_world<Fix15>(p, counts, 77));
        sim.set_threads(threads);
        sim.step(40);
        hashes[k++] = state_hash(sim.world());
    }
    EXPECT_EQ(hashes[0], hashes[1]);
    EXPECT_EQ(hashes[0], hashes[2]);
}

TEST(Fix15, StateFilesRoundTripExactly) {
    Params p = lab_params();
    p.dynamic_bias = true;
    Simulation<Fix15> sim(p, spawn_world<Fix15>(p, AgentCounts{100, 5, 5, 1}, 3));
    sim.step(10);
    std::ostringstream out;
    write_state_csv(out, sim.world());
    EXPECT_TRUE(parse_state_csv<Fix15>(out.str(), "dump") == sim.world());
    EXPECT_THROW((void)parse_state_csv<Fix15>("kind,x,y,vx,vy\nboid,70000,1,1,1\n", "big"), InputError);
}

TEST(Fix15, ParametersMustFit) {
    Params p = lab_params();
    p.visual_range = 300; // 300^2 overflows fix15
    EXPECT_THROW((Simulation<Fix15>(p, World<Fix15>{})), InputError);
    EXPECT_NO_THROW((Simulation<double>(p, World<double>{})));
    p = lab_params();
    p.width = 70000;
    EXPECT_THROW((Simulation<Fix15>(p, World<Fix15>{})), InputError);
}

} // namespace
} // namespace boids
