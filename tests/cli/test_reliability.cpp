// What `boids` promises when the machine fails or the input is hostile (docs/RELIABILITY.md): a full disk is
// an error, never a success; a killed write leaves the old file; a killed trajectory loads; a dump continues
// exactly; a sweep resumes only its own scene; every bad input is refused before the run, on one line.

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using namespace boids_test;

/// Runs `boids ARGS` through /bin/sh with `prefix` before it (e.g. a file-size limit, or `timeout`).
Result boids_with(const std::string& prefix, const std::string& args) {
    const fs::path dir = tmp_dir();
    const std::string cmd = "(" + prefix + " " + std::string(BOIDS_EXE) + " " + args + ") > " +
                            (dir / "stdout").string() + " 2> " + (dir / "stderr").string() + " < /dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

/// A disk that fills up after `bytes`: the file-size limit makes every write past it fail (EFBIG, with
/// SIGXFSZ ignored) the way a full disk fails it (ENOSPC), for any user and without mounting anything.
std::string disk_full_after(long bytes) {
    return "trap '' XFSZ; ulimit -f " + std::to_string(bytes / 512) + ";"; // /bin/sh counts 512-byte blocks
}

long lines_in(const std::string& text) {
    return std::count(text.begin(), text.end(), '\n');
}

/// Starts `boids ARGS` in the background; returns its process id.
pid_t start_boids(const std::vector<std::string>& args) {
    const pid_t pid = fork();
    if (pid == 0) {
        std::vector<char*> argv{const_cast<char*>(BOIDS_EXE)};
        for (const std::string& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        freopen("/dev/null", "w", stdout);
        execv(BOIDS_EXE, argv.data());
        _exit(127);
    }
    return pid;
}

/// Polls `ready` every millisecond for up to a minute.
bool wait_until(const std::function<bool()>& ready) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

void kill_and_reap(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
}

// --- Data loss ---

TEST(Reliability, SweepOnAFullDiskFailsAndAResumeCompletesIt) {
    const fs::path out = tmp_dir() / "sweep.csv", reference = tmp_dir() / "reference.csv";
    fs::remove(out);
    fs::remove(reference);
    const std::string sweep = "sweep --boids 10 --steps 2 --vary visual_range=10:50:120 --threads 1 --out ";
    const Result full = boids_with(disk_full_after(1024), sweep + out.string());
    EXPECT_EQ(full.code, 1) << full.err;
    EXPECT_EQ(lines_in(full.err), 1) << full.err;
    EXPECT_NE(full.err.find("--out " + out.string() + ": cannot write it"), std::string::npos) << full.err;
    EXPECT_EQ(full.out, "") << "no success line after lost rows";
    EXPECT_LE(fs::file_size(out), 1024u);
    // With room again, a rerun keeps the rows written, redoes a torn one and gives the uninterrupted file.
    const Result resumed = boids(sweep + out.string());
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    ASSERT_EQ(boids(sweep + reference.string()).code, 0);
    EXPECT_EQ(slurp(out), slurp(reference));
}

TEST(Reliability, DumpOnAFullDiskFailsAndKeepsTheOldFile) {
    const fs::path dump = tmp_dir() / "state.csv";
    ASSERT_EQ(boids("run --headless --boids 5 --steps 0 --dump " + dump.string()).code, 0);
    const std::string old = slurp(dump);
    const Result r =
        boids_with(disk_full_after(4096), "run --headless --boids 2000 --steps 1 --dump " + dump.string());
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cannot write state file '" + dump.string() + "'"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(dump), old);
    for (const auto& entry : fs::directory_iterator(tmp_dir())) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
            << "left behind: " << entry.path();
    }
    const Result device = boids("run --headless --steps 1 --dump /dev/full");
    EXPECT_EQ(device.code, 1) << device.err;
    EXPECT_NE(device.err.find("No space left on device"), std::string::npos) << device.err;
}

TEST(Reliability, DumpKilledWhileWritingLeavesTheOldFile) {
    const fs::path dir = tmp_dir();
    const fs::path dump = dir / "big.csv";
    ASSERT_EQ(boids("run --headless --boids 7 --steps 0 --dump " + dump.string()).code, 0);
    const std::string old = slurp(dump);
    const pid_t pid = start_boids({"run", "--headless", "--boids", "1000000", "--steps", "0", "--threads",
                                   "1", "--dump", dump.string()});
    const fs::path temporary = dir / (".big.csv.tmp." + std::to_string(pid));
    // Killed once a part of the new state is on the disk.
    const bool writing = wait_until([&] {
        std::error_code ec;
        return fs::file_size(temporary, ec) > 100'000 && !ec;
    });
    kill_and_reap(pid);
    ASSERT_TRUE(writing) << "the dump was never seen being written";
    EXPECT_EQ(slurp(dump), old) << "a killed dump must leave the previous file whole";
    // What the kill left in the temporary file is refused, not loaded as a smaller flock.
    const Result r = boids("run --headless --steps 0 --init " + temporary.string());
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("truncated or damaged: its "), std::string::npos) << r.err;
}

TEST(Reliability, KilledNpyTrajectoryLoadsWithItsFrames) {
    const fs::path npy = tmp_dir() / "t.npy";
    fs::remove(npy);
    constexpr std::uintmax_t frame_bytes = 50 * 4 * 4; // 50 agents, x y vx vy, float32
    const pid_t pid = start_boids({"run", "--headless", "--boids", "50", "--predators", "0", "--steps",
                                   "1000000000", "--threads", "1", "--trajectory", npy.string()});
    const bool grew = wait_until([&] {
        std::error_code ec;
        return fs::file_size(npy, ec) > 128 + 30 * frame_bytes && !ec;
    });
    kill_and_reap(pid);
    ASSERT_TRUE(grew);
    const std::string bytes = slurp(npy);
    const std::string header = bytes.substr(0, 128);
    // "'shape': (F, 50, 4)" with F right-aligned in a fixed-width field.
    const std::size_t shape = header.find("'shape': (");
    ASSERT_NE(shape, std::string::npos) << header;
    const std::size_t comma = header.find(',', shape);
    ASSERT_EQ(header.substr(comma, 9), ", 50, 4),") << header;
    const long long frames = std::stoll(header.substr(shape + 10, comma - shape - 10));
    EXPECT_GE(frames, 30);
    EXPECT_GE(bytes.size(), 128 + static_cast<std::uintmax_t>(frames) * frame_bytes);
    // numpy itself reads it (python3-numpy belongs to Debian's /usr/bin/python3).
    const std::string check = "/usr/bin/python3 -c \"import numpy, sys; a = numpy.load(sys.argv[1]); "
                              "assert a.shape == (" +
                              std::to_string(frames) +
                              ", 50, 4), a.shape; assert numpy.isfinite(a).all()\" " + npy.string();
    EXPECT_EQ(std::system(check.c_str()), 0);
}

/// N steps straight and N/2 + N/2 through --dump / --init give the same file (state and step index) and the
/// same state hash. `counts` sets the flock of the spawned runs; the continued run takes it from the file.
void expect_exact_continuation(const std::string& scene, const std::string& counts, int steps) {
    const fs::path whole = tmp_dir() / "whole.csv", half = tmp_dir() / "half.csv",
                   resumed = tmp_dir() / "r.csv";
    const std::string run = "run --headless " + scene + " --steps ";
    const std::string half_steps = std::to_string(steps / 2);
    const Result straight = boids(run + std::to_string(steps) + " " + counts + " --dump " + whole.string());
    ASSERT_EQ(straight.code, 0) << straight.err;
    ASSERT_EQ(boids(run + half_steps + " " + counts + " --dump " + half.string()).code, 0);
    const Result r = boids(run + half_steps + " --init " + half.string() + " --dump " + resumed.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(resumed), slurp(whole)) << scene;
    const auto hash = [](const std::string& out) { return out.substr(out.find("state hash"), 30); };
    EXPECT_EQ(hash(r.out), hash(straight.out)) << scene;
}

TEST(Reliability, VicsekContinuesExactly) {
    expect_exact_continuation("--preset vicsek", "--boids 300", 60);
}
TEST(Reliability, CouzinContinuesExactly) {
    expect_exact_continuation("--preset couzin", "--boids 200", 60);
}
TEST(Reliability, ObstaclesWithMovingFoodContinueExactly) {
    expect_exact_continuation("--preset obstacles", "--boids 200", 80);
}
TEST(Reliability, PerchingContinuesExactly) {
    expect_exact_continuation("--preset perching", "--boids 200", 200);
}

TEST(Reliability, SweepResumesOnlyItsOwnScene) {
    const fs::path out = tmp_dir() / "scene.csv";
    const fs::path scenario = write_file("scene.toml", "[params]\nvisual_range = 40\n");
    const std::string base = "sweep --scenario " + scenario.string() +
                             " --boids 10 --steps 2 --vary visual_range=20:30:2 --out " + out.string();
    const std::vector<std::string> scenes = {"--obstacle 'circle 320 240 40'", "--food '100 100'",
                                             "--update sequential", "--speed-estimate alpha-max-beta-min"};
    for (const std::string& first : scenes) {
        fs::remove(out);
        ASSERT_EQ(boids(base + " " + first).code, 0) << first;
        for (const std::string& other : scenes) {
            if (other != first) {
                expect_rejected(base + " " + other, {"it holds a different sweep"});
            }
        }
        expect_rejected(base, {"it holds a different sweep"});
        EXPECT_EQ(boids(base + " " + first).code, 0) << "the same command resumes";
    }
    // The scenario file's content counts, not its name.
    fs::remove(out);
    ASSERT_EQ(boids(base).code, 0);
    write_file("scene.toml", "[params]\nvisual_range = 41\n");
    expect_rejected(base, {"it holds a different sweep"});
}

// --- Input handling ---

TEST(Reliability, BadInputsAreRefusedBeforeTheRunOnOneLine) {
    expect_rejected("run --headless --scenario " + tmp_dir().string(), {"scenario file", "is a directory"});
    expect_rejected("run --headless --control ''", {"--control = '' is invalid: give a value"});
    expect_rejected("run --headless --dump ''", {"--dump = '' is invalid: give a value"});
    expect_rejected("sweep --vary visual_range=20:30:2 --out " + tmp_dir().string(),
                    {"--out", "is a directory"});
    expect_rejected("sweep --vary visual_range=20:30:2 --out /dev/null", {"not a regular file"});
    expect_rejected("run --headless --scenario " + write_file("nul.toml", std::string("[a\0]\n", 5)).string(),
                    {"a NUL byte"});
    // Outputs in a missing directory are found before a run that would otherwise take minutes.
    const std::string long_run = "run --headless --boids 3000 --steps 100000000 ";
    for (const std::string output : {"--dump /nonexistent/x.csv", "--record /nonexistent/x.png",
                                     "--metrics /nonexistent/m.csv", "--trajectory /nonexistent/t.npy"}) {
        const Result r = boids_with("timeout 60", long_run + output);
        EXPECT_EQ(r.code, 2) << output << ": " << r.err;
        EXPECT_EQ(lines_in(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(output.substr(0, output.find(' ')) + " = '/nonexistent/"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("the directory '/nonexistent' does not exist"), std::string::npos) << r.err;
    }
    // A device that never ends is refused at once.
    const Result zero = boids_with("timeout 60", "run --headless --init /dev/zero");
    EXPECT_EQ(zero.code, 2) << zero.err;
    EXPECT_NE(zero.err.find("state file '/dev/zero' is not a text file"), std::string::npos) << zero.err;
}

TEST(Reliability, StateWithAByteOrderMarkLoads) {
    const fs::path state =
        write_file("bom.csv", "\xEF\xBB\xBFkind,x,y,vx,vy\nboid,100,100,1,0\nboid,110,100,1,0\n");
    const Result r = boids("run --headless --steps 1 --init " + state.string());
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("2 boids"), std::string::npos) << r.out;
}

} // namespace
