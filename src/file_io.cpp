#include "boids/file_io.hpp"

#include "boids/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace boids {

namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path& path) {
    std::string text = path.string();
    text.insert(text.begin(), '\'');
    text.push_back('\'');
    return text;
}

/// The directory a new file at `path` is created in.
fs::path directory_of(const fs::path& path) {
    return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

} // namespace

std::string read_text_file(const fs::path& path, std::string_view what, std::uintmax_t max_bytes) {
    const std::string name = std::string(what) + " " + quoted(path);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw InputError(name + " is a directory; give a file");
    }
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        throw InputError("cannot read " + name + ": " + std::strerror(errno));
    }
    std::string text;
    // Block by block, so that a device that never ends (/dev/zero) or a huge file is refused after at most
    // one block past the limit instead of filling the memory.
    char block[1 << 16];
    while (true) {
        const std::size_t got = std::fread(block, 1, sizeof block, file.get());
        if (const void* nul = std::memchr(block, '\0', got); nul != nullptr) {
            const std::size_t offset =
                text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - block);
            throw InputError(name + " is not a text file: it holds a NUL byte at offset " +
                             std::to_string(offset));
        }
        if (text.size() + got > max_bytes) {
            throw InputError(name + " is larger than the " + std::to_string(max_bytes) + " bytes a " +
                             std::string(what) + " may have");
        }
        text.append(block, got);
        if (got < sizeof block) {
            if (std::ferror(file.get()) != 0) {
                throw InputError("cannot read " + name + ": " + std::strerror(errno));
            }
            return text;
        }
    }
}

void check_output_path(std::string_view field, const fs::path& path) {
    const std::string f(field);
    if (path.empty()) {
        throw InputError(invalid_value_message(f, "''", "give a file name"));
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) {
        throw InputError(invalid_value_message(f, quoted(path), "it is a directory; give a file name"));
    }
    const fs::path dir = directory_of(path);
    if (!fs::is_directory(dir, ec)) {
        throw InputError(
            invalid_value_message(f, quoted(path), "the directory " + quoted(dir) + " does not exist"));
    }
    if (fs::exists(status)) {
        if (::access(path.c_str(), W_OK) != 0) {
            throw InputError(invalid_value_message(
                f, quoted(path), std::string("the file is not writable (") + std::strerror(errno) + ")"));
        }
    } else if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        throw InputError(invalid_value_message(
            f, quoted(path), "no file can be created in " + quoted(dir) + " (" + std::strerror(errno) + ")"));
    }
}

void write_file_atomically(std::string_view what, const fs::path& path,
                           const std::function<void(std::ostream&)>& write) {
    check_output_path(what, path);
    const std::string name = std::string(what) + " " + quoted(path);
    const auto failed = [&](const std::string& doing) {
        return IoError("cannot write " + name + ": " + doing + " failed (" + std::strerror(errno) + ")");
    };
    std::error_code ec;
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
        // A pipe or a device (/dev/stdout): written in place, since it cannot be replaced by renaming.
        std::ofstream out(path, std::ios::binary);
        write(out);
        out.flush();
        if (!out) {
            throw failed("writing");
        }
        return;
    }
    std::string temporary_name = path.filename().string();
    temporary_name.insert(temporary_name.begin(), '.');
    temporary_name += ".tmp." + std::to_string(::getpid());
    const fs::path temporary = directory_of(path) / temporary_name;
    try {
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            if (!out) {
                throw InputError("cannot write " + name + ": cannot create " + quoted(temporary) + " (" +
                                 std::strerror(errno) + ")");
            }
            write(out);
            out.flush();
            if (!out) {
                throw failed("writing");
            }
            out.close();
            if (out.fail()) {
                throw failed("closing");
            }
        }
        // On the disk before the rename, so that after a power cut the name holds old or new, not empty.
        const int fd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ::fsync(fd) != 0) {
            const IoError error = failed("flushing to the disk");
            if (fd >= 0) {
                ::close(fd);
            }
            throw error;
        }
        ::close(fd);
        if (std::rename(temporary.c_str(), path.c_str()) != 0) {
            throw failed("renaming " + quoted(temporary));
        }
    } catch (...) {
        fs::remove(temporary, ec);
        throw;
    }
}

} // namespace boids
