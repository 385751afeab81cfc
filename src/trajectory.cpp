#include "boids/trajectory.hpp"
#include "boids/fix15.hpp"
#include "boids/state_io.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <bit>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <vector>

namespace boids {

namespace {
/// What a .npy stores: the scalar itself when IEEE, else (fixed point) its exact value as a double.
template <class Real>
using NpyScalar = std::conditional_t<std::is_floating_point_v<Real>, Real, double>;
} // namespace

namespace {

/// Bytes of the .npy preamble (magic, version, header length, header): a multiple of 64 as the format
/// asks, with room for any frame count so that close() can rewrite it in place.
constexpr std::size_t npy_preamble = 128;

std::string io_error(const std::filesystem::path& path, const char* what) {
    return "trajectory file " + path.string() + ": cannot " + what + " (" + std::strerror(errno) + ")";
}

} // namespace

TrajectoryFormat trajectory_format(const std::filesystem::path& path) {
    const std::string ext = path.extension().string();
    if (ext == ".csv") {
        return TrajectoryFormat::Csv;
    }
    if (ext == ".npy") {
        return TrajectoryFormat::Npy;
    }
    throw InputError(invalid_value_message("--trajectory", "'" + path.string() + "'",
                                           "the file name must end in .csv or .npy"));
}

template <class Real>
TrajectoryWriter<Real>::TrajectoryWriter(const std::filesystem::path& path, std::size_t agents,
                                         int dimensions)
    : path_(path), format_(trajectory_format(path)), agents_(agents), solid_(dimensions == 3) {
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) {
        throw InputError(io_error(path, "create it"));
    }
    if (format_ == TrajectoryFormat::Csv) {
        std::fputs(solid_ ? "step,agent,kind,x,y,z,vx,vy,vz\n" : "step,agent,kind,x,y,vx,vy\n", file_);
    } else {
        write_npy_header();
    }
}

template <class Real>
TrajectoryWriter<Real>::~TrajectoryWriter() {
    try {
        close();
    } catch (...) { // a destructor must not throw; callers who care call close() themselves
    }
}

template <class Real>
void TrajectoryWriter<Real>::write_npy_header() {
    using Stored = NpyScalar<Real>;
    const char endian = std::endian::native == std::endian::little ? '<' : '>';
    const std::string descr = std::string(1, endian) + (sizeof(Stored) == 4 ? "f4" : "f8");
    std::string frames = std::to_string(frames_);
    frames.insert(0, 20 - frames.size(), ' '); // fixed width: the header never changes length
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + frames + ", " +
                         std::to_string(agents_) + (solid_ ? ", 6), }" : ", 4), }");
    const std::size_t fixed = 10; // magic (6) + version (2) + header length (2)
    header.append(npy_preamble - fixed - header.size() - 1, ' ');
    header.push_back('\n');
    const auto length = static_cast<std::uint16_t>(header.size());
    const unsigned char preamble[fixed] = {0x93,
                                           'N',
                                           'U',
                                           'M',
                                           'P',
                                           'Y',
                                           1,
                                           0,
                                           static_cast<unsigned char>(length & 0xff),
                                           static_cast<unsigned char>(length >> 8)};
    if (std::fseek(file_, 0, SEEK_SET) != 0 || std::fwrite(preamble, 1, fixed, file_) != fixed ||
        std::fwrite(header.data(), 1, header.size(), file_) != header.size() ||
        std::fseek(file_, 0, SEEK_END) != 0) {
        throw IoError(io_error(path_, "write the header"));
    }
}

template <class Real>
void TrajectoryWriter<Real>::write_frame(const World<Real>& world, long long step) {
    if (file_ == nullptr) {
        throw InputError("trajectory file " + path_.string() + ": already closed");
    }
    if (world.size() != agents_) {
        throw InputError("trajectory file " + path_.string() + ": the number of agents changed from " +
                         std::to_string(agents_) + " to " + std::to_string(world.size()) +
                         "; a trajectory needs a fixed agent count");
    }
    if (solid_ && world.z.size() != agents_) {
        throw InputError("trajectory file " + path_.string() + ": a 3D trajectory needs a world with z");
    }
    if (format_ == TrajectoryFormat::Csv) {
        std::string rows;
        const std::string step_text = std::to_string(step);
        for (std::size_t i = 0; i < agents_; ++i) {
            rows.append(step_text).append(",").append(std::to_string(i)).append(",");
            rows.append(kind_name(world.kind[i]));
            const auto column = [&](Real v) { rows.append(",").append(format_number(v)); };
            column(world.x[i]);
            column(world.y[i]);
            if (solid_) {
                column(world.z[i]);
            }
            column(world.vx[i]);
            column(world.vy[i]);
            if (solid_) {
                column(world.vz[i]);
            }
            rows.append("\n");
        }
        if (std::fwrite(rows.data(), 1, rows.size(), file_) != rows.size()) {
            throw IoError(io_error(path_, "write"));
        }
    } else {
        using Stored = NpyScalar<Real>;
        const std::size_t columns = solid_ ? 6 : 4;
        std::vector<Stored> block(agents_ * columns);
        for (std::size_t i = 0; i < agents_; ++i) {
            Stored* row = &block[columns * i];
            if (solid_) {
                for (const Real v :
                     {world.x[i], world.y[i], world.z[i], world.vx[i], world.vy[i], world.vz[i]}) {
                    *row++ = static_cast<Stored>(v);
                }
            } else {
                for (const Real v : {world.x[i], world.y[i], world.vx[i], world.vy[i]}) {
                    *row++ = static_cast<Stored>(v);
                }
            }
        }
        if (std::fwrite(block.data(), sizeof(Stored), block.size(), file_) != block.size()) {
            throw IoError(io_error(path_, "write"));
        }
    }
    ++frames_;
    // The frame reaches the file before the header counts it, and the header is rewritten at once: a run
    // killed at any moment leaves a file that numpy loads with every frame the header counts.
    if (std::fflush(file_) != 0) {
        throw IoError(io_error(path_, "write"));
    }
    if (format_ == TrajectoryFormat::Npy) {
        write_npy_header();
        if (std::fflush(file_) != 0) {
            throw IoError(io_error(path_, "write the header"));
        }
    }
}

template <class Real>
void TrajectoryWriter<Real>::close() {
    if (file_ == nullptr) {
        return;
    }
    std::FILE* f = file_;
    bool ok = true;
    if (format_ == TrajectoryFormat::Npy) {
        try {
            write_npy_header();
        } catch (const IoError&) {
            ok = false;
        }
    }
    file_ = nullptr;
    ok = std::fclose(f) == 0 && ok;
    if (!ok) {
        throw IoError(io_error(path_, "finish writing"));
    }
}

template class TrajectoryWriter<float>;
template class TrajectoryWriter<double>;
template class TrajectoryWriter<Fix15>;

} // namespace boids
