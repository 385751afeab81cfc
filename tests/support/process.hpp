#pragma once
// Runs a shell command for the tests that drive the real executable; captures exit code and output.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace boids::testing {

struct ProcessResult {
    int code;
    std::string out;
    std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Runs `command` through the shell in `dir` with stdin from /dev/null.
inline ProcessResult run_in(const std::filesystem::path& dir, const std::string& command) {
    std::filesystem::create_directories(dir);
    const std::string full =
        "cd '" + dir.string() + "' && " + command + " > stdout.txt 2> stderr.txt < /dev/null";
    const int status = std::system(full.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "stdout.txt"),
            slurp(dir / "stderr.txt")};
}

} // namespace boids::testing
