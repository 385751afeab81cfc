// noise_lanes.hpp's Gaussian draws for each instruction set (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise_lanes.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "angle_lanes-inl.h"
#include "counter_noise.hpp"
#include "noise_lanes.hpp"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::noise {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace lanes = angle::HWY_NAMESPACE;

/// log_unit in lanes.
template <class D>
HWY_INLINE hn::Vec<D> LogUnit(D d, hn::Vec<D> x) {
    using namespace log_constants;
    const hn::RebindToUnsigned<D> du;
    const auto bits = hn::BitCast(du, x);
    auto m = hn::BitCast(
        d, hn::Or(hn::And(bits, hn::Set(du, 0x000fffffffffffffULL)), hn::Set(du, 0x3ff0000000000000ULL)));
    // The biased exponent, a whole number below 2^11, as a double: exactly (bits >> 52) + 2^52, less 2^52.
    const auto biased =
        hn::Sub(hn::BitCast(d, hn::Or(hn::ShiftRight<52>(bits), hn::Set(du, 0x4330000000000000ULL))),
                hn::Set(d, 0x1p52));
    auto e = hn::Sub(biased, hn::Set(d, 1023.0));
    const auto halve = hn::Ge(m, hn::Set(d, sqrt_two));
    m = hn::IfThenElse(halve, hn::Mul(m, hn::Set(d, 0.5)), m);
    e = hn::IfThenElse(halve, hn::Add(e, hn::Set(d, 1.0)), e);
    const auto f = hn::Sub(m, hn::Set(d, 1.0));
    const auto s = hn::Div(f, hn::Add(hn::Set(d, 2.0), f));
    const auto z = hn::Mul(s, s);
    const auto r = hn::Mul(z, lanes::Horner(d, z, series));
    const auto half_square = hn::Mul(hn::Mul(hn::Set(d, 0.5), f), f);
    const auto tail = hn::Add(hn::Mul(s, hn::Add(half_square, r)), hn::Mul(e, hn::Set(d, ln2_lo)));
    return hn::Sub(hn::Mul(e, hn::Set(d, ln2_hi)), hn::Sub(hn::Sub(half_square, tail), f));
}

HWY_ATTR void GaussianLanes(const double* u1, const double* u2, std::size_t n, double* out) {
    const hn::ScalableTag<double> d;
    lanes::EachVector(n, [&](std::size_t i, std::size_t count) {
        const auto log = LogUnit(d, lanes::LoadSome(d, u1 + i, count));
        hn::Vec<decltype(d)> sin, cos;
        lanes::SinCos(d, hn::Mul(hn::Set(d, 6.283185307179586), lanes::LoadSome(d, u2 + i, count)), sin, cos);
        lanes::StoreSome(d, hn::Mul(hn::Sqrt(hn::Mul(hn::Set(d, -2.0), log)), cos), out + i, count);
    });
}

} // namespace HWY_NAMESPACE
} // namespace boids::noise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::noise {

HWY_EXPORT(GaussianLanes);

void gaussian_lanes(const double* u1, const double* u2, std::size_t n, double* out) {
    HWY_DYNAMIC_DISPATCH(GaussianLanes)(u1, u2, n, out);
}

} // namespace boids::noise
#endif
