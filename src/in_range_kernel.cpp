// The in-range filter of the weighted model's fast pass (in_range_kernel.hpp), compiled for every
// instruction set Highway targets on this architecture (foreach_target) and dispatched at run time.
//
// Layout: one agent at a time, its candidates in double lanes (float storage is read into half-width
// float vectors and widened, which is exact). A run is read a vector at a time, its last vector ending at
// its last slot (lanes seen already masked off); a run shorter than a vector takes the same arithmetic in
// scalar code, so no slot array needs padding. The lanes in range are appended to the list in lane order,
// without a branch.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "in_range_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "in_range_kernel.hpp"
#include "torus_lanes-inl.h"

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::in_range_simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using fast::CandidateRuns;
using fast::InRangeGrid;
using fast::InRangeList;

/// classic::nearest_image, the same comparisons and arithmetic in the storage type.
template <class Real>
inline Real nearest_image(Real a, Real x, Real length, Real half) {
    const Real d = a - x;
    return d > half ? x + length : (d < -half ? x - length : x);
}

template <class Real>
HWY_ATTR std::size_t InRange(const InRangeGrid<Real>& grid, Real ax, Real ay, std::uint32_t self,
                             const CandidateRuns& runs, const InRangeList& out) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr; // as many lanes of the storage type
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(double);
    static_assert(max_lanes <= fast::in_range_list_padding);
    const std::size_t lanes = hn::Lanes(dd);
    const auto widen = [&](auto v) { return fast::HWY_NAMESPACE::WidenLanes<Real>(dd, v); };
    const auto vax = hn::Set(dr, ax), vay = hn::Set(dr, ay);
    const auto dax = widen(vax), day = widen(vay);
    const fast::HWY_NAMESPACE::TorusLanes<decltype(dr)> torus(dr, grid);
    const auto r2 = hn::Set(dd, grid.range2);
    alignas(64) double bx[max_lanes], by[max_lanes], b2[max_lanes];
    alignas(8) std::uint8_t bits[8] = {};
    std::size_t count = 0;
    const bool offsets = out.dx != nullptr; // otherwise the slots alone
    for (int k = 0; k < runs.count; ++k) {
        std::uint32_t s = runs.begin[k];
        const std::uint32_t end = runs.end[k];
        // A vector at a time; a last vector that would reach past the run is read ending at its last
        // slot instead (when the run is that long), with the lanes already seen masked off.
        while (s < end && (s + lanes <= end || end - runs.begin[k] >= lanes)) {
            const std::uint32_t at = s + lanes <= end ? s : end - static_cast<std::uint32_t>(lanes);
            auto x = hn::LoadU(dr, grid.x + at);
            auto y = hn::LoadU(dr, grid.y + at);
            if (grid.wrap) {
                x = torus.ImageX(vax, x);
                y = torus.ImageY(vay, y);
            }
            const auto dx = hn::Sub(widen(x), dax);
            const auto dy = hn::Sub(widen(y), day);
            const auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
            hn::StoreMaskBits(dd, hn::Lt(d2, r2), bits);
            const std::uint64_t seen = s - at; // lanes below this were in the previous vector
            const std::uint64_t mask = (static_cast<std::uint64_t>(bits[0]) >> seen) << seen;
            if (offsets) {
                hn::StoreU(dx, dd, bx);
                hn::StoreU(dy, dd, by);
                hn::StoreU(d2, dd, b2);
                for (std::size_t i = 0; i < lanes; ++i) {
                    const std::uint32_t slot = at + static_cast<std::uint32_t>(i);
                    out.slot[count] = slot;
                    out.dx[count] = bx[i];
                    out.dy[count] = by[i];
                    out.d2[count] = b2[i];
                    count += ((mask >> i) & 1u) & static_cast<std::uint64_t>(slot != self);
                }
            } else {
                for (std::size_t i = 0; i < lanes; ++i) {
                    const std::uint32_t slot = at + static_cast<std::uint32_t>(i);
                    out.slot[count] = slot;
                    count += ((mask >> i) & 1u) & static_cast<std::uint64_t>(slot != self);
                }
            }
            s = at + static_cast<std::uint32_t>(lanes);
        }
        for (; s < end; ++s) { // a run shorter than a vector
            Real x = grid.x[s], y = grid.y[s];
            if (grid.wrap) {
                x = nearest_image(ax, x, grid.width, grid.half_width);
                y = nearest_image(ay, y, grid.height, grid.half_height);
            }
            const double dx = static_cast<double>(x) - static_cast<double>(ax);
            const double dy = static_cast<double>(y) - static_cast<double>(ay);
            const double d2 = dx * dx + dy * dy;
            out.slot[count] = s;
            if (offsets) {
                out.dx[count] = dx;
                out.dy[count] = dy;
                out.d2[count] = d2;
            }
            count += static_cast<std::size_t>(d2 < grid.range2 && s != self);
        }
    }
    return count;
}

HWY_ATTR std::size_t InRangeF32(const InRangeGrid<float>& grid, float ax, float ay, std::uint32_t self,
                                const CandidateRuns& runs, const InRangeList& out) {
    return InRange(grid, ax, ay, self, runs, out);
}
HWY_ATTR std::size_t InRangeF64(const InRangeGrid<double>& grid, double ax, double ay, std::uint32_t self,
                                const CandidateRuns& runs, const InRangeList& out) {
    return InRange(grid, ax, ay, self, runs, out);
}

} // namespace HWY_NAMESPACE
} // namespace boids::in_range_simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::in_range_simd {

HWY_EXPORT(InRangeF32);
HWY_EXPORT(InRangeF64);

} // namespace boids::in_range_simd

namespace boids::fast {

std::size_t in_range(const InRangeGrid<float>& grid, float ax, float ay, std::uint32_t self,
                     const CandidateRuns& runs, const InRangeList& out) {
    return HWY_DYNAMIC_DISPATCH(in_range_simd::InRangeF32)(grid, ax, ay, self, runs, out);
}
std::size_t in_range(const InRangeGrid<double>& grid, double ax, double ay, std::uint32_t self,
                     const CandidateRuns& runs, const InRangeList& out) {
    return HWY_DYNAMIC_DISPATCH(in_range_simd::InRangeF64)(grid, ax, ay, self, runs, out);
}

} // namespace boids::fast
#endif
