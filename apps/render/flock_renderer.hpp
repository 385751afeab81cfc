#pragma once
// Draws a World with OpenGL 3.3 core: instanced arrows, one draw call per kind, plus the world's border
// and margins. Needs a current GL context (an SDL window or an OffscreenContext).

#include "camera.hpp"
#include "image.hpp"
#include "orbit_camera.hpp"

#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/world.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace boids::render {

/// The background colour, 0-255 RGB (tests look for it).
inline constexpr std::uint8_t background_rgb[3] = {14, 16, 24};
/// The fill of obstacles: a dull stone, apart from the boids' saturated hues (tests look for it).
inline constexpr std::uint8_t obstacle_rgb[3] = {96, 86, 78};
/// The marker of a food source (drawn over the boids; its range is a faint disc and ring).
inline constexpr std::uint8_t food_rgb[3] = {140, 225, 100};
/// The marker of the weighted model's carrot (drawn over the boids).
inline constexpr std::uint8_t carrot_rgb[3] = {255, 140, 20};
/// The perching ledge.
inline constexpr std::uint8_t ledge_rgb[3] = {176, 128, 78};

/// What a frame shows besides the agents and what the parameters hold (obstacles, food, carrot, ledge).
struct SceneOverlay {
    long long step = 0;              ///< moving food sources are drawn where they are at this step
    std::optional<Obstacle> preview; ///< an obstacle being drawn with the mouse, outlined
    bool carrot_tracking = false;    ///< the carrot follows the mouse: drawn with a ring around it
};

/// Draws flocks. Boids are arrows coloured by heading hue; scouts 1 and 2 in two fixed colours; predators
/// red and larger.
class FlockRenderer {
public:
    /// Compiles the shaders and creates the buffers. Throws std::runtime_error if GL 3.3 is unavailable.
    FlockRenderer();
    ~FlockRenderer();
    FlockRenderer(const FlockRenderer&) = delete;
    FlockRenderer& operator=(const FlockRenderer&) = delete;

    /// Copies the agents' positions and velocities into one instance buffer per kind (x, y, vx, vy; in a 3D
    /// world x, y, z, vx, vy, vz, for draw_3d).
    template <class Real>
    void upload(const World<Real>& world);

    /// Clears the `view_width` x `view_height` area at the framebuffer's bottom-left corner and draws the
    /// world's border, its margins (margin mode), the perching ledge (when perching is on), food ranges
    /// and obstacles, the agents uploaded last, and over them the food sources, the carrot (weighted
    /// model) and the overlay's obstacle preview.
    void draw(const Params& params, const ViewTransform& view, int view_width, int view_height,
              int framebuffer_height, const SceneOverlay& overlay);

    /// The 3D view (dimensions = 3): clears the area and its depth, draws the world box and its margins,
    /// the perching ledge, food ranges and obstacles (spheres and boxes as wire frames), the agents as
    /// arrows turned along their projected heading, sized by perspective and fading with distance (the
    /// depth cues), and over them the food sources and the carrot.
    void draw_3d(const Params& params, const OrbitFrame& frame, int view_width, int view_height,
                 int framebuffer_height, const SceneOverlay& overlay);

    /// Agents uploaded last, by kind.
    [[nodiscard]] long long uploaded(Kind kind) const { return counts_[static_cast<int>(kind)]; }

private:
    struct Rgba {
        float r, g, b, a;
    };
    /// Draws world-unit points (x, y pairs) with the line program in one colour; alpha < 1 blends.
    void draw_shape(const std::vector<float>& points, unsigned mode, Rgba colour);
    void draw_obstacle(const Obstacle& obstacle, Rgba fill, Rgba outline, double pixel);
    /// Obstacles, food, carrot and ledge, in world units; `pixel` is one screen pixel in world units.
    void draw_scene_under(const Params& params, const SceneOverlay& overlay, double pixel);
    void draw_scene_over(const Params& params, const SceneOverlay& overlay, double pixel);

    /// Draws world points (x, y, z triples) with the 3D line program in one colour.
    void draw_lines_3d(const std::vector<float>& points, unsigned mode, Rgba colour);
    void draw_obstacle_3d(const Obstacle& obstacle, const Params& params, Rgba colour);

    /// Draws the agents of `kind` as one image, a pixel per agent in its heading colour (the densest level
    /// of detail).
    void draw_flock_image(int kind, const ViewTransform& view, int view_width, int view_height, int dot);
    /// The same in 3D: each agent projected through the camera, the nearest one kept per pixel, its colour
    /// lit and fogged as the arrow shader does it.
    void draw_flock_image_3d(int kind, const OrbitFrame& frame, int view_width, int view_height, int dot);
    /// Draws image_pixels_ (view_width x view_height, row 0 at the top) over the view.
    void show_flock_image(int view_width, int view_height);
    /// Copies the staged instances of `kind` to its GL buffer once per upload(), when first drawn.
    void upload_instances(int kind, bool three_d);

    unsigned image_program_ = 0;
    unsigned image_vao_ = 0;
    unsigned image_texture_ = 0;
    std::vector<std::uint32_t> image_pixels_;
    std::vector<float> image_depth_; ///< 3D: the depth of the agent drawn in each pixel
    bool uploaded_3d_ = false;
    unsigned arrow3d_program_ = 0;
    unsigned line3d_program_ = 0;
    std::array<unsigned, kind_count> arrow3d_vaos_{};
    std::array<unsigned, kind_count> instance3d_buffers_{};
    unsigned line3d_vao_ = 0;
    unsigned line3d_buffer_ = 0;
    unsigned arrow_program_ = 0;
    unsigned line_program_ = 0;
    unsigned arrow_vertices_ = 0;
    std::array<unsigned, kind_count> arrow_vaos_{};
    std::array<unsigned, kind_count> instance_buffers_{};
    unsigned line_vao_ = 0;
    unsigned line_buffer_ = 0;
    std::array<long long, kind_count> counts_{};
    std::array<std::vector<float>, kind_count> staging_;
    std::array<bool, kind_count> uploaded_{}; ///< staging_[k] is in its GL buffer
};

/// Reads the `width` x `height` pixels at the bottom-left of the current read framebuffer, rows top to
/// bottom.
[[nodiscard]] RgbImage read_framebuffer(int width, int height);

} // namespace boids::render
