#pragma once
// Running the real `boids` executable from a test: its exit code, stdout and stderr, in a per-test folder.
// BOIDS_EXE and BOIDS_TEST_TMP come from tests/CMakeLists.txt.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace boids_test {

namespace fs = std::filesystem;

struct Result {
    int code;
    std::string out;
    std::string err;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The lines of a text, without their newlines.
inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream s(text);
    for (std::string line; std::getline(s, line);) {
        out.push_back(line);
    }
    return out;
}

/// A folder of the running test's own under BOIDS_TEST_TMP.
inline fs::path tmp_dir() {
    const fs::path dir =
        fs::path(BOIDS_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir);
    return dir;
}

inline fs::path write_file(const std::string& name, const std::string& content) {
    const fs::path p = tmp_dir() / name;
    std::ofstream(p) << content;
    return p;
}

/// Runs `boids ARGS` (no standard input) with the environment assignments `environment` (e.g. "A=1 B=2")
/// added, and collects what it did.
inline Result boids_with_environment(const std::string& environment, const std::string& args) {
    const fs::path dir = tmp_dir();
    const std::string cmd = (environment.empty() ? "" : "env " + environment + " ") + std::string(BOIDS_EXE) +
                            " " + args + " > " + (dir / "stdout").string() + " 2> " +
                            (dir / "stderr").string() + " < /dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

/// Runs `boids ARGS` (no standard input) and collects what it did.
inline Result boids(const std::string& args) {
    return boids_with_environment("", args);
}

/// Exit code 2, a single line on stderr containing every fragment, nothing on stdout.
inline void expect_rejected(const std::string& args, std::initializer_list<std::string> fragments) {
    const Result r = boids(args);
    EXPECT_EQ(r.code, 2) << args << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
    for (const std::string& f : fragments) {
        EXPECT_NE(r.err.find(f), std::string::npos) << args << ": expected '" << f << "' in: " << r.err;
    }
    EXPECT_EQ(r.out, "") << args;
}

} // namespace boids_test
