#include "pointer_tools.hpp"

#include "panel_mapping.hpp"

#include <algorithm>
#include <cmath>

namespace boids::viewer {

namespace {

bool moved_beyond_threshold(const PointerPos& a, const PointerPos& b) {
    return std::hypot(b.px - a.px, b.py - a.py) > drag_threshold_px;
}

void report(ViewerState& state, const std::optional<std::string>& error) {
    if (error) {
        state.last_error = *error;
    }
}

} // namespace

Obstacle obstacle_from_drag(const PointerPos& from, const PointerPos& to, bool rectangle) {
    Obstacle o;
    if (rectangle) {
        o.shape = Obstacle::Shape::Rect;
        o.x0 = std::min(from.wx, to.wx);
        o.y0 = std::min(from.wy, to.wy);
        o.x1 = std::max(from.wx, to.wx);
        o.y1 = std::max(from.wy, to.wy);
    } else {
        o.shape = Obstacle::Shape::Circle;
        o.x = from.wx;
        o.y = from.wy;
        o.radius = std::hypot(to.wx - from.wx, to.wy - from.wy);
    }
    return o;
}

std::optional<std::size_t> obstacle_at(const Params& params, double x, double y, double tolerance) {
    for (std::size_t i = params.obstacles.size(); i-- > 0;) {
        if (surface_distance(params.obstacles[i], x, y).distance <= tolerance) {
            return i;
        }
    }
    return std::nullopt;
}

std::optional<std::string> move_carrot(Params& params, double x, double y) {
    Params edited = params;
    if (auto error = apply_param_edit(edited, "carrot_x", x)) {
        return error;
    }
    if (auto error = apply_param_edit(edited, "carrot_y", y)) {
        return error;
    }
    params = edited;
    return std::nullopt;
}

void PointerTools::press(ViewerState&, MouseButton button, const PointerPos& at) {
    switch (button) {
    case MouseButton::Left:
        left_down_ = true;
        dragging_ = false;
        press_ = at;
        preview_.reset();
        break;
    case MouseButton::Middle:
        middle_down_ = true;
        break;
    case MouseButton::Right:
        right_down_ = true;
        right_press_ = at;
        break;
    }
}

bool PointerTools::move(ViewerState& state, const PointerPos& at, bool shift) {
    if (left_down_ && !dragging_ && moved_beyond_threshold(press_, at)) {
        dragging_ = true;
    }
    if (left_down_ && dragging_ && state.obstacle_tool) {
        preview_ = obstacle_from_drag(press_, at, shift);
        return middle_down_;
    }
    return (left_down_ && dragging_) || middle_down_;
}

void PointerTools::release(ViewerState& state, MouseButton button, const PointerPos& at, bool shift) {
    switch (button) {
    case MouseButton::Left: {
        if (!left_down_) {
            return; // pressed over the panel
        }
        const bool drag = dragging_ || moved_beyond_threshold(press_, at);
        left_down_ = dragging_ = false;
        preview_.reset();
        if (state.obstacle_tool) {
            if (drag) {
                std::vector<Obstacle> obstacles = state.params.obstacles;
                obstacles.push_back(obstacle_from_drag(press_, at, shift));
                report(state, apply_obstacles_edit(state.params, obstacles));
            }
            return; // a click with the obstacle tool draws nothing
        }
        if (drag) {
            return; // the drag panned
        }
        if (state.params.model == Model::Weighted) {
            state.carrot_tracking = !state.carrot_tracking;
            if (state.carrot_tracking) {
                report(state, move_carrot(state.params, at.wx, at.wy));
            }
            return;
        }
        state.placements.push_back({Kind::Predator, at.wx, at.wy, 1});
        return;
    }
    case MouseButton::Middle:
        middle_down_ = false;
        return;
    case MouseButton::Right: {
        if (!right_down_) {
            return;
        }
        right_down_ = false;
        if (moved_beyond_threshold(right_press_, at)) {
            return;
        }
        if (const auto hit = obstacle_at(state.params, at.wx, at.wy, obstacle_pick_px * at.world_per_pixel)) {
            std::vector<Obstacle> obstacles = state.params.obstacles;
            obstacles.erase(obstacles.begin() + static_cast<std::ptrdiff_t>(*hit));
            report(state, apply_obstacles_edit(state.params, obstacles));
            return;
        }
        state.placements.push_back({Kind::Boid, at.wx, at.wy, boids_per_right_click});
        return;
    }
    }
}

void PointerTools::follow(ViewerState& state, const std::optional<PointerPos>& mouse) {
    if (!state.carrot_tracking || state.params.model != Model::Weighted || !mouse) {
        return;
    }
    if (state.params.carrot_x == mouse->wx && state.params.carrot_y == mouse->wy) {
        return;
    }
    if (const auto error = move_carrot(state.params, mouse->wx, mouse->wy)) {
        state.last_error = *error;
        state.carrot_tracking = false; // e.g. far outside the allowed range: stop rather than repeat
    }
}

} // namespace boids::viewer
