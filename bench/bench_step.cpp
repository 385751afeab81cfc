// Google Benchmark: the classic model on the W20 workload (see include/boids/workloads.hpp). The fast
// cases take two arguments, N and the dimensions (2, or 3 for the W20 cube at the same neighbour count).
//
//   ./build/release/boids_bench                        # all cases
//   ./build/release/boids_bench --benchmark_filter=Step/1000000/2
//   ./build/release/boids_bench --benchmark_filter='Fast(GridBuild|NeighbourPass)'   # phases alone
//   ./build/release/boids_bench --benchmark_filter='/3$'                            # 3D only
//   BOIDS_SIMD_TARGET=avx2 ./build/release/boids_bench --benchmark_filter=BesideCellLanes
//                                              # the fast step against a straightforward kernel, on AVX2
//   BOIDS_SIMD_TARGET=sse4 ./build/release/boids_bench --benchmark_filter=AngleArrays   # the models' angles
//   ./build/release/boids_bench --benchmark_filter=DividerIssue   # square roots, divisions at each width
//
// ns_per_boid_step is wall time per boid per step (all threads). Reported, never asserted.

#include "angle_lanes.hpp"
#include "cell_lanes_baseline.hpp"
#include "divider_rate.hpp"

#include "boids/detail/grid_geometry.hpp"
#include "boids/fast_path.hpp"
#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace boids;

Simulation<float> make_w20(long long n, long long dimensions = 2) {
    const Scenario s = dimensions == 3 ? w20_3d_scenario(n) : w20_scenario(n);
    Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    sim.step(20); // warm-up: grids allocated, caches and the flock settled a little
    return sim;
}

void report(benchmark::State& state, long long n, const StepProfile& total) {
    const double steps = static_cast<double>(state.iterations());
    state.counters["ns_per_boid_step"] = benchmark::Counter(
        static_cast<double>(n) * steps, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
    state.counters["grid_ms"] = total.grid_build_ms / steps;
    state.counters["neighbours_ms"] = total.neighbours_ms / steps;
    state.counters["integrate_ms"] = total.integrate_ms / steps;
}

/// The whole step: grid build, neighbour pass, integrate (the fast SIMD path, the default).
void Step(benchmark::State& state) {
    const long long n = state.range(0);
    Simulation<float> sim = make_w20(n, state.range(1));
    StepProfile total;
    for (auto _ : state) {
        sim.step();
        total += sim.last_profile();
    }
    report(state, n, total);
}
BENCHMARK(Step)
    ->ArgsProduct({{10'000, 100'000, 1'000'000}, {2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The whole step on the plain grid path (the readable reference), for comparison.
void PlainStep(benchmark::State& state) {
    const long long n = state.range(0);
    Simulation<float> sim = make_w20(n);
    sim.set_fast_path(false);
    StepProfile total;
    for (auto _ : state) {
        sim.step();
        total += sim.last_profile();
    }
    report(state, n, total);
}
BENCHMARK(PlainStep)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

/// One phase of the fast step alone, timed by the step's own profile (manual time), in its real
/// context: the flock kept in cell order and moving between iterations.
template <double StepProfile::*Phase>
void FastPhase(benchmark::State& state) {
    const long long n = state.range(0);
    Simulation<float> sim = make_w20(n, state.range(1));
    for (auto _ : state) {
        sim.step();
        state.SetIterationTime(sim.last_profile().*Phase / 1000.0);
    }
    state.counters["ns_per_boid"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["fast_path"] = sim.last_step_fast() ? 1 : 0;
}
/// The fast grid build alone: parallel counting sort of the cell-ordered flock.
void FastGridBuild(benchmark::State& state) {
    FastPhase<&StepProfile::grid_build_ms>(state);
}
/// The fast neighbour pass alone: the SIMD kernel (docs/MODEL.md §2.2-2.9 for every boid).
void FastNeighbourPass(benchmark::State& state) {
    FastPhase<&StepProfile::neighbours_ms>(state);
}
BENCHMARK(FastGridBuild)
    ->ArgsProduct({{10'000, 100'000, 1'000'000}, {2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();
BENCHMARK(FastNeighbourPass)
    ->ArgsProduct({{10'000, 100'000, 1'000'000}, {2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

/// ns per boid-step of `n` agents, and the instruction set the case ran.
void report_step_on(benchmark::State& state, long long n) {
    state.counters["ns_per_boid_step"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.SetLabel(fast_path_isa());
}

/// The fast step on one thread, W20 in 2D: what CellLanesBaseline is measured against.
void FastStepOneThread(benchmark::State& state) {
    const long long n = state.range(0);
    Simulation<float> sim = make_w20(n);
    sim.set_threads(1);
    for (auto _ : state) {
        sim.step();
    }
    report_step_on(state, n);
}
/// The same step by a straightforward cell-lanes kernel (bench/cell_lanes_baseline.hpp, one thread), on the
/// SIMD target BOIDS_SIMD_TARGET names (the best otherwise): the yardstick of the fast step's design.
void CellLanesBaselineStep(benchmark::State& state) {
    const long long n = state.range(0);
    apply_fast_path_target_environment();
    const Scenario s = w20_scenario(n);
    bench::CellLanesBaseline baseline(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    for (int warm_up = 0; warm_up < 20; ++warm_up) { // as make_w20
        baseline.step();
    }
    for (auto _ : state) {
        baseline.step();
    }
    report_step_on(state, n);
}
/// The fast step and the cell-lanes kernel flown side by side, their steps in turns of four, the first
/// step of each turn flown but not timed (a step right after the other flock's pays for bringing its own
/// back into the caches), as `boids bench` flies 2D and 3D. Flown one after the other, the two cases above
/// meet a shared machine in different states: their ratio at 1M moved from 1.2x to 1.45x between two runs
/// a minute apart. Reports each one's median step in ns per boid-step and the ratio of the medians
/// (cell_lanes_over_fast, the figure the AVX2 goal of 1.5x is about). An iteration is a turn of each.
void FastStepBesideCellLanes(benchmark::State& state) {
    const long long n = state.range(0);
    apply_fast_path_target_environment();
    const Scenario s = w20_scenario(n);
    Simulation<float> sim(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    sim.set_threads(1);
    bench::CellLanesBaseline baseline(s.params, spawn_world<float>(s.params, s.agents, s.seed));
    for (int warm_up = 0; warm_up < 20; ++warm_up) { // as make_w20
        sim.step();
        baseline.step();
    }
    std::vector<double> fast_ns, baseline_ns;
    const auto timed = [](std::vector<double>& into, auto&& step) {
        const auto start = std::chrono::steady_clock::now();
        step();
        into.push_back(
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    };
    constexpr int per_turn = 4;
    double fast_seconds = 0.0;
    for (auto _ : state) {
        sim.step();
        for (int k = 1; k < per_turn; ++k) {
            timed(fast_ns, [&] { sim.step(); });
            fast_seconds += fast_ns.back() * 1e-9;
        }
        baseline.step();
        for (int k = 1; k < per_turn; ++k) {
            timed(baseline_ns, [&] { baseline.step(); });
        }
        state.SetIterationTime(fast_seconds);
        fast_seconds = 0.0;
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const std::size_t h = v.size() / 2;
        return v.size() % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
    };
    const double fast = median(fast_ns), cell_lanes = median(baseline_ns);
    state.counters["fast_ns_per_boid_step"] = fast / static_cast<double>(n);
    state.counters["cell_lanes_ns_per_boid_step"] = cell_lanes / static_cast<double>(n);
    state.counters["cell_lanes_over_fast"] = cell_lanes / fast;
    state.SetLabel(fast_path_isa());
}
BENCHMARK(FastStepBesideCellLanes)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Iterations(5) // 20 steps of each after the warm-up, as as_boids_bench_rounds
    ->Repetitions(5)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

/// Both as `boids bench` times its rounds: 20 steps after the 20 of the warm-up from a fresh spawn (a flock
/// timed for as long as it takes gathers, and a faster kernel would meet more neighbours), each case
/// repeated.
void as_boids_bench_rounds(benchmark::internal::Benchmark* b) {
    b->Arg(100'000)
        ->Arg(1'000'000)
        ->Iterations(20)
        ->Repetitions(5)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}
BENCHMARK(FastStepOneThread)->Apply(as_boids_bench_rounds);
BENCHMARK(CellLanesBaselineStep)->Apply(as_boids_bench_rounds);

/// The plain path's grid build alone (SpatialGrid from world order), on the simulation's threads (0) or on
/// the given number.
void GridBuild(benchmark::State& state) {
    const long long n = state.range(0);
    Simulation<float> sim = make_w20(n);
    SpatialGrid<float> grid;
    const Params& p = sim.params();
    const int threads = state.range(1) > 0 ? static_cast<int>(state.range(1)) : sim.threads();
    for (auto _ : state) {
        grid.build(sim.world(), GridMembers::Flocking, p.visual_range, true, p.width, p.height, threads);
        benchmark::DoNotOptimize(grid.size());
    }
    state.counters["ns_per_boid"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(GridBuild)
    ->ArgsProduct({{10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// A rank's step across MPI ranks (docs/SCALING.md): 20,000 agents at W20 density stepped on the grid of
/// a whole flock of N agents (Simulation::set_whole_flock_grids), one thread. The grid spans the whole
/// flock's world, so the step pays for its cells whatever the rank's own share.
void RankStepOnWholeFlockGrid(benchmark::State& state) {
    const auto whole = static_cast<std::size_t>(state.range(0));
    const Scenario local = w20_scenario(20'000);
    Params p = local.params;
    p.width = p.height = w20_scenario(static_cast<long long>(whole)).params.width; // the whole flock's torus
    Simulation<float> sim(p, spawn_world<float>(local.params, local.agents, local.seed));
    sim.set_threads(1);
    std::array<detail::GridExtent, 2> extents{};
    extents[0].members = whole;
    sim.set_whole_flock_grids(extents);
    sim.step(5);
    for (auto _ : state) {
        sim.step(1);
    }
    state.counters["whole_flock_cells"] = static_cast<double>(
        detail::grid_geometry(p.visual_range, whole, true, p.width, p.height, 0.0, {}).cell_count());
    state.counters["fast_path"] = sim.last_step_fast() ? 1 : 0;
}
BENCHMARK(RankStepOnWholeFlockGrid)
    ->Arg(20'000)
    ->Arg(1'000'000)
    ->Arg(10'000'000)
    ->Arg(100'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The process's CPU time so far, in ms (every thread's).
double process_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

/// compute_metrics (what World.metrics() returns) on the W20 flock, on 1 or 2 threads. cpu_ms_per_thread
/// is the process CPU time per call divided by the threads: the wall time on otherwise idle cores.
void Metrics(benchmark::State& state) {
    const long long n = state.range(0);
    const int threads = static_cast<int>(state.range(1));
    Simulation<float> sim = make_w20(n);
    const double cpu_start = process_cpu_ms();
    for (auto _ : state) {
        benchmark::DoNotOptimize(compute_metrics(sim.world(), sim.params(), threads));
    }
    state.counters["cpu_ms_per_thread"] =
        (process_cpu_ms() - cpu_start) / threads / static_cast<double>(state.iterations());
}
BENCHMARK(Metrics)->ArgsProduct({{100'000, 1'000'000}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

/// The models' angles over arrays in SIMD lanes (src/angle_lanes.hpp), per element: arc tangents (0) of
/// points at up to 10 from the origin, as the heading models' sums, or sines and cosines (1) of angles
/// within two turns. BOIDS_SIMD_TARGET chooses the instruction set, as for the fast path.
void AngleArrays(benchmark::State& state) {
    apply_fast_path_target_environment();
    constexpr std::size_t n = 2048; // as the models' chunks, in the first cache
    std::vector<double> y(n), x(n), a(n), b(n);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = coordinate(rng);
        x[i] = coordinate(rng);
    }
    const bool tangents = state.range(0) == 0;
    for (auto _ : state) {
        if (tangents) {
            angle::atan2_lanes(y.data(), x.data(), n, a.data());
        } else {
            angle::sin_cos_lanes(y.data(), n, a.data(), b.data());
        }
        benchmark::DoNotOptimize(a.data());
        benchmark::ClobberMemory();
    }
    state.counters["ns_per_element"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.SetLabel(std::string(fast_path_isa()) + (tangents ? " atan2" : " sin_cos"));
}
BENCHMARK(AngleArrays)->Arg(0)->Arg(1);

/// The divider's pace (divider_rate.hpp): square roots (0) or divisions (1) of doubles in vectors of 2, 4
/// or 8 lanes (128, 256, 512 bits; the target's widest where it has fewer), four independent streams.
/// ns_per_instruction is what a vector costs the divider, ns_per_lane what each of its lanes does.
void DividerIssue(benchmark::State& state) {
    const auto op = state.range(0) == 0 ? bench::DividerOp::SquareRoot : bench::DividerOp::Division;
    constexpr std::uint64_t rounds = 1 << 16;
    bench::DividerRun run;
    double seed = 1.0;
    for (auto _ : state) {
        run = bench::divider_run(op, static_cast<std::size_t>(state.range(1)), rounds, seed);
        benchmark::DoNotOptimize(run.sum);
        seed += 1.0;
    }
    const double instructions = 4.0 * rounds;
    using benchmark::Counter;
    state.counters["ns_per_instruction"] =
        Counter(instructions, Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["ns_per_lane"] = Counter(instructions * static_cast<double>(run.lanes),
                                            Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.SetLabel(std::string(fast_path_isa()) + ", " + std::to_string(64 * run.lanes) + " bits");
}
BENCHMARK(DividerIssue)->ArgsProduct({{0, 1}, {2, 4, 8}})->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
