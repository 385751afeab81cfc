#include "viewer.hpp"

#include "boids/metrics.hpp"
#include "boids/precision.hpp"

#include "apply_requests.hpp"
#include "grow_controller.hpp"
#include "panel.hpp"
#include "panel_mapping.hpp"
#include "pointer_tools.hpp"
#include "scene_file.hpp"
#include "step_clock.hpp"

#include "camera.hpp"
#include "flock_renderer.hpp"
#include "image.hpp"
#include "video_recorder.hpp"

#include <SDL.h>
#include <epoxy/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

namespace boids::viewer {

namespace {

using render::FlockRenderer;
using render::read_framebuffer;
using render::RgbImage;
using render::write_png;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

constexpr double grow_window_s = 1.5;        // one measurement of the achieved rate
constexpr double grow_settle_s = 0.5;        // let a resized flock settle before measuring
constexpr double stats_window_s = 0.5;       // HUD rates are averaged over this
constexpr double unlimited_budget_s = 0.012; // "as fast as possible" steps this long per frame, at least once

/// The SDL window and its GL context; destroyed in the right order.
struct Window {
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    ~Window() {
        if (gl != nullptr) {
            SDL_GL_DeleteContext(gl);
        }
        if (window != nullptr) {
            SDL_DestroyWindow(window);
        }
        SDL_Quit();
    }
};

/// Opens the window, or says why not.
std::unique_ptr<Window> open_window(const ViewerOptions& o, std::string& why) {
    why = display_problem();
    if (!why.empty()) {
        return nullptr;
    }
    auto w = std::make_unique<Window>();
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24); // 3D views draw near agents over far ones
    w->window = SDL_CreateWindow("boids", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o.window_width,
                                 o.window_height,
                                 SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (w->window == nullptr) {
        why = std::string("SDL cannot open a window: ") + SDL_GetError();
        return nullptr;
    }
    w->gl = SDL_GL_CreateContext(w->window);
    if (w->gl == nullptr) {
        why = std::string("SDL cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
        return nullptr;
    }
    SDL_GL_MakeCurrent(w->window, w->gl);
    // Under a real display, vsync paces the frames; the simulation has its own clock either way.
    SDL_GL_SetSwapInterval(std::getenv("BOIDS_NO_VSYNC") ? 0 : 1);
    return w;
}

/// ImGui's context and backends for one window.
struct Gui {
    Gui(SDL_Window* window, SDL_GLContext gl) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr; // no imgui.ini in the user's directory
        ImGui::StyleColorsDark();
        ImGui_ImplSDL2_InitForOpenGL(window, gl);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    ~Gui() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
};

/// How a viewer's session starts: the same setup `run --control` and Python build theirs from.
SimulationSetup session_setup(const ViewerOptions& o) {
    SimulationSetup setup{o.scenario, std::nullopt, o.precision, o.threads};
    if (o.init_file) {
        setup.init_file = *o.init_file;
    }
    return setup;
}

/// One window flying one session (SimulationController). The panel, keys and mouse edit ViewerState,
/// whose requests apply to the session between steps; the control port acts on the session directly,
/// through the frame hook, with the same protocol implementation as the headless run.
class Flyer {
public:
    Flyer(const ViewerOptions& o, Window& w) : options_(o), window_(w), session_(session_setup(o)) {
        state_.scene_name = o.scenario.name;
        state_.scene_file = o.scene_file;
        state_.rate = o.rate;
        state_.grow = o.grow;
        state_.carrot_tracking = o.carrot_tracking;
        state_.obstacle_tool = o.obstacle_tool;
        ui_.hidden = o.hide_panel;
        session_.set_paused(o.paused);
        sync_from_session(state_, session_, seen_);
        show(o.scenario.view);
    }

    void run() {
        FlockRenderer renderer;
        Gui gui(window_.window, window_.gl);
        std::unique_ptr<render::VideoRecorder> video;
        auto last = Clock::now();
        auto stats_start = last;
        long long stats_steps = 0, stats_frames = 0;
        double stats_render_s = 0.0;
        double behind_until = -1.0;
        const auto started = last;
        SimRate last_rate = state_.rate;

        while (!state_.quit) {
            handle_events();
            tools_.follow(state_, mouse_over_view());
            handle_scene_requests(state_, session_, camera_view(), [this](const SceneView& v) { show(v); });
            apply_requests(state_, session_, seen_);
            sync_from_session(state_, session_, seen_);
            if (options_.hook) { // the control port's commands, between two steps
                options_.hook(state_, session_);
                apply_requests(state_, session_, seen_);
                sync_from_session(state_, session_, seen_);
            }
            if (state_.rate != last_rate) {
                clock_.reset();
                last_rate = state_.rate;
            }
            update_grow_mode();

            // --- simulation: fixed rate, decoupled from the frame rate ---
            const auto now = Clock::now();
            const double dt = std::chrono::duration<double>(now - last).count();
            last = now;
            long long taken = 0;
            if (state_.paused) {
                clock_.reset();
                for (; state_.single_steps > 0; --state_.single_steps, ++taken) {
                    session_.step(1);
                }
            } else {
                state_.stats.elapsed_s += dt;
                if (state_.rate == SimRate::Unlimited) {
                    const auto frame_start = Clock::now();
                    do {
                        session_.step(1);
                        ++taken;
                    } while (seconds_since(frame_start) < unlimited_budget_s);
                } else {
                    const StepBudget budget = clock_.advance(dt, steps_per_second(state_.rate));
                    if (budget.dropped) {
                        behind_until = seconds_since(started) + 1.0;
                        state_.stats.behind_because = frame_bottleneck(
                            session_.last_profile().total_ms,
                            std::max(1.0, static_cast<double>(budget.steps)), state_.stats.render_ms);
                    }
                    session_.step(budget.steps);
                    taken = budget.steps;
                }
            }
            stats_steps += taken;
            grow_frames_ += taken > 0 ? 1 : 0; // a frame that shows a new state of the flock
            grow_steps_ += taken;
            observe_grow();

            // --- drawing ---
            const auto render_start = Clock::now();
            int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
            SDL_GL_GetDrawableSize(window_.window, &fb_w, &fb_h);
            SDL_GetWindowSize(window_.window, &win_w, &win_h);
            pixel_ratio_ = win_w > 0 ? static_cast<double>(fb_w) / win_w : 1.0;
            view_w_ = std::max(
                1, fb_w - (ui_.hidden
                               ? 0
                               : static_cast<int>(panel_width(static_cast<float>(win_w)) * pixel_ratio_)));
            view_h_ = std::max(1, fb_h);
            glViewport(0, 0, fb_w, fb_h);
            glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            session_.visit([&](const auto& sim) { renderer.upload(sim.world()); });
            render::SceneOverlay overlay;
            overlay.step = session_.steps_taken();
            overlay.preview = tools_.preview();
            overlay.carrot_tracking = state_.carrot_tracking;
            if (solid()) {
                renderer.draw_3d(session_.params(), frame(), view_w_, view_h_, fb_h, overlay);
            } else {
                renderer.draw(session_.params(), view(), view_w_, view_h_, fb_h, overlay);
            }

            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplSDL2_NewFrame();
            ImGui::NewFrame();
            draw_hud(state_, std::string(precision_name(session_.precision())).c_str());
            if (!ui_.hidden) {
                draw_panel(state_, ui_, static_cast<float>(win_w), static_cast<float>(win_h));
            }
            ImGui::Render();
            glViewport(0, 0, fb_w, fb_h);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

            ++state_.stats.frames;
            const bool last_frame = options_.frames > 0 && state_.stats.frames >= options_.frames;
            if (last_frame && !options_.screenshot_path.empty()) {
                state_.screenshot_path = options_.screenshot_path;
            }
            if (!state_.screenshot_path.empty() || !options_.record_path.empty()) {
                glReadBuffer(GL_BACK);
                const RgbImage frame = read_framebuffer(fb_w, fb_h);
                if (!state_.screenshot_path.empty()) {
                    write_png(state_.screenshot_path, frame);
                    std::printf("boids view: screenshot written to %s (%dx%d)\n",
                                state_.screenshot_path.c_str(), fb_w, fb_h);
                    state_.screenshot_path.clear();
                }
                if (!options_.record_path.empty()) {
                    record_frame(video, frame, taken);
                }
            }
            SDL_GL_SwapWindow(window_.window);
            const double render_s = seconds_since(render_start);
            stats_render_s += render_s;
            grow_render_s_ += render_s;
            ++grow_drawn_;
            ++stats_frames;
            render_ms_sum_ += render_s * 1000.0;
            ++render_frames_sum_;

            // --- observations for the HUD and any controller ---
            ViewerStats& st = state_.stats;
            st.steps_taken = session_.steps_taken();
            st.agents = session_.counts();
            st.last_profile = session_.last_profile();
            st.falling_behind = seconds_since(started) < behind_until;
            const double window = seconds_since(stats_start);
            if (window >= stats_window_s) {
                st.sim_steps_per_s = static_cast<double>(stats_steps) / window;
                st.render_fps = static_cast<double>(stats_frames) / window;
                st.render_ms = 1000.0 * stats_render_s / static_cast<double>(std::max(1LL, stats_frames));
                stats_start = Clock::now();
                stats_steps = stats_frames = 0;
                stats_render_s = 0.0;
            }
            // Order parameters for the panel's plots: every third frame that stepped, while they are cheap
            // next to the step (they cost about as much as a neighbour pass).
            if (state_.plot_metrics && taken > 0 && ++metrics_frames_ % 3 == 0 &&
                session_.size() <= 200'000) {
                const Metrics m = session_.visit([](const auto& sim) {
                    return compute_metrics(sim.world(), sim.params(), sim.threads());
                });
                state_.history.push(m.polarization, m.milling, m.nnd_mean, static_cast<double>(m.groups),
                                    m.speed_mean, m.frac_right);
            }
            if (last_frame) {
                state_.quit = true;
            }
        }
        if (video) {
            video->finish();
            std::printf("boids view: %lld frames recorded to %s\n", video->frames(),
                        options_.record_path.c_str());
        }
        const ViewerStats& st = state_.stats;
        std::printf("boids view: %lld frames, %lld steps, %lld agents, last second %.1f steps/s, %.1f fps, "
                    "mean render %.2f ms/frame\n",
                    st.frames, st.steps_taken, st.agents.total(), st.sim_steps_per_s, st.render_fps,
                    render_frames_sum_ > 0 ? render_ms_sum_ / static_cast<double>(render_frames_sum_)
                                           : st.render_ms);
    }

private:
    [[nodiscard]] render::ViewTransform view() const {
        const Params& p = session_.params();
        return camera_.transform(p.width, p.height, view_w_, view_h_);
    }

    /// A 3D world (dimensions = 3): the orbit camera instead of the 2D zoom and pan.
    [[nodiscard]] bool solid() const { return session_.params().dimensions == 3; }

    /// Adds what this frame shows to the video so that the video plays at the rate the flock flew: at that
    /// rate (60 frames per second at most), one video frame per step, repeating a drawn frame for every
    /// step it shows; a paused flock adds nothing. Flat out, each drawn frame is one frame at 60 per second.
    void record_frame(std::unique_ptr<render::VideoRecorder>& video, const RgbImage& frame, long long steps) {
        if (!video) {
            video_fps_ = state_.rate.per_second > 0 ? std::min(state_.rate.per_second, 60) : 60;
            video = std::make_unique<render::VideoRecorder>(options_.record_path, frame.width, frame.height,
                                                            render::FrameRate{video_fps_, 1});
        }
        if (state_.rate.per_second <= 0) {
            video->add_frame(frame);
            return;
        }
        video_owed_ += static_cast<double>(steps) * video_fps_ / state_.rate.per_second;
        if (video->frames() == 0 && video_owed_ < 1.0) { // the first frame at once (a paused start too),
            video->add_frame(frame);                     // counted against the next step
            video_owed_ -= 1.0;
        }
        for (; video_owed_ >= 1.0; video_owed_ -= 1.0) {
            video->add_frame(frame);
        }
    }

    /// The camera as a scene saves it: 3D the orbit's angles and zoom, 2D the zoom and the view's centre.
    [[nodiscard]] SceneView camera_view() const {
        SceneView v;
        const Params& p = session_.params();
        if (solid()) {
            v.zoom = orbit_.zoom_factor();
            v.yaw = orbit_.yaw();
            v.pitch = orbit_.pitch();
        } else {
            v.zoom = camera_.zoom();
            v.center_x = p.width / 2 + camera_.centre_dx();
            v.center_y = p.height / 2 + camera_.centre_dy();
        }
        return v;
    }

    /// Points the camera as an opened scene says (what it leaves out starts as usual).
    void show(const SceneView& v) {
        camera_.reset();
        orbit_.reset();
        const Params& p = session_.params();
        if (v.yaw || v.pitch) {
            orbit_.set(v.yaw.value_or(orbit_.yaw()), v.pitch.value_or(orbit_.pitch()), v.zoom.value_or(1.0));
        } else if (!solid()) {
            camera_.set(v.zoom.value_or(1.0), v.center_x.value_or(p.width / 2) - p.width / 2,
                        v.center_y.value_or(p.height / 2) - p.height / 2);
        } else if (v.zoom) {
            orbit_.set(orbit_.yaw(), orbit_.pitch(), *v.zoom);
        }
    }

    [[nodiscard]] render::OrbitFrame frame() const {
        const Params& p = session_.params();
        return orbit_.frame(p.width, p.height, p.depth, view_w_, view_h_);
    }

    void handle_events() {
        SDL_Event e;
        const ImGuiIO& io = ImGui::GetIO();
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            const Params& p = session_.params();
            switch (e.type) {
            case SDL_QUIT:
                state_.quit = true;
                break;
            case SDL_KEYDOWN:
                if (!io.WantCaptureKeyboard) {
                    key(e.key.keysym.sym);
                }
                break;
            case SDL_MOUSEWHEEL:
                if (!io.WantCaptureMouse && e.wheel.y != 0) {
                    int mx = 0, my = 0;
                    SDL_GetMouseState(&mx, &my);
                    if (solid()) {
                        orbit_.zoom(std::pow(1.15, e.wheel.y));
                        break;
                    }
                    camera_.zoom_at(std::pow(1.15, e.wheel.y), mx * pixel_ratio_, my * pixel_ratio_, p.width,
                                    p.height, view_w_, view_h_);
                }
                break;
            case SDL_MOUSEBUTTONDOWN:
                if (!io.WantCaptureMouse) {
                    if (const auto b = button(e.button.button)) {
                        tools_.press(state_, *b, pointer_at(e.button.x, e.button.y));
                    }
                }
                break;
            case SDL_MOUSEMOTION:
                if (tools_.move(state_, pointer_at(e.motion.x, e.motion.y), shift_held())) {
                    if (solid()) { // a drag orbits the camera round the box
                        orbit_.rotate_pixels(e.motion.xrel * pixel_ratio_, e.motion.yrel * pixel_ratio_);
                        break;
                    }
                    camera_.pan_pixels(e.motion.xrel * pixel_ratio_, e.motion.yrel * pixel_ratio_, p.width,
                                       p.height, view_w_, view_h_);
                }
                break;
            case SDL_MOUSEBUTTONUP:
                if (const auto b = button(e.button.button)) {
                    tools_.release(state_, *b, pointer_at(e.button.x, e.button.y), shift_held());
                }
                break;
            default:
                break;
            }
        }
    }

    static std::optional<MouseButton> button(Uint8 sdl_button) {
        switch (sdl_button) {
        case SDL_BUTTON_LEFT:
            return MouseButton::Left;
        case SDL_BUTTON_MIDDLE:
            return MouseButton::Middle;
        case SDL_BUTTON_RIGHT:
            return MouseButton::Right;
        default:
            return std::nullopt;
        }
    }

    static bool shift_held() { return (SDL_GetModState() & KMOD_SHIFT) != 0; }

    /// A window position (SDL's window coordinates) and the world point under it.
    [[nodiscard]] PointerPos pointer_at(int window_x, int window_y) const {
        if (!solid()) {
            return pointer_position(view(), window_x, window_y, pixel_ratio_);
        }
        // 3D: the point under the cursor on the plane facing the camera through the carrot (weighted
        // model: it moves in that plane) or through the box's centre.
        const Params& p = session_.params();
        const render::OrbitFrame f = frame();
        const render::Vec3 focus = model_abilities(p.model).carrot
                                       ? render::Vec3{get_number(p, "carrot_x"), get_number(p, "carrot_y"),
                                                      get_number(p, "carrot_z")}
                                       : f.target;
        const render::Vec3 w = f.unproject(window_x * pixel_ratio_, window_y * pixel_ratio_, focus);
        return {static_cast<double>(window_x),
                static_cast<double>(window_y),
                w.x,
                w.y,
                f.world_per_pixel(w) * pixel_ratio_,
                w.z};
    }

    /// The mouse, when it is over the flock view of this window and not over the panel or a menu.
    [[nodiscard]] std::optional<PointerPos> mouse_over_view() const {
        if (SDL_GetMouseFocus() != window_.window || ImGui::GetIO().WantCaptureMouse) {
            return std::nullopt;
        }
        int mx = 0, my = 0;
        SDL_GetMouseState(&mx, &my);
        if (mx < 0 || my < 0 || mx * pixel_ratio_ >= view_w_ || my * pixel_ratio_ >= view_h_) {
            return std::nullopt;
        }
        return pointer_at(mx, my);
    }

    void key(SDL_Keycode k) {
        switch (k) {
        case SDLK_SPACE:
            state_.paused = !state_.paused;
            break;
        case SDLK_PERIOD:
            state_.paused = true;
            ++state_.single_steps;
            break;
        case SDLK_r:
            state_.reset = true;
            break;
        case SDLK_f:
            ui_.fullscreen = !ui_.fullscreen;
            SDL_SetWindowFullscreen(window_.window, ui_.fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
            break;
        case SDLK_h:
            ui_.hidden = !ui_.hidden;
            break;
        case SDLK_c: // the camera back to its starting view (2D: the whole world; 3D: the three-quarter view)
            camera_.reset();
            orbit_.reset();
            break;
        case SDLK_o:
            if ((SDL_GetModState() & KMOD_CTRL) != 0) { // Ctrl+O: open the scene file
                state_.open_scene = true;
                break;
            }
            state_.obstacle_tool = !state_.obstacle_tool;
            break;
        case SDLK_s: {
            if ((SDL_GetModState() & KMOD_CTRL) != 0) { // Ctrl+S: save the scene
                state_.save_scene = true;
                break;
            }
            char name[64];
            std::snprintf(name, sizeof name, "boids-screenshot-%d.png", ++screenshots_);
            state_.screenshot_path = name;
            break;
        }
        case SDLK_q:
        case SDLK_ESCAPE:
            state_.quit = true;
            break;
        default:
            break;
        }
    }

    /// Starts or stops the grow search when the mode is switched.
    void update_grow_mode() {
        if (state_.grow && !grow_) {
            const double target = state_.rate == SimRate::Unlimited ? 30.0 : steps_per_second(state_.rate);
            grow_.emplace(target, std::max(1000LL, state_.counts.total()));
            state_.growth = {true, false, 0};
            set_flock(grow_->next_flock());
            start_grow_window();
        } else if (!state_.grow && grow_) {
            grow_.reset();
            state_.growth.active = false;
        }
    }

    void start_grow_window() {
        grow_window_start_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(grow_settle_s));
        grow_steps_ = grow_frames_ = grow_drawn_ = 0;
        grow_render_s_ = grow_step_ms_ = 0.0;
    }

    /// Feeds the grow search one measurement per window and flies the size it asks for next.
    void observe_grow() {
        if (!grow_ || grow_->finished()) {
            return;
        }
        if (state_.paused) {
            start_grow_window(); // paused time is not a measurement
            return;
        }
        if (Clock::now() < grow_window_start_) {
            grow_steps_ = grow_frames_ = grow_drawn_ = 0;
            grow_render_s_ = grow_step_ms_ = 0.0;
            return;
        }
        grow_step_ms_ += session_.last_profile().total_ms;
        const double window = seconds_since(grow_window_start_);
        if (window < grow_window_s) {
            return;
        }
        // The lab's measure: frames per second that each show a new step (drawing included), not steps
        // per second. A window that steps 30 times a second but draws 12 frames animates at 12.
        const double animated = static_cast<double>(grow_frames_) / window;
        const long long flock = static_cast<long long>(session_.size());
        if (!grow_->holds(animated)) {
            const double frames = static_cast<double>(std::max(1LL, grow_drawn_));
            state_.growth.limit =
                frame_bottleneck(grow_step_ms_ / frames, static_cast<double>(grow_steps_) / frames,
                                 1000.0 * grow_render_s_ / frames);
            state_.growth.missed = true;
        }
        const long long next = grow_->observe(flock, animated);
        state_.growth.largest_held = grow_->largest_held();
        if (grow_->finished()) {
            state_.growth.finished = true;
            std::printf("boids view: grow: the largest flock animated at %.0f frames/s is %lld agents "
                        "(one step per frame, drawing included; %s limits the next size)\n",
                        grow_->target(), grow_->largest_held(), bottleneck_name(state_.growth.limit));
            std::fflush(stdout);
        }
        set_flock(next);
        start_grow_window();
    }

    /// Makes the whole flock `total` agents by changing the number of boids.
    void set_flock(long long total) {
        const AgentCounts& c = state_.counts;
        const long long others = c.scouts1 + c.scouts2 + c.predators;
        const long long boids = std::max(0LL, total - others);
        if (auto error = apply_count_edit(state_.counts, "boids", boids)) {
            state_.last_error = *error;
        }
    }

    const ViewerOptions& options_;
    Window& window_;
    ViewerState state_;
    PanelUi ui_;
    SimulationController session_;
    SessionView seen_; ///< the session's values as last shown; ViewerState's differences are requests
    render::Camera camera_;
    render::OrbitCamera orbit_;
    StepClock clock_;
    PointerTools tools_;
    std::optional<GrowController> grow_;
    Clock::time_point grow_window_start_;
    long long grow_steps_ = 0;
    long long grow_frames_ = 0;  ///< frames of the window that showed a new step
    long long grow_drawn_ = 0;   ///< frames drawn in the window
    double grow_render_s_ = 0.0; ///< drawing time in the window
    double grow_step_ms_ = 0.0;  ///< step time in the window (the last step's, summed per frame)
    double pixel_ratio_ = 1.0;
    int view_w_ = 1;
    int view_h_ = 1;
    int screenshots_ = 0;
    int video_fps_ = 30;      ///< the recording's frames per second, fixed when it starts
    double video_owed_ = 0.0; ///< video frames the steps so far have earned and not yet written
    double render_ms_sum_ = 0.0;
    long long render_frames_sum_ = 0;
    long long metrics_frames_ = 0;
};

} // namespace

std::string display_problem() {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((x11 == nullptr || *x11 == '\0') && (wayland == nullptr || *wayland == '\0')) {
        return "no display (DISPLAY and WAYLAND_DISPLAY are unset)";
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        return std::string("SDL cannot open the display: ") + SDL_GetError();
    }
    // When DISPLAY points at no server, SDL falls back to its "offscreen" driver rather than failing: a
    // window nobody sees (and a crash in its GL setup here). Only a driver the user asked for by
    // SDL_VIDEODRIVER, or a real window system, counts as a display.
    const std::string driver = SDL_GetCurrentVideoDriver() != nullptr ? SDL_GetCurrentVideoDriver() : "";
    const char* asked = std::getenv("SDL_VIDEODRIVER");
    if (driver != "x11" && driver != "wayland" && (asked == nullptr || *asked == '\0')) {
        SDL_Quit();
        return "no display can be opened (DISPLAY='" + std::string(x11 != nullptr ? x11 : "") +
               "', WAYLAND_DISPLAY='" + std::string(wayland != nullptr ? wayland : "") +
               "'; SDL found only its '" + driver + "' driver)";
    }
    return {};
}

bool run_viewer(const ViewerOptions& options, std::string& why) {
    if (!options.record_path.empty()) {
        render::check_video_target("--record", options.record_path);
    }
    std::unique_ptr<Window> window = open_window(options, why);
    if (!window) {
        return false;
    }
    Flyer flyer(options, *window);
    flyer.run();
    return true;
}

} // namespace boids::viewer
