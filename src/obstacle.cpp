#include "boids/obstacle.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace boids {

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
                                      "expected 'circle X Y R' or 'rect X0 Y0 X1 Y1' with numbers"));
        }
        numbers.push_back(*v);
    }
    Obstacle o;
    if (shape == "circle" && numbers.size() == 3) {
        o.shape = Obstacle::Shape::Circle;
        o.x = numbers[0];
        o.y = numbers[1];
        o.radius = numbers[2];
    } else if (shape == "rect" && numbers.size() == 4) {
        o.shape = Obstacle::Shape::Rect;
        o.x0 = numbers[0];
        o.y0 = numbers[1];
        o.x1 = numbers[2];
        o.y1 = numbers[3];
    } else {
        throw InputError(invalid_value_message("--obstacle", "'" + std::string(text_in) + "'",
                                               "expected 'circle X Y R' or 'rect X0 Y0 X1 Y1'"));
    }
    validate(o, "--obstacle");
    return o;
}

std::string to_string(const Obstacle& o) {
    if (o.shape == Obstacle::Shape::Circle) {
        return "circle " + text::shortest(o.x) + " " + text::shortest(o.y) + " " + text::shortest(o.radius);
    }
    return "rect " + text::shortest(o.x0) + " " + text::shortest(o.y0) + " " + text::shortest(o.x1) + " " +
           text::shortest(o.y1);
}

} // namespace boids
