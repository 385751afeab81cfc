// 0, 1, 2, ... in a vector's lanes (internal), for the kernels that number their lanes per call or per
// vector. Highway 1.0's Iota builds its vector through memory, a store per lane and then a vector load
// that waits for those stores to drain (store forwarding cannot serve a wide load from narrow stores);
// these numbers are one load of a constant table instead.

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_LANE_NUMBERS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_LANE_NUMBERS_INL_H_
#undef BOIDS_LANE_NUMBERS_INL_H_
#else
#define BOIDS_LANE_NUMBERS_INL_H_
#endif

#include "hwy/highway.h"

#include <array>
#include <cstddef>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Lane i holds i (exact in every lane type of 4 or 8 bytes: at most 16 lanes).
template <class D>
HWY_INLINE HWY_ATTR hn::Vec<D> LaneNumbers(D d) {
    using T = hn::TFromD<D>;
    static_assert(sizeof(T) >= 4, "lanes of 4 or 8 bytes");
    alignas(64) static constexpr std::array<T, HWY_MAX_BYTES / sizeof(T)> numbers = [] {
        std::array<T, HWY_MAX_BYTES / sizeof(T)> n{};
        for (std::size_t i = 0; i < n.size(); ++i) {
            n[i] = static_cast<T>(i);
        }
        return n;
    }();
    return hn::Load(d, numbers.data());
}

/// Lane i holds first + i, as Highway's Iota(d, first) gives it (first + i is exact: the callers' slots).
template <class D, class T>
HWY_INLINE HWY_ATTR hn::Vec<D> LaneNumbersFrom(D d, T first) {
    return hn::Add(LaneNumbers(d), hn::Set(d, static_cast<hn::TFromD<D>>(first)));
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
