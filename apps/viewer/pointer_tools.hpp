#pragma once
// What the mouse does on the flock, as requests in a ViewerState: click vs drag, the carrot of the weighted
// model, obstacles drawn and removed, agents placed, panning. No SDL or GL here: the window passes each
// mouse event with its position in window pixels and in world coordinates (through the camera), so the
// gestures are unit tested without a window.

#include "viewer_state.hpp"

#include "boids/obstacle.hpp"

#include <optional>

namespace boids::viewer {

/// A mouse position: window pixels (click vs drag) and the world point under it.
struct PointerPos {
    double px = 0.0;
    double py = 0.0;
    double wx = 0.0;
    double wy = 0.0;
    double world_per_pixel = 1.0; ///< world units per window pixel, for pick tolerances
    double wz = 0.0; ///< 3D: on the plane facing the camera through the carrot (weighted) or the box centre
};

/// The pointer at (window_x, window_y) in the window's coordinates (SDL's; `pixel_ratio` framebuffer pixels
/// per window unit on high-DPI screens) seen through the camera's `view` (render::ViewTransform: anything
/// with to_world_x, to_world_y and scale, in framebuffer pixels).
template <class ViewTransform>
[[nodiscard]] PointerPos pointer_position(const ViewTransform& view, double window_x, double window_y,
                                          double pixel_ratio) {
    return {window_x, window_y, view.to_world_x(window_x * pixel_ratio),
            view.to_world_y(window_y * pixel_ratio), 1.0 / (view.scale * pixel_ratio)};
}

enum class MouseButton { Left, Middle, Right };

/// Moves farther than this (pixels) between press and release make a drag, not a click.
inline constexpr double drag_threshold_px = 4.0;
/// A right click this close (pixels) to an obstacle's surface removes it.
inline constexpr double obstacle_pick_px = 4.0;
/// Boids a right click adds around the cursor.
inline constexpr long long boids_per_right_click = 50;

/// The obstacle a drag from `from` to `to` draws: a circle centred at `from` through `to`, or with
/// `rectangle` the axis-aligned rectangle with those two corners. In 3D (`solid`) the circle is a sphere
/// centred at `from` in space and the rectangle a column through the whole depth.
[[nodiscard]] Obstacle obstacle_from_drag(const PointerPos& from, const PointerPos& to, bool rectangle,
                                          bool solid = false);

/// The index of the topmost (last drawn) obstacle within `tolerance` world units of the pointer, if any.
[[nodiscard]] std::optional<std::size_t> obstacle_at(const Params& params, const PointerPos& at,
                                                     double tolerance);

/// Mouse gestures on the flock view. Bindings:
/// - left click: weighted model, toggle carrot tracking (the carrot jumps to the click); obstacle tool,
///   nothing; otherwise add a predator at the cursor;
/// - left drag: with the obstacle tool (`o`), draw a circle from its centre, or with shift a rectangle
///   corner to corner; otherwise pan. Middle drag: pan;
/// - right click: on an obstacle, remove it; elsewhere add boids_per_right_click boids around the cursor.
/// Parameter changes go through the panel's validation (apply_param_edit, apply_obstacles_edit); a
/// rejected one sets state.last_error and changes nothing.
class PointerTools {
public:
    /// A button went down over the flock view (not over the panel).
    void press(ViewerState& state, MouseButton button, const PointerPos& at);
    /// The mouse moved. Returns true when the motion pans the view (the window moves the camera).
    bool move(ViewerState& state, const PointerPos& at, bool shift);
    /// A button went up (anywhere: a drag may end over the panel).
    void release(ViewerState& state, MouseButton button, const PointerPos& at, bool shift);
    /// Once per frame: while the carrot is tracking (weighted model), it goes to `mouse`, the world point
    /// under the cursor, or stays where it is when the cursor is not over the view (nullopt).
    void follow(ViewerState& state, const std::optional<PointerPos>& mouse);

    /// The obstacle being drawn, for the renderer to preview.
    [[nodiscard]] std::optional<Obstacle> preview() const { return preview_; }
    /// True while a left drag is under way.
    [[nodiscard]] bool dragging() const { return left_down_ && dragging_; }

private:
    bool left_down_ = false;
    bool right_down_ = false;
    bool middle_down_ = false;
    bool dragging_ = false;
    PointerPos press_{};
    PointerPos right_press_{};
    std::optional<Obstacle> preview_;
};

/// Sets the carrot (weighted model) to the pointer's world point (x, y, and z in 3D) through the panel's
/// validation; the error, if rejected.
std::optional<std::string> move_carrot(Params& params, const PointerPos& at);

} // namespace boids::viewer
