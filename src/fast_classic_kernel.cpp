// The fast classic step's SIMD kernel (fast_classic_kernel-inl.h): the cells of positions, which
// instruction set runs, and the dispatch of the neighbour lines to the translation unit that compiles
// them for the flock's scalar type and boundary (fast_classic_lines_*.cpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_classic_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "fast_classic_kernel-inl.h"
#include "fast_classic_lines.hpp"

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

void CellsF32(const float* x, const float* y, const float* z, std::size_t count, const CellGeometry& g,
              std::uint32_t* out) {
    cells_impl(x, y, z, count, g, out);
}
void CellsF64(const double* x, const double* y, const double* z, std::size_t count, const CellGeometry& g,
              std::uint32_t* out) {
    cells_impl(x, y, z, count, g, out);
}
std::size_t LanesF32() {
    return hn::Lanes(hn::ScalableTag<float>());
}
std::size_t LanesF64() {
    return hn::Lanes(hn::ScalableTag<double>());
}
const char* TargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(CellsF32);
HWY_EXPORT(CellsF64);
HWY_EXPORT(LanesF32);
HWY_EXPORT(LanesF64);
HWY_EXPORT(TargetName);

void neighbour_lines(const FlockInCellOrder<float>& flock, int line_begin, int line_end) {
    flock.c.wrap ? f32_wrap::neighbour_lines(flock, line_begin, line_end)
                 : f32_margin::neighbour_lines(flock, line_begin, line_end);
}
void neighbour_lines(const FlockInCellOrder<double>& flock, int line_begin, int line_end) {
    flock.c.wrap ? f64_wrap::neighbour_lines(flock, line_begin, line_end)
                 : f64_margin::neighbour_lines(flock, line_begin, line_end);
}
void cells_of(const float* x, const float* y, const float* z, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell) {
    HWY_DYNAMIC_DISPATCH(CellsF32)(x, y, z, count, grid, cell);
}
void cells_of(const double* x, const double* y, const double* z, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell) {
    HWY_DYNAMIC_DISPATCH(CellsF64)(x, y, z, count, grid, cell);
}
std::size_t simd_lanes_f32() {
    return HWY_DYNAMIC_DISPATCH(LanesF32)();
}
std::size_t simd_lanes_f64() {
    return HWY_DYNAMIC_DISPATCH(LanesF64)();
}
const char* simd_target_name() {
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace boids::fast
#endif
