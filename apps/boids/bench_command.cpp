#include "bench_command.hpp"
#include "machine_description.hpp"

#include "boids/error.hpp"
#include "boids/fast_path.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "boids/workloads.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <malloc.h>
#include <omp.h>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace boids::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct BenchPlan {
    std::vector<long long> sizes;
    std::vector<int> dimensions;
    double seconds = 2.0;
    long long warmup = 20;
    long long steps = 20;
    int threads = 0;
    bool f64 = false;
    std::string target_source; ///< how the SIMD target was chosen, if not automatically
    bool plain = false;
    bool models = false;
    bool max_flock = false;
    double rate = 30.0;
    long long limit = 10'000'000;
    double busy_limit = 0.5;
};

long long parse_count(const std::string& flag, const std::string& text, long long lo, long long hi) {
    long long value = 0;
    const char* last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), last, value);
    if (text.empty() || ec != std::errc{} || ptr != last || value < lo || value > hi) {
        throw InputError(invalid_value_message(flag, "'" + text + "'",
                                               "expected an integer in [" + std::to_string(lo) + ", " +
                                                   std::to_string(hi) + "]"));
    }
    return value;
}

double parse_number(const std::string& flag, const std::string& text, double lo, double hi) {
    double value = 0;
    const char* last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), last, value);
    if (text.empty() || ec != std::errc{} || ptr != last || !(value >= lo && value <= hi)) {
        char range[96];
        std::snprintf(range, sizeof range, "expected a number in [%g, %g]", lo, hi);
        throw InputError(invalid_value_message(flag, "'" + text + "'", range));
    }
    return value;
}

BenchPlan make_plan(const BenchOptions& o) {
    BenchPlan plan;
    const std::string sizes = !o.sizes.empty() ? o.sizes : o.models ? "100000" : "10000,100000,1000000";
    std::size_t begin = 0;
    while (begin <= sizes.size()) {
        std::size_t end = sizes.find(',', begin);
        if (end == std::string::npos) {
            end = sizes.size();
        }
        plan.sizes.push_back(parse_count("--sizes", sizes.substr(begin, end - begin), 1, 100'000'000));
        begin = end + 1;
    }
    const std::string dimensions = o.dimensions.empty() ? (o.models ? "2" : "2,3") : o.dimensions;
    if (dimensions == "2" || dimensions == "3") {
        plan.dimensions = {dimensions == "2" ? 2 : 3};
    } else if (dimensions == "2,3") {
        plan.dimensions = {2, 3};
    } else {
        throw InputError(
            invalid_value_message("--dimensions", "'" + dimensions + "'", "allowed values are 2 | 3 | 2,3"));
    }
    if (o.models) {
        // The table compares the two paths itself, and most models are planar.
        if (plan.dimensions != std::vector<int>{2}) {
            throw InputError(invalid_value_message("--dimensions", "'" + dimensions + "'",
                                                   "the --models table is 2D: the allowed value is 2"));
        }
        if (o.plain || o.max_flock) {
            throw InputError(std::string("--models cannot be combined with ") +
                             (o.plain ? "--plain (the table runs both paths)" : "--max-flock"));
        }
    }
    plan.seconds = parse_number("--seconds", o.seconds, 0.01, 3600);
    plan.warmup = parse_count("--warmup", o.warmup, 0, 100'000);
    plan.steps = parse_count("--steps", o.steps, 1, 1'000'000);
    plan.threads = static_cast<int>(parse_count("--threads", o.threads, 0, 1024));
    if (o.precision != "f32" && o.precision != "f64") {
        throw InputError(
            invalid_value_message("--precision", "'" + o.precision + "'", "allowed values are f32 | f64"));
    }
    plan.f64 = o.precision == "f64";
    if (!o.target.empty()) {
        set_fast_path_target(o.target, "--target");
        plan.target_source = "--target " + o.target;
    } else if (const char* chosen = std::getenv(fast_path_target_variable)) {
        apply_fast_path_target_environment(); // a bad value is refused here, before any timing
        plan.target_source = std::string(fast_path_target_variable) + "=" + chosen;
    }
    plan.plain = o.plain;
    plan.models = o.models;
    plan.max_flock = o.max_flock;
    plan.rate = parse_number("--rate", o.rate, 0.1, 100'000);
    plan.limit = parse_count("--limit", o.limit, 1, 100'000'000);
    plan.busy_limit = parse_number("--busy-limit", o.busy_limit, 0, 1e6);
    return plan;
}

/// The thread count Simulation uses for the plan (0 = all).
int resolved_threads(const BenchPlan& plan) {
    return plan.threads > 0 ? plan.threads : omp_get_max_threads();
}

/// Peak resident set of this process so far, in bytes (Linux reports KiB).
double peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

/// Bytes the C library's allocator holds for the program now (in use, from its heap and its own mappings).
double allocated_bytes() {
    const struct mallinfo2 info = mallinfo2();
    return static_cast<double>(info.uordblks + info.hblkhd);
}

/// Steps a simulation for about `seconds` of wall time (at least 3 steps).
struct Timing {
    long long steps = 0;
    double seconds = 0.0;
    double median_step_s = 0.0; ///< robust to steps stalled by other processes on a busy machine
    bool fast = false;
};

template <class Real>
Timing time_steps(Simulation<Real>& sim, double seconds) {
    Timing t;
    std::vector<double> step_s;
    const auto start = Clock::now();
    while (t.steps < 3 || t.seconds < seconds) {
        const auto before = Clock::now();
        sim.step();
        const auto after = Clock::now();
        step_s.push_back(std::chrono::duration<double>(after - before).count());
        ++t.steps;
        t.seconds = std::chrono::duration<double>(after - start).count();
    }
    std::nth_element(step_s.begin(), step_s.begin() + static_cast<std::ptrdiff_t>(step_s.size() / 2),
                     step_s.end());
    t.median_step_s = step_s[step_s.size() / 2];
    t.fast = sim.last_step_fast();
    return t;
}

template <class Real>
Simulation<Real> make_sim(const Scenario& s, int threads, bool plain) {
    Simulation<Real> sim(s.params, spawn_world<Real>(s.params, s.agents, s.seed));
    sim.set_threads(threads);
    sim.set_fast_path(!plain);
    return sim;
}

template <class Real>
Simulation<Real> make_sim(const Scenario& s, const BenchPlan& plan) {
    return make_sim<Real>(s, plan.threads, plan.plain);
}

/// What rounds of (spawn, warm-up, timed steps) measured.
struct Rounds {
    long long steps = 0;
    double seconds = 0.0; ///< wall time of the timed steps
    double cpu = 0.0;     ///< CPU time of the timed steps, all threads
    double fastest_ms = std::numeric_limits<double>::infinity();
    std::vector<double> step_s; ///< wall time of each timed step
    StepProfile total;
    bool fast = false;        ///< the last step took the fast path
    double neighbours = -1.0; ///< mean_neighbours() at the end of the last round, when asked for
};

/// One timed step of `sim` into `r`: its wall time, CPU time and phases.
template <class Real>
void time_step(Rounds& r, Simulation<Real>& sim) {
    const double cpu_start = process_cpu_seconds();
    const auto before = Clock::now();
    sim.step();
    const double seconds = std::chrono::duration<double>(Clock::now() - before).count();
    r.cpu += process_cpu_seconds() - cpu_start;
    r.step_s.push_back(seconds);
    r.seconds += seconds;
    r.total += sim.last_profile();
    r.fastest_ms = std::min(r.fastest_ms, sim.last_profile().total_ms);
    ++r.steps;
}

/// `steps` steps of each of two flocks, in turns of four: four of `a`, four of `b`, and so on, so that both
/// meet the machine in the same state (a shared machine's speed drifts by 10-20% within seconds, more than
/// rounds apart can follow). The first step of a turn is not timed: it brings its flock back into the
/// caches (a step right after the other flock's measured 3-5% slower at 100,000 agents). The flocks fly
/// as many steps as alone, so they reach the same state.
template <class Real>
void time_steps_in_turn(Simulation<Real>& a, Rounds& ra, Simulation<Real>& b, Rounds& rb, long long steps) {
    constexpr long long per_turn = 4;
    const auto turn = [](Simulation<Real>& sim, Rounds& r, long long count) {
        for (long long j = 0; j < count; ++j) {
            if (j == 0 && count > 1) {
                sim.step();
            } else {
                time_step(r, sim);
            }
        }
    };
    for (long long k = 0; k < steps; k += per_turn) {
        const long long count = std::min(per_turn, steps - k);
        turn(a, ra, count);
        turn(b, rb, count);
    }
}

/// One round into `r`: spawn, plan.warmup steps, plan.steps timed steps. With `count_neighbours`, the round
/// that brings `r` to plan.seconds also counts the flock's mean neighbours at its end. With `reference`, a
/// round of that scene on the fast path flies beside it into `beside`, their timed steps in turn
/// (time_steps_in_turn).
template <class Real>
void add_round(Rounds& r, const Scenario& s, const BenchPlan& plan, int threads, bool plain,
               bool count_neighbours, const Scenario* reference = nullptr, Rounds* beside = nullptr) {
    Simulation<Real> sim = make_sim<Real>(s, threads, plain);
    sim.step(plan.warmup);
    std::optional<Simulation<Real>> other;
    if (reference != nullptr) {
        other.emplace(make_sim<Real>(*reference, threads, false));
        other->step(plan.warmup);
    }
    if (other) {
        time_steps_in_turn(sim, r, *other, *beside, plan.steps);
    } else {
        for (long long k = 0; k < plan.steps; ++k) {
            time_step(r, sim);
        }
    }
    r.fast = sim.last_step_fast();
    if (other) {
        beside->fast = other->last_step_fast();
    }
    if (count_neighbours && r.seconds >= plan.seconds) {
        r.neighbours = mean_neighbours(sim.world(), s.params);
    }
}

/// Repeats rounds (add_round) until plan.seconds are timed. The flock condenses as it flies; timing the
/// same early steps at every size keeps the neighbour count at W20's 20 (a long run at 10k would measure a
/// denser flock than a short one at 1M).
template <class Real>
Rounds time_rounds(const Scenario& s, const BenchPlan& plan, int threads, bool plain) {
    Rounds r;
    do {
        add_round<Real>(r, s, plan, threads, plain, false);
    } while (r.seconds < plan.seconds);
    return r;
}

template <class Real>
void print_header(const BenchPlan& plan, int threads) {
    std::printf("threads %d, %s, %s path", threads, plan.f64 ? "f64" : "f32", plan.plain ? "plain" : "fast");
    if (!plan.plain) {
        std::printf(" (SIMD %s, %zu lanes, %s)", fast_path_isa(), fast_path_lanes(plan.f64),
                    plan.target_source.empty() ? "the best this CPU runs" : plan.target_source.c_str());
    }
    std::printf("\ncpu: %s\n", cpu_description().c_str());
}

template <class Real>
void w20_table(const BenchPlan& plan) {
    std::printf(
        "boids bench: W20 = classic model, vga-predator parameters, wrap world at 20 neighbours in\n"
        "visual range on average (3D: a cube at the density of 20 in a sphere of radius 40), uniform start.\n"
        "Rounds of: spawn, %lld warm-up steps, %lld timed steps (2D and 3D: in turns of four, the first "
        "untimed);\nrounds repeat until %g s are timed per size.\n",
        plan.warmup, plan.steps, plan.seconds);
    print_header<Real>(plan, resolved_threads(plan));
    const OtherLoad table_load;
    std::printf("%3s %10s %9s %8s %8s %11s %10s %9s %8s %8s %6s %6s %10s\n", "dim", "N", "steps/s", "ns/boid",
                "grid ms", "neighbour ms", "integr ms", "total ms", "min ms", "cpu ms", "steps", "path",
                "peak RSS");
    const auto print_row = [&](int dims, long long n, const Rounds& t, double rss, const std::string& note) {
        const StepProfile& total = t.total;
        const double inv = 1.0 / static_cast<double>(t.steps);
        const double per_step_s = t.seconds * inv;
        std::printf("%3d %10lld %9.1f %8.1f %8.3f %11.3f %10.3f %9.3f %8.3f %8.3f %6lld %6s %4.0f MiB "
                    "(%.0f B/boid)%s\n",
                    dims, n, 1.0 / per_step_s, per_step_s * 1e9 / static_cast<double>(n),
                    total.grid_build_ms * inv, total.neighbours_ms * inv, total.integrate_ms * inv,
                    total.total_ms * inv, t.fastest_ms, t.cpu * 1e3 * inv, t.steps, t.fast ? "fast" : "plain",
                    rss / (1024.0 * 1024.0), rss / static_cast<double>(n), note.c_str());
        std::fflush(stdout);
    };
    const bool both = plan.dimensions.size() == 2;
    for (const long long n : plan.sizes) {
        if (!both) {
            const int dims = plan.dimensions.front();
            const Rounds t = time_rounds<Real>(dims == 3 ? w20_3d_scenario(n) : w20_scenario(n), plan,
                                               plan.threads, plan.plain);
            print_row(dims, n, t, peak_rss_bytes(), "");
            continue;
        }
        // Both dimensions: a round of each at once, their timed steps in turn (time_steps_in_turn), so that
        // the 3D/2D ratio compares steps timed moments apart: a shared machine's speed drifts by 10-20%
        // within seconds (docs/PERFORMANCE.md, §2), less than a round lasts at 1M. Each dimension gets at
        // least --seconds. The 3D row's memory is the peak less what the 2D flock allocated.
        const Scenario planar = w20_scenario(n), spatial = w20_3d_scenario(n);
        Rounds r2, r3;
        double planar_rss = 0.0, planar_allocated = 0.0;
        do {
            const double allocated_before = allocated_bytes();
            Simulation<Real> flat = make_sim<Real>(planar, plan.threads, plan.plain);
            flat.step(plan.warmup);
            if (r2.steps == 0) {
                planar_rss = peak_rss_bytes();
                planar_allocated = std::max(0.0, allocated_bytes() - allocated_before);
            }
            Simulation<Real> deep = make_sim<Real>(spatial, plan.threads, plan.plain);
            deep.step(plan.warmup);
            time_steps_in_turn(flat, r2, deep, r3, plan.steps);
            r2.fast = flat.last_step_fast();
            r3.fast = deep.last_step_fast();
        } while (r2.seconds < plan.seconds || r3.seconds < plan.seconds);
        const double mean_ratio =
            (r3.seconds / static_cast<double>(r3.steps)) / (r2.seconds / static_cast<double>(r2.steps));
        char ratio[64];
        std::snprintf(ratio, sizeof ratio, " 3D/2D %.2fx, fastest steps %.2fx", mean_ratio,
                      r3.fastest_ms / r2.fastest_ms);
        print_row(2, n, r2, planar_rss, "");
        print_row(3, n, r3, peak_rss_bytes() - planar_allocated, ratio);
    }
    std::printf(
        "min ms: the fastest timed step (least disturbed by other processes). cpu ms: CPU time, "
        "all threads.\n"
        "3D/2D: ns/boid-step in 3D over 2D at the same N, both flocks at once (target <= 2.5x); fastest "
        "steps: min ms over min ms. Peak RSS so far (3D: less the 2D flock's); one size alone: "
        "/usr/bin/time -v boids bench --sizes N\n");
    print_machine_load("table", table_load.cores());
}

/// Steps per second a vga-predator flock of `n` boids holds after warm-up, in each of `windows` windows of
/// about `seconds`: the inverse of the window's median step time, so that a step stalled by another
/// process does not decide a window.
template <class Real>
void flock_rates(long long n, const BenchPlan& plan, double seconds, int windows,
                 std::vector<double>& rates) {
    const Scenario s = vga_predator_at_density(n);
    Simulation<Real> sim = make_sim<Real>(s, plan);
    sim.step(std::min<long long>(plan.warmup, 10));
    for (int w = 0; w < windows; ++w) {
        rates.push_back(1.0 / time_steps(sim, seconds).median_step_s);
    }
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t k = values.size() / 2;
    return values.size() % 2 == 1 ? values[k] : 0.5 * (values[k - 1] + values[k]);
}

template <class Real>
int max_flock(const BenchPlan& plan) {
    const int threads = resolved_threads(plan);
    std::printf(
        "boids bench --max-flock: largest vga-predator flock (2 predators, margins, the preset's density:\n"
        "500 boids per 440 x 280 px inside the margins) holding %g steps/s: the median of %d windows' rates\n"
        "(each the inverse of its median step time); a probe that misses is repeated on a fresh flock and\n"
        "decided on the median of all its windows.\n",
        plan.rate, 3);
    print_header<Real>(plan, threads);
    // Each probe times about a second in three windows; doubling finds a bracket, bisection narrows it to 2%.
    constexpr int windows = 3;
    const double window_seconds = std::min(plan.seconds, 1.0) / windows;
    const OtherLoad search_load;
    const auto probe = [&](long long n) {
        const OtherLoad load;
        std::vector<double> rates;
        flock_rates<Real>(n, plan, window_seconds, windows, rates);
        double r = median(rates);
        const bool repeated = r < plan.rate;
        if (repeated) {
            // On a busy machine a whole probe can land in a stretch where other processes hold the cores.
            flock_rates<Real>(n, plan, window_seconds, windows, rates);
            r = median(rates);
        }
        std::printf("  %10lld boids: %8.1f steps/s %-8s (%zu windows, %s)\n", n, r,
                    r >= plan.rate ? "holds" : "too slow", rates.size(), describe_load(load.cores()).c_str());
        std::fflush(stdout);
        return r >= plan.rate;
    };
    long long good = 0, bad = 0;
    long long n = std::min<long long>(1000, plan.limit);
    while (true) {
        if (probe(n)) {
            good = n;
            if (n >= plan.limit) {
                break;
            }
            n = std::min(n * 2, plan.limit);
        } else {
            bad = n;
            break;
        }
    }
    while (bad != 0 &&
           (good == 0 ? bad > 1 : static_cast<double>(bad - good) > 0.02 * static_cast<double>(good))) {
        const long long mid = good + (bad - good) / 2;
        if (mid == good) {
            break;
        }
        (probe(mid) ? good : bad) = mid;
    }
    const double others = search_load.cores();
    print_machine_load("search", others);
    if (others > plan.busy_limit) {
        std::fflush(stdout);
        std::fprintf(
            stderr,
            "boids bench --max-flock: no figure: other processes held %.2f cores on average during the "
            "search (more than --busy-limit %g), so it would measure them rather than the flock; run "
            "it on a quieter machine\n",
            others, plan.busy_limit);
        return exit_machine_too_busy;
    }
    if (bad == 0) {
        std::printf("largest flock: >= %lld boids at %g steps/s (the --limit)\n", good, plan.rate);
    } else if (good == 0) {
        std::printf("largest flock: not even 1 boid holds %g steps/s\n", plan.rate);
    } else {
        std::printf("largest flock: %lld boids at %g steps/s (%d threads)\n", good, plan.rate, threads);
    }
    return 0;
}

/// The every-model table: each model and each classic extension at W20's neighbour count
/// (w20_every_model), its cost per boid-step on one thread and on the default threads (or --threads),
/// and that cost over the classic fast path's.
template <class Real>
void models_table(const BenchPlan& plan) {
    std::vector<int> thread_counts{1};
    if (plan.threads != 1) {
        thread_counts.push_back(plan.threads);
    }
    std::printf(
        "boids bench --models: every model, and the classic model with each extension alone, each in a "
        "square\nwrap world sized so that a boid has on average %g others within its model's range "
        "(W20's count),\nuniform start, synchronous update. Rounds of: spawn, %lld warm-up steps, %lld "
        "steps; the rows take their\nrounds in turn until %g s are timed per row and thread setting. Each "
        "row but the first flies beside\na classic fast flock, steps in turns of four (the first of each "
        "untimed). ns: the median timed\nstep / agents. x fast: over that classic flock's ns at the same "
        "threads. neighbours: the mean count\nwithin range after the last round.\n",
        w20_mean_neighbours, plan.warmup, plan.steps, plan.seconds);
    std::printf("%s, fast path SIMD %s (%zu lanes, %s); threads: 1", plan.f64 ? "f64" : "f32",
                fast_path_isa(), fast_path_lanes(plan.f64),
                plan.target_source.empty() ? "the best this CPU runs" : plan.target_source.c_str());
    if (thread_counts.size() > 1) {
        std::printf(" and %s (%d)", plan.threads == 0 ? "the default" : "--threads", resolved_threads(plan));
    }
    std::printf("\ncpu: %s\n", cpu_description().c_str());
    const OtherLoad table_load;
    for (const long long n : plan.sizes) {
        const std::vector<Scenario> scenes = w20_every_model(n);
        std::printf("\n%lld boids\n%-28s %5s %10s", n, "row", "path", "neighbours");
        for (const int threads : thread_counts) {
            const std::string ns =
                threads == 0 ? "default ns"
                             : std::to_string(threads) + (threads == 1 ? " thread ns" : " threads ns");
            std::printf(" %13s %7s", ns.c_str(), "x fast");
            if (threads == 1) {
                std::printf(" %8s %7s", "cpu ns", "x fast");
            }
        }
        std::printf("\n");
        // Every scene; the classic model and each other model also on the plain path it reproduces (the
        // extensions change the plain classic row little).
        std::vector<std::pair<const Scenario*, bool>> rows; // scene, plain path
        for (std::size_t k = 0; k < scenes.size(); ++k) {
            rows.emplace_back(&scenes[k], false);
            if (k == 0 || scenes[k].params.model != Model::Classic) {
                rows.emplace_back(&scenes[k], true);
            }
        }
        // The rows' rounds in turn (one of each row and thread setting that is not yet timed long enough,
        // then again), so that a stretch in which other processes take the cores falls on every row alike
        // and the median steps see past it. Each row but the classic fast path's flies beside a classic
        // fast flock, their steps in turn (time_steps_in_turn), and its ratio is to that flock's steps.
        std::vector<Rounds> timed(rows.size() * thread_counts.size());
        std::vector<Rounds> beside(rows.size() * thread_counts.size());
        const Scenario& reference = scenes.front();
        for (bool more = true; more;) {
            more = false;
            for (std::size_t row = 0; row < rows.size(); ++row) {
                for (std::size_t t = 0; t < thread_counts.size(); ++t) {
                    const std::size_t at = row * thread_counts.size() + t;
                    Rounds& r = timed[at];
                    if (r.seconds < plan.seconds) {
                        add_round<Real>(r, *rows[row].first, plan, thread_counts[t], rows[row].second, t == 0,
                                        row == 0 ? nullptr : &reference, &beside[at]);
                        more = more || r.seconds < plan.seconds;
                    }
                }
            }
        }
        // ns per boid-step of rounds, a column per thread setting (and the CPU time on one thread).
        const auto columns = [&](const std::vector<Rounds>& rounds, std::size_t row, double agents) {
            std::vector<double> ns;
            for (std::size_t t = 0; t < thread_counts.size(); ++t) {
                const Rounds& r = rounds[row * thread_counts.size() + t];
                ns.push_back(median(r.step_s) * 1e9 / agents);
                if (thread_counts[t] == 1) {
                    // On one thread the CPU time is the work alone, whatever else the machine runs.
                    ns.push_back(r.cpu * 1e9 / static_cast<double>(r.steps) / agents);
                }
            }
            return ns;
        };
        const auto reference_agents = static_cast<double>(reference.agents.total());
        for (std::size_t row = 0; row < rows.size(); ++row) {
            const Scenario& scene = *rows[row].first;
            const bool plain = rows[row].second;
            const std::string label = plain ? scene.name + ", plain path" : scene.name;
            const Rounds& first = timed[row * thread_counts.size()];
            const std::string path = first.fast ? "fast" : "plain";
            const double neighbours = first.neighbours;
            const std::vector<double> ns = columns(timed, row, static_cast<double>(scene.agents.total()));
            const std::vector<double> reference_ns = row == 0 ? ns : columns(beside, row, reference_agents);
            std::string cells;
            for (std::size_t k = 0; k < ns.size(); ++k) {
                char cell[48];
                std::snprintf(cell, sizeof cell, k == 1 ? " %8.1f %6.2fx" : " %13.1f %6.2fx", ns[k],
                              ns[k] / reference_ns[k]);
                cells += cell;
            }
            std::printf("%-28s %5s %10.1f%s\n", label.c_str(), path.c_str(), neighbours, cells.c_str());
            std::fflush(stdout);
        }
        std::printf("setups:\n");
        for (const Scenario& scene : scenes) {
            std::printf("  %s: %s\n", scene.name.c_str(), scene.description.c_str());
        }
    }
    print_machine_load("table", table_load.cores());
}

template <class Real>
int run(const BenchPlan& plan) {
    if (plan.max_flock) {
        return max_flock<Real>(plan);
    }
    if (plan.models) {
        models_table<Real>(plan);
        return 0;
    }
    w20_table<Real>(plan);
    return 0;
}

} // namespace

int run_bench(const BenchOptions& options) {
    const BenchPlan plan = make_plan(options);
    return plan.f64 ? run<double>(plan) : run<float>(plan);
}

} // namespace boids::cli
