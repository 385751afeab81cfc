#pragma once
// Draws a World with OpenGL 3.3 core: instanced arrows, one draw call per kind, plus the world's border
// and margins. Needs a current GL context (an SDL window or an OffscreenContext).

#include "camera.hpp"
#include "image.hpp"

#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/world.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace boids::render {

/// The background colour, 0-255 RGB (tests look for it).
inline constexpr std::uint8_t background_rgb[3] = {14, 16, 24};

/// Draws flocks. Boids are arrows coloured by heading hue; scouts 1 and 2 in two fixed colours; predators
/// red and larger.
class FlockRenderer {
public:
    /// Compiles the shaders and creates the buffers. Throws std::runtime_error if GL 3.3 is unavailable.
    FlockRenderer();
    ~FlockRenderer();
    FlockRenderer(const FlockRenderer&) = delete;
    FlockRenderer& operator=(const FlockRenderer&) = delete;

    /// Copies the agents' positions and velocities into one instance buffer per kind.
    template <class Real>
    void upload(const World<Real>& world);

    /// Clears the `view_width` x `view_height` area at the framebuffer's bottom-left corner and draws the
    /// world's border, its margins (margin mode) and the agents uploaded last.
    void draw(const Params& params, const ViewTransform& view, int view_width, int view_height,
              int framebuffer_height);

    /// Agents uploaded last, by kind.
    [[nodiscard]] long long uploaded(Kind kind) const { return counts_[static_cast<int>(kind)]; }

private:
    unsigned arrow_program_ = 0;
    unsigned line_program_ = 0;
    unsigned arrow_vertices_ = 0;
    std::array<unsigned, kind_count> arrow_vaos_{};
    std::array<unsigned, kind_count> instance_buffers_{};
    unsigned line_vao_ = 0;
    unsigned line_buffer_ = 0;
    std::array<long long, kind_count> counts_{};
    std::array<std::vector<float>, kind_count> staging_;
};

/// Reads the `width` x `height` pixels at the bottom-left of the current read framebuffer, rows top to
/// bottom.
[[nodiscard]] RgbImage read_framebuffer(int width, int height);

} // namespace boids::render
