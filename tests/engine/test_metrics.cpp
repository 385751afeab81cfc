// Order parameters on hand-made configurations whose values are known exactly.

#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace boids {
namespace {

constexpr double pi = 3.14159265358979323846;

Params open_world() {
    Params p;
    p.width = 1000;
    p.height = 1000;
    p.visual_range = 10;
    return p;
}

TEST(Metrics, AllAlignedGivesPolarizationOneAndNoMilling) {
    World<double> w;
    for (int i = 0; i < 20; ++i) {
        w.add(Kind::Boid, 100 + 3 * i, 200 + (i % 4), 2.0 + 0.1 * i, 0.0,
              0); // speeds differ, headings do not
    }
    const Metrics m = compute_metrics(w, open_world(), 1);
    EXPECT_NEAR(m.polarization, 1.0, 1e-12);
    EXPECT_NEAR(m.frac_right, 1.0, 0);
    EXPECT_NEAR(m.frac_left, 0.0, 0);
    EXPECT_NEAR(m.accuracy, 1.0, 1e-12);
    EXPECT_NEAR(m.speed_mean, 2.0 + 0.1 * 9.5, 1e-12);
    // Population std of 2.0, 2.1, ..., 3.9: 0.1 * sqrt((20^2 - 1) / 12).
    EXPECT_NEAR(m.speed_std, 0.1 * std::sqrt(399.0 / 12.0), 1e-9);
}

TEST(Metrics, RotatingRingGivesMillingOneAndPolarizationZero) {
    World<double> w;
    const int n = 36;
    for (int i = 0; i < n; ++i) {
        const double a = 2 * pi * i / n;
        // Tangential velocity, counter-clockwise: r x v > 0 for every agent.
        w.add(Kind::Boid, 500 + 50 * std::cos(a), 500 + 50 * std::sin(a), -3 * std::sin(a), 3 * std::cos(a),
              0);
    }
    const Metrics m = compute_metrics(w, open_world(), 1);
    EXPECT_NEAR(m.milling, 1.0, 1e-12);
    EXPECT_NEAR(m.polarization, 0.0, 1e-12);
    // (accuracy is undefined here: the mean heading is zero up to rounding)
    // Neighbours on the ring are 2 * 50 * sin(pi / 36) apart.
    EXPECT_NEAR(m.nnd_mean, 100 * std::sin(pi / n), 1e-9);

    // Radial motion instead: no milling.
    for (int i = 0; i < n; ++i) {
        w.vx[i] = w.x[i] - 500;
        w.vy[i] = w.y[i] - 500;
    }
    EXPECT_NEAR(compute_metrics(w, open_world(), 1).milling, 0.0, 1e-12);
}

TEST(Metrics, CountsGroupsAsConnectedComponentsAtVisualRange) {
    World<double> w;
    for (int i = 0; i < 10; ++i) { // a chain with links of 8 < visual range 10: one group
        w.add(Kind::Boid, 100 + 8 * i, 100, 1, 0, 0);
    }
    for (int i = 0; i < 5; ++i) { // a far cluster
        w.add(Kind::Boid, 800 + i, 900, 1, 0, 0);
    }
    w.add(Kind::Predator, 450, 100, 1, 0, 0); // predators never join or bridge groups
    Params p = open_world();
    EXPECT_EQ(compute_metrics(w, p, 1).groups, 2);
    w.add(Kind::Boid, 500, 500, 1, 0, 0); // an isolated agent is a group of its own
    EXPECT_EQ(compute_metrics(w, p, 1).groups, 3);
    p.visual_range = 7.9; // the chain's links break: 10 singletons, the cluster, the loner
    EXPECT_EQ(compute_metrics(w, p, 1).groups, 12);
    p.model = Model::Vicsek; // link range follows the model: interaction_radius
    set_number(p, "interaction_radius", 2000);
    EXPECT_EQ(compute_metrics(w, p, 1).groups, 1);
}

TEST(Metrics, NearestNeighbourDistanceOnALattice) {
    World<float> w;
    for (int i = 0; i < 30; ++i) {
        for (int j = 0; j < 20; ++j) {
            w.add(Kind::Boid, static_cast<float>(10 + 2.5 * i), static_cast<float>(10 + 2.5 * j), 1, 0, 0);
        }
    }
    EXPECT_NEAR(compute_metrics(w, open_world(), 2).nnd_mean, 2.5, 1e-6);
    // An agent far from everyone: found by the exact fallback, not missed by the grid.
    w.add(Kind::Boid, 900, 900, 1, 0, 0);
    const double far = std::hypot(900 - (10 + 2.5 * 29), 900 - (10 + 2.5 * 19));
    EXPECT_NEAR(compute_metrics(w, open_world(), 2).nnd_mean, (600 * 2.5 + far) / 601, 1e-4);
}

TEST(Metrics, NearestNeighbourUsesTheMinimumImageOnATorus) {
    World<double> w;
    w.add(Kind::Boid, 0.5, 50, 1, 0, 0);
    w.add(Kind::Boid, 99.5, 50, 1, 0, 0);
    Params p = open_world();
    p.width = p.height = 100;
    set_param(p, "margin", "0");
    EXPECT_NEAR(compute_metrics(w, p, 1).nnd_mean, 99.0, 1e-12);
    p.boundary = Boundary::Wrap;
    EXPECT_NEAR(compute_metrics(w, p, 1).nnd_mean, 1.0, 1e-12);
    EXPECT_EQ(compute_metrics(w, p, 1).groups, 1);
}

TEST(Metrics, FractionsCountThePlainBoidsNotTheScouts) {
    World<double> w;
    w.add(Kind::Boid, 10, 10, 1, 0, 0);
    w.add(Kind::Boid, 20, 10, -1, 0, 0);
    w.add(Kind::Boid, 30, 10, -1, 0, 0);
    w.add(Kind::Boid, 40, 10, 0, 1, 0); // neither right nor left
    w.add(Kind::Scout1, 50, 10, 1, 0, 0.001);
    w.add(Kind::Scout1, 60, 10, 1, 0, 0.001);
    const Metrics m = compute_metrics(w, open_world(), 1);
    EXPECT_DOUBLE_EQ(m.frac_right, 0.25);
    EXPECT_DOUBLE_EQ(m.frac_left, 0.5);
    EXPECT_DOUBLE_EQ(m.side_right, 0.0);
    World<double> scouts_only;
    scouts_only.add(Kind::Scout2, 900, 10, -1, 0, 0.001);
    scouts_only.add(Kind::Scout1, 100, 10, 1, 0, 0.001);
    EXPECT_DOUBLE_EQ(compute_metrics(scouts_only, open_world(), 1).frac_right, 0.5);
    EXPECT_DOUBLE_EQ(compute_metrics(scouts_only, open_world(), 1).side_right, 0.5);
}

TEST(Metrics, AccuracyIsTheAngleToPlusX) {
    World<double> w;
    w.add(Kind::Boid, 10, 10, 0, 1, 0); // straight down the y axis: half way to wrong
    EXPECT_NEAR(compute_metrics(w, open_world(), 1).accuracy, 0.5, 1e-12);
    w.vx[0] = -1;
    w.vy[0] = 0;
    EXPECT_NEAR(compute_metrics(w, open_world(), 1).accuracy, 0.0, 1e-12);
}

TEST(Metrics, EmptyAndSingleAgentWorldsAreZeroNotNaN) {
    const Metrics empty = compute_metrics(World<float>{}, open_world(), 1);
    EXPECT_EQ(empty.groups, 0);
    EXPECT_EQ(empty.polarization, 0.0);
    World<float> one;
    one.add(Kind::Boid, 5, 5, 0, 0, 0);
    const Metrics m = compute_metrics(one, open_world(), 1);
    EXPECT_EQ(m.groups, 1);
    EXPECT_EQ(m.nnd_mean, 0.0);
    EXPECT_EQ(m.milling, 0.0);
    EXPECT_FALSE(std::isnan(m.speed_std));
}

TEST(Metrics, SameBitsForAnyThreadCount) {
    Params p;
    const World<float> w = spawn_world<float>(p, {3000, 40, 40, 2}, 7);
    const Metrics one = compute_metrics(w, p, 1);
    for (int threads : {2, 3, 4}) {
        const Metrics m = compute_metrics(w, p, threads);
        EXPECT_EQ(m.nnd_mean, one.nnd_mean);
        EXPECT_EQ(m.groups, one.groups);
        EXPECT_EQ(m.milling, one.milling);
        EXPECT_EQ(m.polarization, one.polarization);
    }
}

/// Connected components of "closer than `link`" by checking every pair: the definition, in O(N^2).
long long groups_by_every_pair(const World<double>& w, double link, double width, double height, bool wrap) {
    std::vector<std::size_t> parent(w.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto root = [&](std::size_t a) {
        while (parent[a] != a) {
            a = parent[a];
        }
        return a;
    };
    const auto apart = [](double d, double length, bool torus) {
        d = std::abs(d);
        return torus ? std::min(d, length - d) : d;
    };
    for (std::size_t a = 0; a < w.size(); ++a) {
        for (std::size_t b = a + 1; b < w.size(); ++b) {
            const double dx = apart(w.x[a] - w.x[b], width, wrap), dy = apart(w.y[a] - w.y[b], height, wrap);
            if (dx * dx + dy * dy < link * link) {
                parent[root(b)] = root(a);
            }
        }
    }
    long long count = 0;
    for (std::size_t a = 0; a < w.size(); ++a) {
        count += root(a) == a ? 1 : 0;
    }
    return count;
}

TEST(Metrics, GroupsMatchEveryPairOnManyThreads) {
    // 2,500 boids at a density where groups of every size form (a few hundred of them), open and wrapped.
    Params p;
    p.width = p.height = 1000;
    p.visual_range = 12;
    const World<double> w = spawn_world<double>(p, {2500, 0, 0, 0}, 11);
    for (const Boundary boundary : {Boundary::Margin, Boundary::Wrap}) {
        p.boundary = boundary;
        const long long expected = groups_by_every_pair(w, 12, 1000, 1000, boundary == Boundary::Wrap);
        EXPECT_GT(expected, 100);
        for (int threads : {1, 2, 4}) {
            EXPECT_EQ(compute_metrics(w, p, threads).groups, expected) << "threads " << threads;
        }
    }
}

TEST(Metrics, SumsOverSeveralBlocksAreTheSameBitsForAnyThreadCount) {
    Params p;
    p.width = p.height = 4000;
    const World<float> w = spawn_world<float>(p, {30000, 500, 500, 0}, 3); // several blocks of the sums
    const Metrics one = compute_metrics(w, p, 1);
    for (int threads : {2, 3}) {
        const Metrics m = compute_metrics(w, p, threads);
        EXPECT_EQ(m.polarization, one.polarization);
        EXPECT_EQ(m.milling, one.milling);
        EXPECT_EQ(m.speed_mean, one.speed_mean);
        EXPECT_EQ(m.speed_std, one.speed_std);
        EXPECT_EQ(m.nnd_mean, one.nnd_mean);
        EXPECT_EQ(m.groups, one.groups);
        EXPECT_EQ(m.accuracy, one.accuracy);
    }
}

TEST(Metrics, NamesValuesAndCsvColumns) {
    Metrics m;
    m.step = 12;
    m.groups = 3;
    m.polarization = 0.5;
    EXPECT_EQ(metrics_csv_header(),
              "step,polarization,milling,nnd_mean,groups,speed_mean,speed_std,frac_right,frac_left");
    EXPECT_EQ(metrics_csv_row(m), "12,0.5,0,0,3,0,0,0,0");
    for (std::string_view name : metric_names()) {
        EXPECT_NO_THROW((void)metric_value(m, name)) << name;
    }
    EXPECT_EQ(metric_value(m, "groups"), 3.0);
    try {
        (void)metric_value(m, "speed");
        FAIL() << "an unknown metric must be rejected";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'speed'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("polarization"), std::string::npos);
    }
}

} // namespace
} // namespace boids
