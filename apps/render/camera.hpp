#pragma once
// The view of the world: fit to the window, zoom about the cursor, pan by dragging. No GL here.

namespace boids::render {

/// Maps world coordinates to window pixels: pixel = world * scale + offset (y down in both).
struct ViewTransform {
    double scale = 1.0;
    double offset_x = 0.0;
    double offset_y = 0.0;

    [[nodiscard]] double to_pixel_x(double wx) const { return wx * scale + offset_x; }
    [[nodiscard]] double to_pixel_y(double wy) const { return wy * scale + offset_y; }
    [[nodiscard]] double to_world_x(double px) const { return (px - offset_x) / scale; }
    [[nodiscard]] double to_world_y(double py) const { return (py - offset_y) / scale; }
};

/// Zoom and pan relative to "the whole world fits the view area".
class Camera {
public:
    /// The transform for a world of `world_w` x `world_h` shown in a `view_w` x `view_h` pixel area.
    [[nodiscard]] ViewTransform transform(double world_w, double world_h, double view_w, double view_h) const;

    /// Zooms by `factor` keeping the world point under pixel (px, py) fixed.
    void zoom_at(double factor, double px, double py, double world_w, double world_h, double view_w,
                 double view_h);

    /// Moves the view by a mouse drag of (dx, dy) pixels.
    void pan_pixels(double dx, double dy, double world_w, double world_h, double view_w, double view_h);

    /// Back to the whole world in view.
    void reset() { *this = Camera{}; }

    [[nodiscard]] double zoom() const { return zoom_; }
    /// The view centre minus the world centre, world units.
    [[nodiscard]] double centre_dx() const { return centre_dx_; }
    [[nodiscard]] double centre_dy() const { return centre_dy_; }
    /// A saved view: zoom (> 0) and the view centre minus the world centre.
    void set(double zoom, double centre_dx, double centre_dy) {
        zoom_ = zoom;
        centre_dx_ = centre_dx;
        centre_dy_ = centre_dy;
    }

private:
    double zoom_ = 1.0;
    double centre_dx_ = 0.0; ///< view centre minus world centre, world units
    double centre_dy_ = 0.0;
};

} // namespace boids::render
