// `boids sweep` over several axes: every combination in a fixed order, the per-step series, the same
// bytes for any thread count, a resumed sweep ending byte for byte as an uninterrupted one, and bad axes
// refused on one line.

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using namespace boids_test;

/// Two axes (3 x 2 values), 2 seeds: 12 runs of 30 steps.
std::string two_axis_sweep(const fs::path& out, const std::string& threads, const std::string& extra = "") {
    return "sweep --preset vicsek --boids 40 --set width=5 --set height=5 --vary noise=0:4:3 "
           "--vary boids=20,40 --seeds 2 --steps 30 --burn-in 10 --every 5 --metric polarization,groups "
           "--threads " +
           threads + " --out " + out.string() + extra;
}

TEST(SweepCli, SeveralAxesRunEveryCombinationFirstAxisSlowestSeedFastest) {
    const fs::path out = tmp_dir() / "two.csv";
    fs::remove(out);
    const Result r = boids(two_axis_sweep(out, "2"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("12 runs (0 already in"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3 values of noise x 2 values of boids x 2 seeds"), std::string::npos) << r.out;
    const auto rows = lines(slurp(out));
    ASSERT_EQ(rows.size(), 14u);
    EXPECT_NE(rows[0].find("vary noise=0:4:3, vary boids=20,40, seeds 2"), std::string::npos) << rows[0];
    EXPECT_EQ(rows[1], "noise,boids,seed,polarization,groups");
    const std::vector<std::string> keys = {"0,20,4760", "0,20,4761", "0,40,4760", "0,40,4761",
                                           "2,20,4760", "2,20,4761", "2,40,4760", "2,40,4761",
                                           "4,20,4760", "4,20,4761", "4,40,4760", "4,40,4761"};
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(rows[i + 2].substr(0, keys[i].size() + 1), keys[i] + ",") << rows[i + 2];
    }
}

TEST(SweepCli, TheSeriesIsLongFormatAndTheSameBytesForAnyThreadCount) {
    const fs::path dir = tmp_dir();
    for (const char* name : {"a1.csv", "s1.csv", "a2.csv", "s2.csv", "plain.csv"}) {
        fs::remove(dir / name);
    }
    ASSERT_EQ(boids(two_axis_sweep(dir / "a1.csv", "1",
                                   " --series " + (dir / "s1.csv").string() + " --series-every 10"))
                  .code,
              0);
    const Result r = boids(
        two_axis_sweep(dir / "a2.csv", "2", " --series " + (dir / "s2.csv").string() + " --series-every 10"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(dir / "s1.csv"), slurp(dir / "s2.csv"));
    EXPECT_EQ(slurp(dir / "a1.csv"), slurp(dir / "a2.csv"));
    // Sampling a series does not change the averages.
    ASSERT_EQ(boids(two_axis_sweep(dir / "plain.csv", "2")).code, 0);
    EXPECT_EQ(slurp(dir / "plain.csv"), slurp(dir / "a2.csv"));

    const auto rows = lines(slurp(dir / "s2.csv"));
    ASSERT_EQ(rows.size(), 2u + 12u * 4u); // steps 0, 10, 20, 30 of each of the 12 runs
    EXPECT_EQ(rows[0].substr(0, 21), "# boids sweep series:");
    EXPECT_NE(rows[0].find(", series every 10"), std::string::npos) << rows[0];
    EXPECT_EQ(rows[1], "run,noise,boids,seed,step,polarization,groups");
    EXPECT_EQ(rows[2].substr(0, 12), "0,0,20,4760,");
    EXPECT_EQ(rows[3].substr(0, 15), "0,0,20,4760,10,");
    EXPECT_EQ(rows[5].substr(0, 15), "0,0,20,4760,30,");
    EXPECT_EQ(rows[6].substr(0, 13), "1,0,20,4761,0");
    EXPECT_EQ(rows[49].substr(0, 16), "11,4,40,4761,30,");
}

TEST(SweepCli, AResumedSweepWithASeriesEndsByteForByteAsAnUninterruptedOne) {
    const fs::path dir = tmp_dir();
    const fs::path full = dir / "full.csv", full_series = dir / "full_series.csv";
    const fs::path part = dir / "part.csv", part_series = dir / "part_series.csv";
    fs::remove(full);
    fs::remove(full_series);
    const auto sweep = [&](const fs::path& out, const fs::path& series) {
        return two_axis_sweep(out, "2", " --series " + series.string() + " --series-every 7");
    };
    ASSERT_EQ(boids(sweep(full, full_series)).code, 0);
    const std::string all = slurp(full), all_series = slurp(full_series);
    // Cuts anywhere in either file: in the preamble, mid-row, the series ahead of the averages or behind.
    const std::size_t cuts[][2] = {{0, 0},
                                   {50, 3000},
                                   {300, 100},
                                   {300, 2000},
                                   {500, 1234},
                                   {700, 900},
                                   {all.size(), all_series.size() / 2},
                                   {all.size() / 2, all_series.size()}};
    for (const auto& [a, s] : cuts) {
        write_file("part.csv", all.substr(0, a));
        write_file("part_series.csv", all_series.substr(0, s));
        const Result r = boids(sweep(part, part_series));
        ASSERT_EQ(r.code, 0) << a << "/" << s << ": " << r.err;
        EXPECT_EQ(slurp(part), all) << "cut at " << a << "/" << s;
        EXPECT_EQ(slurp(part_series), all_series) << "cut at " << a << "/" << s;
    }
    // A lost series file is made again (the averages rows with it).
    fs::remove(part_series);
    const Result r = boids(sweep(part, part_series));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("12 runs (0 already in"), std::string::npos) << r.out;
    EXPECT_EQ(slurp(part_series), all_series);
    EXPECT_EQ(slurp(part), all);
    // A finished sweep is left alone.
    const Result again = boids(sweep(part, part_series));
    EXPECT_NE(again.out.find("12 runs (12 already in"), std::string::npos) << again.out;
    // A row that is not where this sweep's run belongs is refused, and the file is left as it was.
    const std::string swapped = all.substr(0, all.find('\n', all.find('\n') + 1) + 1) + "4,40,4761,0.5,1\n";
    write_file("part.csv", swapped);
    expect_rejected(two_axis_sweep(part, "2"), {"--out", "row '4,40,4761,0.5,1' is not row 1 of this sweep"});
    EXPECT_EQ(slurp(part), swapped);
}

TEST(SweepCli, BadAxesAreRefusedOnOneLineNamingTheKeyAndWhatIsAllowed) {
    const std::string base = "sweep --preset vicsek --steps 10 --out " + (tmp_dir() / "bad.csv").string();
    expect_rejected(base + " --vary noise=0:1:2 --vary noise=3,4",
                    {"--vary", "'noise'", "each key may be varied once; this one is given twice"});
    expect_rejected(base + " --vary noise=0:1:2 --vary colour=1,2",
                    {"--vary", "'colour'", "numeric parameter of the vicsek model", "scouts1_fraction"});
    expect_rejected(base + " --vary noise=1,2 --vary visual_range=10,20",
                    {"--vary", "visual_range", "the vicsek model does not use this key"});
    expect_rejected(base + " --vary noise=1,2 --vary boids=", {"--vary", "'boids='", "no values"});
    expect_rejected(base + " --vary noise=1,x", {"--vary noise", "'x'", "finite number"});
    expect_rejected(base + " --vary noise=1,2,1", {"--vary noise", "1", "given twice"});
    expect_rejected(base + " --vary boids=10,12.5", {"--vary boids", "12.5", "whole number"});
    expect_rejected(base + " --vary boids=10 --vary noise=1,7",
                    {"--vary boids = 10, noise = 7", "noise", "[0, 6.28"});
    expect_rejected(base + " --vary noise=1,2 --metric all,groups", {"--metric", "'groups'", "named twice"});
    expect_rejected(base + " --vary noise=1,2 --series " + (tmp_dir() / "bad.csv").string(),
                    {"--series", "it is the --out file"});
    expect_rejected(base + " --vary noise=1,2 --series " + (tmp_dir() / "s.csv").string() +
                        " --series-every 11",
                    {"--series-every", "'11'", "[1, 10]"});
    expect_rejected(base + " --vary noise=1,2 --series-every 5", {"--series-every", "give --series too"});
}

} // namespace
