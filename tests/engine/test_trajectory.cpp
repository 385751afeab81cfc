// Trajectory files: the CSV parses back to the frames written; the .npy header and data follow the
// NumPy format 1.0 byte for byte (numpy itself reads it in tests/python/check_trajectory_npy.py).

#include "boids/error.hpp"
#include "boids/trajectory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace boids {
namespace {

namespace fs = std::filesystem;

fs::path temp(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "boids_trajectory_test";
    fs::create_directories(dir);
    return dir / name;
}

World<float> sample_world(float shift) {
    World<float> w;
    w.add(Kind::Boid, 1.5f + shift, 2.25f, 0.1f, -0.2f, 0);
    w.add(Kind::Scout1, 3.0f, 4.0f + shift, 1e-7f, 5.0f, 0.001f);
    w.add(Kind::Predator, 0.3f, 0.7f, -6.0f, 0.0f, 0);
    return w;
}

TEST(Trajectory, CsvRoundTripsEveryFrame) {
    const fs::path path = temp("t.csv");
    {
        TrajectoryWriter<float> out(path, 3);
        out.write_frame(sample_world(0), 0);
        out.write_frame(sample_world(1), 5);
        out.close();
        EXPECT_EQ(out.frames(), 2);
    }
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "step,agent,kind,x,y,vx,vy");
    for (int frame = 0; frame < 2; ++frame) {
        const World<float> w = sample_world(static_cast<float>(frame));
        for (std::size_t i = 0; i < 3; ++i) {
            ASSERT_TRUE(std::getline(in, line));
            std::stringstream row(line);
            std::string step, agent, kind, x, y, vx, vy;
            std::getline(row, step, ',');
            std::getline(row, agent, ',');
            std::getline(row, kind, ',');
            std::getline(row, x, ',');
            std::getline(row, y, ',');
            std::getline(row, vx, ',');
            std::getline(row, vy, ',');
            EXPECT_EQ(step, frame == 0 ? "0" : "5");
            EXPECT_EQ(agent, std::to_string(i));
            EXPECT_EQ(kind, kind_name(w.kind[i]));
            EXPECT_EQ(std::stof(x), w.x[i]); // shortest round-trip text: exact
            EXPECT_EQ(std::stof(y), w.y[i]);
            EXPECT_EQ(std::stof(vx), w.vx[i]);
            EXPECT_EQ(std::stof(vy), w.vy[i]);
        }
    }
    EXPECT_FALSE(std::getline(in, line));
}

TEST(Trajectory, NpyHeaderAndDataFollowTheFormat) {
    const fs::path path = temp("t.npy");
    {
        TrajectoryWriter<double> out(path, 2);
        World<double> w;
        w.add(Kind::Boid, 1, 2, 3, 4, 0);
        w.add(Kind::Boid, 5, 6, 7, 8, 0);
        for (int f = 0; f < 3; ++f) {
            out.write_frame(w, f);
            w.x[0] += 10;
        }
    } // the destructor closes and rewrites the header
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(bytes.size(), 128u + 3 * 2 * 4 * sizeof(double));
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t header_len =
        static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    EXPECT_EQ(10 + header_len, 128u);
    const std::string header = bytes.substr(10, header_len);
    EXPECT_NE(header.find("'descr': '<f8'"), std::string::npos) << header;
    EXPECT_NE(header.find("'fortran_order': False"), std::string::npos) << header;
    EXPECT_NE(header.find("3, 2, 4)"), std::string::npos) << header;
    EXPECT_EQ(header.back(), '\n');
    double data[24];
    std::memcpy(data, bytes.data() + 128, sizeof data);
    EXPECT_EQ(data[0], 1);  // frame 0, agent 0, x
    EXPECT_EQ(data[7], 8);  // frame 0, agent 1, vy
    EXPECT_EQ(data[8], 11); // frame 1, agent 0, x
    EXPECT_EQ(data[16], 21);
}

TEST(Trajectory, RejectsUnknownExtensionsAndChangingAgentCounts) {
    EXPECT_THROW(TrajectoryWriter<float>(temp("t.txt"), 3), InputError);
    EXPECT_THROW(TrajectoryWriter<float>(fs::path("/nonexistent-dir/t.csv"), 3), InputError);
    TrajectoryWriter<float> out(temp("t2.npy"), 2);
    EXPECT_THROW(out.write_frame(sample_world(0), 0), InputError);
}

} // namespace
} // namespace boids
