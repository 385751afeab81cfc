#include "boids/error.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace boids {
namespace {

template <class Real>
void expect_round_trip() {
    Params p;
    p.dynamic_bias = true;
    Simulation<Real> sim(p, spawn_world<Real>(p, AgentCounts{200, 7, 5, 3}, 9));
    sim.step(37); // arbitrary bits, dynamic biases included
    std::ostringstream out;
    write_state_csv(out, sim.world());
    const World<Real> back = parse_state_csv<Real>(out.str(), "dump");
    EXPECT_TRUE(back == sim.world()) << "parsing a dump must give the identical state";
}

TEST(StateIo, RoundTripIsBitExactF32) {
    expect_round_trip<float>();
}
TEST(StateIo, RoundTripIsBitExactF64) {
    expect_round_trip<double>();
}

TEST(StateIo, ColumnsInAnyOrderBiasOptional) {
    Params p;
    p.scout2_bias = 0.25;
    const World<double> w =
        parse_state_csv<double>("vy, kind ,x,vx,y\n2,scout2,10,1,20\n\n-1,predator,5,0,6\n", "t", p);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w.kind[0], Kind::Scout2);
    EXPECT_EQ(w.x[0], 10);
    EXPECT_EQ(w.y[0], 20);
    EXPECT_EQ(w.vx[0], 1);
    EXPECT_EQ(w.vy[0], 2);
    EXPECT_EQ(w.bias[0], 0.25) << "without a bias column a scout takes its group's bias";
    EXPECT_EQ(w.kind[1], Kind::Predator);
    EXPECT_EQ(w.bias[1], 0);
}

TEST(StateIo, MalformedFilesAreRejectedWithTheLine) {
    const auto message = [](const char* csv) {
        try {
            (void)parse_state_csv<double>(csv, "s.csv");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("kind,x,y,vx\nboid,1,2,3\n").find("missing required column 'vy'"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy\nboid,1,2,3,4\nboid,1,zz,3,4\n").find("s.csv line 3"),
              std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy\nboid,1,2,3,nan\n").find("vy = 'nan'"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy\nboid,1,2,inf,4\n").find("vx = 'inf'"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy\nbird,1,2,3,4\n").find("kind = 'bird'"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy\nboid,1,2,3\n").find("s.csv line 2: 4 fields"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy,mass\n").find("unknown column 'mass'"), std::string::npos);
    EXPECT_NE(message("").find("empty state file"), std::string::npos);
    EXPECT_NE(message("kind,x,y,vx,vy,bias\nscout1,1,2,3,4,2\n").find("bias"), std::string::npos);
    EXPECT_THROW((void)read_state_csv<double>("/nonexistent/state.csv"), InputError);
}

TEST(StateIo, FirstLineCarriesTheAgentCountAndTheStep) {
    Params p;
    Simulation<double> sim(p, spawn_world<double>(p, AgentCounts{20, 1, 1, 1}, 4));
    std::ostringstream out;
    write_state_csv(out, sim.world(), 1234);
    EXPECT_EQ(out.str().substr(0, out.str().find('\n')), "# boids state: 23 agents, step 1234");
    long long step = -1;
    EXPECT_TRUE(parse_state_csv<double>(out.str(), "dump", p, &step) == sim.world());
    EXPECT_EQ(step, 1234);
    // A hand-written file without the line starts at step 0.
    (void)parse_state_csv<double>("kind,x,y,vx,vy\nboid,1,2,3,4\n", "hand.csv", p, &step);
    EXPECT_EQ(step, 0);
}

TEST(StateIo, TruncatedFileIsRefused) {
    Params p;
    Simulation<float> sim(p, spawn_world<float>(p, AgentCounts{50, 0, 0, 0}, 1));
    std::ostringstream out;
    write_state_csv(out, sim.world(), 7);
    const std::string whole = out.str();
    // Cut on a row boundary, as a killed writer leaves it: every remaining row is well formed.
    std::size_t cut = whole.size() - 1;
    for (int rows = 0; rows < 10; ++rows) {
        cut = whole.rfind('\n', cut - 1);
    }
    const std::string truncated = whole.substr(0, cut + 1);
    try {
        (void)parse_state_csv<float>(truncated, "cut.csv", p);
        FAIL() << "a truncated state must be refused";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "cut.csv: the file is truncated or damaged: its first line promises 50 "
                      "agents, it holds 40"),
                  std::string::npos)
            << e.what();
    }
    // Cut inside the last number: the row count matches, the missing line break tells.
    EXPECT_THROW((void)parse_state_csv<float>(whole.substr(0, whole.size() - 2), "cut.csv", p), InputError);
    EXPECT_THROW((void)parse_state_csv<float>("# boids state: many agents\nkind,x,y,vx,vy\n", "bad.csv", p),
                 InputError);
}

TEST(StateIo, ByteOrderMarkAndCommentsAreAccepted) {
    const World<double> w = parse_state_csv<double>(
        "\xEF\xBB\xBF# written by a spreadsheet\nkind,x,y,vx,vy\nboid,1,2,3,4\n", "bom.csv");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w.x[0], 1.0);
}

TEST(StateIo, WritingReplacesTheFileAtomically) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "boids_state_io_atomic";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "state.csv";
    Params p;
    Simulation<double> sim(p, spawn_world<double>(p, AgentCounts{30, 0, 0, 0}, 2));
    write_state_csv(file, sim.world(), 5);
    long long step = 0;
    EXPECT_TRUE(read_state_csv<double>(file, p, &step) == sim.world());
    EXPECT_EQ(step, 5);
    // No temporary file is left behind, and a path in a missing directory is refused before writing.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}),
              1);
    EXPECT_THROW(write_state_csv(dir / "missing" / "state.csv", sim.world()), InputError);
    EXPECT_THROW(write_state_csv(dir, sim.world()), InputError);
    std::filesystem::remove_all(dir);
}

TEST(StateIo, ReadingRefusesDirectoriesDevicesAndBinaryFiles) {
    const auto message = [](const std::filesystem::path& path) {
        try {
            (void)read_state_csv<double>(path);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("/tmp").find("state file '/tmp' is a directory"), std::string::npos);
    // /dev/zero never ends: the read stops at its first block, which holds NUL bytes.
    EXPECT_NE(message("/dev/zero").find("is not a text file: it holds a NUL byte at offset 0"),
              std::string::npos);
}

} // namespace
} // namespace boids
