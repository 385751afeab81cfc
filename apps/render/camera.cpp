#include "camera.hpp"

#include <algorithm>

namespace boids::render {

namespace {
constexpr double fit_fraction = 0.96; // leave a thin frame around the world so its border shows
constexpr double min_zoom = 0.05;
constexpr double max_zoom = 1000.0;
} // namespace

ViewTransform Camera::transform(double world_w, double world_h, double view_w, double view_h) const {
    ViewTransform t;
    const double fit = std::min(view_w / world_w, view_h / world_h) * fit_fraction;
    t.scale = fit * zoom_;
    const double cx = world_w / 2 + centre_dx_;
    const double cy = world_h / 2 + centre_dy_;
    t.offset_x = view_w / 2 - cx * t.scale;
    t.offset_y = view_h / 2 - cy * t.scale;
    return t;
}

void Camera::zoom_at(double factor, double px, double py, double world_w, double world_h, double view_w,
                     double view_h) {
    const ViewTransform before = transform(world_w, world_h, view_w, view_h);
    const double wx = before.to_world_x(px);
    const double wy = before.to_world_y(py);
    zoom_ = std::clamp(zoom_ * factor, min_zoom, max_zoom);
    // Choose the centre so that (wx, wy) lands on (px, py) again.
    const double scale = transform(world_w, world_h, view_w, view_h).scale;
    centre_dx_ = wx - (px - view_w / 2) / scale - world_w / 2;
    centre_dy_ = wy - (py - view_h / 2) / scale - world_h / 2;
}

void Camera::pan_pixels(double dx, double dy, double world_w, double world_h, double view_w, double view_h) {
    const double scale = transform(world_w, world_h, view_w, view_h).scale;
    centre_dx_ -= dx / scale;
    centre_dy_ -= dy / scale;
}

} // namespace boids::render
