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

Obstacle obstacle_from_drag(const PointerPos& from, const PointerPos& to, bool rectangle, bool solid) {
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
        if (solid) {
            o.z = from.wz;
            o.radius = std::sqrt(o.radius * o.radius + (to.wz - from.wz) * (to.wz - from.wz));
        }
    }
    return o;
}

std::optional<std::size_t> obstacle_at(const Params& params, const PointerPos& at, double tolerance) {
    for (std::size_t i = params.obstacles.size(); i-- > 0;) {
        const Obstacle& o = params.obstacles[i];
        const double d = params.dimensions == 3
                             ? surface_distance(o, at.wx, at.wy, at.wz, params.depth).distance
                             : surface_distance(o, at.wx, at.wy).distance;
        if (d <= tolerance) {
            return i;
        }
    }
    return std::nullopt;
}

std::optional<std::string> move_carrot(Params& params, const PointerPos& at) {
    Params edited = params;
    if (auto error = apply_param_edit(edited, "carrot_x", at.wx)) {
        return error;
    }
    if (auto error = apply_param_edit(edited, "carrot_y", at.wy)) {
        return error;
    }
    if (params.dimensions == 3) {
        if (auto error = apply_param_edit(edited, "carrot_z", at.wz)) {
            return error;
        }
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
        preview_ = obstacle_from_drag(press_, at, shift, state.params.dimensions == 3);
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
                obstacles.push_back(obstacle_from_drag(press_, at, shift, state.params.dimensions == 3));
                report(state, apply_obstacles_edit(state.params, obstacles));
            }
            return; // a click with the obstacle tool draws nothing
        }
        if (drag) {
            return; // the drag panned
        }
        if (model_abilities(state.params.model).carrot) {
            state.carrot_tracking = !state.carrot_tracking;
            if (state.carrot_tracking) {
                report(state, move_carrot(state.params, at));
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
        if (const auto hit = obstacle_at(state.params, at, obstacle_pick_px * at.world_per_pixel)) {
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
    if (!state.carrot_tracking || !model_abilities(state.params.model).carrot || !mouse) {
        return;
    }
    if (get_number(state.params, "carrot_x") == mouse->wx &&
        get_number(state.params, "carrot_y") == mouse->wy &&
        (state.params.dimensions != 3 || get_number(state.params, "carrot_z") == mouse->wz)) {
        return;
    }
    if (const auto error = move_carrot(state.params, *mouse)) {
        state.last_error = *error;
        state.carrot_tracking = false; // e.g. far outside the allowed range: stop rather than repeat
    }
}

} // namespace boids::viewer
