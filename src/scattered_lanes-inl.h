// A vector of values read from scattered places of a column (internal): lane i holds column[slot[i]].
// Used where each lane's neighbour lies anywhere in memory (the topological model's sums over each agent's
// k nearest).

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_SCATTERED_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_SCATTERED_LANES_INL_H_
#undef BOIDS_SCATTERED_LANES_INL_H_
#else
#define BOIDS_SCATTERED_LANES_INL_H_
#endif

#include "hwy/highway.h"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// column[slot[i]] in lane i of a vector of D (slot: as many entries as D has lanes). On SSE4 and AVX2 the
/// lanes are loaded into the register one by one (a scalar load each, merged by inserts), which measured
/// faster than writing them to memory and loading the vector back (one wide load of several narrow stores,
/// which x86 processors do not forward from the store buffer): on Zen 3 the topological step, whose sums
/// read four columns so, about 2% cheaper on AVX2 and 11% on SSE4. A hardware gather measured two fifths
/// slower on Zen 5 and no faster on Zen 3. On AVX-512 and on other targets, the stores and the load.
template <class D>
HWY_INLINE HWY_ATTR hn::Vec<D> ScatteredLanes(D d, const hn::TFromD<D>* column, const std::int32_t* slot) {
    using T = hn::TFromD<D>;
    [[maybe_unused]] constexpr std::size_t lanes = hn::MaxLanes(D());
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4
    if constexpr (sizeof(T) == 4 && lanes == 4) {
        return hn::Vec<D>{_mm_set_ps(column[slot[3]], column[slot[2]], column[slot[1]], column[slot[0]])};
    } else if constexpr (sizeof(T) == 4 && lanes == 2) {
        return hn::Vec<D>{_mm_set_ps(0.0f, 0.0f, column[slot[1]], column[slot[0]])};
    } else if constexpr (sizeof(T) == 8 && lanes == 2) {
        return hn::Vec<D>{_mm_set_pd(column[slot[1]], column[slot[0]])};
    }
#endif
#if HWY_TARGET == HWY_AVX2
    if constexpr (sizeof(T) == 8 && lanes == 4) {
        return hn::Vec<D>{_mm256_set_pd(column[slot[3]], column[slot[2]], column[slot[1]], column[slot[0]])};
    }
#endif
    alignas(64) T values[lanes];
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
        values[i] = column[slot[i]];
    }
    return hn::Load(d, values);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
