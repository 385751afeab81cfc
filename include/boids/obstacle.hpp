#pragma once
/// Obstacles: circles and axis-aligned rectangles that boids steer around and never end a step inside.
/// In a 3D world a circle is a sphere (centred at `z`, default the middle of the depth) and a rectangle is
/// a box from z0 to z1 (default: a column through the whole depth).

#include <optional>
#include <string>
#include <string_view>

namespace boids {

struct Obstacle {
    enum class Shape { Circle, Rect };
    Shape shape = Shape::Circle;
    double x = 0, y = 0, radius = 0;       ///< circle: centre and radius
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0; ///< rectangle: corners, x0 < x1 and y0 < y1
    std::optional<double> z;               ///< 3D: a sphere's centre z (none: the middle of the depth)
    std::optional<double> z0, z1;          ///< 3D: a box's z extent, z0 < z1 (none: the whole depth)

    bool operator==(const Obstacle&) const = default;
};

/// Where a point is relative to an obstacle's surface.
struct SurfaceDistance {
    double distance; ///< signed: negative inside
    double nx, ny;   ///< unit outward normal at the nearest surface point
    double nz = 0;   ///< its z component (3D)
};

/// The signed distance from (px, py) to the obstacle's surface and the outward normal there (2D: the
/// obstacle's z extent is ignored).
[[nodiscard]] SurfaceDistance surface_distance(const Obstacle& o, double px, double py);

/// The same in 3D, for a world of the given depth (which places a sphere without z at depth / 2).
[[nodiscard]] SurfaceDistance surface_distance(const Obstacle& o, double px, double py, double pz,
                                               double depth);

/// Parses "circle X Y R", "sphere X Y Z R", "rect X0 Y0 X1 Y1" or "box X0 Y0 Z0 X1 Y1 Z1" (the CLI's
/// --obstacle). Throws InputError.
[[nodiscard]] Obstacle parse_obstacle(std::string_view text);

/// Throws InputError unless the obstacle is well formed (finite, positive radius, x0 < x1, y0 < y1).
void validate(const Obstacle& o, std::string_view where);

/// The text form parse_obstacle reads: "circle X Y R", "sphere X Y Z R", "rect ..." or "box ...".
[[nodiscard]] std::string to_string(const Obstacle& o);

} // namespace boids
