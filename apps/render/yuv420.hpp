#pragma once
// Frames in the H.264 encoder's own format, yuv420p, made from the framebuffer in this process: half the
// bytes of RGB through the pipe, and ffmpeg only encodes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace boids::render {

/// Bytes of one yuv420p frame of `width` x `height` (even) pixels: a Y plane, then U and V at half the
/// width and height.
[[nodiscard]] constexpr std::size_t yuv420p_bytes(int width, int height) {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3 / 2;
}

/// Converts `width` x `height` (even) pixels of 4 bytes each (red, green, blue and an unused byte) into a
/// yuv420p frame at `out`, as ffmpeg's default conversion for H.264 does: BT.601 coefficients in limited
/// ("TV") range, Y = 16..235 per pixel, U and V = 16..240 from the mean colour of each 2 x 2 block. `top`
/// is the picture's top row and `stride` the bytes from a row to the one below it (negative for OpenGL's
/// bottom-up rows).
void rgba_to_yuv420p(const std::uint8_t* top, std::ptrdiff_t stride, int width, int height,
                     std::uint8_t* out);

/// Reads the current framebuffer as yuv420p frames of a fixed even size.
class Yuv420Reader {
public:
    Yuv420Reader(int width, int height);

    /// The top-left width x height pixels of the current read framebuffer, `framebuffer_height` rows high,
    /// as a yuv420p frame, valid until the next read.
    [[nodiscard]] std::span<const std::uint8_t> read(int framebuffer_height);

    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }

private:
    int width_;
    int height_;
    std::vector<std::uint8_t> rgba_;
    std::vector<std::uint8_t> yuv_;
};

} // namespace boids::render
