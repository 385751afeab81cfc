#pragma once
/// Trajectory export: frames of every agent's position and velocity, as CSV or NumPy .npy.
///
/// CSV (`.csv`): header `step,agent,kind,x,y,vx,vy`, one row per agent per frame, numbers in shortest
/// round-trip form.
/// NPY (`.npy`): NumPy format 1.0, C order, little-endian float32 (f32 runs) or float64 (f64 runs), shape
/// (frames, N, 4) with columns x, y, vx, vy; agent order is the world's (row i of the state CSV). The
/// header is rewritten with the frame count after every frame, so a file cut short by a kill loads with the
/// frames written so far.
/// A 3D run (dimensions = 3) adds z and vz: CSV `step,agent,kind,x,y,z,vx,vy,vz`, NPY shape (frames, N, 6)
/// with columns x, y, z, vx, vy, vz.

#include "boids/world.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

namespace boids {

/// The two trajectory formats, chosen by file extension.
enum class TrajectoryFormat { Csv, Npy };

/// The format for a path by its extension (.csv or .npy). Throws InputError for any other.
[[nodiscard]] TrajectoryFormat trajectory_format(const std::filesystem::path& path);

/// Writes frames of a world with a fixed number of agents to one file.
template <class Real>
class TrajectoryWriter {
public:
    /// Creates the file for `agents` agents in `dimensions` (2 or 3). Throws InputError if it cannot be
    /// written or has an unknown extension.
    TrajectoryWriter(const std::filesystem::path& path, std::size_t agents, int dimensions = 2);
    ~TrajectoryWriter();
    TrajectoryWriter(const TrajectoryWriter&) = delete;
    TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

    /// Appends one frame and flushes it. Throws InputError if the world's agent count changed, IoError on a
    /// write error.
    void write_frame(const World<Real>& world, long long step);

    /// Finishes the file (the .npy header gets the frame count). Throws IoError on a write error.
    void close();

    [[nodiscard]] long long frames() const { return frames_; }

private:
    void write_npy_header();

    std::filesystem::path path_;
    TrajectoryFormat format_;
    std::size_t agents_;
    bool solid_;
    std::FILE* file_ = nullptr;
    long long frames_ = 0;
};

extern template class TrajectoryWriter<float>;
extern template class TrajectoryWriter<double>;

} // namespace boids
