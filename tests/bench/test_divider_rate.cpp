// The divider loop boids_bench times (bench/divider_rate.hpp) computes what it says on every SIMD target
// this CPU runs: its sum is scalar code's to the bit (IEEE square roots and divisions are correctly
// rounded on every target), so no target's loop is folded away or takes other lanes.

#include "divider_rate.hpp"

#include "boids/error.hpp"
#include "boids/fast_path.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace boids {
namespace {

double scalar_sum(bench::DividerOp op, std::size_t lanes, std::uint64_t count, double seed) {
    double total = 0;
    for (int k = 0; k < 4; ++k) {
        for (std::size_t j = 0; j < lanes; ++j) {
            double x = (seed + k) + static_cast<double>(j) * 0.125, sum = 0;
            for (std::uint64_t round = 0; round < count; ++round) {
                sum += op == bench::DividerOp::SquareRoot ? std::sqrt(x) : x / 1.25;
                x += 0x1p-20;
            }
            total += sum;
        }
    }
    return total;
}

class DividerRateTest : public ::testing::Test {
protected:
    void TearDown() override { set_fast_path_target("auto"); }
};

TEST_F(DividerRateTest, SumsAsScalarCodeOnEverySimdTargetAndWidth) {
    for (const std::string& target : fast_path_targets()) {
        set_fast_path_target(target);
        for (const auto op : {bench::DividerOp::SquareRoot, bench::DividerOp::Division}) {
            for (const std::size_t lanes : {2, 4, 8}) {
                SCOPED_TRACE(target + ", lanes " + std::to_string(lanes));
                const bench::DividerRun run = bench::divider_run(op, lanes, 1000, 3.0);
                EXPECT_GE(run.lanes, 1u);
                EXPECT_LE(run.lanes, lanes);
                EXPECT_EQ(run.sum, scalar_sum(op, run.lanes, 1000, 3.0));
            }
        }
    }
}

TEST(DividerRate, RefusesAWidthItDoesNotTime) {
    EXPECT_THROW((void)bench::divider_run(bench::DividerOp::Division, 3, 10, 1.0), InputError);
}

} // namespace
} // namespace boids
