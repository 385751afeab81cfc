// position_lanes.hpp's vector of agents at a time, for each instruction set (foreach_target), dispatched at
// run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "position_lanes.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "classic_rules.hpp"
#include "position_lanes.hpp"

#include <cstddef>

HWY_BEFORE_NAMESPACE();
namespace boids::positions {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// classic::wrap_position in lanes: a position inside stays as it is (-0 too); one outside takes
/// wrap_outside's p - length floor(p / length), the product and the difference rounded apart as the
/// scalar code's are (no fused multiply-add), and 0 where that lands on length or below 0. NaN compares
/// false everywhere and stays NaN, as in the scalar code.
template <class D, class V>
HWY_ATTR V WrapLanes(D d, V p, V length) {
    const auto zero = hn::Zero(d);
    const auto inside = hn::And(hn::Ge(p, zero), hn::Lt(p, length));
    if (hn::AllTrue(d, inside)) [[likely]] {
        return p;
    }
    const auto wrapped = hn::Sub(p, hn::Mul(length, hn::Floor(hn::Div(p, length))));
    const auto off = hn::Or(hn::Ge(wrapped, length), hn::Lt(wrapped, zero));
    return hn::IfThenElse(inside, p, hn::IfThenZeroElse(off, wrapped));
}

template <class Real>
HWY_ATTR void MovePositions(Real* HWY_RESTRICT p, const Real* HWY_RESTRICT v, std::size_t n, bool wrap,
                            Real length) {
    const hn::ScalableTag<Real> d;
    const auto l = hn::Set(d, length);
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        auto q = hn::LoadU(d, p + i);
        if (v != nullptr) {
            q = hn::Add(q, hn::LoadU(d, v + i));
        }
        if (wrap) {
            q = WrapLanes(d, q, l);
        }
        hn::StoreU(q, d, p + i);
    }
    for (; i < n; ++i) {
        Real q = v != nullptr ? p[i] + v[i] : p[i];
        p[i] = wrap ? classic::wrap_position(q, length) : q;
    }
}

HWY_ATTR void MovePositionsF32(float* p, const float* v, std::size_t n, bool wrap, float length) {
    MovePositions(p, v, n, wrap, length);
}
HWY_ATTR void MovePositionsF64(double* p, const double* v, std::size_t n, bool wrap, double length) {
    MovePositions(p, v, n, wrap, length);
}

} // namespace HWY_NAMESPACE
} // namespace boids::positions
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids {
namespace positions {
// Dispatched unqualified, under `using namespace positions`: a one-target build calls N_<target>::<name>.
HWY_EXPORT(MovePositionsF32);
HWY_EXPORT(MovePositionsF64);
} // namespace positions

void move_positions(float* p, const float* v, std::size_t n, bool wrap, float length) {
    using namespace positions;
    HWY_DYNAMIC_DISPATCH(MovePositionsF32)(p, v, n, wrap, length);
}
void move_positions(double* p, const double* v, std::size_t n, bool wrap, double length) {
    using namespace positions;
    HWY_DYNAMIC_DISPATCH(MovePositionsF64)(p, v, n, wrap, length);
}
} // namespace boids
#endif
