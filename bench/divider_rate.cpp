// The divider loop of divider_rate.hpp, compiled for every instruction set Highway targets here
// (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "divider_rate.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "divider_rate.hpp"

#include "boids/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

HWY_BEFORE_NAMESPACE();
namespace boids::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <DividerOp op, std::size_t kLanes>
HWY_ATTR DividerRun Streams(std::uint64_t count, double seed) {
    const hn::CappedTag<double, kLanes> d;
    using V = hn::Vec<decltype(d)>;
    const V step = hn::Set(d, 0x1p-20), divisor = hn::Set(d, 1.25);
    const V lane = hn::Mul(hn::Iota(d, 0.0), hn::Set(d, 0.125));
    V x[4], sum[4];
    for (int k = 0; k < 4; ++k) {
        x[k] = hn::Add(hn::Set(d, seed + k), lane);
        sum[k] = hn::Zero(d);
    }
    for (std::uint64_t round = 0; round < count; ++round) {
        for (int k = 0; k < 4; ++k) {
            const V r = op == DividerOp::SquareRoot ? hn::Sqrt(x[k]) : hn::Div(x[k], divisor);
            sum[k] = hn::Add(sum[k], r);
            x[k] = hn::Add(x[k], step);
        }
    }
    alignas(64) double lanes[hn::MaxLanes(d)];
    DividerRun run{0.0, hn::Lanes(d)};
    for (int k = 0; k < 4; ++k) {
        hn::Store(sum[k], d, lanes);
        for (std::size_t j = 0; j < run.lanes; ++j) {
            run.sum += lanes[j];
        }
    }
    return run;
}

template <DividerOp op>
HWY_ATTR DividerRun StreamsOf(std::size_t lanes, std::uint64_t count, double seed) {
    switch (lanes) {
    case 2:
        return Streams<op, 2>(count, seed);
    case 4:
        return Streams<op, 4>(count, seed);
    default:
        return Streams<op, 8>(count, seed);
    }
}

HWY_ATTR DividerRun DividerStreams(DividerOp op, std::size_t lanes, std::uint64_t count, double seed) {
    return op == DividerOp::SquareRoot ? StreamsOf<DividerOp::SquareRoot>(lanes, count, seed)
                                       : StreamsOf<DividerOp::Division>(lanes, count, seed);
}

} // namespace HWY_NAMESPACE
} // namespace boids::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::bench {

HWY_EXPORT(DividerStreams);

DividerRun divider_run(DividerOp op, std::size_t lanes, std::uint64_t count, double seed) {
    if (lanes != 2 && lanes != 4 && lanes != 8) {
        throw InputError("divider lanes = " + std::to_string(lanes) + ": allowed 2, 4 or 8");
    }
    return HWY_DYNAMIC_DISPATCH(DividerStreams)(op, lanes, count, seed);
}

} // namespace boids::bench
#endif
