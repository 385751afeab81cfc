#pragma once
// Pictures of a run without a display: an offscreen context, the flock renderer, and a video or PNG file.

#include "camera.hpp"
#include "flock_renderer.hpp"
#include "offscreen_context.hpp"
#include "video_recorder.hpp"
#include "yuv420.hpp"

#include <memory>
#include <string>

namespace boids::render {

/// Renders frames of a world offscreen and appends them to a video (.mp4 / .gif) or, for a .png target,
/// keeps the last one to save at finish().
class HeadlessRecording {
public:
    /// Opens the target. Throws InputError for a bad file name or missing ffmpeg, std::runtime_error if no
    /// offscreen OpenGL context can be made.
    HeadlessRecording(const std::string& path, int width, int height, FrameRate fps);
    ~HeadlessRecording();

    /// Draws `world` after `step` steps (where moving food is) with the whole world in view and appends it
    /// as one frame.
    template <class Real>
    void add_frame(const World<Real>& world, const Params& params, long long step);

    /// Closes the video or writes the PNG.
    void finish();

    [[nodiscard]] long long frames() const { return frames_; }
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    std::string path_;
    OffscreenContext context_;
    FlockRenderer renderer_;
    std::unique_ptr<Yuv420Reader> yuv_; ///< an MP4's frames, read as yuv420p
    std::unique_ptr<VideoRecorder> video_;
    RgbImage last_;
    long long frames_ = 0;
};

/// True when `path` names a PNG file (recorded as one picture, not a video).
[[nodiscard]] bool is_png_path(const std::string& path);

} // namespace boids::render
