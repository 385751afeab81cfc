// Sums, counts and comparisons taken under a lane mask (internal), shared by the SIMD kernels: the classic
// kernel (fast_classic_kernel-inl.h) and the other models' lanes (lane_vectors-inl.h and its users). Each
// sum keeps the bits of the plain path's scalar sum in every lane.

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_MASKED_SUMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_MASKED_SUMS_INL_H_
#undef BOIDS_MASKED_SUMS_INL_H_
#else
#define BOIDS_MASKED_SUMS_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// sum + x (kSubtract: sum - x) in the lanes of `m`, sum in the others. Without mask registers (AVX2 and
/// below) as sum + (x where m, +0 elsewhere): an AND and an add, where the blend form costs an add and a
/// blend. The same bits: a sum that starts at +0 is never -0 (an addition gives -0 only from two -0s), and
/// s + (+0) is s for every other s; s - (+0) is s for every s, -0 included.
template <bool kSubtract = false, class V, class M>
HWY_INLINE V add_where(M m, V sum, V x) {
#if HWY_TARGET <= HWY_AVX3
    return hn::IfThenElse(m, kSubtract ? hn::Sub(sum, x) : hn::Add(sum, x), sum); // one masked operation
#else
    const V masked = hn::IfThenElseZero(m, x);
    return kSubtract ? hn::Sub(sum, masked) : hn::Add(sum, masked);
#endif
}

/// sum - x in the lanes of `m`, sum in the others (add_where).
template <class V, class M>
HWY_INLINE V subtract_where(M m, V sum, V x) {
    return add_where<true>(m, sum, x);
}

/// m AND (a < b). On AVX-512's whole vectors one comparison under the mask; GCC does not fold Highway's
/// And of a comparison into it, and the mask operation competes with the loop's vector operations.
template <class D>
HWY_INLINE hn::Mask<D> less_where(D d, hn::Mask<D> m, hn::Vec<D> a, hn::Vec<D> b) {
#if HWY_TARGET <= HWY_AVX3
    using T = hn::TFromD<D>;
    if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64 && sizeof(T) == 4 && hwy::IsFloat<T>()) {
        return hn::Mask<D>{_mm512_mask_cmp_ps_mask(m.raw, a.raw, b.raw, _CMP_LT_OQ)};
    } else if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64 && sizeof(T) == 8 && hwy::IsFloat<T>()) {
        return hn::Mask<D>{_mm512_mask_cmp_pd_mask(m.raw, a.raw, b.raw, _CMP_LT_OQ)};
    }
#endif
    (void)d;
    return hn::And(m, hn::Lt(a, b));
}

/// Whether every lane is in `a` or in `b`. On AVX-512's whole vectors one test of both masks, where
/// AllTrue(Or(a, b)) is an OR, a copy and a test.
template <class D>
HWY_INLINE bool all_in_either(D d, hn::Mask<D> a, hn::Mask<D> b) {
#if HWY_TARGET <= HWY_AVX3
    using T = hn::TFromD<D>;
    if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64 && sizeof(T) == 4) {
        return _kortestc_mask16_u8(a.raw, b.raw) != 0;
    } else if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64 && sizeof(T) == 8) {
        return _kortestc_mask8_u8(a.raw, b.raw) != 0;
    }
#endif
    return hn::AllTrue(d, hn::Or(a, b));
}

/// Counts the lanes of `m` into `count`, which starts at zero bits. With mask registers (AVX-512) the count
/// is a whole number in the lanes' type, one more by a masked add as the sums take theirs (an integer count
/// there made GCC copy the register twice per candidate to merge into it). Below AVX-512 its lanes hold
/// the bits of the integers of the lanes' width: a mask is a vector of all-ones lanes, -1 as integers, and
/// subtracting it counts on the integer units, without a constant 1 held in a register and without taking
/// a floating-point add from the sums. Read the count with `counted`.
template <class D, class M>
HWY_INLINE hn::Vec<D> count_where(D d, M m, hn::Vec<D> count) {
#if HWY_TARGET <= HWY_AVX3
    return add_where(m, count, hn::Set(d, hn::TFromD<D>(1)));
#else
    const hn::RebindToSigned<D> di;
    return hn::BitCast(d, hn::Sub(hn::BitCast(di, count), hn::BitCast(di, hn::VecFromMask(d, m))));
#endif
}

/// The count of count_where's lanes in the lanes' type: exact, a whole number far below 2^24, so the same
/// bits as a sum of ones.
template <class D>
HWY_INLINE hn::Vec<D> counted(D d, hn::Vec<D> count) {
#if HWY_TARGET <= HWY_AVX3
    (void)d;
    return count;
#else
    return hn::ConvertTo(d, hn::BitCast(hn::RebindToSigned<D>(), count));
#endif
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
