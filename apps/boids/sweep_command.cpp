#include "sweep_command.hpp"

#include "boids/error.hpp"
#include "boids/file_io.hpp"
#include "boids/precision.hpp"
#include "boids/sweep.hpp"
#include "mpi/communicator.hpp"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace boids::cli {

namespace {

std::string shortest(double value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ptr);
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

/// One output file of the sweep: the preamble that identifies it (a `#` line, then the column header)
/// and the complete rows it already holds, each with the offset just past it.
struct SweepFile {
    const char* flag; ///< "--out" or "--series"
    std::filesystem::path path;
    std::string preamble;
    std::vector<std::string> rows;
    std::vector<std::uintmax_t> row_ends;
};

/// Reads the rows already in the file (none if it is absent or empty). The preamble must match; a file
/// holding only part of it is a sweep killed while starting and is emptied. A torn last line is left
/// out (and later truncated away).
void read_existing(SweepFile& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file.path, ec)) {
        return;
    }
    if (!std::filesystem::is_regular_file(file.path, ec)) {
        // A device or a pipe can neither be resumed nor be checked for what it holds.
        throw InputError(invalid_value_message(file.flag, "'" + file.path.string() + "'",
                                               "it is not a regular file; give a CSV file name"));
    }
    const std::string text = read_text_file(file.path, "sweep file", std::uintmax_t{1} << 34);
    if (text.compare(0, file.preamble.size(), file.preamble) != 0) {
        if (file.preamble.compare(0, text.size(), text) == 0) {
            std::filesystem::resize_file(file.path, 0);
            return;
        }
        throw InputError(invalid_value_message(
            file.flag, "'" + file.path.string() + "'",
            "it holds a different sweep (its header does not match this command's); give another " +
                std::string(file.flag) + " or delete the file"));
    }
    for (std::size_t pos = file.preamble.size(); pos < text.size();) {
        const auto nl = text.find('\n', pos);
        if (nl == std::string::npos) {
            break; // torn row from an interrupted run: dropped and redone
        }
        file.rows.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
        file.row_ends.push_back(pos);
    }
}

/// The number of leading rows of `file` that are the sweep's rows 0, 1, ... as `row_key(i)` gives their
/// first fields; nullopt past the sweep's last row. Throws for a row that is none of the sweep's.
std::size_t matching_rows(const SweepFile& file, std::size_t columns,
                          const std::function<std::optional<std::string>(std::size_t)>& row_key) {
    for (std::size_t i = 0; i < file.rows.size(); ++i) {
        const std::string& row = file.rows[i];
        const std::optional<std::string> key = row_key(i);
        const auto commas = static_cast<std::size_t>(std::count(row.begin(), row.end(), ','));
        if (!key || commas + 1 != columns || row.compare(0, key->size() + 1, *key + ",") != 0) {
            throw InputError(
                invalid_value_message(file.flag, "'" + file.path.string() + "'",
                                      "row '" + row + "' is not row " + std::to_string(i + 1) +
                                          (key ? " of this sweep (which starts '" + *key + ",' and has " +
                                                     std::to_string(columns) + " columns)"
                                               : ": this sweep has fewer rows") +
                                          "; the file is not an interrupted run of this command"));
        }
    }
    return file.rows.size();
}

/// Cuts the file after its first `rows` complete rows.
void keep_rows(const SweepFile& file, std::size_t rows) {
    std::error_code ec;
    if (std::filesystem::exists(file.path, ec) && std::filesystem::file_size(file.path) > 0) {
        std::filesystem::resize_file(file.path, rows == 0 ? file.preamble.size() : file.row_ends[rows - 1]);
    }
}

/// Appends rows to a sweep file, each flushed and checked: on a full disk the sweep stops with an error
/// instead of reporting success over missing rows.
class RowWriter {
public:
    explicit RowWriter(const SweepFile& file) : flag_(file.flag), path_(file.path) {
        file_ = std::fopen(path_.c_str(), "ab");
        if (file_ == nullptr) {
            throw InputError(std::string(flag_) + " " + path_.string() + ": cannot write it (" +
                             std::strerror(errno) + ")");
        }
        if (std::filesystem::file_size(path_) == 0) {
            write(file.preamble);
        }
    }
    RowWriter(const RowWriter&) = delete;
    RowWriter& operator=(const RowWriter&) = delete;
    ~RowWriter() {
        if (file_ != nullptr) {
            std::fclose(file_);
        }
    }
    void write(const std::string& text) {
        if (std::fputs(text.c_str(), file_) < 0 || std::fflush(file_) != 0) {
            throw failed();
        }
    }
    void close() {
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!closed) {
            throw failed();
        }
    }

private:
    IoError failed() const {
        return IoError(std::string(flag_) + " " + path_.string() + ": cannot write it (" +
                       std::strerror(errno) +
                       "); the rows written so far are kept and a rerun resumes after them");
    }
    const char* flag_;
    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
};

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

/// The sweep the options describe, validated. Throws InputError naming the flag.
SweepPlan make_sweep_plan(const SweepOptions& o, const RunPlan& plan) {
    SweepPlan sweep;
    sweep.scenario = plan.scenario;
    sweep.base_seed = o.scene.seed.empty()
                          ? plan.scenario.seed
                          : static_cast<std::uint64_t>(parse_integer("--seed", o.scene.seed, 0, 1LL << 52));
    for (const std::string& spec : o.vary) {
        sweep.axes.push_back(parse_sweep_axis("--vary", spec));
    }
    sweep.seeds = parse_integer("--seeds", o.seeds, 1, 1'000'000);
    if (plan.steps < 1) {
        throw InputError(
            invalid_value_message("--steps", std::to_string(plan.steps), "a sweep needs at least 1"));
    }
    sweep.steps = plan.steps;
    sweep.burn_in = parse_integer("--burn-in", o.burn_in, 0, plan.steps - 1);
    sweep.every = parse_integer("--every", o.every, 1, plan.steps - sweep.burn_in);
    sweep.metrics = parse_sweep_metrics("--metric", o.metrics);
    if (!o.series.empty()) {
        sweep.series_every =
            parse_integer("--series-every", o.series_every.empty() ? "1" : o.series_every, 1, plan.steps);
    } else if (!o.series_every.empty()) {
        throw InputError("--series-every: it sets the rows of --series FILE; give --series too");
    }
    sweep.precision = plan.precision;
    validate_sweep(sweep, "--vary");
    return sweep;
}

/// The `#` line's description of the sweep: everything that decides its rows, so that a resumed file must
/// come from the same command (a scenario file by its content, which may change under its name).
std::string describe(const SweepOptions& o, const RunPlan& plan, const SweepPlan& sweep) {
    std::string d = "scene " + plan.scenario.name;
    for (const std::string& spec : o.vary) {
        d += ", vary " + spec;
    }
    d += ", seeds " + std::to_string(sweep.seeds) + " from " + std::to_string(sweep.base_seed) + ", steps " +
         std::to_string(sweep.steps) + ", burn-in " + std::to_string(sweep.burn_in) + ", every " +
         std::to_string(sweep.every) + ", " + std::string(precision_name(sweep.precision));
    for (const std::string& s : o.scene.settings) {
        d += ", set " + s;
    }
    if (!o.scene.scenario_file.empty()) {
        d += ", scenario file " + content_hash(o.scene.scenario_file);
    }
    for (const std::string& s : o.scene.obstacles) {
        d += ", obstacle " + s;
    }
    for (const std::string& s : o.scene.food) {
        d += ", food " + s;
    }
    if (!o.scene.update.empty()) {
        d += ", update " + o.scene.update;
    }
    if (!o.scene.speed_estimate.empty()) {
        d += ", speed-estimate " + o.scene.speed_estimate;
    }
    const AgentCounts& a = plan.scenario.agents;
    return d + ", agents " + std::to_string(a.boids) + "/" + std::to_string(a.scouts1) + "/" +
           std::to_string(a.scouts2) + "/" + std::to_string(a.predators);
}

/// A run's varied values and seed as CSV fields: "v1,v2,...,seed".
std::string run_key(const SweepPlan& sweep, const SweepRun& run) {
    std::string key;
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
        key += sweep.axes[a].values[run.point[a]].text + ",";
    }
    return key + std::to_string(run.seed);
}

void append_values(std::string& row, std::span<const double> values) {
    for (const double x : values) {
        row += ',';
        row += shortest(x);
    }
    row += '\n';
}

/// Runs `runs` with the ranks of a job sharing them: in rounds of (ranks x workers) runs, rank q takes the
/// round's runs q, q + ranks, ...; their results travel to root, which hands them to `deliver(i, result)` in
/// run order, as run_sweep_runs does in one process. A failed run on any rank ends the sweep on every rank
/// with its message. Returns the workers each rank used.
int share_runs_among_ranks(const mpi::Communicator& ranks, const SweepPlan& sweep,
                           std::span<const SweepRun> runs, int threads, std::size_t values_per_run,
                           const std::function<void(std::size_t, SweepResult&&)>& deliver) {
    const auto r = static_cast<std::size_t>(ranks.size());
    const auto me = static_cast<std::size_t>(ranks.rank());
    const int workers =
        std::max(1, threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency()));
    const std::size_t round = r * static_cast<std::size_t>(workers);
    const std::size_t averages = sweep.metrics.size();
    for (std::size_t first = 0; first < runs.size(); first += round) {
        const std::size_t last = std::min(runs.size(), first + round);
        std::vector<SweepRun> mine;
        for (std::size_t j = first + me; j < last; j += r) {
            mine.push_back(runs[j]);
        }
        // Status byte 0 and every result's values (averages, then the series), or 1 and the message.
        std::vector<std::byte> bytes(1, std::byte{0});
        try {
            run_sweep_runs(sweep, mine, workers, [&](std::size_t, SweepResult&& result) {
                for (const double x : result.averages) {
                    mpi::put(bytes, x);
                }
                for (const double x : result.series) {
                    mpi::put(bytes, x);
                }
            });
        } catch (const std::exception& e) {
            bytes.assign(1, std::byte{1});
            const std::string message = "rank " + std::to_string(me) + ": " + e.what();
            for (const char c : message) {
                bytes.push_back(static_cast<std::byte>(c));
            }
        }
        std::vector<std::size_t> sizes;
        const std::vector<std::byte> all = ranks.gather(bytes, &sizes);
        ranks.on_root([&] {
            std::vector<std::size_t> at(r);
            for (std::size_t q = 0, offset = 0; q < r; offset += sizes[q], ++q) {
                at[q] = offset;
                if (all[offset] != std::byte{0}) {
                    throw std::runtime_error(
                        std::string(reinterpret_cast<const char*>(all.data()) + offset + 1, sizes[q] - 1));
                }
                ++at[q]; // past the status byte
            }
            for (std::size_t j = first; j < last; ++j) {
                const std::size_t q = (j - first) % r;
                std::vector<double> values(values_per_run);
                std::memcpy(values.data(), all.data() + at[q], values_per_run * sizeof(double));
                at[q] += values_per_run * sizeof(double);
                SweepResult result;
                result.averages.assign(values.begin(),
                                       values.begin() + static_cast<std::ptrdiff_t>(averages));
                result.series.assign(values.begin() + static_cast<std::ptrdiff_t>(averages), values.end());
                deliver(j, std::move(result));
            }
        });
    }
    return std::min<int>(workers, static_cast<int>(std::max<std::size_t>(runs.size(), 1)));
}

} // namespace

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
    const SweepPlan sweep = make_sweep_plan(o, plan);
    if (o.out.empty()) {
        throw InputError("--out: missing; give the CSV file the sweep writes (and resumes)");
    }

    std::string columns;
    for (const SweepAxis& axis : sweep.axes) {
        columns += axis.key + ",";
    }
    std::string metric_columns;
    for (const std::string& m : sweep.metrics) {
        metric_columns += "," + m;
    }
    const std::string description = describe(o, plan, sweep);
    SweepFile out{"--out",
                  o.out,
                  "# boids sweep: " + description + "\n" + columns + "seed" + metric_columns + "\n",
                  {},
                  {}};
    const std::vector<long long> series_steps = sweep_series_steps(sweep);
    std::optional<SweepFile> series;
    if (!o.series.empty()) {
        series = SweepFile{"--series",
                           o.series,
                           "# boids sweep series: " + description + ", series every " +
                               std::to_string(sweep.series_every) + "\nrun," + columns + "seed,step" +
                               metric_columns + "\n",
                           {},
                           {}};
        std::error_code ec_series, ec_out; // a path that cannot be resolved is checked when opened
        if (std::filesystem::weakly_canonical(series->path, ec_series) ==
                std::filesystem::weakly_canonical(out.path, ec_out) &&
            !ec_series && !ec_out) {
            throw InputError(invalid_value_message("--series", "'" + o.series + "'",
                                                   "it is the --out file; give the series its own file"));
        }
    }

    // Rows are written in run order, so an interrupted file is a prefix of the full one. The runs done are
    // those complete in every file (a run's series rows are written before its averages row); whatever
    // follows them is cut and redone, so a resumed file is byte for byte the uninterrupted one. Under MPI
    // root alone reads and writes the files and tells the other ranks how many runs are done.
    const std::vector<SweepRun> runs = sweep_runs(sweep);
    const std::size_t metric_count = sweep.metrics.size();
    std::vector<std::uint64_t> done_runs{0};
    std::optional<RowWriter> out_writer, series_writer;
    ranks.on_root([&] {
        check_output_path("--out", out.path);
        read_existing(out);
        std::size_t done = matching_rows(out, sweep.axes.size() + 1 + metric_count, [&](std::size_t i) {
            return i < runs.size() ? std::optional(run_key(sweep, runs[i])) : std::nullopt;
        });
        if (series) {
            check_output_path("--series", series->path);
            read_existing(*series);
            const std::size_t per_run = series_steps.size();
            const std::size_t rows =
                matching_rows(*series, sweep.axes.size() + 3 + metric_count, [&](std::size_t j) {
                    const std::size_t r = j / per_run;
                    return r < runs.size() ? std::optional(std::to_string(r) + "," + run_key(sweep, runs[r]) +
                                                           "," + std::to_string(series_steps[j % per_run]))
                                           : std::nullopt;
                });
            done = std::min(done, rows / per_run);
            keep_rows(*series, done * per_run);
        }
        keep_rows(out, done);
        out_writer.emplace(out);
        if (series) {
            series_writer.emplace(*series);
        }
        done_runs[0] = done;
    });
    ranks.broadcast_values(done_runs);
    const auto done = static_cast<std::size_t>(done_runs[0]);

    Progress progress(ranks.root() ? runs.size() : 0, done);
    const auto deliver = [&](std::size_t i, SweepResult&& result) {
        const SweepRun& run = runs[done + i];
        const std::string key = run_key(sweep, run);
        if (series_writer) {
            std::string rows;
            for (std::size_t s = 0; s < series_steps.size(); ++s) {
                rows += std::to_string(done + i) + "," + key + "," + std::to_string(series_steps[s]);
                append_values(rows, std::span(result.series).subspan(s * metric_count, metric_count));
            }
            series_writer->write(rows);
        }
        std::string row = key;
        append_values(row, result.averages);
        out_writer->write(row);
        progress.advance();
    };
    const std::span<const SweepRun> left = std::span(runs).subspan(done);
    const int workers = ranks.distributed()
                            ? share_runs_among_ranks(ranks, sweep, left, plan.threads,
                                                     metric_count * (1 + series_steps.size()), deliver)
                            : run_sweep_runs(sweep, left, plan.threads, deliver);
    progress.finish();
    ranks.on_root([&] {
        out_writer->close();
        if (series_writer) {
            series_writer->close();
        }
    });
    if (!ranks.root()) {
        return;
    }
    std::string shape;
    for (const SweepAxis& axis : sweep.axes) {
        shape += std::to_string(axis.values.size()) + " values of " + axis.key + " x ";
    }
    std::printf("boids sweep: %zu runs (%zu already in %s), %s%lld seeds, %d workers", runs.size(), done,
                out.path.string().c_str(), shape.c_str(), sweep.seeds, workers);
    if (ranks.distributed()) {
        std::printf(" on each of %d ranks", ranks.size());
    }
    std::printf("\n");
}

} // namespace boids::cli
