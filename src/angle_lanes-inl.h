// angle_math.hpp's sine, cosine and arc tangent in SIMD lanes of double (internal): the same operations in
// the same order, so each lane holds the scalar function's bits.

#include "angle_math.hpp"
#include "vector_packs-inl.h"

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
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace boids::angle {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace pk = packs::HWY_NAMESPACE;

/// angle::horner in lanes: of a vector or a pack of them (vector_packs-inl.h).
template <class D, class P, std::size_t N>
HWY_INLINE P Horner(D d, P z, const std::array<double, N>& c) {
    static_assert(N >= 2);
    P p = pk::Add(pk::Mul(hn::Set(d, c[N - 1]), z), hn::Set(d, c[N - 2]));
    for (std::size_t k = N - 2; k-- > 0;) {
        p = pk::Add(pk::Mul(p, z), hn::Set(d, c[k]));
    }
    return p;
}

/// angle::two_sum in lanes.
template <class X, class Y, class P>
HWY_INLINE void TwoSum(X x, Y y, P& sum, P& error) {
    sum = pk::Add(x, y);
    const P y_part = pk::Sub(sum, x);
    const P x_part = pk::Sub(sum, y_part);
    error = pk::Add(pk::Sub(x, x_part), pk::Sub(y, y_part));
}

/// angle::two_product in lanes.
template <class D, class P>
HWY_INLINE void TwoProduct(D d, P x, P y, P& product, P& error) {
    const auto splitter = hn::Set(d, 0x1p27 + 1.0);
    const P sx = pk::Mul(splitter, x), sy = pk::Mul(splitter, y);
    const P x_hi = pk::Sub(sx, pk::Sub(sx, x)), y_hi = pk::Sub(sy, pk::Sub(sy, y));
    const P x_lo = pk::Sub(x, x_hi), y_lo = pk::Sub(y, y_hi);
    product = pk::Mul(x, y);
    error = pk::Add(
        pk::Add(pk::Add(pk::Sub(pk::Mul(x_hi, y_hi), product), pk::Mul(x_hi, y_lo)), pk::Mul(x_lo, y_hi)),
        pk::Mul(x_lo, y_lo));
}

/// angle::sin_cos in lanes: of a vector or a pack of them (vector_packs-inl.h).
template <class D, class P>
HWY_INLINE void SinCos(D d, P x, P& sin, P& cos) {
    using namespace constants;
    const hn::RebindToUnsigned<D> du;
    // angle::reduce
    const auto shift = hn::Set(d, round_shift);
    const auto shifted = pk::Add(pk::Mul(x, hn::Set(d, two_over_pi)), shift);
    const auto n = pk::Sub(shifted, shift);
    const auto a = pk::Sub(x, pk::Mul(n, hn::Set(d, pio2_1)));
    P r, error;
    TwoSum(a, pk::Neg(pk::Mul(n, hn::Set(d, pio2_2))), r, error);
    const auto tail = pk::Sub(error, pk::Mul(n, hn::Set(d, pio2_3)));
    // The series and the quadrant.
    const auto z = pk::Mul(r, r);
    const auto one = hn::Set(d, 1.0);
    const auto half_z = pk::Mul(hn::Set(d, 0.5), z);
    const auto w = pk::Sub(one, half_z);
    const auto s = pk::Add(r, pk::Add(pk::Mul(pk::Mul(r, z), Horner(d, z, sin_taylor)), pk::Mul(tail, w)));
    const auto c =
        pk::Add(w, pk::Add(pk::Sub(pk::Sub(one, w), half_z),
                           pk::Sub(pk::Mul(pk::Mul(z, z), Horner(d, z, cos_taylor)), pk::Mul(r, tail))));
    const auto quadrant = pk::BitCast(du, shifted);
    const auto bit1 = hn::Set(du, 1), bit2 = hn::Set(du, 2);
    const auto swap = pk::RebindMask(d, pk::TestBit(quadrant, bit1));
    const auto negate_sin = pk::RebindMask(d, pk::TestBit(quadrant, bit2));
    const auto negate_cos = pk::RebindMask(d, pk::TestBit(pk::Add(quadrant, bit1), bit2));
    const auto sin_r = pk::IfThenElse(swap, c, s);
    const auto cos_r = pk::IfThenElse(swap, s, c);
    sin = pk::IfThenElse(negate_sin, pk::Neg(sin_r), sin_r);
    cos = pk::IfThenElse(negate_cos, pk::Neg(cos_r), cos_r);
}

/// angle::atan2 in lanes: of a vector or a pack of them (vector_packs-inl.h), whose series then run side by
/// side.
template <class D, class P>
HWY_INLINE P Atan2(D d, P y, P x) {
    using namespace constants;
    const auto zero = hn::Zero(d), one = hn::Set(d, 1.0);
    const auto ax = pk::Abs(x), ay = pk::Abs(y);
    const auto steep = pk::Gt(ay, ax);
    const auto num = pk::IfThenElse(steep, ax, ay);
    const auto den = pk::IfThenElse(steep, ay, ax);
    const auto at_origin = pk::Eq(den, zero); // these lanes' divisions are not used
    const auto t = pk::IfThenZeroElse(at_origin, pk::Div(num, den));
    const auto over_half = pk::Gt(t, hn::Set(d, 7.0 / 16.0));
    const auto over_one = pk::Gt(t, hn::Set(d, 11.0 / 16.0));
    const auto c = pk::IfThenElse(over_one, one, pk::IfThenElseZero(over_half, hn::Set(d, 0.5)));
    const auto base_hi = pk::IfThenElse(over_one, hn::Set(d, pi_4_hi),
                                        pk::IfThenElseZero(over_half, hn::Set(d, atan_half_hi)));
    const auto base_lo = pk::IfThenElse(over_one, hn::Set(d, pi_4_lo),
                                        pk::IfThenElseZero(over_half, hn::Set(d, atan_half_lo)));
    const auto top = pk::IfThenElse(over_half, pk::Sub(num, pk::Mul(c, den)), num);
    P bottom, bottom_error;
    TwoSum(den, pk::Mul(c, num), bottom, bottom_error);
    const auto u = pk::IfThenZeroElse(at_origin, pk::Div(top, bottom));
    P product, error;
    TwoProduct(d, u, bottom, product, error);
    const auto no_rest = pk::Or(at_origin, pk::Gt(bottom, hn::Set(d, huge)));
    const auto du = pk::IfThenZeroElse(
        no_rest, pk::Div(pk::Sub(pk::Sub(pk::Sub(top, product), error), pk::Mul(u, bottom_error)), bottom));
    const auto z = pk::Mul(u, u);
    const auto a =
        pk::Add(u, pk::Add(pk::Mul(pk::Mul(u, z), Horner(d, z, atan_taylor)), pk::Mul(du, pk::Sub(one, z))));
    // The octant, as angle::atan2.
    const auto negative_x = pk::Lt(pk::CopySign(one, x), zero); // the sign bit, -0 included
    const auto sign = pk::IfThenElse(pk::Xor(steep, negative_x), hn::Set(d, -1.0), one);
    const auto k_hi =
        pk::IfThenElse(steep, hn::Set(d, pi_2_hi), pk::IfThenElseZero(negative_x, hn::Set(d, pi_hi)));
    const auto k_lo =
        pk::IfThenElse(steep, hn::Set(d, pi_2_lo), pk::IfThenElseZero(negative_x, hn::Set(d, pi_lo)));
    P head, head_error;
    TwoSum(k_hi, pk::Mul(sign, base_hi), head, head_error);
    const auto r =
        pk::Add(head, pk::Add(pk::Add(pk::Add(k_lo, pk::Mul(sign, base_lo)), head_error), pk::Mul(sign, a)));
    return pk::CopySign(r, y);
}

/// How many vectors the array functions take side by side (vector_packs-inl.h): an arc tangent's series is
/// a chain of 46 dependent operations, a sine's and a cosine's two of 18, which alone leave the
/// floating-point units idle most of the time. Four took two fifths off an arc tangent in AVX2's and SSE4's
/// lanes and a quarter in AVX-512's; more vectors than the registers hold were slower.
inline constexpr std::size_t pack_vectors = 4;

/// pk::EachPackOf over the entries [0, n) of arrays of doubles, pack_vectors vectors at a time.
template <class Body>
HWY_ATTR void EachArrayPack(std::size_t n, const Body& body) {
    pk::EachPackOf<pack_vectors>(hn::Lanes(hn::ScalableTag<double>()), n, body);
}

/// The `count` entries of `from` as a pack of K whole vectors, or for K = 0 as one vector whose spare lanes
/// are zero.
template <std::size_t K, class D>
HWY_INLINE auto LoadArray(D d, const double* from, std::size_t count) {
    return pk::MakePack<K>([&](std::size_t k) HWY_ATTR BOIDS_PACK_INLINE {
        if constexpr (K > 0) {
            return hn::LoadU(d, from + k * hn::Lanes(d));
        } else {
            if (count == hn::Lanes(d)) {
                return hn::LoadU(d, from);
            }
            alignas(64) double lanes[HWY_MAX_BYTES / sizeof(double)] = {};
            for (std::size_t i = 0; i < count && i < hn::Lanes(d); ++i) {
                lanes[i] = from[i];
            }
            return hn::Load(d, lanes);
        }
    });
}

/// Stores the `count` entries LoadArray<K> loads.
template <std::size_t K, class D, class P>
HWY_INLINE void StoreArray(D d, const P& p, double* to, std::size_t count) {
    pk::EachPart(p, [&](std::size_t k, auto v) HWY_ATTR BOIDS_PACK_INLINE {
        if constexpr (K > 0) {
            hn::StoreU(v, d, to + k * hn::Lanes(d));
        } else {
            if (count == hn::Lanes(d)) {
                hn::StoreU(v, d, to);
                return;
            }
            alignas(64) double lanes[HWY_MAX_BYTES / sizeof(double)];
            hn::Store(v, d, lanes);
            for (std::size_t i = 0; i < count && i < hn::Lanes(d); ++i) {
                to[i] = lanes[i];
            }
        }
    });
}

} // namespace HWY_NAMESPACE
} // namespace boids::angle
HWY_AFTER_NAMESPACE();

#endif // BOIDS_ANGLE_LANES_INL_H_
