#pragma once
/// Reading input files and writing output files safely: bounded reads of text files, atomic replacement of
/// state files, and output paths checked before a long run starts.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace boids {

/// Reads a whole text file. Throws InputError, naming `what` and the path, when it cannot be opened, is a
/// directory, is longer than `max_bytes` or holds a NUL byte (a binary file or a device such as /dev/zero;
/// the read stops at the first offending block, so it always ends). Pipes and other non-regular files
/// that deliver text are read like regular files.
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path, std::string_view what,
                                         std::uintmax_t max_bytes);

/// Checks, before any work, that `path` can be written: it is not a directory, its directory exists and
/// accepts new files, and an existing file there is writable. Throws InputError naming `field` otherwise.
void check_output_path(std::string_view field, const std::filesystem::path& path);

/// Replaces `path` atomically with what `write` puts into a stream: the content goes to a temporary file
/// in the same directory (".NAME.tmp.PID"), is flushed to the disk, and is renamed over `path`. A reader, a
/// crash or a kill -9 at any moment sees the old file or the new one, never a part. Throws InputError
/// when the path cannot be written (see check_output_path), IoError when writing fails (disk full); in
/// both cases the old file is left as it was and the temporary file is removed.
void write_file_atomically(std::string_view what, const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

} // namespace boids
