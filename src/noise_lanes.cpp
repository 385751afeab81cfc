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
namespace pk = packs::HWY_NAMESPACE;

/// log_unit in lanes: of a vector or a pack of them (vector_packs-inl.h).
template <class D, class P>
HWY_INLINE P LogUnit(D d, P x) {
    using namespace log_constants;
    const hn::RebindToUnsigned<D> du;
    const auto bits = pk::BitCast(du, x);
    auto m = pk::BitCast(
        d, pk::Or(pk::And(bits, hn::Set(du, 0x000fffffffffffffULL)), hn::Set(du, 0x3ff0000000000000ULL)));
    // The biased exponent, a whole number below 2^11, as a double: exactly (bits >> 52) + 2^52, less 2^52.
    const auto biased =
        pk::Sub(pk::BitCast(d, pk::Or(pk::ShiftRight<52>(bits), hn::Set(du, 0x4330000000000000ULL))),
                hn::Set(d, 0x1p52));
    auto e = pk::Sub(biased, hn::Set(d, 1023.0));
    const auto halve = pk::Ge(m, hn::Set(d, sqrt_two));
    m = pk::IfThenElse(halve, pk::Mul(m, hn::Set(d, 0.5)), m);
    e = pk::IfThenElse(halve, pk::Add(e, hn::Set(d, 1.0)), e);
    const auto f = pk::Sub(m, hn::Set(d, 1.0));
    const auto s = pk::Div(f, pk::Add(hn::Set(d, 2.0), f));
    const auto z = pk::Mul(s, s);
    const auto r = pk::Mul(z, lanes::Horner(d, z, series));
    const auto half_square = pk::Mul(pk::Mul(hn::Set(d, 0.5), f), f);
    const auto tail = pk::Add(pk::Mul(s, pk::Add(half_square, r)), pk::Mul(e, hn::Set(d, ln2_lo)));
    return pk::Sub(pk::Mul(e, hn::Set(d, ln2_hi)), pk::Sub(pk::Sub(half_square, tail), f));
}

/// A Gaussian draw from its two uniforms (counter_noise.hpp's Box-Muller), of a vector or a pack of them.
template <class D, class P>
HWY_INLINE P Gaussian(D d, P u1, P u2) {
    P sin, cos;
    lanes::SinCos(d, pk::Mul(hn::Set(d, 6.283185307179586), u2), sin, cos);
    return pk::Mul(pk::Sqrt(pk::Mul(hn::Set(d, -2.0), LogUnit(d, u1))), cos);
}

HWY_ATTR void GaussianLanes(const double* u1, const double* u2, std::size_t n, double* out) {
    const hn::ScalableTag<double> d;
    lanes::EachArrayPack(n, [&](auto pack, std::size_t i, std::size_t count) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        lanes::StoreArray<k>(
            d, Gaussian(d, lanes::LoadArray<k>(d, u1 + i, count), lanes::LoadArray<k>(d, u2 + i, count)),
            out + i, count);
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
