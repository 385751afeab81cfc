// A position's grid line in SIMD lanes (internal): detail::clamped_line's arithmetic in double lanes, the
// same line to the bit. Read by the grid's binning (grid_binning.cpp) and the topological tiles' lines
// (k_nearest_tiles.cpp).

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_GRID_LINES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_GRID_LINES_INL_H_
#undef BOIDS_GRID_LINES_INL_H_
#else
#define BOIDS_GRID_LINES_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// detail::clamped_line in lanes: floor((p - origin) / cell), a NaN taking line 0, clamped to the grid's
/// `count` lines. A division per lane costs less here than a table's bounds gathered per lane.
template <class D>
HWY_INLINE HWY_ATTR hn::Vec<D> ClampedLine(D d, hn::Vec<D> p, double origin, double cell, int count) {
    const auto zero = hn::Zero(d), last = hn::Set(d, count - 1.0);
    const auto f = hn::Floor(hn::Div(hn::Sub(p, hn::Set(d, origin)), hn::Set(d, cell)));
    const auto above = hn::IfThenElse(hn::Ge(f, zero), f, zero);
    return hn::IfThenElse(hn::Gt(above, last), last, above);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
