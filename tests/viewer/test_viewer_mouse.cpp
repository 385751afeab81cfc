// The mouse in a real viewer window (under xvfb-run): SDL events go through the camera into obstacles and
// the carrot. The frame hook pushes the events; the next frame's input handling sees them.

#include "panel_mapping.hpp"
#include "viewer.hpp"

#include "boids/scenario.hpp"

#include <SDL.h>
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;

namespace {

void push_button(Uint32 type, Uint8 button, int x, int y) {
    SDL_Event e{};
    e.type = type;
    e.button.type = type;
    e.button.button = button;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    e.button.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
    SDL_PushEvent(&e);
}

void push_motion(int x, int y, int dx, int dy) {
    SDL_Event e{};
    e.type = SDL_MOUSEMOTION;
    e.motion.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    e.motion.xrel = dx;
    e.motion.yrel = dy;
    e.motion.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
    SDL_PushEvent(&e);
}

void push_click(Uint8 button, int x, int y) {
    push_button(SDL_MOUSEBUTTONDOWN, button, x, y);
    push_button(SDL_MOUSEBUTTONUP, button, x, y);
}

ViewerOptions paused_window() {
    ViewerOptions o;
    o.scenario = load_preset("vga-predator");
    o.paused = true;
    o.hide_panel = true; // the whole 640 x 480 window is the view: scale 0.96, offsets 12.8 and 9.6
    o.window_width = 640;
    o.window_height = 480;
    return o;
}

double world_x(int px) {
    return (px - 12.8) / 0.96;
}
double world_y(int py) {
    return (py - 9.6) / 0.96;
}

} // namespace

TEST(ViewerMouse, DragDrawsAnObstacleAndRightClickRemovesIt) {
    ViewerOptions o = paused_window();
    o.frames = 8;
    int calls = 0;
    std::vector<Obstacle> drawn, after_shift_drag, after_right_click;
    o.hook = [&](ViewerState& s, SimulationController&) {
        ++calls;
        if (calls == 1) {
            s.obstacle_tool = true;
            push_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 320, 240);
            push_motion(368, 240, 48, 0);
            push_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 368, 240);
        }
        if (calls == 3) {
            drawn = s.params.obstacles;
            SDL_SetModState(KMOD_LSHIFT);
            push_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 500, 100);
            push_motion(560, 160, 60, 60);
            push_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 560, 160);
        }
        if (calls == 5) {
            SDL_SetModState(KMOD_NONE);
            after_shift_drag = s.params.obstacles;
            push_click(SDL_BUTTON_RIGHT, 330, 250); // inside the circle
        }
        if (calls == 7) {
            after_right_click = s.params.obstacles;
        }
    };
    std::string why;
    ASSERT_TRUE(run_viewer(o, why)) << why;
    ASSERT_EQ(drawn.size(), 1u);
    EXPECT_EQ(drawn[0].shape, Obstacle::Shape::Circle);
    EXPECT_NEAR(drawn[0].x, 320, 1e-9);
    EXPECT_NEAR(drawn[0].y, 240, 1e-9);
    EXPECT_NEAR(drawn[0].radius, 50, 1e-9);
    ASSERT_EQ(after_shift_drag.size(), 2u);
    const Obstacle& r = after_shift_drag[1];
    EXPECT_EQ(r.shape, Obstacle::Shape::Rect);
    EXPECT_NEAR(r.x0, world_x(500), 1e-9);
    EXPECT_NEAR(r.y0, world_y(100), 1e-9);
    EXPECT_NEAR(r.x1, world_x(560), 1e-9);
    EXPECT_NEAR(r.y1, world_y(160), 1e-9);
    ASSERT_EQ(after_right_click.size(), 1u);
    EXPECT_EQ(after_right_click[0], r);
}

TEST(ViewerMouse, ClickTogglesTheCarrotInTheWeightedModelAndItFollowsTheMouse) {
    // Pointer warps reach SDL through the X server, a frame or several later (many more under the sanitizers
    // or when the other test job holds the cores: a paused frame takes ~2 ms, a round trip to the X server
    // can take longer than hundreds of them), so each phase waits for what it expects instead of counting
    // frames, and the bound is a generous wall-clock deadline rather than a frame budget.
    ViewerOptions o = paused_window();
    o.frames = 10'000'000;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int calls = 0, phase = 0, phase_start = 0;
    bool tracking_after_click = false, tracking_after_second_click = true;
    double carrot_x_after_click = 0, carrot_y_after_click = 0, followed_x = 0, followed_y = 0;
    double stopped_x = 0, stopped_y = 0;
    int target_x = 200; // where the pointer is warped for the carrot to follow
    o.hook = [&](ViewerState& s, SimulationController&) {
        ++calls;
        if (std::chrono::steady_clock::now() > deadline) {
            s.quit = true; // stalled: the expectations below say where
            return;
        }
        SDL_Window* window = SDL_GL_GetCurrentWindow();
        const auto next = [&] {
            ++phase;
            phase_start = calls;
        };
        switch (phase) {
        case 0:
            EXPECT_EQ(apply_param_edit(s.params, "model", std::string_view("weighted")), std::nullopt);
            SDL_WarpMouseInWindow(window, 100, 100); // the pointer the carrot will follow
            next();
            break;
        case 1:
            if (calls - phase_start >= 2) {
                push_click(SDL_BUTTON_LEFT, 100, 100);
                next();
            }
            break;
        case 2:
            if (s.carrot_tracking) {
                tracking_after_click = true;
                carrot_x_after_click = get_number(s.params, "carrot_x");
                carrot_y_after_click = get_number(s.params, "carrot_y");
                SDL_WarpMouseInWindow(window, target_x, 150);
                next();
            }
            break;
        case 3:
            if (std::abs(get_number(s.params, "carrot_x") - world_x(target_x)) <
                1e-9) { // it followed the pointer
                followed_x = get_number(s.params, "carrot_x");
                followed_y = get_number(s.params, "carrot_y");
                push_click(SDL_BUTTON_LEFT, target_x, 150);
                next();
            } else if ((calls - phase_start) % 200 == 199) {
                // Now and then (~1 in 50 runs on a loaded machine) the warp's motion never reaches SDL;
                // warping to the same pixel again would not move the X pointer, so move one pixel on.
                SDL_WarpMouseInWindow(window, ++target_x, 150);
            }
            break;
        case 4:
            if (!s.carrot_tracking) {
                tracking_after_second_click = false;
                SDL_WarpMouseInWindow(window, 300, 300); // no longer followed
                next();
            }
            break;
        case 5:
            if (calls - phase_start >= 8) { // time enough for the warp to arrive and be ignored
                stopped_x = get_number(s.params, "carrot_x");
                stopped_y = get_number(s.params, "carrot_y");
                s.quit = true;
                next();
            }
            break;
        default:
            break;
        }
    };
    std::string why;
    ASSERT_TRUE(run_viewer(o, why)) << why;
    EXPECT_EQ(phase, 6) << "stalled in phase " << phase << " after " << calls << " frames";
    EXPECT_TRUE(tracking_after_click);
    EXPECT_NEAR(carrot_x_after_click, world_x(100), 1e-9);
    EXPECT_NEAR(carrot_y_after_click, world_y(100), 1e-9);
    EXPECT_NEAR(followed_x, world_x(target_x), 1e-9);
    EXPECT_NEAR(followed_y, world_y(150), 1e-9);
    EXPECT_FALSE(tracking_after_second_click);
    EXPECT_NEAR(stopped_x, world_x(target_x), 1e-9);
    EXPECT_NEAR(stopped_y, world_y(150), 1e-9);
}
