#pragma once
/// Obstacles: circles and axis-aligned rectangles that boids steer around and never end a step inside.

#include <string>
#include <string_view>

namespace boids {

struct Obstacle {
    enum class Shape { Circle, Rect };
    Shape shape = Shape::Circle;
    double x = 0, y = 0, radius = 0;       ///< circle: centre and radius
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0; ///< rectangle: corners, x0 < x1 and y0 < y1

    bool operator==(const Obstacle&) const = default;
};

/// Where a point is relative to an obstacle's surface.
struct SurfaceDistance {
    double distance; ///< signed: negative inside
    double nx, ny;   ///< unit outward normal at the nearest surface point
};

/// The signed distance from (px, py) to the obstacle's surface and the outward normal there.
[[nodiscard]] SurfaceDistance surface_distance(const Obstacle& o, double px, double py);

/// Parses "circle X Y R" or "rect X0 Y0 X1 Y1" (the CLI's --obstacle). Throws InputError.
[[nodiscard]] Obstacle parse_obstacle(std::string_view text);

/// Throws InputError unless the obstacle is well formed (finite, positive radius, x0 < x1, y0 < y1).
void validate(const Obstacle& o, std::string_view where);

/// "circle X Y R" or "rect X0 Y0 X1 Y1".
[[nodiscard]] std::string to_string(const Obstacle& o);

} // namespace boids
