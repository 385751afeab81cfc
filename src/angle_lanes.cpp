// angle_lanes.hpp's array functions for each instruction set (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "angle_lanes.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "angle_lanes-inl.h"
#include "angle_lanes.hpp"

#include <cstddef>

HWY_BEFORE_NAMESPACE();
namespace boids::angle {
namespace HWY_NAMESPACE {

HWY_ATTR void SinCosLanes(const double* x, std::size_t n, double* sin, double* cos) {
    const hn::ScalableTag<double> d;
    using V = hn::Vec<decltype(d)>;
    EachPack<pack_vectors>(
        n,
        [&](std::size_t i) HWY_ATTR {
            pk::Pack<V, pack_vectors> s, c;
            SinCos(d, LoadPack<pack_vectors>(d, x + i), s, c);
            StorePack(d, s, sin + i);
            StorePack(d, c, cos + i);
        },
        [&](std::size_t i, std::size_t count) HWY_ATTR {
            V s, c;
            SinCos(d, LoadSome(d, x + i, count), s, c);
            StoreSome(d, s, sin + i, count);
            StoreSome(d, c, cos + i, count);
        });
}

HWY_ATTR void Atan2Lanes(const double* y, const double* x, std::size_t n, double* angle) {
    const hn::ScalableTag<double> d;
    EachPack<pack_vectors>(
        n,
        [&](std::size_t i) HWY_ATTR {
            StorePack(d, Atan2(d, LoadPack<pack_vectors>(d, y + i), LoadPack<pack_vectors>(d, x + i)),
                      angle + i);
        },
        [&](std::size_t i, std::size_t count) HWY_ATTR {
            StoreSome(d, Atan2(d, LoadSome(d, y + i, count), LoadSome(d, x + i, count)), angle + i, count);
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
