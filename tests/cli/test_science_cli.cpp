// The science commands through the real executable: metrics and trajectory files, `boids sweep`
// (determinism, resume after a kill or a torn file), and bad input for every new flag and key.

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using namespace boids_test;

TEST(ScienceCli, MetricsCsvHasTheStableColumnsAndARowEveryKSteps) {
    const fs::path csv = tmp_dir() / "m.csv";
    const Result r = boids("run --headless --preset ece4760 --steps 50 --threads 1 --metrics " +
                           csv.string() + " --metrics-every 10");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = lines(slurp(csv));
    ASSERT_EQ(rows.size(), 7u); // header + steps 0, 10, ..., 50
    EXPECT_EQ(rows[0], "step,polarization,milling,nnd_mean,groups,speed_mean,speed_std,frac_right,frac_left");
    EXPECT_EQ(rows[1].substr(0, 2), "0,");
    EXPECT_EQ(rows[6].substr(0, 3), "50,");
    for (const char* part :
         {"polarization", "milling", "nnd mean", "groups", "moving right", "metrics written"}) {
        EXPECT_NE(r.out.find(part), std::string::npos) << part << " in\n" << r.out;
    }
}

TEST(ScienceCli, SeedDrivesTheModelNoise) {
    const auto hash = [](const std::string& args) {
        const Result r = boids("run --headless --preset vicsek --boids 100 --steps 20 " + args);
        EXPECT_EQ(r.code, 0) << r.err;
        return r.out.substr(r.out.find("state hash"));
    };
    EXPECT_EQ(hash("--seed 5 --threads 1"), hash("--seed 5 --threads 2"));
    EXPECT_NE(hash("--seed 5"), hash("--seed 5 --set noise_seed=6"));
}

std::string sweep_args(const fs::path& out, const std::string& threads = "2") {
    return "sweep --preset vicsek --boids 60 --set width=4 --set height=4 --vary noise=0:4:5 --seeds 3 "
           "--steps 60 --burn-in 30 --every 5 --metric polarization,groups --threads " +
           threads + " --out " + out.string();
}

TEST(ScienceCli, SweepWritesOneRowPerValueAndSeedWhateverTheThreads) {
    const fs::path one = tmp_dir() / "one.csv", two = tmp_dir() / "two.csv";
    fs::remove(one);
    fs::remove(two);
    ASSERT_EQ(boids(sweep_args(one, "1")).code, 0);
    const Result r = boids(sweep_args(two, "3"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(one), slurp(two));
    const auto rows = lines(slurp(one));
    ASSERT_EQ(rows.size(), 2u + 15u);
    EXPECT_EQ(rows[0].substr(0, 14), "# boids sweep:");
    EXPECT_EQ(rows[1], "noise,seed,polarization,groups");
    EXPECT_EQ(rows[2].substr(0, 7), "0,4760,");
    EXPECT_EQ(rows[16].substr(0, 7), "4,4762,");
    EXPECT_EQ(r.err, "") << "no progress bar when stderr is not a terminal";
    // Re-running a finished sweep changes nothing.
    const Result again = boids(sweep_args(two, "2"));
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.out.find("15 already"), std::string::npos) << again.out;
    EXPECT_EQ(slurp(two), slurp(one));
}

TEST(ScienceCli, SweepResumesATornFileWithoutLosingOrDuplicatingRows) {
    const fs::path full = tmp_dir() / "full.csv", part = tmp_dir() / "part.csv";
    fs::remove(full);
    ASSERT_EQ(boids(sweep_args(full)).code, 0);
    const std::string text = slurp(full);
    // Header, five rows and half of the sixth: as if killed mid-write.
    std::size_t cut = 0;
    for (int i = 0; i < 7; ++i) {
        cut = text.find('\n', cut) + 1;
    }
    cut += 4;
    std::ofstream(part, std::ios::binary) << text.substr(0, cut);
    const Result r = boids(sweep_args(part));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("5 already"), std::string::npos) << r.out;
    EXPECT_EQ(slurp(part), text);
}

TEST(ScienceCli, SweepResumesAfterBeingKilled) {
    const fs::path full = tmp_dir() / "full.csv", killed = tmp_dir() / "killed.csv";
    fs::remove(full);
    fs::remove(killed);
    const std::string args = "sweep --preset vicsek --boids 200 --vary noise=0:5:6 --seeds 2 --steps 200 "
                             "--burn-in 100 --every 10 --threads 2 --out ";
    ASSERT_EQ(boids(args + full.string()).code, 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const std::string out = killed.string();
        execl(BOIDS_EXE, BOIDS_EXE, "sweep", "--preset", "vicsek", "--boids", "200", "--vary", "noise=0:5:6",
              "--seeds", "2", "--steps", "200", "--burn-in", "100", "--every", "10", "--threads", "2",
              "--out", out.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Kill it once some rows are written (or whenever it ends: the resume must work either way).
    for (int i = 0; i < 2000 && lines(slurp(killed)).size() < 5; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    const Result r = boids(args + killed.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(killed), slurp(full));
}

TEST(ScienceCli, SweepRefusesAFileFromAnotherSweep) {
    const fs::path out = tmp_dir() / "other.csv";
    std::ofstream(out) << "# boids sweep: something else\nx,seed,polarization\n1,1,0.5\n";
    expect_rejected(sweep_args(out), {"--out", "other.csv", "different sweep"});
    EXPECT_EQ(slurp(out), "# boids sweep: something else\nx,seed,polarization\n1,1,0.5\n")
        << "left untouched";
}

TEST(ScienceCli, SweepOverAgentCountsAndFractions) {
    const fs::path out = tmp_dir() / "f.csv";
    fs::remove(out);
    const Result r =
        boids("sweep --preset couzin --vary scouts1_fraction=0:0.5:3 --steps 20 --metric accuracy "
              "--out " +
              out.string());
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = lines(slurp(out));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_NE(rows[0].find("agents 45/5/0/0"), std::string::npos) << rows[0];
    EXPECT_EQ(rows[1], "scouts1_fraction,seed,accuracy");
    EXPECT_EQ(rows[3].substr(0, 10), "0.25,4760,");
}

TEST(ScienceCli, BadScienceInputIsRejectedWithFieldValueAndRange) {
    const std::string out = (tmp_dir() / "bad.csv").string();
    expect_rejected("run --headless --metrics-every 0 --metrics " + out, {"--metrics-every", "'0'", "[1, "});
    expect_rejected("run --headless --trajectory-every x", {"--trajectory-every", "'x'", "integer"});
    expect_rejected("run --headless --trajectory t.txt", {"--trajectory", "t.txt", ".csv or .npy"});
    expect_rejected("run --headless --metrics /nonexistent-dir/m.csv",
                    {"/nonexistent-dir/m.csv", "does not exist"});
    expect_rejected("run --headless --set model=swarm",
                    {"model", "'swarm'", "classic | topological | weighted | vicsek | couzin"});
    expect_rejected("run --headless --set noise=9", {"noise", "9", "[0, 6.28"});
    expect_rejected("run --headless --preset vicsek --set noise_seed=2.5",
                    {"noise_seed", "2.5", "whole number"});
    expect_rejected("run --headless --preset couzin --set repulsion_radius=8",
                    {"repulsion_radius", "8", "attraction_radius = 6"});
    const std::string base = "sweep --preset vicsek --steps 10 --out " + out;
    expect_rejected(base, {"--vary", "KEY=START:STOP:COUNT"});
    expect_rejected(base + " --vary noise", {"--vary", "'noise'", "KEY=START:STOP:COUNT"});
    expect_rejected(base + " --vary colour=0:1:2", {"--vary", "numeric parameter"});
    expect_rejected(base + " --vary model=0:1:2", {"--vary", "numeric parameter"});
    expect_rejected(base + " --vary noise=0:x:2", {"--vary STOP", "'x'", "finite number"});
    expect_rejected(base + " --vary noise=0:1:0", {"--vary COUNT", "'0'", "[1, 100000]"});
    expect_rejected(base + " --vary noise=0:1:3:lin", {"--vary", "KEY=START:STOP:COUNT[:log]"});
    expect_rejected(base + " --vary noise=0:1:3:log", {"--vary", "START > 0"});
    expect_rejected(base + " --vary noise=0:9:3", {"--vary noise = 9", "noise", "[0, 6.28"});
    expect_rejected(base + " --vary scouts1_fraction=0:2:3", {"--vary", "[0, 1]"});
    expect_rejected(base + " --vary noise=0:1:2 --seeds 0", {"--seeds", "'0'", "[1, 1000000]"});
    expect_rejected(base + " --vary noise=0:1:2 --burn-in 10", {"--burn-in", "'10'", "[0, 9]"});
    expect_rejected(base + " --vary noise=0:1:2 --every 11", {"--every", "'11'", "[1, 10]"});
    expect_rejected(base + " --vary noise=0:1:2 --metric polarisation",
                    {"metric", "'polarisation'", "milling"});
    expect_rejected("sweep --preset vicsek --vary noise=0:1:2", {"--out", "missing"});
    expect_rejected(base + " --vary noise=0:1:2 --dump x.csv", {"--dump", "not expected"});
}

} // namespace
