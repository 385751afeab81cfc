// The RGBA to yuv420p conversion, compiled for every instruction set Highway targets on this architecture
// (foreach_target) and dispatched at run time to the best one the CPU supports. Integer arithmetic only:
// every target writes the same bytes.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "yuv420.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "yuv420.hpp"

#include <cstring>

#ifndef BOIDS_YUV420_CONSTANTS
#define BOIDS_YUV420_CONSTANTS
namespace boids::render::yuv {

// BT.601 in limited range with 15 fractional bits: Y = 16 + 219/255 * (0.299 R + 0.587 G + 0.114 B),
// U = 128 + 224/255 * (B - Y') / 1.772, V = 128 + 224/255 * (R - Y') / 1.402 (Y' the bracket above). U's and
// V's coefficients are rounded so that they sum to 0: grey stays exactly 128.
constexpr int shift = 15;
constexpr int y_r = 8414, y_g = 16519, y_b = 3208;
constexpr int u_r = -4857, u_g = -9535, u_b = 14392;
constexpr int v_r = 14392, v_g = -12051, v_b = -2341;
static_assert(u_r + u_g + u_b == 0 && v_r + v_g + v_b == 0);
constexpr int y_offset = (16 << shift) + (1 << (shift - 1)); // + 0.5: rounded to nearest
/// Chroma comes from the sum of four pixels: two more bits to shift off.
constexpr int c_offset = (128 << (shift + 2)) + (1 << (shift + 1));

/// Y of one RGBA pixel.
inline std::uint8_t luma(const std::uint8_t* p) {
    return static_cast<std::uint8_t>((y_r * p[0] + y_g * p[1] + y_b * p[2] + y_offset) >> shift);
}

/// U and V of the 2 x 2 block whose top-left pixel is `p`, `q` the pixel below it.
inline void chroma(const std::uint8_t* p, const std::uint8_t* q, std::uint8_t* u, std::uint8_t* v) {
    const int red = p[0] + p[4] + q[0] + q[4];
    const int green = p[1] + p[5] + q[1] + q[5];
    const int blue = p[2] + p[6] + q[2] + q[6];
    *u = static_cast<std::uint8_t>((u_r * red + u_g * green + u_b * blue + c_offset) >> (shift + 2));
    *v = static_cast<std::uint8_t>((v_r * red + v_g * green + v_b * blue + c_offset) >> (shift + 2));
}

} // namespace boids::render::yuv
#endif

HWY_BEFORE_NAMESPACE();
namespace boids::render::yuv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR // one lane: no pixel pairs within a vector (the loop at the end does all)
using D = hn::ScalableTag<std::int32_t>; ///< one pixel a lane: R, G, B, A from the lowest byte up
using V = hn::Vec<D>;

/// N pixels from `p` (4N bytes).
inline V load_pixels(const std::uint8_t* p) {
    const hn::Repartition<std::uint8_t, D> bytes;
    return hn::BitCast(D(), hn::LoadU(bytes, p));
}

/// The weighted sum of the channels (each < 2^16), shifted down and stored as N bytes.
inline void store_weighted(V red, V green, V blue, int cr, int cg, int cb, int offset, int down,
                           std::uint8_t* out) {
    const D d;
    V sum = hn::Add(hn::Mul(red, hn::Set(d, cr)), hn::Set(d, offset));
    sum = hn::Add(sum, hn::Mul(green, hn::Set(d, cg)));
    sum = hn::Add(sum, hn::Mul(blue, hn::Set(d, cb)));
    sum = hn::ShiftRightSame(sum, down);
    hn::StoreU(hn::DemoteTo(hn::Rebind<std::uint8_t, D>(), sum), hn::Rebind<std::uint8_t, D>(), out);
}

inline void store_luma(V pixels, std::uint8_t* out) {
    const D d;
    const V byte = hn::Set(d, 0xFF);
    store_weighted(hn::And(pixels, byte), hn::And(hn::ShiftRight<8>(pixels), byte),
                   hn::And(hn::ShiftRight<16>(pixels), byte), y_r, y_g, y_b, y_offset, shift, out);
}

#endif

/// A pair of picture rows `a` over `b`: their Y rows and one row of U and V.
void RowPair(const std::uint8_t* a, const std::uint8_t* b, int width, std::uint8_t* y_a, std::uint8_t* y_b,
             std::uint8_t* u, std::uint8_t* v) {
    int x = 0;
#if HWY_TARGET != HWY_SCALAR
    const D d;
    const int n = static_cast<int>(hn::Lanes(d));
    // Red and blue, green and alpha, in 16-bit halves of a lane: four pixels' sums still fit.
    const V pairs = hn::Set(d, 0x00FF00FF);
    const V half = hn::Set(d, 0xFFFF);
    for (; x + 2 * n <= width; x += 2 * n) {
        const V a0 = load_pixels(a + 4 * x), a1 = load_pixels(a + 4 * (x + n));
        const V b0 = load_pixels(b + 4 * x), b1 = load_pixels(b + 4 * (x + n));
        store_luma(a0, y_a + x);
        store_luma(a1, y_a + x + n);
        store_luma(b0, y_b + x);
        store_luma(b1, y_b + x + n);
        // The 2 x 2 blocks: even pixels of both rows plus odd pixels of both rows.
        const V left_a = hn::ConcatEven(d, a1, a0), right_a = hn::ConcatOdd(d, a1, a0);
        const V left_b = hn::ConcatEven(d, b1, b0), right_b = hn::ConcatOdd(d, b1, b0);
        const V rb = hn::Add(hn::Add(hn::And(left_a, pairs), hn::And(right_a, pairs)),
                             hn::Add(hn::And(left_b, pairs), hn::And(right_b, pairs)));
        const V ga = hn::Add(
            hn::Add(hn::And(hn::ShiftRight<8>(left_a), pairs), hn::And(hn::ShiftRight<8>(right_a), pairs)),
            hn::Add(hn::And(hn::ShiftRight<8>(left_b), pairs), hn::And(hn::ShiftRight<8>(right_b), pairs)));
        const V red = hn::And(rb, half), blue = hn::ShiftRight<16>(rb), green = hn::And(ga, half);
        store_weighted(red, green, blue, u_r, u_g, u_b, c_offset, shift + 2, u + x / 2);
        store_weighted(red, green, blue, v_r, v_g, v_b, c_offset, shift + 2, v + x / 2);
    }
#endif
    for (; x < width; x += 2) {
        y_a[x] = luma(a + 4 * x);
        y_a[x + 1] = luma(a + 4 * x + 4);
        y_b[x] = luma(b + 4 * x);
        y_b[x + 1] = luma(b + 4 * x + 4);
        chroma(a + 4 * x, b + 4 * x, u + x / 2, v + x / 2);
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::render::yuv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <epoxy/gl.h>

#include <stdexcept>

namespace boids::render {

namespace yuv {
// Dispatched unqualified, under `using namespace yuv`: a one-target build calls N_<target>::<name>.
HWY_EXPORT(RowPair);
} // namespace yuv

void rgba_to_yuv420p(const std::uint8_t* top, std::ptrdiff_t stride, int width, int height,
                     std::uint8_t* out) {
    const auto w = static_cast<std::size_t>(width);
    const std::size_t chroma_w = w / 2;
    std::uint8_t* y_plane = out;
    std::uint8_t* u_plane = out + w * static_cast<std::size_t>(height);
    std::uint8_t* v_plane = u_plane + chroma_w * static_cast<std::size_t>(height / 2);
    for (int row = 0; row + 1 < height; row += 2) {
        const std::uint8_t* a = top + row * stride; // the pair of rows that shares a chroma row
        const auto chroma_row = static_cast<std::size_t>(row / 2) * chroma_w;
        using namespace yuv;
        HWY_DYNAMIC_DISPATCH(RowPair)
        (a, a + stride, width, y_plane + static_cast<std::size_t>(row) * w,
         y_plane + static_cast<std::size_t>(row + 1) * w, u_plane + chroma_row, v_plane + chroma_row);
    }
}

Yuv420Reader::Yuv420Reader(int width, int height)
    : width_(width), height_(height),
      rgba_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4),
      yuv_(yuv420p_bytes(width, height)) {
    if (width < 2 || height < 2 || width % 2 != 0 || height % 2 != 0) {
        throw std::logic_error("Yuv420Reader: a yuv420p frame has an even size");
    }
}

std::span<const std::uint8_t> Yuv420Reader::read(int framebuffer_height) {
    // RGBA is the framebuffer's own layout in Mesa's software rasterizer (its implementation read format):
    // the read is a copy, where RGB costs a byte shuffle per pixel, about as long as the conversion below.
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, framebuffer_height - height_, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba_.data());
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(width_) * 4;
    rgba_to_yuv420p(rgba_.data() + (height_ - 1) * row, -row, width_, height_, yuv_.data());
    return yuv_;
}

} // namespace boids::render
#endif
