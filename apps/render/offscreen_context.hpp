#pragma once
// An OpenGL 3.3 core context without a window or display: EGL (Mesa: llvmpipe on machines without a GPU)
// with a framebuffer object to draw into, for headless recording.

#include "image.hpp"

namespace boids::render {

/// A current GL context drawing into a `width` x `height` RGB framebuffer object.
class OffscreenContext {
public:
    /// Creates and makes current the context. Throws std::runtime_error explaining what EGL lacked.
    OffscreenContext(int width, int height);
    ~OffscreenContext();
    OffscreenContext(const OffscreenContext&) = delete;
    OffscreenContext& operator=(const OffscreenContext&) = delete;

    /// The framebuffer's pixels, rows top to bottom.
    [[nodiscard]] RgbImage read() const;

    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }

private:
    int width_;
    int height_;
    void* display_ = nullptr;
    void* context_ = nullptr;
    unsigned framebuffer_ = 0;
    unsigned colour_buffer_ = 0;
    unsigned depth_buffer_ = 0;
};

} // namespace boids::render
