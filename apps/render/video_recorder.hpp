#pragma once
// Video files made by piping raw frames to Debian's ffmpeg (MP4 with H.264, or GIF).

#include "image.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <sys/types.h>

namespace boids::render {

/// True when `ffmpeg` is an executable on PATH.
[[nodiscard]] bool ffmpeg_available();

/// Checks that `path` ends in .mp4 or .gif and that ffmpeg exists. Throws InputError naming `flag`.
void check_video_target(const std::string& flag, const std::string& path);

/// A video's frames per second as a fraction (e.g. 30 steps per second, one frame every 4 steps: 30/4).
struct FrameRate {
    int num = 30;
    int den = 1;
};

/// What a recorder's frames are made of.
enum class FrameFormat {
    rgb24,   ///< RgbImage frames, any size (an MP4 keeps the even part)
    yuv420p, ///< frames already in the encoder's format (rgba_to_yuv420p), of the video's even size
};

/// One ffmpeg process receiving frames of a fixed size on its standard input.
class VideoRecorder {
public:
    /// Starts ffmpeg writing `path` (.mp4 or .gif) at `fps` frames per second from frames in `format`. A
    /// GIF gets a palette of its own per frame, without dithering: the flock's few colours on the dark
    /// background stay sharp and the file small. Throws InputError if the extension is unsupported or
    /// ffmpeg is missing.
    VideoRecorder(const std::string& path, int width, int height, FrameRate fps,
                  FrameFormat format = FrameFormat::rgb24);
    ~VideoRecorder();
    VideoRecorder(const VideoRecorder&) = delete;
    VideoRecorder& operator=(const VideoRecorder&) = delete;

    /// Appends one RGB frame; a frame of another size is cropped or padded to the video's size.
    void add_frame(const RgbImage& frame);
    /// Appends one yuv420p frame of exactly the video's size (a recorder made for FrameFormat::yuv420p).
    void add_frame(std::span<const std::uint8_t> yuv420p);

    /// Closes the pipe and waits for ffmpeg. Throws std::runtime_error if ffmpeg failed.
    void finish();

    [[nodiscard]] long long frames() const { return frames_; }
    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }

private:
    void write_frame(std::span<const std::uint8_t> bytes);

    std::string path_;
    FrameFormat format_;
    int width_;
    int height_;
    int pipe_fd_ = -1;
    pid_t pid_ = -1;
    long long frames_ = 0;
};

} // namespace boids::render
