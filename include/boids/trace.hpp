#pragma once
/// Golden traces: the state every K steps, as CSV (any precision) or as a C header of raw fix15 arrays
/// that a firmware unit test can include and compare against, step by step.

#include "boids/params.hpp"
#include "boids/world.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace boids {

enum class TraceFormat {
    Csv,     ///< `step,kind,x,y,vx,vy,bias` rows, numbers as in state files
    CHeader, ///< a C header: parameters and every traced state as raw fix15 int32 (precision fix15 only)
};

/// Parses "csv" or "c-header". Throws InputError.
[[nodiscard]] TraceFormat parse_trace_format(std::string_view name);

/// Writes the states it is given to a trace file. CSV rows are written as they come; a C header is
/// written by finish(), when the number of frames is known.
template <class Real>
class TraceWriter {
public:
    /// Opens the file. `command` is recorded in the header comment. Throws InputError if the file cannot
    /// be written, or for a C header when Real is not Fix15.
    TraceWriter(const std::filesystem::path& path, TraceFormat format, const Params& params, long long every,
                std::string command);

    /// Records the state after `step` steps (0 = the initial state).
    void record(long long step, const World<Real>& world);

    /// Completes the file. Throws InputError on a write error.
    void finish();

private:
    std::filesystem::path path_;
    TraceFormat format_;
    Params params_;
    long long every_;
    std::string command_;
    std::ofstream out_;
    std::vector<long long> steps_;
    std::vector<World<Real>> frames_; ///< C header only
};

} // namespace boids
