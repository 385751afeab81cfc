#include "orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace boids::render {

namespace {

constexpr double vertical_fov = 45.0 * std::numbers::pi / 180.0;
constexpr double max_pitch = 1.5; // just short of straight down or up, where yaw would lose its meaning

Vec3 unit(Vec3 v) {
    const double n = std::sqrt(v.dot(v));
    return n > 0 ? v * (1.0 / n) : v;
}

Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

} // namespace

std::optional<ScreenPoint> OrbitFrame::project(Vec3 p) const {
    const Vec3 rel = p - eye;
    const double depth = rel.dot(forward);
    if (depth <= 1e-9) {
        return std::nullopt;
    }
    return ScreenPoint{view_w / 2 + focal_px * rel.dot(right) / depth,
                       view_h / 2 + focal_px * rel.dot(down) / depth, depth};
}

Vec3 OrbitFrame::unproject(double px, double py, Vec3 through) const {
    const Vec3 ray =
        unit(forward + right * ((px - view_w / 2) / focal_px) + down * ((py - view_h / 2) / focal_px));
    const double along = ray.dot(forward);
    const double t = (through - eye).dot(forward) / (along > 1e-9 ? along : 1e-9);
    return eye + ray * t;
}

double OrbitFrame::world_per_pixel(Vec3 p) const {
    return std::max((p - eye).dot(forward), 1e-9) / focal_px;
}

OrbitFrame OrbitCamera::frame(double w, double h, double d, double view_w, double view_h) const {
    OrbitFrame f;
    f.view_w = std::max(1.0, view_w);
    f.view_h = std::max(1.0, view_h);
    f.target = {w / 2, h / 2, d / 2};
    f.forward = {std::sin(yaw_) * std::cos(pitch_), std::sin(pitch_), std::cos(yaw_) * std::cos(pitch_)};
    f.right = unit(cross({0, 1, 0}, f.forward)); // world down x forward = screen right
    f.down = cross(f.forward, f.right);
    // Far enough that the box's bounding sphere fits the narrower side of the view, then zoomed.
    const double radius = 0.5 * std::sqrt(w * w + h * h + d * d);
    const double aspect = f.view_w / f.view_h;
    const double half_fov = 0.5 * vertical_fov;
    const double fit = std::min(std::tan(half_fov), std::tan(half_fov) * aspect);
    const double distance = radius / std::sin(std::atan(fit)) * 1.02 / zoom_;
    f.eye = f.target - f.forward * distance;
    f.focal_px = (f.view_h / 2) / std::tan(half_fov);
    f.near_depth = std::max(distance - radius, distance * 1e-3);
    f.far_depth = distance + radius;

    // clip = M (p, 1): x_c = 2F/W (right . (p - eye)), y_c = -2F/H (down . (p - eye)), w_c = depth, and
    // z_c maps [near, far] (with room to spare for zooming into the box) onto [-1, 1].
    const double n = f.near_depth * 0.5, fa = f.far_depth * 1.5;
    const double a = (fa + n) / (fa - n), b = -2 * fa * n / (fa - n);
    const auto row = [&](Vec3 axis, double k) {
        return std::array<double, 4>{axis.x * k, axis.y * k, axis.z * k, -axis.dot(f.eye) * k};
    };
    const auto rx = row(f.right, 2 * f.focal_px / f.view_w);
    const auto ry = row(f.down, -2 * f.focal_px / f.view_h);
    const auto rw = row(f.forward, 1.0);
    std::array<double, 4> rz{};
    for (int i = 0; i < 4; ++i) {
        rz[static_cast<std::size_t>(i)] = a * rw[static_cast<std::size_t>(i)] + (i == 3 ? b : 0.0);
    }
    const std::array<std::array<double, 4>, 4> rows{rx, ry, rz, rw};
    for (std::size_t r = 0; r < 4; ++r) {
        for (std::size_t c = 0; c < 4; ++c) {
            f.view_projection[c * 4 + r] = static_cast<float>(rows[r][c]);
        }
    }
    return f;
}

void OrbitCamera::rotate_pixels(double dx, double dy) {
    yaw_ -= dx * 0.008;
    pitch_ = std::clamp(pitch_ + dy * 0.008, -max_pitch, max_pitch);
}

void OrbitCamera::zoom(double factor) {
    zoom_ = std::clamp(zoom_ * factor, 0.05, 50.0);
}

void OrbitCamera::set(double yaw, double pitch, double zoom) {
    yaw_ = yaw;
    pitch_ = std::clamp(pitch, -max_pitch, max_pitch);
    zoom_ = std::clamp(zoom, 0.05, 50.0);
}

} // namespace boids::render
