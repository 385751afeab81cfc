// angle_lanes.hpp's array functions for each instruction set (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "angle_lanes.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "angle_lanes-inl.h"
#include "angle_lanes.hpp"

#include <cstddef>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace boids::angle {
namespace HWY_NAMESPACE {

HWY_ATTR void SinCosLanes(const double* x, std::size_t n, double* sin, double* cos) {
    const hn::ScalableTag<double> d;
    EachArrayPack(n, [&](auto pack, std::size_t i, std::size_t count) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        const auto angle = LoadArray<k>(d, x + i, count);
        std::remove_const_t<decltype(angle)> s, c;
        SinCos(d, angle, s, c);
        StoreArray<k>(d, s, sin + i, count);
        StoreArray<k>(d, c, cos + i, count);
    });
}

HWY_ATTR void Atan2Lanes(const double* y, const double* x, std::size_t n, double* angle) {
    const hn::ScalableTag<double> d;
    EachArrayPack(n, [&](auto pack, std::size_t i, std::size_t count) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        StoreArray<k>(d, Atan2(d, LoadArray<k>(d, y + i, count), LoadArray<k>(d, x + i, count)), angle + i,
                      count);
    });
}

} // namespace HWY_NAMESPACE
} // namespace boids::angle
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::angle {

HWY_EXPORT(SinCosLanes);
HWY_EXPORT(Atan2Lanes);

void sin_cos_lanes(const double* x, std::size_t n, double* sin, double* cos) {
    HWY_DYNAMIC_DISPATCH(SinCosLanes)(x, n, sin, cos);
}

void atan2_lanes(const double* y, const double* x, std::size_t n, double* angle) {
    HWY_DYNAMIC_DISPATCH(Atan2Lanes)(y, x, n, angle);
}

} // namespace boids::angle
#endif
