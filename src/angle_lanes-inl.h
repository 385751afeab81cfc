// angle_math.hpp's sine, cosine and arc tangent in SIMD lanes of double (internal): the same operations in
// the same order, so each lane holds the scalar function's bits.

#include "angle_math.hpp"

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_ANGLE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_ANGLE_LANES_INL_H_
#undef BOIDS_ANGLE_LANES_INL_H_
#else
#define BOIDS_ANGLE_LANES_INL_H_
#endif

#include "hwy/highway.h"

#include <array>
#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::angle {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// angle::horner in lanes.
template <class D, std::size_t N>
HWY_INLINE hn::Vec<D> Horner(D d, hn::Vec<D> z, const std::array<double, N>& c) {
    hn::Vec<D> p = hn::Set(d, c[N - 1]);
    for (std::size_t k = N - 1; k-- > 0;) {
        p = hn::Add(hn::Mul(p, z), hn::Set(d, c[k]));
    }
    return p;
}

/// angle::two_sum in lanes.
template <class V>
HWY_INLINE void TwoSum(V x, V y, V& sum, V& error) {
    sum = hn::Add(x, y);
    const V y_part = hn::Sub(sum, x);
    const V x_part = hn::Sub(sum, y_part);
    error = hn::Add(hn::Sub(x, x_part), hn::Sub(y, y_part));
}

/// angle::two_product in lanes.
template <class D>
HWY_INLINE void TwoProduct(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D>& product, hn::Vec<D>& error) {
    const auto splitter = hn::Set(d, 0x1p27 + 1.0);
    const auto sx = hn::Mul(splitter, x), sy = hn::Mul(splitter, y);
    const auto x_hi = hn::Sub(sx, hn::Sub(sx, x)), y_hi = hn::Sub(sy, hn::Sub(sy, y));
    const auto x_lo = hn::Sub(x, x_hi), y_lo = hn::Sub(y, y_hi);
    product = hn::Mul(x, y);
    error = hn::Add(
        hn::Add(hn::Add(hn::Sub(hn::Mul(x_hi, y_hi), product), hn::Mul(x_hi, y_lo)), hn::Mul(x_lo, y_hi)),
        hn::Mul(x_lo, y_lo));
}

/// angle::sin_cos in lanes.
template <class D>
HWY_INLINE void SinCos(D d, hn::Vec<D> x, hn::Vec<D>& sin, hn::Vec<D>& cos) {
    using namespace constants;
    const hn::RebindToUnsigned<D> du;
    // angle::reduce
    const auto shift = hn::Set(d, round_shift);
    const auto shifted = hn::Add(hn::Mul(x, hn::Set(d, two_over_pi)), shift);
    const auto n = hn::Sub(shifted, shift);
    const auto a = hn::Sub(x, hn::Mul(n, hn::Set(d, pio2_1)));
    hn::Vec<D> r, error;
    TwoSum(a, hn::Neg(hn::Mul(n, hn::Set(d, pio2_2))), r, error);
    const auto tail = hn::Sub(error, hn::Mul(n, hn::Set(d, pio2_3)));
    // The series and the quadrant.
    const auto z = hn::Mul(r, r);
    const auto one = hn::Set(d, 1.0);
    const auto half_z = hn::Mul(hn::Set(d, 0.5), z);
    const auto w = hn::Sub(one, half_z);
    const auto s = hn::Add(r, hn::Add(hn::Mul(hn::Mul(r, z), Horner(d, z, sin_taylor)), hn::Mul(tail, w)));
    const auto c =
        hn::Add(w, hn::Add(hn::Sub(hn::Sub(one, w), half_z),
                           hn::Sub(hn::Mul(hn::Mul(z, z), Horner(d, z, cos_taylor)), hn::Mul(r, tail))));
    const auto quadrant = hn::BitCast(du, shifted);
    const auto bit1 = hn::Set(du, 1), bit2 = hn::Set(du, 2);
    const auto swap = hn::RebindMask(d, hn::TestBit(quadrant, bit1));
    const auto negate_sin = hn::RebindMask(d, hn::TestBit(quadrant, bit2));
    const auto negate_cos = hn::RebindMask(d, hn::TestBit(hn::Add(quadrant, bit1), bit2));
    const auto sin_r = hn::IfThenElse(swap, c, s);
    const auto cos_r = hn::IfThenElse(swap, s, c);
    sin = hn::IfThenElse(negate_sin, hn::Neg(sin_r), sin_r);
    cos = hn::IfThenElse(negate_cos, hn::Neg(cos_r), cos_r);
}

/// angle::atan2 in lanes.
template <class D>
HWY_INLINE hn::Vec<D> Atan2(D d, hn::Vec<D> y, hn::Vec<D> x) {
    using namespace constants;
    const auto zero = hn::Zero(d), one = hn::Set(d, 1.0);
    const auto ax = hn::Abs(x), ay = hn::Abs(y);
    const auto steep = hn::Gt(ay, ax);
    const auto num = hn::IfThenElse(steep, ax, ay);
    const auto den = hn::IfThenElse(steep, ay, ax);
    const auto at_origin = hn::Eq(den, zero); // these lanes' divisions are not used
    const auto t = hn::IfThenZeroElse(at_origin, hn::Div(num, den));
    const auto over_half = hn::Gt(t, hn::Set(d, 7.0 / 16.0));
    const auto over_one = hn::Gt(t, hn::Set(d, 11.0 / 16.0));
    const auto c = hn::IfThenElse(over_one, one, hn::IfThenElseZero(over_half, hn::Set(d, 0.5)));
    const auto base_hi = hn::IfThenElse(over_one, hn::Set(d, pi_4_hi),
                                        hn::IfThenElseZero(over_half, hn::Set(d, atan_half_hi)));
    const auto base_lo = hn::IfThenElse(over_one, hn::Set(d, pi_4_lo),
                                        hn::IfThenElseZero(over_half, hn::Set(d, atan_half_lo)));
    const auto top = hn::IfThenElse(over_half, hn::Sub(num, hn::Mul(c, den)), num);
    hn::Vec<D> bottom, bottom_error;
    TwoSum(den, hn::Mul(c, num), bottom, bottom_error);
    const auto u = hn::IfThenZeroElse(at_origin, hn::Div(top, bottom));
    hn::Vec<D> product, error;
    TwoProduct(d, u, bottom, product, error);
    const auto no_rest = hn::Or(at_origin, hn::Gt(bottom, hn::Set(d, huge)));
    const auto du = hn::IfThenZeroElse(
        no_rest, hn::Div(hn::Sub(hn::Sub(hn::Sub(top, product), error), hn::Mul(u, bottom_error)), bottom));
    const auto z = hn::Mul(u, u);
    const auto a =
        hn::Add(u, hn::Add(hn::Mul(hn::Mul(u, z), Horner(d, z, atan_taylor)), hn::Mul(du, hn::Sub(one, z))));
    // The octant, as angle::atan2.
    const auto negative_x = hn::Lt(hn::CopySign(one, x), zero); // the sign bit, -0 included
    const auto sign = hn::IfThenElse(hn::Xor(steep, negative_x), hn::Set(d, -1.0), one);
    const auto k_hi =
        hn::IfThenElse(steep, hn::Set(d, pi_2_hi), hn::IfThenElseZero(negative_x, hn::Set(d, pi_hi)));
    const auto k_lo =
        hn::IfThenElse(steep, hn::Set(d, pi_2_lo), hn::IfThenElseZero(negative_x, hn::Set(d, pi_lo)));
    hn::Vec<D> head, head_error;
    TwoSum(k_hi, hn::Mul(sign, base_hi), head, head_error);
    const auto r =
        hn::Add(head, hn::Add(hn::Add(hn::Add(k_lo, hn::Mul(sign, base_lo)), head_error), hn::Mul(sign, a)));
    return hn::CopySign(r, y);
}

/// Runs `body(i, lanes)` on whole vectors of [0, n), then once on the rest, copied into (and out of)
/// vectors padded with zeros.
template <class Body>
HWY_ATTR void EachVector(std::size_t n, const Body& body) {
    const hn::ScalableTag<double> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        body(i, lanes);
    }
    if (i < n) {
        body(i, n - i);
    }
}

/// The `count` entries of `from` in lanes, the spare lanes zero.
template <class D>
HWY_INLINE hn::Vec<D> LoadSome(D d, const double* from, std::size_t count) {
    if (count == hn::Lanes(d)) {
        return hn::LoadU(d, from);
    }
    alignas(64) double lanes[HWY_MAX_BYTES / sizeof(double)] = {};
    for (std::size_t k = 0; k < count && k < hn::Lanes(d); ++k) {
        lanes[k] = from[k];
    }
    return hn::Load(d, lanes);
}

template <class D>
HWY_INLINE void StoreSome(D d, hn::Vec<D> v, double* to, std::size_t count) {
    if (count == hn::Lanes(d)) {
        hn::StoreU(v, d, to);
        return;
    }
    alignas(64) double lanes[HWY_MAX_BYTES / sizeof(double)];
    hn::Store(v, d, lanes);
    for (std::size_t k = 0; k < count && k < hn::Lanes(d); ++k) {
        to[k] = lanes[k];
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::angle
HWY_AFTER_NAMESPACE();

#endif // BOIDS_ANGLE_LANES_INL_H_
