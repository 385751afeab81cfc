#include "headless_recording.hpp"
#include "boids/fix15.hpp"

#include "boids/error.hpp"

namespace boids::render {

bool is_png_path(const std::string& path) {
    return path.size() >= 4 && path.compare(path.size() - 4, 4, ".png") == 0;
}

namespace {
/// Validates the target before any GL work, so a bad name is reported without touching EGL.
const std::string& checked(const std::string& path) {
    if (!is_png_path(path)) {
        check_video_target("--record", path);
    }
    return path;
}
} // namespace

HeadlessRecording::HeadlessRecording(const std::string& path, int width, int height, FrameRate fps)
    : path_(checked(path)), context_(width, height) {
    if (is_png_path(path)) {
        return;
    }
    // An MP4 gets its frames in the encoder's format (its even part, as ffmpeg would crop it): with
    // software GL the RGB read-back (a byte shuffle per pixel) and ffmpeg's conversion from RGB cost more
    // than reading RGBA and converting here, and half the bytes go through the pipe. A GIF's palette is
    // made from RGB.
    if (path.ends_with(".mp4")) {
        yuv_ = std::make_unique<Yuv420Reader>(width / 2 * 2, height / 2 * 2);
        video_ =
            std::make_unique<VideoRecorder>(path, yuv_->width(), yuv_->height(), fps, FrameFormat::yuv420p);
    } else {
        video_ = std::make_unique<VideoRecorder>(path, width, height, fps);
    }
}

HeadlessRecording::~HeadlessRecording() = default;

template <class Real>
void HeadlessRecording::add_frame(const World<Real>& world, const Params& params, long long step) {
    renderer_.upload(world);
    SceneOverlay overlay;
    overlay.step = step;
    if (params.dimensions == 3) { // the orbit camera's starting three-quarter view
        const OrbitFrame frame = OrbitCamera{}.frame(params.width, params.height, params.depth,
                                                     context_.width(), context_.height());
        renderer_.draw_3d(params, frame, context_.width(), context_.height(), context_.height(), overlay);
    } else {
        const Camera camera;
        const ViewTransform view =
            camera.transform(params.width, params.height, context_.width(), context_.height());
        renderer_.draw(params, view, context_.width(), context_.height(), context_.height(), overlay);
    }
    if (yuv_) {
        video_->add_frame(yuv_->read(context_.height()));
    } else {
        last_ = context_.read();
        if (video_) {
            video_->add_frame(last_);
        }
    }
    ++frames_;
}

void HeadlessRecording::finish() {
    if (video_) {
        video_->finish();
    } else if (frames_ > 0) {
        write_png(path_, last_);
    }
}

template void HeadlessRecording::add_frame(const World<float>&, const Params&, long long);
template void HeadlessRecording::add_frame(const World<double>&, const Params&, long long);
template void HeadlessRecording::add_frame(const World<Fix15>&, const Params&, long long);

} // namespace boids::render
