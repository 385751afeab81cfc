#include "boids/error.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"

#include <gtest/gtest.h>

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

} // namespace
} // namespace boids
