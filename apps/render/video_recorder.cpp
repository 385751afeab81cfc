#include "video_recorder.hpp"

#include "yuv420.hpp"

#include "boids/error.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace boids::render {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

bool ffmpeg_available() {
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/bin:/bin";
    while (!dirs.empty()) {
        const auto colon = dirs.find(':');
        const std::string dir(dirs.substr(0, colon));
        const std::string candidate = (dir.empty() ? "." : dir) + "/ffmpeg";
        if (access(candidate.c_str(), X_OK) == 0) {
            return true;
        }
        dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
    }
    return false;
}

void check_video_target(const std::string& flag, const std::string& path) {
    if (!ends_with(path, ".mp4") && !ends_with(path, ".gif")) {
        throw InputError(
            invalid_value_message(flag, "'" + path + "'", "expected a file name ending in .mp4 or .gif"));
    }
    if (!ffmpeg_available()) {
        throw InputError(flag + ": ffmpeg is not installed (not found on PATH); install the Debian package "
                                "ffmpeg (scripts/install-deps.sh does) to record videos");
    }
}

VideoRecorder::VideoRecorder(const std::string& path, int width, int height, FrameRate fps,
                             FrameFormat format)
    : path_(path), format_(format), width_(width), height_(height) {
    check_video_target("--record", path);
    const bool yuv = format == FrameFormat::yuv420p;
    if (yuv && (width % 2 != 0 || height % 2 != 0)) {
        throw std::logic_error("VideoRecorder: yuv420p frames have an even size");
    }
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const std::string rate = std::to_string(fps.num) + "/" + std::to_string(fps.den);
    const char* input = yuv ? "yuv420p" : "rgb24";
    std::vector<std::string> args{"ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                                  "-f",     "rawvideo",     "-pix_fmt",  input,   "-s",
                                  size,     "-r",           rate,        "-i",    "-"};
    if (ends_with(path, ".mp4")) {
        // H.264 in yuv420p (what every player reads) needs even sizes. The encoder was most of a headless
        // recording's time; its fastest preset takes less than half the CPU of "veryfast" for about twice
        // the bytes (a dark background with small arrows stays small either way). The stream says its
        // colours are BT.601 in limited range, what both ffmpeg's conversion of RGB frames and
        // rgba_to_yuv420p make, so that players which assume BT.709 for HD sizes show the right colours.
        if (!yuv) {
            for (const char* a : {"-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2"}) {
                args.emplace_back(a);
            }
        }
        for (const char* a :
             {"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-colorspace", "smpte170m",
              "-color_primaries", "smpte170m", "-color_trc", "smpte170m", "-color_range", "tv"}) {
            args.emplace_back(a);
        }
    }
    if (ends_with(path, ".gif")) {
        // Without a palette ffmpeg dithers every frame to a fixed 256-colour table: noise that no GIF
        // encoder can compress (a 3 s clip was 40 MB). One palette per frame, streamed (no frame buffered).
        for (const char* a : {"-vf", "split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=0[p];["
                                     "b][p]paletteuse=new=1:dither=none"}) {
            args.emplace_back(a);
        }
    }
    args.push_back(path);
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);

    int fds[2];
    if (pipe(fds) != 0) {
        throw std::runtime_error(std::string("--record: pipe failed: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const int rc = posix_spawnp(&pid_, "ffmpeg", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        throw InputError(std::string("--record: cannot start ffmpeg: ") + std::strerror(rc));
    }
    pipe_fd_ = fds[1];
    if (yuv) {
        // Room for a whole frame (up to the 1 MiB an unprivileged process may ask for), so that a headless
        // recording writes a frame while ffmpeg is still encoding the one before instead of 64 KiB at a time
        // as ffmpeg reads: 10% less wall time in the median of 12 interleaved runs. (The viewer's RGB
        // frames keep the default pipe.)
        fcntl(pipe_fd_, F_SETPIPE_SZ,
              static_cast<int>(std::min<std::size_t>(yuv420p_bytes(width, height), std::size_t{1} << 20)));
    }
    // A dying ffmpeg must turn into an error message, not kill us with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
}

VideoRecorder::~VideoRecorder() {
    if (pipe_fd_ >= 0 || pid_ > 0) {
        try {
            finish();
        } catch (const std::exception&) {
            // Destructors must not throw; finish() is called explicitly where the error matters.
        }
    }
}

void VideoRecorder::add_frame(const RgbImage& frame) {
    if (format_ != FrameFormat::rgb24) {
        throw std::logic_error("VideoRecorder::add_frame: an RGB frame for a yuv420p recorder");
    }
    static constexpr std::uint8_t black[3] = {0, 0, 0};
    const RgbImage sized = (frame.width == width_ && frame.height == height_)
                               ? RgbImage{}
                               : fit_image(frame, width_, height_, black);
    write_frame(sized.rgb.empty() ? frame.rgb : sized.rgb);
}

void VideoRecorder::add_frame(std::span<const std::uint8_t> yuv420p) {
    if (format_ != FrameFormat::yuv420p || yuv420p.size() != yuv420p_bytes(width_, height_)) {
        throw std::logic_error("VideoRecorder::add_frame: not a yuv420p frame of the video's size");
    }
    write_frame(yuv420p);
}

void VideoRecorder::write_frame(std::span<const std::uint8_t> bytes) {
    if (pipe_fd_ < 0) {
        throw std::logic_error("VideoRecorder::add_frame after finish");
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = write(pipe_fd_, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::runtime_error("--record: ffmpeg stopped accepting frames for '" + path_ + "' (" +
                                     std::strerror(errno) + ")");
        }
        written += static_cast<std::size_t>(n);
    }
    ++frames_;
}

void VideoRecorder::finish() {
    if (pipe_fd_ >= 0) {
        close(pipe_fd_);
        pipe_fd_ = -1;
    }
    if (pid_ > 0) {
        int status = 0;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            throw std::runtime_error("--record: ffmpeg failed writing '" + path_ + "'");
        }
    }
}

} // namespace boids::render
