#include "sweep_command.hpp"

#include "boids/error.hpp"
#include "boids/file_io.hpp"
#include "boids/metrics.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"
#include "mpi/communicator.hpp"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace boids::cli {

namespace {

constexpr long long max_sweep_values = 100'000;

bool is_count_key(std::string_view key) {
    return key == "boids" || key == "scouts1" || key == "scouts2" || key == "predators";
}

std::string shortest(double value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ptr);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto end = s.find(sep, start);
        parts.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) {
            return parts;
        }
        start = end + 1;
    }
}

double parse_double(const std::string& field, const std::string& text) {
    double value = 0.0;
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), last, value);
    if (text.empty() || ec != std::errc{} || ptr != last || !std::isfinite(value)) {
        throw InputError(invalid_value_message(field, "'" + text + "'", "expected a finite number"));
    }
    return value;
}

/// One run of the sweep: which value, which seed.
struct Job {
    std::size_t value;
    std::uint64_t seed;
};

/// Applies the varied key's value to a scenario (validated by set_param / set_agent_count).
void apply_value(Scenario& sc, const std::string& key, const SweepValue& v) {
    if (key == "scouts1_fraction") {
        const long long total = sc.agents.boids + sc.agents.scouts1;
        const auto informed = static_cast<long long>(std::llround(v.value * static_cast<double>(total)));
        set_agent_count(sc.agents, "scouts1", informed);
        set_agent_count(sc.agents, "boids", total - informed);
    } else if (is_count_key(key)) {
        set_agent_count(sc.agents, key, std::llround(v.value));
    } else {
        set_param(sc.params, key, v.text);
        require_key_used(sc.params, key);
    }
}

/// The time average of each chosen metric over the samples after the burn-in, for one run.
template <class Real>
std::vector<double> run_one(const Scenario& sc, long long steps, long long burn_in, long long every,
                            const std::vector<std::string>& metrics) {
    Simulation<Real> sim(sc.params, spawn_world<Real>(sc.params, sc.agents, sc.seed));
    sim.set_threads(1); // parallelism is across runs
    std::vector<double> sums(metrics.size(), 0.0);
    long long samples = 0;
    sim.step(burn_in);
    for (long long t = burn_in + 1; t <= steps; ++t) {
        sim.step(1);
        if ((t - burn_in) % every == 0) {
            const Metrics m = compute_metrics(sim.world(), sim.params(), 1);
            for (std::size_t k = 0; k < metrics.size(); ++k) {
                sums[k] += metric_value(m, metrics[k]);
            }
            ++samples;
        }
    }
    for (double& s : sums) {
        s /= static_cast<double>(samples);
    }
    return sums;
}

/// Rows already in the output file, keyed by "value,seed". Checks the header; drops a torn last line.
std::set<std::string> read_existing(const std::filesystem::path& out, const std::string& preamble,
                                    std::size_t columns) {
    std::set<std::string> done;
    std::error_code ec;
    if (!std::filesystem::exists(out, ec)) {
        return done;
    }
    if (!std::filesystem::is_regular_file(out, ec)) {
        // A device or a pipe can neither be resumed nor be checked for what it holds.
        throw InputError(invalid_value_message("--out", "'" + out.string() + "'",
                                               "it is not a regular file; give a CSV file name"));
    }
    const std::string text = read_text_file(out, "sweep file", std::uintmax_t{1} << 34);
    if (text.empty()) {
        return done;
    }
    if (text.compare(0, preamble.size(), preamble) != 0) {
        // A file holding only part of the preamble is a sweep killed while starting: begin afresh.
        if (preamble.compare(0, text.size(), text) == 0) {
            std::filesystem::resize_file(out, 0);
            return done;
        }
        throw InputError(invalid_value_message(
            "--out", "'" + out.string() + "'",
            "it holds a different sweep (its header does not match this command's); give another --out or "
            "delete the file"));
    }
    std::size_t pos = preamble.size(), complete = preamble.size();
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        if (nl == std::string::npos) {
            break; // torn row from an interrupted run: dropped and redone
        }
        const std::string line = text.substr(pos, nl - pos);
        const auto fields = split(line, ',');
        if (fields.size() != columns) {
            throw InputError(invalid_value_message("--out", "'" + out.string() + "'",
                                                   "row '" + line + "' does not have " +
                                                       std::to_string(columns) +
                                                       " columns; the file is not a sweep of this command"));
        }
        done.insert(fields[0] + "," + fields[1]);
        pos = nl + 1;
        complete = pos;
    }
    if (complete < text.size()) {
        std::filesystem::resize_file(out, complete);
    }
    return done;
}

/// A file's content as a 64-bit FNV-1a hash in hex: a scenario file identified by what it says.
std::string content_hash(const std::string& path) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : read_text_file(path, "scenario file", max_scenario_file_bytes)) {
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
class Progress {
public:
    Progress(std::size_t total, std::size_t already) : total_(total), done_(already), tty_(isatty(2) == 1) {
        draw();
    }
    void advance() {
        ++done_;
        draw();
    }
    void finish() const {
        if (tty_) {
            std::fputc('\n', stderr);
        }
    }

private:
    void draw() const {
        if (!tty_ || total_ == 0) {
            return;
        }
        constexpr int width = 40;
        const int filled = static_cast<int>(width * done_ / total_);
        std::fprintf(stderr, "\r[%s%s] %zu/%zu runs",
                     std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), '.').c_str(), done_, total_);
        std::fflush(stderr);
    }
    std::size_t total_, done_;
    bool tty_;
};

/// Computes rows 0..count-1 on `workers` threads (each takes the next row) and hands them to `emit` in
/// order (a finished row waits for earlier ones), so that a file written by `emit` is always a prefix of
/// the full one. Returns the first failure (of a computation or of `emit`); nothing is emitted after it.
std::exception_ptr run_in_order(std::size_t count, int workers,
                                const std::function<std::string(std::size_t)>& compute,
                                const std::function<void(const std::string&)>& emit) {
    std::vector<std::optional<std::string>> rows(count);
    std::size_t next_to_emit = 0;
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::exception_ptr failure;
    const auto work = [&] {
        while (true) {
            const std::size_t j = next.fetch_add(1);
            if (j >= count) {
                return;
            }
            try {
                std::string row = compute(j);
                const std::lock_guard lock(mutex);
                rows[j] = std::move(row);
                while (next_to_emit < count && rows[next_to_emit]) {
                    emit(*rows[next_to_emit]);
                    ++next_to_emit;
                }
            } catch (...) {
                const std::lock_guard lock(mutex);
                failure = failure ? failure : std::current_exception();
                next = count;
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < std::min<int>(workers, static_cast<int>(std::max<std::size_t>(count, 1))); ++t) {
        pool.emplace_back(work);
    }
    for (auto& t : pool) {
        t.join();
    }
    return failure;
}

/// The runs shared among MPI ranks, in rounds of `workers` runs per rank: run j of a round goes to rank
/// j mod R, root gathers the round's rows and writes them in job order (the single-process order), so an
/// interrupted file is still a prefix and resumes the same way. A failure anywhere ends every rank with it.
template <class RowOf, class WriteFailed>
std::exception_ptr share_among_ranks(const mpi::Communicator& ranks, std::size_t count, int workers,
                                     const RowOf& row_of, const std::vector<Job>& jobs, std::FILE* file,
                                     const WriteFailed& write_failed, Progress& progress) {
    const auto r = static_cast<std::size_t>(ranks.size());
    const auto me = static_cast<std::size_t>(ranks.rank());
    const std::size_t round = r * static_cast<std::size_t>(workers);
    try {
        for (std::size_t first = 0; first < count; first += round) {
            const std::size_t last = std::min(count, first + round);
            std::vector<std::size_t> mine;
            for (std::size_t j = first + me; j < last; j += r) {
                mine.push_back(j);
            }
            // Status byte 0 and the rows (one line each), or 1 and the failure's message.
            std::vector<std::byte> bytes(1, std::byte{0});
            const auto append = [&bytes](const std::string& text) {
                for (char c : text) {
                    bytes.push_back(static_cast<std::byte>(c));
                }
            };
            const std::exception_ptr failed = run_in_order(
                mine.size(), workers, [&](std::size_t k) { return row_of(jobs[mine[k]]); }, append);
            if (failed) {
                bytes.assign(1, std::byte{1});
                try {
                    std::rethrow_exception(failed);
                } catch (const std::exception& e) {
                    append("rank " + std::to_string(me) + ": " + e.what());
                }
            }
            std::vector<std::size_t> sizes;
            const std::vector<std::byte> all = ranks.gather(bytes, &sizes);
            ranks.on_root([&] {
                std::vector<std::vector<std::string>> rows(r);
                std::size_t at = 0;
                for (std::size_t q = 0; q < r; ++q) {
                    const std::string text(reinterpret_cast<const char*>(all.data()) + at + 1, sizes[q] - 1);
                    if (all[at] != std::byte{0}) {
                        throw std::runtime_error(text);
                    }
                    for (std::size_t begin = 0; begin < text.size();) {
                        const std::size_t end = text.find('\n', begin) + 1;
                        rows[q].push_back(text.substr(begin, end - begin));
                        begin = end;
                    }
                    at += sizes[q];
                }
                for (std::size_t j = first; j < last; ++j) {
                    const std::string& row = rows[(j - first) % r][(j - first) / r];
                    if (std::fputs(row.c_str(), file) < 0 || std::fflush(file) != 0) {
                        throw write_failed();
                    }
                    progress.advance();
                }
            });
        }
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

} // namespace

std::pair<std::string, std::vector<SweepValue>> parse_vary(const std::string& vary) {
    const auto eq = vary.find('=');
    const auto bad = [&](const std::string& why) {
        return InputError(invalid_value_message("--vary", "'" + vary + "'", why));
    };
    if (vary.empty() || eq == std::string::npos) {
        throw bad("expected KEY=START:STOP:COUNT[:log]");
    }
    const std::string key = vary.substr(0, eq);
    const bool count_key = is_count_key(key) || key == "scouts1_fraction";
    if (!count_key) {
        bool numeric = false;
        for (const auto& info : param_table()) {
            numeric = numeric || (info.key == key && info.kind == std::string_view("number"));
        }
        if (!numeric) {
            throw bad(
                "KEY must be a numeric parameter (see `boids params`), boids, scouts1, scouts2, predators or "
                "scouts1_fraction");
        }
    }
    const auto parts = split(vary.substr(eq + 1), ':');
    if (parts.size() != 3 && !(parts.size() == 4 && parts[3] == "log")) {
        throw bad("expected KEY=START:STOP:COUNT[:log]");
    }
    const double start = parse_double("--vary START", parts[0]);
    const double stop = parse_double("--vary STOP", parts[1]);
    const long long count = parse_integer("--vary COUNT", parts[2], 1, max_sweep_values);
    const bool log = parts.size() == 4;
    if (log && !(start > 0.0 && stop > 0.0)) {
        throw bad("a log sweep needs START > 0 and STOP > 0");
    }
    if (key == "scouts1_fraction" && !(start >= 0.0 && start <= 1.0 && stop >= 0.0 && stop <= 1.0)) {
        throw bad("scouts1_fraction must lie in [0, 1]");
    }
    std::vector<SweepValue> values;
    std::set<std::string> seen;
    for (long long i = 0; i < count; ++i) {
        const double f = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
        double v = log ? start * std::pow(stop / start, f) : start + (stop - start) * f;
        if (i == count - 1) {
            v = stop; // exactly the endpoint, whatever the rounding
        }
        if (is_count_key(key)) {
            v = static_cast<double>(std::llround(v));
        }
        std::string text = is_count_key(key) ? std::to_string(std::llround(v)) : shortest(v);
        if (seen.insert(text).second) {
            values.push_back({v, std::move(text)});
        }
    }
    return {key, values};
}

void run_sweep(const SweepOptions& o, const mpi::Communicator& ranks) {
    RunOptions scene = o.scene;
    scene.seed.clear(); // the seed option is the base seed of the runs, handled below
    if (!o.scene.init_file.empty() || !o.scene.dump_file.empty() || !o.scene.metrics_file.empty() ||
        !o.scene.trajectory_file.empty()) {
        throw InputError(
            "boids sweep spawns every run from its seed: --init, --dump, --metrics and --trajectory "
            "are for boids run");
    }
    const RunPlan plan = make_run_plan(scene);
    const std::uint64_t base_seed =
        o.scene.seed.empty()
            ? plan.scenario.seed
            : static_cast<std::uint64_t>(parse_integer("--seed", o.scene.seed, 0, 1LL << 52));
    const auto [key, values] = parse_vary(o.vary);
    const long long seeds = parse_integer("--seeds", o.seeds, 1, 1'000'000);
    const long long burn_in = parse_integer("--burn-in", o.burn_in, 0, plan.steps > 0 ? plan.steps - 1 : 0);
    if (plan.steps < 1) {
        throw InputError(
            invalid_value_message("--steps", std::to_string(plan.steps), "a sweep needs at least 1"));
    }
    const long long every = parse_integer("--every", o.every, 1, plan.steps - burn_in);
    std::vector<std::string> metrics = split(o.metrics, ',');
    for (const std::string& m : metrics) {
        (void)metric_value(Metrics{}, m); // throws naming the allowed metrics
    }
    if (o.out.empty()) {
        throw InputError("--out: missing; give the CSV file the sweep writes (and resumes)");
    }

    // Every run's scenario is built (and so validated) before any runs.
    std::vector<Scenario> scenarios;
    for (const SweepValue& v : values) {
        Scenario sc = plan.scenario;
        try {
            apply_value(sc, key, v);
            validate(sc.params);
        } catch (const InputError& e) {
            throw InputError("--vary " + key + " = " + v.text + ": " + e.what());
        }
        scenarios.push_back(std::move(sc));
    }

    // The preamble identifies the sweep: a resumed file must come from the same command.
    std::string preamble = "# boids sweep: scene " + plan.scenario.name + ", vary " + o.vary + ", seeds " +
                           std::to_string(seeds) + " from " + std::to_string(base_seed) + ", steps " +
                           std::to_string(plan.steps) + ", burn-in " + std::to_string(burn_in) + ", every " +
                           std::to_string(every) + ", " + (plan.precision == Precision::F64 ? "f64" : "f32");
    for (const std::string& s : o.scene.settings) {
        preamble += ", set " + s;
    }
    // Everything else that decides the rows; a scenario file by its content, which may change under its name.
    if (!o.scene.scenario_file.empty()) {
        preamble += ", scenario file " + content_hash(o.scene.scenario_file);
    }
    for (const std::string& s : o.scene.obstacles) {
        preamble += ", obstacle " + s;
    }
    for (const std::string& s : o.scene.food) {
        preamble += ", food " + s;
    }
    if (!o.scene.update.empty()) {
        preamble += ", update " + o.scene.update;
    }
    if (!o.scene.speed_estimate.empty()) {
        preamble += ", speed-estimate " + o.scene.speed_estimate;
    }
    const AgentCounts& a = plan.scenario.agents;
    preamble += ", agents " + std::to_string(a.boids) + "/" + std::to_string(a.scouts1) + "/" +
                std::to_string(a.scouts2) + "/" + std::to_string(a.predators) + "\n" + key + ",seed";
    for (const std::string& m : metrics) {
        preamble += "," + m;
    }
    preamble += "\n";

    const std::filesystem::path out = o.out;
    // Root reads (and trims) the file to resume and tells every rank which runs are left.
    std::vector<Job> jobs;
    std::vector<std::byte> job_bytes;
    ranks.on_root([&] {
        check_output_path("--out", out);
        const std::set<std::string> done = read_existing(out, preamble, 2 + metrics.size());
        for (std::size_t v = 0; v < values.size(); ++v) {
            for (long long s = 0; s < seeds; ++s) {
                const std::uint64_t seed = base_seed + static_cast<std::uint64_t>(s);
                if (!done.contains(values[v].text + "," + std::to_string(seed))) {
                    mpi::put(job_bytes, Job{v, seed});
                }
            }
        }
    });
    ranks.broadcast(job_bytes);
    jobs.resize(job_bytes.size() / sizeof(Job));
    std::memcpy(jobs.data(), job_bytes.data(), jobs.size() * sizeof(Job));
    const std::size_t total = values.size() * static_cast<std::size_t>(seeds);

    std::FILE* file = nullptr;
    const auto write_failed = [&] {
        return IoError("--out " + out.string() + ": cannot write it (" + std::strerror(errno) +
                       "); the rows written so far are kept and a rerun resumes after them");
    };
    ranks.on_root([&] {
        file = std::fopen(out.c_str(), "ab");
        if (file == nullptr) {
            throw InputError("--out " + out.string() + ": cannot write it (" + std::strerror(errno) + ")");
        }
        if (std::filesystem::file_size(out) == 0) {
            if (std::fputs(preamble.c_str(), file) < 0 || std::fflush(file) != 0) {
                const IoError error = write_failed();
                std::fclose(file);
                throw error;
            }
        }
    });

    // One run's CSV row (with its newline).
    const auto row_of = [&](const Job& job) {
        Scenario sc = scenarios[job.value];
        sc.seed = job.seed;
        sc.params.noise_seed = static_cast<double>(job.seed);
        const auto averages = plan.precision == Precision::F64
                                  ? run_one<double>(sc, plan.steps, burn_in, every, metrics)
                                  : run_one<float>(sc, plan.steps, burn_in, every, metrics);
        std::string row = values[job.value].text + "," + std::to_string(job.seed);
        for (double x : averages) {
            row += ',';
            row += shortest(x);
        }
        return row + "\n";
    };
    const int workers =
        std::max(1, std::min<int>(plan.threads > 0 ? plan.threads
                                                   : static_cast<int>(std::thread::hardware_concurrency()),
                                  static_cast<int>(std::max<std::size_t>(jobs.size(), 1))));
    Progress progress(ranks.root() ? total : 0, total - jobs.size());
    std::exception_ptr failure;
    if (!ranks.distributed()) {
        failure = run_in_order(
            jobs.size(), workers, [&](std::size_t j) { return row_of(jobs[j]); },
            [&](const std::string& row) {
                // Every row is checked: on a full disk the sweep stops with an error
                // instead of reporting success over missing rows.
                if (std::fputs(row.c_str(), file) < 0 || std::fflush(file) != 0) {
                    throw write_failed();
                }
                progress.advance();
            });
    } else {
        failure = share_among_ranks(ranks, jobs.size(), workers, row_of, jobs, file, write_failed, progress);
    }
    progress.finish();
    const bool closed = file == nullptr || std::fclose(file) == 0;
    if (failure) {
        std::rethrow_exception(failure);
    }
    if (!closed) {
        throw write_failed();
    }
    if (ranks.root()) {
        std::printf("boids sweep: %zu runs (%zu already in %s), %zu values of %s x %lld seeds, %d workers",
                    total, total - jobs.size(), out.string().c_str(), values.size(), key.c_str(), seeds,
                    workers);
        if (ranks.distributed()) {
            std::printf(" on each of %d ranks", ranks.size());
        }
        std::printf("\n");
    }
}

} // namespace boids::cli
