#pragma once
// The view of a 3D world: a perspective camera orbiting the world box's centre. Drag rotates (yaw about
// the vertical y axis, pitch up and down), the wheel moves it closer or farther. No GL here, so projection
// and picking are unit tested without a window.
//
// Axes are the engine's: x right, y down (gravity's way), z into the screen (0 is the front). With yaw and
// pitch 0 the camera looks along +z, so the picture starts out like the 2D view.

#include <array>
#include <optional>

namespace boids::render {

struct Vec3 {
    double x = 0, y = 0, z = 0;
    Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(double k) const { return {x * k, y * k, z * k}; }
    [[nodiscard]] double dot(Vec3 o) const { return x * o.x + y * o.y + z * o.z; }
};

/// A window pixel (y down) and how far in front of the camera the point is.
struct ScreenPoint {
    double px, py;
    double depth; ///< distance along the view direction, world units (> 0: in front)
};

/// One frame's camera: where it is, its axes, and the matrix the shaders use.
struct OrbitFrame {
    Vec3 eye, target;
    Vec3 forward, right, down; ///< unit axes: view direction, screen right, screen down
    double focal_px = 1;       ///< pixels per world unit at depth 1
    double view_w = 1, view_h = 1;
    double near_depth = 1, far_depth = 2;    ///< the depth range the box occupies (for the depth cue)
    std::array<float, 16> view_projection{}; ///< column-major, world -> clip, for GL

    /// The pixel (x, y down) a world point projects to, or nothing when it is behind the camera.
    [[nodiscard]] std::optional<ScreenPoint> project(Vec3 p) const;

    /// The point under pixel (px, py) on the plane through `through` facing the camera.
    [[nodiscard]] Vec3 unproject(double px, double py, Vec3 through) const;

    /// World units per pixel at the depth of `p`.
    [[nodiscard]] double world_per_pixel(Vec3 p) const;
};

class OrbitCamera {
public:
    /// The frame for a world box of `w` x `h` x `d` seen in a `view_w` x `view_h` pixel area.
    [[nodiscard]] OrbitFrame frame(double w, double h, double d, double view_w, double view_h) const;

    /// A mouse drag of (dx, dy) pixels: right turns the box to the right, down tilts the view downward.
    void rotate_pixels(double dx, double dy);

    /// Closer by `factor` (> 1) or farther (< 1).
    void zoom(double factor);

    void reset() { *this = OrbitCamera{}; }

    [[nodiscard]] double yaw() const { return yaw_; }
    [[nodiscard]] double pitch() const { return pitch_; }
    [[nodiscard]] double zoom_factor() const { return zoom_; }
    /// A saved view; pitch and zoom are kept within the limits a drag and the wheel reach.
    void set(double yaw, double pitch, double zoom);

private:
    double yaw_ = -0.55;  ///< radians about the vertical axis; a three-quarter view to start
    double pitch_ = 0.45; ///< radians; > 0 looks down on the box from above
    double zoom_ = 1.0;
};

} // namespace boids::render
