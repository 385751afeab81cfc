// Golden traces through the real executable: the CSV trace, and the C header compiled by a C compiler,
// whose arrays must equal the CSV trace converted with from_float.

#include "boids/fix15.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

fs::path tmp_dir() {
    const fs::path dir =
        fs::path(BOIDS_TEST_TMP) /
        ("trace_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir);
    return dir;
}

int run(const std::string& cmd) {
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> lines(const fs::path& p) {
    std::ifstream in(p);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) {
        out.push_back(line);
    }
    return out;
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string f; std::getline(ss, f, ',');) {
        out.push_back(f);
    }
    return out;
}

TEST(Trace, CsvHasTheInitialStateAndEveryKthStep) {
    const fs::path csv = tmp_dir() / "trace.csv";
    ASSERT_EQ(run(std::string(BOIDS_EXE) +
                  " run --headless --preset ece4760 --boids 20 --predators 1 --steps 25 "
                  "--trace-every 10 --precision f64 --trace " +
                  csv.string() + " > /dev/null"),
              0);
    const auto rows = lines(csv);
    ASSERT_EQ(rows.front(), "step,kind,x,y,vx,vy,bias");
    ASSERT_EQ(rows.size(), 1u + 3u * 21u); // steps 0, 10, 20 (25 is not a multiple of 10)
    EXPECT_EQ(split(rows[1])[0], "0");
    EXPECT_EQ(split(rows[22])[0], "10");
    EXPECT_EQ(split(rows.back())[0], "20");
    EXPECT_EQ(split(rows.back())[1], "predator");
}

TEST(Trace, CHeaderCompilesAndEqualsTheCsvTrace) {
    const fs::path dir = tmp_dir();
    const std::string common =
        std::string(BOIDS_EXE) +
        " run --headless --preset vga-scouts --boids 30 --scouts1 4 --scouts2 3 --predators 1 "
        "--precision fix15 --steps 12 --trace-every 4 --seed 9 ";
    ASSERT_EQ(run(common + "--trace " + (dir / "trace.csv").string() + " > /dev/null"), 0);
    ASSERT_EQ(run(common + "--trace-format c-header --trace " + (dir / "golden.h").string() + " > /dev/null"),
              0);

    // A firmware-style unit test: include the header, print every traced value.
    std::ofstream(dir / "check.c") << R"(#include <stdio.h>
#include "golden.h"
int main(void) {
    for (int f = 0; f < BOIDS_TRACE_FRAMES; ++f)
        for (int i = 0; i < BOIDS_TRACE_AGENTS; ++i)
            printf("%d,%d,%d,%d,%d,%d,%d\n", (int)boids_trace_step[f], (int)boids_trace_kind[i],
                   (int)boids_trace_x[f][i], (int)boids_trace_y[f][i], (int)boids_trace_vx[f][i],
                   (int)boids_trace_vy[f][i], (int)boids_trace_bias[f][i]);
    printf("visual=%d right=%d vis2=%d\n", (int)BOIDS_VISUAL_RANGE, (int)BOIDS_RIGHT_EDGE,
           (int)BOIDS_VISUAL_RANGE_SQUARED);
    return 0;
}
)";
    ASSERT_EQ(
        run("cc -std=c99 -Wall -Werror -o " + (dir / "check").string() + " " + (dir / "check.c").string()), 0)
        << "the header must compile as C";
    ASSERT_EQ(run((dir / "check").string() + " > " + (dir / "check.out").string()), 0);

    const auto from_c = lines(dir / "check.out");
    const auto csv = lines(dir / "trace.csv");
    ASSERT_EQ(csv.size() - 1, from_c.size() - 1) << "same frames x agents";
    ASSERT_EQ(csv.size() - 1, 4u * 38u); // steps 0, 4, 8, 12
    const char* kinds[] = {"boid", "scout1", "scout2", "predator"};
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto want = split(csv[r]);
        const auto got = split(from_c[r - 1]);
        ASSERT_EQ(want[0], got[0]);
        ASSERT_EQ(want[1], kinds[std::stoi(got[1])]);
        for (int c = 2; c < 7; ++c) {
            ASSERT_EQ(boids::Fix15::from_double(std::stod(want[static_cast<std::size_t>(c)])).raw,
                      std::stoi(got[static_cast<std::size_t>(c)]))
                << "row " << r << " column " << c;
        }
    }
    EXPECT_EQ(from_c.back(), "visual=1310720 right=17694720 vis2=52428800"); // 40, 540, mul(40, 40) = 1600
}

TEST(Trace, BadTraceOptionsAreRejected) {
    const std::string exe = std::string(BOIDS_EXE) + " run --headless --steps 1 ";
    const std::string quiet = " > /dev/null 2>&1";
    EXPECT_EQ(run(exe + "--trace x.h --trace-format c-header" + quiet), 2) << "c-header needs fix15";
    EXPECT_EQ(run(exe + "--trace x.csv --trace-format xml" + quiet), 2);
    EXPECT_EQ(run(exe + "--trace x.csv --trace-every 0" + quiet), 2);
    EXPECT_EQ(run(exe + "--trace /nonexistent/dir/x.csv" + quiet), 2);
    EXPECT_EQ(run(exe + "--update parallel" + quiet), 2);
    EXPECT_EQ(run(exe + "--speed-estimate guess" + quiet), 2);
    EXPECT_EQ(run(exe + "--precision fix15 --set visual_range=300" + quiet), 2);
    EXPECT_EQ(run(exe + "--precision fix15 --update sequential --speed-estimate alpha-max-beta-min" + quiet),
              0);
}

} // namespace
