#include "boids/food.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <cmath>
#include <sstream>

namespace boids {

std::pair<double, double> FoodSource::position(long long step) const {
    if (path.size() < 2) {
        return path.empty() ? std::pair{x, y} : path.front();
    }
    double perimeter = 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const auto& [ax, ay] = path[i];
        const auto& [bx, by] = path[(i + 1) % path.size()];
        perimeter += std::hypot(bx - ax, by - ay);
    }
    if (perimeter == 0) {
        return path.front();
    }
    double along = std::fmod(speed * static_cast<double>(step), perimeter);
    for (std::size_t i = 0;; i = (i + 1) % path.size()) {
        const auto& [ax, ay] = path[i];
        const auto& [bx, by] = path[(i + 1) % path.size()];
        const double leg = std::hypot(bx - ax, by - ay);
        if (along <= leg && leg > 0) {
            const double t = along / leg;
            return {ax + (bx - ax) * t, ay + (by - ay) * t};
        }
        along -= leg;
    }
}

void validate(const FoodSource& f, std::string_view where) {
    const auto bad = [&](const std::string& field, double value, const std::string& allowed) {
        throw InputError(std::string(where) + ": " +
                         invalid_value_message(field, text::readable(value), allowed));
    };
    for (double v : {f.x, f.y, f.z.value_or(0.0)}) {
        if (!std::isfinite(v) || std::abs(v) > 1e7) {
            bad("food position", v, "must be finite, within [-1e7, 1e7]");
        }
    }
    for (const auto& [px, py] : f.path) {
        for (double v : {px, py}) {
            if (!std::isfinite(v) || std::abs(v) > 1e7) {
                bad("food path point", v, "must be finite, within [-1e7, 1e7]");
            }
        }
    }
    if (!(f.range >= 0 && f.range <= 1e5)) {
        bad("range", f.range, "allowed range is [0, 100000]");
    }
    if (!(f.strength >= 0 && f.strength <= 1000)) {
        bad("strength", f.strength, "allowed range is [0, 1000]");
    }
    if (!(f.speed >= 0 && f.speed <= 1e5)) {
        bad("speed", f.speed, "allowed range is [0, 100000]");
    }
}

FoodSource parse_food(std::string_view text_in) {
    std::istringstream in{std::string(text_in)};
    std::vector<double> numbers;
    for (std::string word; in >> word;) {
        const auto v = text::parse_finite<double>(word);
        if (!v) {
            throw InputError(invalid_value_message("--food", "'" + std::string(text_in) + "'",
                                                   "expected 'X Y [RANGE [STRENGTH]]' with numbers"));
        }
        numbers.push_back(*v);
    }
    if (numbers.size() < 2 || numbers.size() > 4) {
        throw InputError(invalid_value_message("--food", "'" + std::string(text_in) + "'",
                                               "expected 'X Y [RANGE [STRENGTH]]'"));
    }
    FoodSource f;
    f.x = numbers[0];
    f.y = numbers[1];
    if (numbers.size() > 2) {
        f.range = numbers[2];
    }
    if (numbers.size() > 3) {
        f.strength = numbers[3];
    }
    validate(f, "--food");
    return f;
}

} // namespace boids
