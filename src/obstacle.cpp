#include "boids/obstacle.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace boids {

namespace {

/// The length of (dx, dy, dz) and the unit vector along it, finite for every finite input: the plain
/// sqrt of the sum of squares (what the engine has always computed, to the bit), unless the sum
/// underflows to a subnormal or zero (a subnormal offset) or overflows, where the vector is first
/// scaled by its largest component. Zero only for the zero vector, whose direction is +x.
SurfaceDistance offset_length(double dx, double dy, double dz) {
    const double sum = dx * dx + dy * dy + dz * dz;
    if (std::isnormal(sum)) {
        const double d = std::sqrt(sum);
        return {d, dx / d, dy / d, dz / d};
    }
    const double largest = std::max({std::abs(dx), std::abs(dy), std::abs(dz)});
    if (largest == 0) {
        return {0, 1, 0, 0};
    }
    const double sx = dx / largest, sy = dy / largest, sz = dz / largest;
    const double unit = std::sqrt(sx * sx + sy * sy + sz * sz); // in [1, sqrt 3]
    return {largest * unit, sx / unit, sy / unit, sz / unit};
}

} // namespace

SurfaceDistance surface_distance(const Obstacle& o, double px, double py) {
    if (o.shape == Obstacle::Shape::Circle) {
        const double dx = px - o.x, dy = py - o.y;
        const double d = std::hypot(dx, dy);
        if (d == 0) {
            return {-o.radius, 1, 0}; // at the centre any direction is out; pick +x
        }
        return {d - o.radius, dx / d, dy / d};
    }
    // Rectangle: outside, the nearest point is the clamped one; inside, the nearest side.
    const double cx = std::clamp(px, o.x0, o.x1), cy = std::clamp(py, o.y0, o.y1);
    if (cx != px || cy != py) {
        const double dx = px - cx, dy = py - cy, d = std::hypot(dx, dy);
        return {d, dx / d, dy / d};
    }
    const double left = px - o.x0, right = o.x1 - px, top = py - o.y0, bottom = o.y1 - py;
    const double nearest = std::min({left, right, top, bottom});
    if (nearest == left) {
        return {-left, -1, 0};
    }
    if (nearest == right) {
        return {-right, 1, 0};
    }
    if (nearest == top) {
        return {-top, 0, -1};
    }
    return {-bottom, 0, 1};
}

SurfaceDistance surface_distance(const Obstacle& o, double px, double py, double pz, double depth) {
    if (o.shape == Obstacle::Shape::Circle) { // a sphere
        // At the centre any direction is out: offset_length picks +x.
        SurfaceDistance s = offset_length(px - o.x, py - o.y, pz - o.z.value_or(depth / 2));
        s.distance -= o.radius;
        return s;
    }
    if (!o.z0) { // a column through the whole depth: its cross-section decides
        return surface_distance(o, px, py);
    }
    // A box: outside, the nearest point is the clamped one; inside, the nearest face.
    const double cx = std::clamp(px, o.x0, o.x1), cy = std::clamp(py, o.y0, o.y1);
    const double cz = std::clamp(pz, *o.z0, *o.z1);
    if (cx != px || cy != py || cz != pz) {
        return offset_length(px - cx, py - cy, pz - cz);
    }
    const double faces[6] = {px - o.x0, o.x1 - px, py - o.y0, o.y1 - py, pz - *o.z0, *o.z1 - pz};
    const double normals[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    int nearest = 0;
    for (int f = 1; f < 6; ++f) {
        if (faces[f] < faces[nearest]) {
            nearest = f;
        }
    }
    return {-faces[nearest], normals[nearest][0], normals[nearest][1], normals[nearest][2]};
}

void validate(const Obstacle& o, std::string_view where) {
    const auto bad = [&](const std::string& field, double value, const std::string& allowed) {
        throw InputError(std::string(where) + ": " +
                         invalid_value_message(field, text::readable(value), allowed));
    };
    for (double v : {o.x, o.y, o.radius, o.x0, o.y0, o.x1, o.y1}) {
        if (!std::isfinite(v) || std::abs(v) > 1e7) {
            bad("obstacle coordinate", v, "coordinates must be finite, within [-1e7, 1e7]");
        }
    }
    if (o.shape == Obstacle::Shape::Circle && !(o.radius > 0)) {
        bad("radius", o.radius, "a circle's radius must be > 0");
    }
    if (o.shape == Obstacle::Shape::Rect && !(o.x0 < o.x1)) {
        bad("x1", o.x1, "a rectangle needs x0 < x1 (x0 = " + text::readable(o.x0) + ")");
    }
    if (o.shape == Obstacle::Shape::Rect && !(o.y0 < o.y1)) {
        bad("y1", o.y1, "a rectangle needs y0 < y1 (y0 = " + text::readable(o.y0) + ")");
    }
    for (const std::optional<double>& v : {o.z, o.z0, o.z1}) {
        if (v && (!std::isfinite(*v) || std::abs(*v) > 1e7)) {
            bad("obstacle coordinate", *v, "coordinates must be finite, within [-1e7, 1e7]");
        }
    }
    if (o.shape == Obstacle::Shape::Rect && o.z0.has_value() != o.z1.has_value()) {
        bad(o.z0 ? "z0" : "z1", o.z0 ? *o.z0 : *o.z1, "a box needs both z0 and z1, or neither");
    }
    if (o.shape == Obstacle::Shape::Rect && o.z0 && !(*o.z0 < *o.z1)) {
        bad("z1", *o.z1, "a box needs z0 < z1 (z0 = " + text::readable(*o.z0) + ")");
    }
}

Obstacle parse_obstacle(std::string_view text_in) {
    std::istringstream in{std::string(text_in)};
    std::string shape;
    in >> shape;
    std::vector<double> numbers;
    for (std::string word; in >> word;) {
        const auto v = text::parse_finite<double>(word);
        if (!v) {
            throw InputError(
                invalid_value_message("--obstacle", "'" + std::string(text_in) + "'",
                                      "expected 'circle X Y R', 'sphere X Y Z R', 'rect X0 Y0 X1 Y1' or "
                                      "'box X0 Y0 Z0 X1 Y1 Z1' with numbers"));
        }
        numbers.push_back(*v);
    }
    Obstacle o;
    if (shape == "circle" && numbers.size() == 3) {
        o.shape = Obstacle::Shape::Circle;
        o.x = numbers[0];
        o.y = numbers[1];
        o.radius = numbers[2];
    } else if (shape == "sphere" && numbers.size() == 4) {
        o.shape = Obstacle::Shape::Circle;
        o.x = numbers[0];
        o.y = numbers[1];
        o.z = numbers[2];
        o.radius = numbers[3];
    } else if (shape == "box" && numbers.size() == 6) {
        o.shape = Obstacle::Shape::Rect;
        o.x0 = numbers[0];
        o.y0 = numbers[1];
        o.z0 = numbers[2];
        o.x1 = numbers[3];
        o.y1 = numbers[4];
        o.z1 = numbers[5];
    } else if (shape == "rect" && numbers.size() == 4) {
        o.shape = Obstacle::Shape::Rect;
        o.x0 = numbers[0];
        o.y0 = numbers[1];
        o.x1 = numbers[2];
        o.y1 = numbers[3];
    } else {
        throw InputError(invalid_value_message("--obstacle", "'" + std::string(text_in) + "'",
                                               "expected 'circle X Y R', 'sphere X Y Z R', "
                                               "'rect X0 Y0 X1 Y1' or 'box X0 Y0 Z0 X1 Y1 Z1'"));
    }
    validate(o, "--obstacle");
    return o;
}

std::string to_string(const Obstacle& o) {
    const auto n = [](double v) { return text::shortest(v); };
    if (o.shape == Obstacle::Shape::Circle) {
        if (o.z) {
            return "sphere " + n(o.x) + " " + n(o.y) + " " + n(*o.z) + " " + n(o.radius);
        }
        return "circle " + text::shortest(o.x) + " " + text::shortest(o.y) + " " + text::shortest(o.radius);
    }
    if (o.z0) {
        return "box " + n(o.x0) + " " + n(o.y0) + " " + n(*o.z0) + " " + n(o.x1) + " " + n(o.y1) + " " +
               n(*o.z1);
    }
    return "rect " + text::shortest(o.x0) + " " + text::shortest(o.y0) + " " + text::shortest(o.x1) + " " +
           text::shortest(o.y1);
}

} // namespace boids
