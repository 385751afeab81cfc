// The `boids` command-line contract, through the real executable: summaries, dumps, and every kind of
// bad input answered by one message on stderr and exit code 2.

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

using namespace boids_test;

// `boids` with no arguments is tested in tests/render/test_headless_recording.cpp, without a display (with
// one it opens the viewer).

TEST(Cli, RunHeadlessWithEveryOptionAndDump) {
    const fs::path dump = tmp_dir() / "final.csv";
    const Result r =
        boids("run --headless --preset vga-scouts --set visual_range=30 --set boundary=wrap --boids 50 "
              "--scouts1 5 --scouts2 4 --predators 1 --seed 3 --steps 20 --precision f64 --threads 2 "
              "--dump " +
              dump.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("50 boids, 5 scout1, 4 scout2, 1 predators"), std::string::npos) << r.out;
    const std::string csv = slurp(dump);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "# boids state: 60 agents, step 20");
    const std::string rows = csv.substr(csv.find('\n') + 1);
    EXPECT_EQ(rows.substr(0, rows.find('\n')), "kind,x,y,vx,vy,bias");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 62);
}

TEST(Cli, RunSaysHowManyStepsTookTheFastPath) {
    // Every preset's scene at its own size on the fast path, steps counted: the lab's (its predator order),
    // the obstacles preset (its predator among the obstacles), a model's fast pass; and scenes that cannot.
    for (const char* preset : {"ece4760", "obstacles", "couzin", "vga-predator"}) {
        const Result r = boids(std::string("run --headless --steps 7 --threads 2 --preset ") + preset);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("(fast path on 7 of 7 steps, "), std::string::npos) << preset << ":\n" << r.out;
    }
    for (const char* plain : {"--preset pynboids", "--precision fix15", "--set update=sequential"}) {
        const Result r = boids(std::string("run --headless --steps 7 ") + plain);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("(fast path on 0 of 7 steps)"), std::string::npos) << plain << ":\n" << r.out;
    }
}

TEST(Cli, InitThenDumpWithZeroStepsReproducesTheState) {
    const fs::path dump1 = tmp_dir() / "a.csv", dump2 = tmp_dir() / "b.csv";
    ASSERT_EQ(boids("run --headless --steps 13 --dump " + dump1.string()).code, 0);
    const Result r = boids("run --headless --steps 0 --init " + dump1.string() + " --dump " + dump2.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(dump1), slurp(dump2));
}

TEST(Cli, InitContinuesARunExactly) {
    // 10 steps, dump, 10 more from the dump == 20 steps straight (f64 and f32 alike).
    for (const char* precision : {"f32", "f64"}) {
        const fs::path half = tmp_dir() / "half.csv", whole = tmp_dir() / "whole.csv",
                       resumed = tmp_dir() / "r.csv";
        const std::string common = std::string(" --precision ") + precision + " --preset vga-scouts";
        ASSERT_EQ(boids("run --headless --steps 10 --dump " + half.string() + common).code, 0);
        ASSERT_EQ(boids("run --headless --steps 20 --dump " + whole.string() + common).code, 0);
        ASSERT_EQ(boids("run --headless --steps 10 --init " + half.string() + " --dump " + resumed.string() +
                        common)
                      .code,
                  0);
        EXPECT_EQ(slurp(whole), slurp(resumed)) << precision;
    }
}

TEST(Cli, ThreadCountDoesNotChangeTheResult) {
    // Enough boids that the step really runs on several threads (small flocks run on one).
    const Result one = boids("run --headless --steps 50 --boids 3000 --threads 1");
    const Result two = boids("run --headless --steps 50 --boids 3000 --threads 2");
    const Result four = boids("run --headless --steps 50 --boids 3000 --threads 4");
    const auto hash = [](const std::string& out) { return out.substr(out.find("state hash")); };
    ASSERT_EQ(one.code, 0);
    EXPECT_EQ(hash(one.out), hash(two.out));
    EXPECT_EQ(hash(one.out), hash(four.out));
}

TEST(Cli, ExtensionsFromTheCommandLine) {
    const fs::path dump = tmp_dir() / "ext.csv";
    const Result r =
        boids("run --headless --steps 50 --obstacle 'circle 320 240 40' --obstacle 'rect 100 100 150 380' "
              "--food '500 200 150 0.2' --set predator_behavior=pursue --set gravity=0.02 "
              "--set perch_rest_max=40 --dump " +
              dump.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(slurp(dump).find("kind,x,y,vx,vy,bias"), std::string::npos);
}

TEST(Cli, ThreeDimensionsFromTheCommandLine) {
    const fs::path half = tmp_dir() / "3d_half.csv", whole = tmp_dir() / "3d_whole.csv",
                   resumed = tmp_dir() / "3d_resumed.csv";
    const std::string common = " --set dimensions=3 --set depth=400 "
                               "--obstacle 'sphere 320 240 200 50' --obstacle 'box 100 100 50 150 380 350'";
    const std::string agents = " --boids 300 --predators 2";
    ASSERT_EQ(boids("run --headless --steps 10 --dump " + half.string() + common + agents).code, 0);
    const Result r = boids("run --headless --steps 20 --dump " + whole.string() + common + agents);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(whole);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "# boids state: 302 agents, step 20");
    const std::string rows = csv.substr(csv.find('\n') + 1);
    EXPECT_EQ(rows.substr(0, rows.find('\n')), "kind,x,y,vx,vy,bias,z,vz");
    // A 3D run continues exactly from its dump.
    ASSERT_EQ(
        boids("run --headless --steps 10 --init " + half.string() + " --dump " + resumed.string() + common)
            .code,
        0);
    EXPECT_EQ(slurp(whole), slurp(resumed));
    const Result downey = boids("run --headless --preset downey-3d --steps 30");
    ASSERT_EQ(downey.code, 0) << downey.err;
    EXPECT_NE(downey.out.find("weighted"), std::string::npos);

    expect_rejected("run --headless --set dimensions=4", {"dimensions", "4", "2 | 3"});
    expect_rejected("run --headless --set dimensions=3 --set depth=150", {"depth", "150", "margin_front"});
    expect_rejected("run --headless --set dimensions=3 --set model=vicsek",
                    {"model", "vicsek", "dimensions = 3"});
    expect_rejected("run --headless --set dimensions=3 --precision fix15", {"dimensions", "fix15"});
    expect_rejected("run --headless --set dimensions=3 --trace t.csv", {"--trace", "dimensions"});
    expect_rejected("run --headless --init " + half.string(), {"z and vz", "dimensions = 3"});
    expect_rejected("run --headless --obstacle 'box 0 0 9 10 10 1'", {"z1", "z0 < z1"});
}

TEST(Cli, ListsPresetsAndParams) {
    const Result presets = boids("presets");
    EXPECT_EQ(presets.code, 0);
    for (const char* name : {"ece4760", "vga-scouts", "vga-predator"}) {
        EXPECT_NE(presets.out.find(name), std::string::npos);
    }
    const Result params = boids("params");
    EXPECT_EQ(params.code, 0);
    EXPECT_NE(params.out.find("centering_factor"), std::string::npos);
}

TEST(Cli, BadParameterValues) {
    expect_rejected("run --headless --set nosuch=1", {"nosuch"});
    expect_rejected("run --headless --set visual_range=abc", {"visual_range", "abc"});
    expect_rejected("run --headless --set visual_range=nan", {"visual_range", "nan"});
    expect_rejected("run --headless --set avoid_factor=inf", {"avoid_factor", "inf"});
    expect_rejected("run --headless --set protected_range=-1", {"protected_range", "-1", "[0, 100000]"});
    expect_rejected("run --headless --set max_speed=-2", {"max_speed", "-2"});
    expect_rejected("run --headless --set min_speed=7", {"min_speed", "7", "max_speed"});
    expect_rejected("run --headless --set margin=400", {"width", "margin_left + margin_right"});
    expect_rejected("run --headless --set boundary=sphere", {"boundary", "sphere", "margin | wrap"});
    expect_rejected("run --headless --set visual_range", {"--set", "key=value"});
}

TEST(Cli, BadFlags) {
    expect_rejected("run --headless --boids -5", {"--boids", "-5"});
    expect_rejected("run --headless --boids many", {"--boids", "many"});
    expect_rejected("run --headless --steps 1.5", {"--steps", "1.5"});
    expect_rejected("run --headless --seed x", {"--seed", "x"});
    expect_rejected("run --headless --precision f16", {"--precision", "f16", "f32 | f64"});
    expect_rejected("run --headless --threads -1", {"--threads", "-1"});
    expect_rejected("run --headless --frobnicate", {"frobnicate"});
    expect_rejected("run --headless --preset nope", {"nope", "ece4760", "vga-scouts", "vga-predator"});
    expect_rejected("run --headless --preset ece4760 --scenario x.toml", {"--preset", "--scenario"});
    expect_rejected("run --headless --obstacle 'circle 1 2'", {"--obstacle", "circle 1 2", "circle X Y R"});
    expect_rejected("run --headless --obstacle 'rect 5 5 1 1'", {"x1", "x0 < x1"});
    // Obstacles over the whole spawning area: an error after a bounded number of tries, not a hang.
    expect_rejected("run --headless --obstacle 'rect 0 0 640 480'",
                    {"obstacles", "rect 0 0 640 480", "no room"});
    expect_rejected("run --headless --food 'here there'", {"--food", "here there"});
    expect_rejected("run --headless --set model=flocky",
                    {"model", "flocky", "classic | topological | weighted"});
    expect_rejected("run --headless --set predator_behavior=stalk", {"predator_behavior", "stalk"});
    expect_rejected("run --headless --update sequential --set gravity=0.1",
                    {"update", "sequential", "gravity"});
}

TEST(Cli, BadStateFiles) {
    const auto init = [](const std::string& name, const std::string& csv) {
        return "run --headless --steps 1 --init " + write_file(name, csv).string();
    };
    expect_rejected(init("missing.csv", "kind,x,y,vx\nboid,1,2,3\n"), {"missing required column 'vy'"});
    expect_rejected(init("badnum.csv", "kind,x,y,vx,vy\nboid,1,2,3,4\nboid,1,two,3,4\n"),
                    {"line 3", "y = 'two'"});
    expect_rejected(init("nan.csv", "kind,x,y,vx,vy\nboid,1,2,3,NaN\n"), {"line 2", "vy = 'NaN'"});
    expect_rejected(init("inf.csv", "kind,x,y,vx,vy\nboid,1,2,-inf,4\n"), {"line 2", "vx = '-inf'"});
    expect_rejected(init("kind.csv", "kind,x,y,vx,vy\nboid,1,2,3,4\neagle,1,2,3,4\n"), {"line 3", "eagle"});
    expect_rejected(init("ragged.csv", "kind,x,y,vx,vy\nboid,1,2,3,4,5\n"), {"line 2", "6 fields"});
    expect_rejected("run --headless --init /nonexistent/state.csv",
                    {"cannot read", "/nonexistent/state.csv"});
    expect_rejected("run --headless --init " +
                        write_file("ok.csv", "kind,x,y,vx,vy\nboid,1,2,3,4\n").string() + " --boids 3",
                    {"--boids", "--init"});
    expect_rejected("run --headless --steps 1 --dump /nonexistent/dir/out.csv",
                    {"--dump", "/nonexistent/dir", "does not exist"});
}

TEST(Cli, BadScenarioFiles) {
    expect_rejected("run --headless --scenario /nonexistent/s.toml", {"cannot read", "/nonexistent/s.toml"});
    expect_rejected("run --headless --scenario " + write_file("syntax.toml", "[params\n").string(),
                    {"not valid TOML"});
    expect_rejected("run --headless --scenario " +
                        write_file("range.toml", "[params]\nmatching_factor = 3\n").string(),
                    {"line 2", "matching_factor", "3"});
    expect_rejected("run --headless --scenario " +
                        write_file("key.toml", "[params]\nvelocity = 3\n").string(),
                    {"unknown parameter 'velocity'"});
    const Result ok = boids(
        "run --headless --steps 5 --scenario " +
        write_file("good.toml", "seed = 5\n[agents]\nboids = 30\n[params]\nvisual_range = 25\n").string());
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.out.find("30 boids"), std::string::npos);
}

TEST(Cli, BenchPrintsTheW20TableWithPhasesIsaAndMemory) {
    const Result r = boids("bench --sizes 2000,4000 --seconds 0.01 --warmup 2 --steps 3 --threads 2");
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* column : {"steps/s", "ns/boid", "grid ms", "neighbour ms", "integr ms", "peak RSS"}) {
        EXPECT_NE(r.out.find(column), std::string::npos) << column << " in:\n" << r.out;
    }
    EXPECT_NE(r.out.find("threads 2, f32, fast path (SIMD "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("      2000 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("      4000 "), std::string::npos) << r.out;
    // 6 header lines (the CPU's among them), 2 rows in 2D and 2 in 3D, 2 notes, the machine's load.
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 14) << r.out;
    // Each size's 2D and 3D rows together (their steps taken in turn), the ratio on the 3D row.
    const std::size_t planar = r.out.find("  2       2000 "), spatial = r.out.find("  3       2000 ");
    const std::size_t next = r.out.find("  2       4000 ");
    ASSERT_NE(next, std::string::npos) << r.out;
    EXPECT_LT(planar, spatial) << r.out;
    EXPECT_LT(spatial, next) << r.out;
    EXPECT_NE(r.out.find("  3       4000 "), std::string::npos) << r.out;
    const std::size_t ratio = r.out.find(" 3D/2D ", spatial);
    EXPECT_LT(ratio, r.out.find('\n', spatial)) << r.out;
    EXPECT_NE(r.out.find("x, fastest steps ", ratio), std::string::npos) << r.out;
    const Result flat = boids("bench --sizes 2000 --seconds 0.01 --warmup 1 --steps 2 --dimensions 2");
    EXPECT_EQ(flat.code, 0) << flat.err;
    EXPECT_EQ(flat.out.find("  3       2000 "), std::string::npos) << flat.out;
    const Result plain = boids("bench --sizes 1000 --seconds 0.01 --warmup 0 --plain --precision f64");
    EXPECT_EQ(plain.code, 0) << plain.err;
    EXPECT_NE(plain.out.find("f64, plain path"), std::string::npos) << plain.out;
}

TEST(Cli, BenchModelsPrintsEveryModelAndExtensionAtW20sNeighbourCount) {
    const Result r = boids("bench --models --sizes 1500 --seconds 0.01 --warmup 1 --steps 1 --threads 2");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* column : {"neighbours", "1 thread ns", "cpu ns", "2 threads ns", "x fast"}) {
        EXPECT_NE(r.out.find(column), std::string::npos) << column << " in:\n" << r.out;
    }
    // Each row: its label, the path it took and the mean neighbour count its scene was sized for.
    const std::vector<std::pair<std::string, std::string>> rows{
        {"classic", "fast"},
        {"classic, plain path", "plain"},
        {"topological k=7", "fast"},
        {"topological k=7, plain path", "plain"},
        {"weighted", "fast"},
        {"weighted, plain path", "plain"},
        {"vicsek", "fast"},
        {"vicsek, plain path", "plain"},
        {"couzin", "fast"},
        {"couzin, plain path", "plain"},
        {"classic fov 270", "fast"},
        {"classic obstacles", "fast"},
        {"classic food", "fast"},
        {"classic line of sight", "fast"},
        {"classic perching", "fast"},
        {"classic gravity", "fast"},
        {"classic predators edge", "fast"},
        {"classic predators chasing", "fast"},
        {"classic predators pursuing", "fast"},
        {"classic obstacles, predators", "fast"},
    };
    std::istringstream lines(r.out);
    std::string line;
    std::size_t seen = 0;
    while (std::getline(lines, line) && seen < rows.size()) {
        const auto& [label, path] = rows[seen];
        // The label is padded to a column; a longer label that begins with this one is another row.
        if (line.rfind(label + "  ", 0) != 0) {
            continue;
        }
        std::istringstream fields(line.substr(label.size()));
        std::string taken;
        double neighbours = 0, ns = 0;
        fields >> taken >> neighbours >> ns;
        EXPECT_EQ(taken, path) << line;
        EXPECT_NEAR(neighbours, 20.0, 3.0) << line;
        EXPECT_GT(ns, 0.0) << line;
        ++seen;
    }
    EXPECT_EQ(seen, rows.size()) << "rows in order, in:\n" << r.out;
    EXPECT_NE(r.out.find("  couzin: the couzin preset's parameters"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ncpu: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nmachine load during the table: other processes held "), std::string::npos)
        << r.out;
}

TEST(Cli, BenchRunsTheSimdTargetNamedByFlagOrEnvironment) {
    // "scalar" runs on every CPU: Highway's portable fallback, one lane per float.
    const Result flag =
        boids("bench --sizes 1000 --seconds 0.01 --warmup 0 --steps 1 --dimensions 2 --target scalar");
    EXPECT_EQ(flag.code, 0) << flag.err;
    EXPECT_NE(flag.out.find("1 lanes, --target scalar)"), std::string::npos) << flag.out;
    const Result from_env = boids_with_environment(
        "BOIDS_SIMD_TARGET=scalar", "bench --sizes 1000 --seconds 0.01 --warmup 0 --steps 1 --dimensions 2");
    EXPECT_EQ(from_env.code, 0) << from_env.err;
    EXPECT_NE(from_env.out.find("1 lanes, BOIDS_SIMD_TARGET=scalar)"), std::string::npos) << from_env.out;
    // The flag wins over the environment.
    const Result both = boids_with_environment(
        "BOIDS_SIMD_TARGET=avx9", "bench --sizes 1000 --seconds 0.01 --warmup 0 --steps 1 --target scalar");
    EXPECT_EQ(both.code, 0) << both.err;
    // A run steps on the environment's target too, and refuses a bad one before stepping.
    const Result run =
        boids_with_environment("BOIDS_SIMD_TARGET=avx9", "run --headless --boids 50 --steps 2");
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_NE(run.err.find("BOIDS_SIMD_TARGET = 'avx9' is invalid: this CPU runs auto | "), std::string::npos)
        << run.err;
    // So does every other model's fast pass (their kernels are dispatched the same way).
    for (const char* preset : {"pynboids", "vicsek", "couzin", "downey-2d"}) {
        const Result model = boids_with_environment(
            "BOIDS_SIMD_TARGET=avx9", std::string("run --headless --boids 50 --steps 2 --preset ") + preset);
        EXPECT_EQ(model.code, 2) << preset << ": " << model.err;
        EXPECT_NE(model.err.find("BOIDS_SIMD_TARGET = 'avx9'"), std::string::npos)
            << preset << ": " << model.err;
    }
}

/// The value of the first line of /proc/cpuinfo that starts with `key` (then tabs and a colon), or "".
std::string cpuinfo_value(const std::string& key) {
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);) {
        if (line.rfind(key, 0) == 0 && line.find_first_not_of(" \t", key.size()) == line.find(':')) {
            return line.substr(line.find(':') + 2);
        }
    }
    return {};
}

TEST(Cli, BenchNamesTheCpuAndTheLoadOfWhatItMeasured) {
    const Result r = boids("bench --sizes 1000 --seconds 0.01 --warmup 0 --steps 1 --dimensions 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::size_t at = r.out.find("\ncpu: ");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string cpu = r.out.substr(at + 6, r.out.find('\n', at + 1) - at - 6);
    EXPECT_NE(cpu.find(" logical CPU"), std::string::npos) << cpu;
#if defined(__x86_64__) || defined(__i386__)
    // The family and model Linux reports, decoded from CPUID the same way.
    const std::string family = cpuinfo_value("cpu family"), model = cpuinfo_value("model");
    if (!family.empty() && !model.empty()) {
        EXPECT_NE(cpu.find(" family " + family + " model " + model + "), "), std::string::npos)
            << cpu << " against /proc/cpuinfo's family " << family << " model " << model;
    }
#endif
    EXPECT_NE(r.out.find("\nmachine load during the table: other processes held "), std::string::npos)
        << r.out;
}

TEST(Cli, BenchMaxFlockBisects) {
    // A rate every flock up to the limit holds: doubling stops at the limit. (Other processes' load is
    // measured and printed; --busy-limit keeps it from deciding here, on a machine running other tests.)
    const Result r =
        boids("bench --max-flock --rate 0.5 --limit 3000 --seconds 0.01 --warmup 1 --busy-limit 1e6");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("1000 boids"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2000 boids"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(3 windows, other processes held "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("machine load during the search: other processes held "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("largest flock: >= 3000 boids at 0.5 steps/s"), std::string::npos) << r.out;
    // A rate only the smallest flocks hold: a probe that misses is repeated (6 windows) and bisection walks
    // down.
    const Result none = boids("bench --max-flock --rate 100000 --limit 1000 --seconds 0.01 --warmup 0 "
                              "--threads 1 --busy-limit 1e6");
    EXPECT_EQ(none.code, 0) << none.err;
    EXPECT_NE(none.out.find("too slow (6 windows, "), std::string::npos) << none.out;
    EXPECT_NE(none.out.find("largest flock: "), std::string::npos) << none.out;
}

TEST(Cli, BenchMaxFlockRefusesAFigureWhileOtherProcessesHoldTheMachine) {
    // A busy loop started beside it holds part of a core whatever else the machine runs.
    const fs::path dir = tmp_dir();
    const std::string cmd =
        "sh -c 'while :; do :; done' & hog=$!; " + std::string(BOIDS_EXE) +
        " bench --max-flock --rate 0.5 --limit 2000 --seconds 0.3 --warmup 1 --busy-limit 0.05 > " +
        (dir / "stdout").string() + " 2> " + (dir / "stderr").string() +
        " < /dev/null; status=$?; kill $hog; exit $status";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    const std::string out = slurp(dir / "stdout"), err = slurp(dir / "stderr");
    EXPECT_NE(out.find("machine load during the search: other processes held "), std::string::npos) << out;
    EXPECT_EQ(out.find("largest flock:"), std::string::npos) << out;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("no figure: other processes held "), std::string::npos) << err;
    EXPECT_NE(err.find("more than --busy-limit 0.05"), std::string::npos) << err;
}

TEST(Cli, BenchBadInput) {
    expect_rejected("bench --sizes 0", {"--sizes", "'0'", "[1, 100000000]"});
    expect_rejected("bench --sizes 1000,,2000", {"--sizes", "''"});
    expect_rejected("bench --sizes 10k", {"--sizes", "'10k'"});
    expect_rejected("bench --seconds -1", {"--seconds", "'-1'"});
    expect_rejected("bench --rate 0", {"--rate", "'0'"});
    expect_rejected("bench --precision f16", {"--precision", "'f16'", "f32 | f64"});
    expect_rejected("bench --threads many", {"--threads", "'many'"});
    expect_rejected("bench --dimensions 4", {"--dimensions", "'4'", "2 | 3 | 2,3"});
    expect_rejected("bench --target avx9", {"--target", "'avx9'", "this CPU runs auto | ", "| scalar"});
    expect_rejected("bench --target AVX2", {"--target", "'AVX2'"});
    expect_rejected("bench --busy-limit -1", {"--busy-limit", "'-1'"});
    expect_rejected("bench --models --dimensions 3", {"--dimensions", "'3'", "the --models table is 2D"});
    expect_rejected("bench --models --plain", {"--models cannot be combined with --plain"});
}

} // namespace

TEST(Cli, ViewTakesTheSceneAsAFileOrAsScenarioNotBoth) {
    const auto scene = write_file("scene.toml", "seed = 3\n[agents]\nboids = 10\n");
    expect_rejected("view " + scene.string() + " --scenario " + scene.string(), {"scene file", "--scenario"});
    expect_rejected("view " + (tmp_dir() / "missing.toml").string(), {"missing.toml"});
}
