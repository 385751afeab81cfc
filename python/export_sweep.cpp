// boids.sweep(): a full-factorial parameter sweep run by the engine (boids/sweep.hpp) without the GIL,
// returned as a numpy record array (or a pandas DataFrame).

#include "arguments.hpp"
#include "exports.hpp"

#include "boids/error.hpp"
#include "boids/precision.hpp"
#include "boids/sweep.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace boids::python {

namespace {

/// One axis from a dict entry: a sequence of numbers, or the CLI's "START:STOP:COUNT[:log]" as a str.
SweepAxis axis_arg(const py::handle& key_object, const py::handle& values) {
    if (!py::isinstance<py::str>(key_object)) {
        throw InputError(invalid_value_message("axes", py::repr(key_object).cast<std::string>(),
                                               "keys must be str (parameter names, agent counts or "
                                               "scouts1_fraction)"));
    }
    const std::string key = key_object.cast<std::string>();
    const std::string field = "axes['" + key + "']";
    if (py::isinstance<py::str>(values)) {
        return parse_sweep_axis(field, key + "=" + values.cast<std::string>());
    }
    const std::string allowed = "expected a list of numbers or a str 'START:STOP:COUNT[:log]'";
    if (!py::isinstance<py::iterable>(values)) {
        throw InputError(invalid_value_message(field, py::repr(values).cast<std::string>(), allowed));
    }
    std::vector<double> numbers;
    for (const py::handle v : values) {
        // Numbers only: a bool or a str in a list of values is a mistake, not 1.0 or a parse.
        const bool number = !py::isinstance<py::bool_>(v) && !py::isinstance<py::str>(v) &&
                            (PyFloat_Check(v.ptr()) || PyIndex_Check(v.ptr()) || py::hasattr(v, "__float__"));
        if (!number) {
            throw InputError(invalid_value_message(field, py::repr(v).cast<std::string>(), allowed));
        }
        const double x = PyFloat_AsDouble(v.ptr());
        if (x == -1.0 && PyErr_Occurred()) {
            PyErr_Clear(); // e.g. an int too large for a double
            throw InputError(invalid_value_message(field, py::repr(v).cast<std::string>(), allowed));
        }
        numbers.push_back(x);
    }
    return make_sweep_axis(field, key, numbers);
}

/// The metric names from a str ("a,b" or "all") or a sequence of str.
std::vector<std::string> metrics_arg(const py::handle& metrics) {
    if (py::isinstance<py::str>(metrics)) {
        return parse_sweep_metrics("metrics", metrics.cast<std::string>());
    }
    std::string list;
    if (py::isinstance<py::iterable>(metrics)) {
        for (const py::handle m : metrics) {
            if (!py::isinstance<py::str>(m)) {
                throw InputError(invalid_value_message("metrics", py::repr(m).cast<std::string>(),
                                                       "expected metric names (str)"));
            }
            list += (list.empty() ? "" : ",") + m.cast<std::string>();
        }
        return parse_sweep_metrics("metrics", list);
    }
    throw InputError(invalid_value_message("metrics", py::repr(metrics).cast<std::string>(),
                                           "expected a str or a list of str"));
}

/// A table of 8-byte columns (int64 or float64) filled in place, then handed to numpy as a record array.
class Table {
public:
    void add(std::string name, bool integer) { columns_.push_back({std::move(name), integer}); }
    std::size_t width() const { return columns_.size(); }

    /// Allocates `rows` records; the caller fills them through row() (without the GIL: no Python object
    /// is touched there).
    void allocate(std::size_t rows) {
        py::list fields;
        for (const auto& [name, integer] : columns_) {
            fields.append(py::make_tuple(name, integer ? "<i8" : "<f8"));
        }
        const py::module_ numpy = py::module_::import("numpy");
        array_ = numpy.attr("empty")(rows, numpy.attr("dtype")(fields)).cast<py::array>();
        data_ = static_cast<char*>(array_.mutable_data());
    }

    /// Sets column `c` of record `r`.
    void set(std::size_t r, std::size_t c, double value) {
        char* cell = data_ + (r * columns_.size() + c) * 8;
        if (columns_[c].second) {
            const auto i = static_cast<std::int64_t>(value);
            std::memcpy(cell, &i, 8);
        } else {
            std::memcpy(cell, &value, 8);
        }
    }

    py::object finish(bool dataframe) const {
        if (dataframe) {
            py::module_ pandas;
            try {
                pandas = py::module_::import("pandas");
            } catch (const py::error_already_set&) {
                throw py::import_error(
                    "sweep(dataframe=True) needs pandas, which is not installed; without dataframe=True "
                    "sweep() returns a numpy record array");
            }
            return pandas.attr("DataFrame")(array_);
        }
        return array_.attr("view")(py::module_::import("numpy").attr("recarray"));
    }

private:
    std::vector<std::pair<std::string, bool>> columns_;
    py::array array_;
    char* data_ = nullptr;
};

/// Runs the sweep on a thread of its own while this one, without the GIL, looks for Ctrl-C every 50 ms: an
/// interrupt lets the runs in progress finish, starts no more and raises KeyboardInterrupt.
void run_interruptibly(const SweepPlan& plan, std::span<const SweepRun> runs, int workers,
                       const std::function<void(std::size_t, SweepResult&&)>& deliver) {
    struct Interrupted {};
    std::atomic<bool> interrupted{false};
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::exception_ptr failure;
    {
        py::gil_scoped_release release;
        std::thread engine([&] {
            try {
                run_sweep_runs(plan, runs, workers, [&](std::size_t i, SweepResult&& result) {
                    if (interrupted) {
                        throw Interrupted{};
                    }
                    deliver(i, std::move(result));
                });
            } catch (...) {
                failure = std::current_exception();
            }
            const std::lock_guard lock(mutex);
            done = true;
            finished.notify_all();
        });
        std::unique_lock lock(mutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
            if (!interrupted) {
                lock.unlock();
                const py::gil_scoped_acquire gil;
                interrupted = PyErr_CheckSignals() != 0; // the Python error stays set until raised below
                lock.lock();
            }
        }
        lock.unlock();
        engine.join();
    }
    if (interrupted) {
        throw py::error_already_set();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

py::object sweep(const py::dict& axes, const std::optional<std::string>& preset,
                 const std::optional<std::filesystem::path>& scenario, const py::object& seeds,
                 const py::object& seed, const py::object& steps, const py::object& burn_in,
                 const py::object& every, const py::object& metrics, bool series,
                 const py::object& series_every, const py::object& boids_count, const py::object& scouts1,
                 const py::object& scouts2, const py::object& predators, const std::string& precision,
                 int threads, bool dataframe, const py::kwargs& params) {
    constexpr long long big = std::numeric_limits<long long>::max();
    SweepPlan plan;
    plan.scenario =
        scene_arg(preset, scenario, params, {boids_count, scouts1, scouts2, predators}, seed, nullptr);
    plan.base_seed = plan.scenario.seed;
    for (const auto& [key, values] : axes) {
        plan.axes.push_back(axis_arg(key, values));
    }
    plan.seeds = int_arg("seeds", seeds, 1, big);
    plan.steps = int_arg("steps", steps, 1, big);
    plan.burn_in = int_arg("burn_in", burn_in, 0, big);
    plan.every = int_arg("every", every, 1, big);
    plan.metrics = metrics_arg(metrics);
    plan.series_every = series ? int_arg("series_every", series_every, 1, big) : 0;
    plan.precision = require_precision("precision", precision);
    const int workers = threads_arg(threads);
    validate_sweep(plan, "axes");

    const std::vector<SweepRun> runs = sweep_runs(plan);
    const std::vector<long long> series_steps = sweep_series_steps(plan);
    Table table;
    table.add("run", true);
    for (const SweepAxis& axis : plan.axes) {
        table.add(axis.key, is_count_sweep_key(axis.key));
    }
    table.add("seed", true);
    if (series) {
        table.add("step", true);
    }
    for (const std::string& m : plan.metrics) {
        table.add(m, false);
    }
    const std::size_t per_run = series ? series_steps.size() : 1;
    table.allocate(runs.size() * per_run);
    run_interruptibly(plan, runs, workers, [&](std::size_t i, SweepResult&& result) {
        const SweepRun& run = runs[i];
        for (std::size_t k = 0; k < per_run; ++k) {
            const std::size_t r = i * per_run + k;
            std::size_t c = 0;
            table.set(r, c++, static_cast<double>(i));
            for (std::size_t a = 0; a < plan.axes.size(); ++a) {
                table.set(r, c++, plan.axes[a].values[run.point[a]].value);
            }
            table.set(r, c++, static_cast<double>(run.seed));
            if (series) {
                table.set(r, c++, static_cast<double>(series_steps[k]));
            }
            const std::size_t m = plan.metrics.size();
            for (std::size_t j = 0; j < m; ++j) {
                table.set(r, c++, series ? result.series[k * m + j] : result.averages[j]);
            }
        }
    });
    return table.finish(dataframe);
}

} // namespace

void export_sweep(py::module_& m) {
    m.def("sweep", &sweep, py::arg("axes"), py::kw_only(), py::arg("preset") = py::none(),
          py::arg("scenario") = py::none(), py::arg("seeds") = 1, py::arg("seed") = py::none(),
          py::arg("steps") = 1000, py::arg("burn_in") = 0, py::arg("every") = 1,
          py::arg("metrics") = "polarization", py::arg("series") = false, py::arg("series_every") = 1,
          py::arg("boids") = py::none(), py::arg("scouts1") = py::none(), py::arg("scouts2") = py::none(),
          py::arg("predators") = py::none(), py::arg("precision") = "f32", py::arg("threads") = 0,
          py::arg("dataframe") = false,
          R"(A parameter sweep like NetLogo's BehaviorSpace, run by the engine: every combination of the
axes' values (full factorial) times `seeds` seeds, each run single-threaded, `threads` runs at once
(0 = one per core), without the GIL; Ctrl-C stops it after the runs in progress. The numbers are those of
`boids sweep` with the same settings, whatever `threads`.

    t = boids.sweep({"noise": [0.5, 2, 4], "boids": [100, 400]}, preset="vicsek", seeds=3, steps=500,
                    burn_in=250, every=10, metrics="polarization,groups")
    t.polarization[t.noise == 2]

axes: dict of key -> list of values (or the CLI's "START:STOP:COUNT[:log]" as a str). A key is a numeric
    parameter, an agent count (boids, scouts1, scouts2, predators) or scouts1_fraction (the share of
    scouts1 among boids + scouts1). The first key varies slowest, the seed fastest.
preset | scenario, boids, scouts1, scouts2, predators, **params: the scene, as for boids.World.
seed: the first run's seed (default: the scene's); runs use seed, seed + 1, ... (spawn and noise).
steps, burn_in, every: each run's length; metrics are averaged over the samples every `every` steps
    after the first `burn_in` steps.
metrics: names as "a,b", a list, or "all" (the names World.metrics() returns, step aside).
series: False returns one record per run (run, the axes' keys, seed, the averaged metrics); True
    returns one record per sampled step instead (run, keys, seed, step, metrics), sampled at step 0 and
    every `series_every` steps.
dataframe: return a pandas DataFrame instead of the numpy record array (needs pandas).

Bad input raises ValueError naming the field.)");
}

} // namespace boids::python
