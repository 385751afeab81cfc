// Sweeps: the axes, the fixed run order, each run's averages and series, and delivery in run order
// whatever the number of workers.

#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/params.hpp"
#include "boids/simulation.hpp"
#include "boids/sweep.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace boids {
namespace {

std::vector<std::string> texts(const SweepAxis& axis) {
    std::vector<std::string> out;
    for (const SweepValue& v : axis.values) {
        out.push_back(v.text);
    }
    return out;
}

/// The message of the InputError `f` throws ("" if it throws none).
template <class F>
std::string rejection(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

SweepPlan small_vicsek_plan() {
    SweepPlan plan;
    plan.scenario = load_preset("vicsek");
    plan.scenario.agents.boids = 30;
    plan.axes = {parse_sweep_axis("--vary", "noise=0.5,3"), parse_sweep_axis("--vary", "boids=20:40:3")};
    plan.seeds = 2;
    plan.steps = 24;
    plan.burn_in = 4;
    plan.every = 5;
    plan.metrics = {"polarization", "groups"};
    return plan;
}

TEST(Sweep, AxesFromRangesAndLists) {
    EXPECT_EQ(texts(parse_sweep_axis("--vary", "noise=0:1:5")),
              (std::vector<std::string>{"0", "0.25", "0.5", "0.75", "1"}));
    EXPECT_EQ(texts(parse_sweep_axis("--vary", "visual_range=1:100:3:log")),
              (std::vector<std::string>{"1", "10", "100"}));
    // Counts are rounded; values equal after rounding are run once.
    EXPECT_EQ(texts(parse_sweep_axis("--vary", "boids=1:2:4")), (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(texts(parse_sweep_axis("--vary", "noise=2,0.5,1e-3")),
              (std::vector<std::string>{"2", "0.5", "0.001"}));
    EXPECT_EQ(parse_sweep_axis("--vary", "predators=3").values.at(0).value, 3.0);
}

TEST(Sweep, BadAxesAreRefusedNamingTheFieldAndTheValue) {
    const auto axis = [](const std::string& spec) {
        return rejection([&] { (void)parse_sweep_axis("--vary", spec); });
    };
    EXPECT_NE(axis("noise").find("KEY=START:STOP:COUNT[:log] or KEY=V1,V2,..."), std::string::npos);
    EXPECT_NE(axis("noise=").find("no values"), std::string::npos);
    EXPECT_NE(axis("noise=1,,2").find("--vary noise = '' is invalid: expected a finite number"),
              std::string::npos);
    EXPECT_NE(axis("noise=1,2,1").find("--vary noise = 1 is invalid: each value may appear once"),
              std::string::npos);
    EXPECT_NE(axis("boids=10,2.5").find("boids = 2.5 is invalid: an agent count must be a whole number"),
              std::string::npos);
    EXPECT_NE(axis("noise=0:1:0").find("--vary COUNT = '0'"), std::string::npos);
    const std::vector<double> none;
    EXPECT_NE(rejection([&] { (void)make_sweep_axis("axes['noise']", "noise", none); }).find("no values"),
              std::string::npos);

    // Axes checked against the scene and each other.
    const auto with_axis = [](const std::string& spec) {
        SweepPlan plan = small_vicsek_plan();
        plan.axes.push_back(parse_sweep_axis("--vary", spec));
        return rejection([&] { validate_sweep(plan, "--vary"); });
    };
    EXPECT_NE(with_axis("noise=1,2").find("'noise' is invalid: each key may be varied once"),
              std::string::npos);
    EXPECT_NE(with_axis("colour=1,2")
                  .find("'colour' is invalid: KEY must be a numeric parameter of the vicsek model"),
              std::string::npos);
    const std::string unused = with_axis("visual_range=10");
    EXPECT_NE(unused.find("visual_range"), std::string::npos) << unused;
    EXPECT_NE(unused.find("the vicsek model does not use this key"), std::string::npos) << unused;
    SweepPlan plan = small_vicsek_plan();
    plan.axes.push_back(parse_sweep_axis("--vary", "noise_seed=0:9000:100000"));
    plan.axes.push_back(parse_sweep_axis("--vary", "interaction_radius=1:2:100"));
    EXPECT_NE(rejection([&] { validate_sweep(plan, "--vary"); }).find("at most 10000000"), std::string::npos);
    plan = small_vicsek_plan();
    plan.burn_in = 24;
    EXPECT_NE(rejection([&] { validate_sweep(plan, "--vary"); }).find("burn_in = 24 is invalid"),
              std::string::npos);
    EXPECT_EQ(rejection([&] { validate_sweep(small_vicsek_plan(), "--vary"); }), "");
}

TEST(Sweep, RunsComeInAFixedOrderFirstAxisSlowestSeedFastest) {
    const SweepPlan plan = small_vicsek_plan();
    const std::vector<SweepRun> runs = sweep_runs(plan);
    ASSERT_EQ(runs.size(), 12u);
    ASSERT_EQ(sweep_run_count(plan), 12u);
    std::vector<std::string> order;
    for (const SweepRun& r : runs) {
        order.push_back(plan.axes[0].values[r.point[0]].text + "/" + plan.axes[1].values[r.point[1]].text +
                        "/" + std::to_string(r.seed));
    }
    EXPECT_EQ(order, (std::vector<std::string>{"0.5/20/4760", "0.5/20/4761", "0.5/30/4760", "0.5/30/4761",
                                               "0.5/40/4760", "0.5/40/4761", "3/20/4760", "3/20/4761",
                                               "3/30/4760", "3/30/4761", "3/40/4760", "3/40/4761"}));
    const Scenario sc = sweep_scenario(plan, runs[9]);
    EXPECT_EQ(sc.agents.boids, 30);
    EXPECT_EQ(get_param(sc.params, "noise"), "3");
    EXPECT_EQ(sc.seed, 4761u);
    EXPECT_EQ(sc.params.noise_seed, 4761.0);
}

TEST(Sweep, AFractionAxisAppliesToTheCountsOfTheAxesBeforeIt) {
    SweepPlan plan;
    plan.scenario = load_preset("couzin");
    plan.axes = {parse_sweep_axis("--vary", "boids=20,40"),
                 parse_sweep_axis("--vary", "scouts1_fraction=0.25")};
    plan.scenario.agents.scouts1 = 0;
    validate_sweep(plan, "--vary");
    const std::vector<SweepRun> runs = sweep_runs(plan);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(sweep_scenario(plan, runs[1]).agents.boids, 30);
    EXPECT_EQ(sweep_scenario(plan, runs[1]).agents.scouts1, 10);
}

TEST(Sweep, ARunsAveragesAreTheMeanOfItsSamplesAfterTheBurnIn) {
    SweepPlan plan = small_vicsek_plan();
    plan.burn_in = 0;
    plan.series_every = plan.every;
    const SweepRun run = sweep_runs(plan)[3];
    const SweepResult r = run_sweep_run(plan, run);
    const std::vector<long long> steps = sweep_series_steps(plan);
    EXPECT_EQ(steps, (std::vector<long long>{0, 5, 10, 15, 20}));
    ASSERT_EQ(r.series.size(), steps.size() * 2);

    // The series by hand: the same scene stepped to each sample step.
    const Scenario sc = sweep_scenario(plan, run);
    Simulation<float> sim(sc.params, spawn_world<float>(sc.params, sc.agents, sc.seed));
    sim.set_threads(1);
    double sum = 0.0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        sim.step(steps[i] - sim.steps_taken());
        const Metrics m = compute_metrics(sim.world(), sim.params(), 1);
        EXPECT_EQ(r.series[2 * i], m.polarization) << "step " << steps[i];
        EXPECT_EQ(r.series[2 * i + 1], static_cast<double>(m.groups)) << "step " << steps[i];
        sum += i > 0 ? m.polarization : 0.0;
    }
    EXPECT_EQ(r.averages[0], sum / 4.0);

    // Sampling a series (one step at a time) does not change the averages (taken in chunks without it).
    plan.series_every = 0;
    EXPECT_EQ(run_sweep_run(plan, run).averages, r.averages);
}

TEST(Sweep, ResultsAreDeliveredInRunOrderWhateverTheWorkers) {
    SweepPlan plan = small_vicsek_plan();
    plan.series_every = 6;
    const std::vector<SweepRun> runs = sweep_runs(plan);
    const auto collect = [&](int workers) {
        std::vector<std::size_t> order;
        std::vector<double> values;
        run_sweep_runs(plan, runs, workers, [&](std::size_t i, SweepResult&& r) {
            order.push_back(i);
            values.insert(values.end(), r.averages.begin(), r.averages.end());
            values.insert(values.end(), r.series.begin(), r.series.end());
        });
        EXPECT_EQ(order.size(), runs.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            EXPECT_EQ(order[i], i);
        }
        return values;
    };
    EXPECT_EQ(collect(1), collect(3));
}

TEST(Sweep, AFailingDeliveryStopsTheSweepWithItsError) {
    const SweepPlan plan = small_vicsek_plan();
    const std::vector<SweepRun> runs = sweep_runs(plan);
    std::size_t delivered = 0;
    EXPECT_THROW(run_sweep_runs(plan, runs, 2,
                                [&](std::size_t i, SweepResult&&) {
                                    if (i == 2) {
                                        throw IoError("disk full");
                                    }
                                    ++delivered;
                                }),
                 IoError);
    EXPECT_EQ(delivered, 2u);
}

} // namespace
} // namespace boids
