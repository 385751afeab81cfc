// A planar grid's torus in SIMD lanes (internal), for the lanes kernels (lane_vectors-inl.h):
// classic::nearest_image's comparisons and arithmetic in lanes of the storage type, and the exact widening
// of those lanes to double.

#include "lane_grid.hpp"

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_TORUS_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_TORUS_LANES_INL_H_
#undef BOIDS_TORUS_LANES_INL_H_
#else
#define BOIDS_TORUS_LANES_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Lanes of the storage type Real (as many as `dd` has doubles) widened to double, exactly.
template <class Real, class DD, class VR>
HWY_INLINE hn::Vec<DD> WidenLanes(DD dd, VR v) {
    if constexpr (sizeof(Real) == sizeof(double)) {
        return v;
    } else {
        return hn::PromoteTo(dd, v);
    }
}

/// a * b + c * d in double lanes, a and b holding values of the storage type Real, with the bits of the
/// plain path's Add(Mul(a, b), Mul(c, d)) (the project compiles with -ffp-contract=off). From float
/// storage one fused multiply-add gives them: a float's significand has 24 bits, so a * b (48 bits, and
/// normal: a float that is not zero lies within [2^-149, 2^128]) is exact in double, and rounding the sum
/// once rounds what the sum of the rounded products rounds. A zero sum takes its sign by the same rule
/// either way. Without FMA (SSE4), Highway multiplies and adds: the same bits.
template <class Real, class VD>
HWY_INLINE VD WidenedDot(VD a, VD b, VD c, VD d) {
    if constexpr (sizeof(Real) == sizeof(double)) {
        return hn::Add(hn::Mul(a, b), hn::Mul(c, d));
    } else {
        return hn::MulAdd(a, b, hn::Mul(c, d));
    }
}

/// The torus of an InRangeGrid in lanes of its storage type (tag DR).
template <class DR>
struct TorusLanes {
    using VR = hn::Vec<DR>;
    VR width, height, half_width, half_height, neg_half_width, neg_half_height;

    template <class Real>
    HWY_INLINE TorusLanes(DR dr, const InRangeGrid<Real>& grid)
        : width(hn::Set(dr, grid.width)), height(hn::Set(dr, grid.height)),
          half_width(hn::Set(dr, grid.half_width)), half_height(hn::Set(dr, grid.half_height)),
          neg_half_width(hn::Set(dr, -grid.half_width)), neg_half_height(hn::Set(dr, -grid.half_height)) {}

    /// classic::nearest_image: the image of a neighbour's coordinate `x` nearest to an agent's `a`.
    static HWY_INLINE VR Image(VR a, VR x, VR length, VR half, VR neg_half) {
        const VR d = hn::Sub(a, x);
        return hn::IfThenElse(hn::Gt(d, half), hn::Add(x, length),
                              hn::IfThenElse(hn::Lt(d, neg_half), hn::Sub(x, length), x));
    }
    HWY_INLINE VR ImageX(VR a, VR x) const { return Image(a, x, width, half_width, neg_half_width); }
    HWY_INLINE VR ImageY(VR a, VR y) const { return Image(a, y, height, half_height, neg_half_height); }
};

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
