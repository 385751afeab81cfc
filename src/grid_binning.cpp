// grid_binning.hpp's vector of positions at a time, for each instruction set (foreach_target), dispatched
// at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "grid_binning.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "grid_binning.hpp"
#include "grid_lines-inl.h"

#include "boids/detail/grid_geometry.hpp"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::binning {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class Real>
HWY_ATTR void BinPlane(const Real* x, const Real* y, std::size_t n, const BinningLine& columns,
                       const BinningLine& rows, std::uint32_t* cell) {
    const hn::ScalableTag<double> d;
    const hn::Rebind<Real, decltype(d)> dr;
    const hn::Rebind<std::int32_t, decltype(d)> d32;
    const auto width = hn::Set(d, static_cast<double>(columns.count));
    const auto widen = [&](auto v) {
        if constexpr (sizeof(Real) == sizeof(double)) {
            return v;
        } else {
            return hn::PromoteTo(d, v);
        }
    };
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto column = fast::HWY_NAMESPACE::ClampedLine(d, widen(hn::LoadU(dr, x + i)), columns.origin,
                                                             columns.cell, columns.count);
        const auto row = fast::HWY_NAMESPACE::ClampedLine(d, widen(hn::LoadU(dr, y + i)), rows.origin,
                                                          rows.cell, rows.count);
        // Below 2^31 cells (the grid's counters would not fit in memory before), exact in int32.
        const auto index = hn::DemoteTo(d32, hn::MulAdd(row, width, column));
        hn::StoreU(index, d32, reinterpret_cast<std::int32_t*>(cell + i));
    }
    for (; i < n; ++i) {
        const auto line = [](Real p, const BinningLine& l) {
            return static_cast<std::uint32_t>(
                detail::clamped_line(static_cast<double>(p), l.origin, l.cell, l.count));
        };
        cell[i] = line(y[i], rows) * static_cast<std::uint32_t>(columns.count) + line(x[i], columns);
    }
}

HWY_ATTR void BinPlaneF32(const float* x, const float* y, std::size_t n, const BinningLine& columns,
                          const BinningLine& rows, std::uint32_t* cell) {
    BinPlane(x, y, n, columns, rows, cell);
}
HWY_ATTR void BinPlaneF64(const double* x, const double* y, std::size_t n, const BinningLine& columns,
                          const BinningLine& rows, std::uint32_t* cell) {
    BinPlane(x, y, n, columns, rows, cell);
}

} // namespace HWY_NAMESPACE
} // namespace boids::binning
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids {
namespace binning {
// Dispatched unqualified, under `using namespace binning`: a one-target build calls N_<target>::<name>.
HWY_EXPORT(BinPlaneF32);
HWY_EXPORT(BinPlaneF64);
} // namespace binning

void bin_plane(const float* x, const float* y, std::size_t n, const BinningLine& columns,
               const BinningLine& rows, std::uint32_t* cell) {
    using namespace binning;
    HWY_DYNAMIC_DISPATCH(BinPlaneF32)(x, y, n, columns, rows, cell);
}
void bin_plane(const double* x, const double* y, std::size_t n, const BinningLine& columns,
               const BinningLine& rows, std::uint32_t* cell) {
    using namespace binning;
    HWY_DYNAMIC_DISPATCH(BinPlaneF64)(x, y, n, columns, rows, cell);
}
} // namespace boids
#endif
