// boids.World: a simulation session on numpy arrays, built on boids::SimulationController.

#include "arguments.hpp"
#include "exports.hpp"

#include "boids/control_protocol.hpp"
#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/params.hpp"
#include "boids/precision.hpp"
#include "boids/scalar.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation_controller.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace py = pybind11;

namespace boids::python {

namespace {

/// The numpy element type for an engine scalar: itself for float and double, float64 otherwise.
template <class Real>
using ArrayScalar = std::conditional_t<std::is_floating_point_v<Real>, Real, double>;

/// A session plus a lock, so a step running without the GIL never races another call on the same World.
struct PyWorld {
    explicit PyWorld(SimulationSetup setup) : controller(std::move(setup)) {}
    SimulationController controller;
    std::mutex mutex;
    /// The agents in world order as the last Simulation::world() call left them, or null after a change.
    /// Every world() call writes the fast step's cell-ordered flock back into world order (tens of ms at
    /// 1M agents), so array reads between two changes share one write-back through this pointer.
    const void* synced_world = nullptr;
};

/// Holds a World's lock for a call that may change its agents (or replace its simulation): reads after it
/// take a fresh Simulation::world().
class ChangeLock {
public:
    explicit ChangeLock(PyWorld& w) : lock_(w.mutex) { w.synced_world = nullptr; }

private:
    std::lock_guard<std::mutex> lock_;
};

/// The current agents for reading, written back into world order at most once between two changes. The
/// caller holds the World's lock.
template <class Real>
const World<Real>& synced_world(PyWorld& w, const Simulation<Real>& sim) {
    if (w.synced_world == nullptr) {
        w.synced_world = &sim.world();
    }
    return *static_cast<const World<Real>*>(w.synced_world);
}

using WorldPtr = std::shared_ptr<PyWorld>;

/// A parameter's value as a Python object: float for numbers, bool for dynamic_bias, str for boundary.
py::object param_value(const Params& params, std::string_view key) {
    const std::string text = get_param(params, key);
    for (const ParamInfo& info : param_table()) {
        if (info.key != key) {
            continue;
        }
        if (info.kind == std::string_view("bool")) {
            return py::bool_(text == "true");
        }
        if (info.kind == std::string_view("number")) {
            double value = 0.0;
            std::from_chars(text.data(), text.data() + text.size(), value);
            return py::float_(value);
        }
    }
    return py::str(text);
}

/// Applies several key/value pairs at once: all are checked before any takes effect.
void set_many(PyWorld& w, const py::dict& values) {
    ChangeLock lock(w);
    Params changed = w.controller.params();
    for (const auto& [key, value] : values) {
        const std::string k = py::str(key).cast<std::string>();
        set_param(changed, k, param_text(k, value));
    }
    for (const auto& [key, value] : values) {
        require_key_used(changed, py::str(key).cast<std::string>());
    }
    w.controller.set_params(changed);
}

py::dict params_dict(PyWorld& w) {
    std::lock_guard lock(w.mutex);
    py::dict out;
    for (const ParamInfo& info : param_table()) {
        out[py::str(std::string(info.key))] = param_value(w.controller.params(), info.key);
    }
    return out;
}

WorldPtr make_world(const std::optional<std::string>& preset,
                    const std::optional<std::filesystem::path>& scenario,
                    const std::optional<std::filesystem::path>& state, const py::object& boids_count,
                    const py::object& scouts1, const py::object& scouts2, const py::object& predators,
                    const py::object& seed, const std::string& precision, int threads,
                    const py::kwargs& params) {
    SimulationSetup setup;
    setup.scenario = scene_arg(preset, scenario, params, {boids_count, scouts1, scouts2, predators}, seed,
                               state ? "state" : nullptr);
    setup.init_file = state;
    setup.precision = require_precision("precision", precision);
    setup.threads = threads_arg(threads);
    return std::make_shared<PyWorld>(std::move(setup));
}

/// The numpy copy of engine columns: shape (N,) for one column, (N, columns) for several (row i holds
/// agent i), in the session's scalar type. One pass writes each output element once, in order, so a read
/// costs about what numpy.copy of an array of the same size costs.
template <class Real>
py::array columns_array(std::span<const std::vector<Real>* const> columns, std::size_t n) {
    using Out = ArrayScalar<Real>;
    const auto rows = static_cast<py::ssize_t>(n);
    const auto width = static_cast<py::ssize_t>(columns.size());
    py::array_t<Out> out = width == 1 ? py::array_t<Out>(rows) : py::array_t<Out>({rows, width});
    Out* data = out.mutable_data();
    const auto convert = [](Real v) { return static_cast<Out>(ScalarTraits<Real>::to_double(v)); };
    {
        py::gil_scoped_release release; // the copy touches no Python object
        if (columns.size() == 1) {
            const Real* a = columns[0]->data();
            for (std::size_t i = 0; i < n; ++i) {
                data[i] = convert(a[i]);
            }
        } else if (columns.size() == 2) {
            const Real* a = columns[0]->data();
            const Real* b = columns[1]->data();
            for (std::size_t i = 0; i < n; ++i) {
                data[2 * i] = convert(a[i]);
                data[2 * i + 1] = convert(b[i]);
            }
        } else {
            const Real* a = columns[0]->data();
            const Real* b = columns[1]->data();
            const Real* c = columns[2]->data();
            for (std::size_t i = 0; i < n; ++i) {
                data[3 * i] = convert(a[i]);
                data[3 * i + 1] = convert(b[i]);
                data[3 * i + 2] = convert(c[i]);
            }
        }
    }
    return out;
}

/// Positions (velocities with `velocity`) as an (N, dimensions) array.
py::array vector_array(PyWorld& w, bool velocity) {
    std::lock_guard lock(w.mutex);
    return w.controller.visit([&](const auto& sim) {
        const auto& world = synced_world(w, sim);
        using Column = std::remove_cvref_t<decltype(world.x)>;
        std::array<const Column*, 3> columns{velocity ? &world.vx : &world.x, velocity ? &world.vy : &world.y,
                                             velocity ? &world.vz : &world.z};
        const std::size_t axes = sim.params().dimensions == 3 ? 3 : 2;
        return columns_array<typename Column::value_type>(std::span(columns.data(), axes), world.size());
    });
}

/// Replaces every agent's position (velocity with `velocity`) with the rows of `value`, an (N, dimensions)
/// array of real numbers. Every value is checked (finite, and for fix15 in its range) before any agent
/// changes, so a rejected array leaves the World as it was.
void set_vectors(PyWorld& w, const py::object& value, bool velocity) {
    const char* field = velocity ? "velocities" : "positions";
    const auto array = py::array::ensure(value);
    if (!array) {
        throw InputError(invalid_value_message(field, py::repr(value).cast<std::string>(),
                                               "expected an array of shape (N, dimensions)"));
    }
    const char dtype_kind = array.dtype().kind();
    if (dtype_kind != 'f' && dtype_kind != 'i' && dtype_kind != 'u') {
        throw InputError(invalid_value_message(std::string(field) + " dtype",
                                               py::str(array.dtype()).cast<std::string>(),
                                               "expected real numbers (a float or integer dtype)"));
    }
    // Copied into doubles first: every scalar type converts from a double, and the source may be any real
    // dtype, layout or stride.
    const auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
    if (!values) {
        throw py::error_already_set();
    }
    ChangeLock lock(w);
    w.controller.visit([&](auto& sim) {
        using Real = typename std::decay_t<decltype(sim.world().x)>::value_type;
        const std::size_t n = sim.world().size();
        const std::size_t axes = sim.params().dimensions == 3 ? 3 : 2;
        std::string expected = "(" + std::to_string(n) + ", " + std::to_string(axes) + ")";
        if (values.ndim() != 2 || static_cast<std::size_t>(values.shape(0)) != n ||
            static_cast<std::size_t>(values.shape(1)) != axes) {
            std::string shape = "(";
            for (py::ssize_t d = 0; d < values.ndim(); ++d) {
                shape += (d > 0 ? ", " : "") + std::to_string(values.shape(d));
            }
            shape += values.ndim() == 1 ? ",)" : ")";
            throw InputError(invalid_value_message(std::string(field) + " shape", shape,
                                                   "expected " + expected + ": one row per agent"));
        }
        const double* data = values.data();
        std::vector<Real> converted(n * axes);
        for (std::size_t k = 0; k < n * axes; ++k) {
            const double d = data[k];
            const Real r = ScalarTraits<Real>::from_double(d);
            // A double may be finite and still overflow float; fix15 holds (-65536, 65536) only.
            if (!std::isfinite(d) || !ScalarTraits<Real>::representable(d) ||
                !std::isfinite(ScalarTraits<Real>::to_double(r))) {
                char text[32];
                const auto end = std::to_chars(text, text + sizeof text, d).ptr; // shortest round trip
                throw InputError(invalid_value_message(
                    std::string(field) + "[" + std::to_string(k / axes) + ", " + std::to_string(k % axes) +
                        "]",
                    std::string(text, end),
                    std::is_floating_point_v<Real>
                        ? "expected a finite number that fits the World's precision"
                        : "expected a finite number in (-65536, 65536), the range of fix15"));
            }
            converted[k] = r;
        }
        auto& world = sim.world(); // mutable: the step's cached copy of the flock is dropped
        std::array<std::vector<Real>*, 3> columns{velocity ? &world.vx : &world.x,
                                                  velocity ? &world.vy : &world.y,
                                                  velocity ? &world.vz : &world.z};
        for (std::size_t a = 0; a < axes; ++a) {
            std::vector<Real>& column = *columns[a];
            for (std::size_t i = 0; i < n; ++i) {
                column[i] = converted[i * axes + a];
            }
        }
    });
}

py::dict profile_dict(const StepProfile& p) {
    py::dict d;
    d["total_ms"] = p.total_ms;
    d["grid_build_ms"] = p.grid_build_ms;
    d["neighbours_ms"] = p.neighbours_ms;
    d["integrate_ms"] = p.integrate_ms;
    d["fast_steps"] = p.fast_steps;
    return d;
}

/// A live dict-like view of a World's parameters: reads and writes go to the World at once.
struct ParamsView {
    WorldPtr world;
};

constexpr const char* world_doc = R"(A flock of boids, scouts and predators stepped by the C++ engine.

World(preset="vga-predator", *, scenario=None, state=None, boids=None, scouts1=None, scouts2=None,
      predators=None, seed=None, precision="f32", threads=0, **params)

The scene comes from a built-in preset (boids.presets()) or a TOML scenario file; agent counts and the seed
override the scene's; any other keyword is a parameter (boids.param_table(), the same keys as
`boids run --set`). state=path starts from a state CSV (the CLI's --init format) instead of spawning, and
cannot be combined with the counts. precision is "f32" (the CLI's default) or "f64"; threads=0 uses every
core. The same scene, seed, parameters and precision give bit-for-bit the state of
`boids run --headless` (compare state_hash() with the summary's "state hash").

Arrays (positions, velocities, kinds, biases) are fresh numpy COPIES taken when read (about the cost of
numpy.copy): they never change under you and writing into them does not move the agents. To move agents,
assign a whole array: w.positions = a, w.velocities = v (shape (N, dimensions), checked). Positions and velocities are float32 for
precision "f32" and float64 for "f64". Agents keep a stable order: row i of every array is agent i.

Bad input (unknown key, value out of range, bad file) raises boids.InputError, a ValueError whose message
names the field, the value and what is allowed; the World is then unchanged.

A World may be stepped from one thread while others wait for it: step() releases the GIL and every call
takes the World's lock.)";

} // namespace

void export_world(py::module_& m) {
    py::class_<ParamsView>(m, "ParamsView", R"(The live parameters of a World, used like a dict.

    w.params["visual_range"]          # -> 40.0 (float; bool for dynamic_bias, str for boundary)
    w.params["visual_range"] = 30     # validated like --set; ValueError and no change on a bad value
    w.params.update(min_speed=2, max_speed=4)   # several keys at once, checked together
    dict(w.params)                    # a plain copy)")
        .def(
            "__getitem__",
            [](const ParamsView& v, const std::string& key) {
                std::lock_guard lock(v.world->mutex);
                try {
                    return param_value(v.world->controller.params(), key);
                } catch (const InputError& e) {
                    throw py::key_error(e.what());
                }
            },
            py::arg("key"), "The value of one parameter. KeyError if the key is unknown.")
        .def(
            "__setitem__",
            [](const ParamsView& v, const std::string& key, const py::object& value) {
                py::dict one;
                one[py::str(key)] = value;
                set_many(*v.world, one);
            },
            py::arg("key"), py::arg("value"),
            "Sets one parameter (ValueError naming field, value and range).")
        .def(
            "__contains__", [](const ParamsView&, const std::string& key) { return is_param_key(key); },
            py::arg("key"))
        .def("__len__", [](const ParamsView&) { return param_table().size(); })
        .def("__iter__", [](const ParamsView& v) { return py::iter(params_dict(*v.world)); })
        .def(
            "keys", [](const ParamsView& v) { return params_dict(*v.world).attr("keys")(); },
            "The readable keys.")
        .def(
            "values", [](const ParamsView& v) { return params_dict(*v.world).attr("values")(); },
            "The values.")
        .def(
            "items", [](const ParamsView& v) { return params_dict(*v.world).attr("items")(); },
            "(key, value) pairs.")
        .def(
            "get",
            [](const ParamsView& v, const std::string& key, const py::object& fallback) -> py::object {
                std::lock_guard lock(v.world->mutex);
                return is_param_key(key) && key != "margin" ? param_value(v.world->controller.params(), key)
                                                            : fallback;
            },
            py::arg("key"), py::arg("default") = py::none(), "The value of `key`, or `default` if unknown.")
        .def(
            "update",
            [](const ParamsView& v, const py::object& mapping, const py::kwargs& kwargs) {
                py::dict all;
                if (!mapping.is_none()) {
                    all = py::dict(mapping);
                }
                for (const auto& [key, value] : kwargs) {
                    all[key] = value;
                }
                set_many(*v.world, all);
            },
            py::arg("mapping") = py::none(),
            "Sets several parameters at once from a mapping and/or keywords; all are checked (including\n"
            "min_speed <= max_speed) before any takes effect.")
        .def(
            "to_dict", [](const ParamsView& v) { return params_dict(*v.world); }, "A plain dict copy.")
        .def("__repr__",
             [](const ParamsView& v) { return py::repr(params_dict(*v.world)).cast<std::string>(); });

    py::class_<PyWorld, WorldPtr>(m, "World", world_doc)
        .def(py::init(&make_world), py::arg("preset") = py::none(), py::kw_only(),
             py::arg("scenario") = py::none(), py::arg("state") = py::none(), py::arg("boids") = py::none(),
             py::arg("scouts1") = py::none(), py::arg("scouts2") = py::none(),
             py::arg("predators") = py::none(), py::arg("seed") = py::none(), py::arg("precision") = "f32",
             py::arg("threads") = 0,
             "Builds the starting world (see the class help). Raises ValueError for bad input.")
        .def(
            "step",
            [](PyWorld& w, const py::object& steps) {
                const long long n = int_arg("n", steps, 0, std::numeric_limits<long long>::max());
                for (long long s = 0; s < n; ++s) {
                    {
                        py::gil_scoped_release release;
                        ChangeLock lock(w);
                        w.controller.step(1);
                    }
                    if (PyErr_CheckSignals() != 0) { // Ctrl-C stops between two steps
                        throw py::error_already_set();
                    }
                }
            },
            py::arg("n") = 1, "Advances n synchronous steps (releases the GIL; Ctrl-C stops between steps).")
        .def_property(
            "positions", [](PyWorld& w) { return vector_array(w, false); },
            [](PyWorld& w, const py::object& value) { set_vectors(w, value, false); },
            "The positions, shape (N, 2): x, y in pixels (y grows downward); (N, 3) with z in a 3D world\n"
            "(dimensions = 3). Reading gives a fresh copy. Assigning an (N, dimensions) array of real\n"
            "numbers moves every agent (ValueError for another shape, a non-real dtype or a value that is\n"
            "not finite; the World is then unchanged).")
        .def_property(
            "velocities", [](PyWorld& w) { return vector_array(w, true); },
            [](PyWorld& w, const py::object& value) { set_vectors(w, value, true); },
            "The velocities, shape (N, 2): vx, vy in pixels per step; (N, 3) with vz in 3D. Reading gives a\n"
            "fresh copy; assigning an (N, dimensions) array sets every agent's velocity (checked like\n"
            "positions).")
        .def_property_readonly(
            "biases",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.visit([&](const auto& sim) {
                    const auto& bias = synced_world(w, sim).bias;
                    using Column = std::remove_cvref_t<decltype(bias)>;
                    const std::array<const Column*, 1> columns{&bias};
                    return columns_array<typename Column::value_type>(columns, bias.size());
                });
            },
            "Copy of each agent's bias, shape (N,): a scout's own bias, 0 for boids and predators.")
        .def_property_readonly(
            "kinds",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.visit([&](const auto& sim) {
                    const auto& kinds = synced_world(w, sim).kind;
                    static_assert(sizeof(Kind) == sizeof(std::uint8_t)); // the codes are the bytes
                    py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(kinds.size()));
                    if (!kinds.empty()) {
                        std::memcpy(out.mutable_data(), kinds.data(), kinds.size());
                    }
                    return out;
                });
            },
            "Copy of each agent's kind as uint8 codes, shape (N,): 0 boid, 1 scout1, 2 scout2, 3 predator\n"
            "(boids.BOID ... boids.PREDATOR; boids.KINDS[code] is the name).")
        .def_property(
            "params", [](const WorldPtr& w) { return ParamsView{w}; },
            [](const WorldPtr& w, const py::object& values) { set_many(*w, py::dict(values)); },
            "The live parameters (a ParamsView, used like a dict). Assigning a mapping sets those keys at "
            "once.")
        .def(
            "get",
            [](PyWorld& w, const std::string& key) {
                std::lock_guard lock(w.mutex);
                return param_value(w.controller.params(), key);
            },
            py::arg("key"), "The value of one parameter: float, bool (dynamic_bias) or str (boundary).")
        .def(
            "set",
            [](const WorldPtr& w, const std::string& key, const py::object& value) {
                py::dict one;
                one[py::str(key)] = value;
                set_many(*w, one);
            },
            py::arg("key"), py::arg("value"),
            "Sets one parameter with the CLI's validation (the key `margin` sets all four margins).")
        .def(
            "spawn",
            [](PyWorld& w, const std::string& kind, const py::object& n) {
                const long long count = int_arg("n", n, 0, max_session_agents);
                ChangeLock lock(w);
                w.controller.spawn(require_kind("kind", kind), count);
            },
            py::arg("kind"), py::arg("n"),
            "Adds n agents of a kind ('boid', 'scout1', 'scout2', 'predator', or the plural count keys) at\n"
            "random inside the margins and outside the obstacles, from a seeded stream of the World's own\n"
            "(so runs replay exactly). Raises InputError if the obstacles leave no room.")
        .def(
            "remove",
            [](PyWorld& w, const std::string& kind, const py::object& n) {
                const long long count = int_arg("n", n, 0, max_session_agents);
                ChangeLock lock(w);
                w.controller.remove(require_kind("kind", kind), count);
            },
            py::arg("kind"), py::arg("n"),
            "Removes the n most recently added agents of a kind (ValueError if there are fewer).")
        .def(
            "reset",
            [](PyWorld& w) {
                ChangeLock lock(w);
                w.controller.reset();
            },
            "Back to the starting agents (same seed or state file) with the current parameters; steps = 0, "
            "or the "
            "state file's step.")
        .def(
            "load_state",
            [](PyWorld& w, const std::filesystem::path& path) {
                ChangeLock lock(w);
                w.controller.load_state(path);
            },
            py::arg("path"),
            "Replaces the agents with a state CSV (the CLI's --init format); steps = the step the file was "
            "saved "
            "at. A truncated file (fewer agents than its first line promises) raises InputError.")
        .def(
            "save_state",
            [](PyWorld& w, const std::filesystem::path& path) {
                std::lock_guard lock(w.mutex);
                w.controller.save_state(path);
            },
            py::arg("path"),
            "Writes the agents and the step as a state CSV, bit-exact (the CLI's --dump format), atomically: "
            "a "
            "temporary file in the same folder renamed over `path`, so the old file survives any failure. "
            "Raises InputError for a path that cannot be written, IoError (an OSError) if writing fails.")
        .def(
            "state_hash",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.state_hash();
            },
            "FNV-1a hash of every agent's bits, as an int; format(h, '016x') is the CLI summary's state "
            "hash.")
        .def(
            "metrics",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.visit([&](const auto& sim) {
                    const Metrics m = compute_metrics(synced_world(w, sim), sim.params(), sim.threads());
                    py::dict d;
                    for (const std::string_view name : metric_names()) {
                        d[py::str(std::string(name))] = metric_value(m, name);
                    }
                    d["step"] = sim.steps_taken();
                    return d;
                });
            },
            "The order parameters of the current state, as a dict with the CLI's --metrics columns: "
            "polarization, milling, nnd_mean, groups, speed_mean, speed_std, frac_right, frac_left (and "
            "accuracy, side_right), plus step.")
        .def(
            "stats",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                const SessionStats s = w.controller.stats();
                py::dict d;
                d["steps"] = s.steps;
                d["agents"] = s.counts.total();
                d["boids"] = s.counts.boids;
                d["scouts1"] = s.counts.scouts1;
                d["scouts2"] = s.counts.scouts2;
                d["predators"] = s.counts.predators;
                d["mean_speed"] = s.summary.mean_speed;
                d["polarization"] = s.summary.polarization;
                d["state_hash"] = s.state_hash;
                d["precision"] = std::string(precision_name(s.precision));
                d["threads"] = s.threads;
                d["last_step"] = profile_dict(s.last_step);
                d["total"] = profile_dict(s.total);
                return d;
            },
            "A dict: steps, agents and counts by kind, mean_speed (px/step) and polarization (1 = aligned) "
            "of\n"
            "the flocking agents, state_hash, precision, threads, and the step profile in milliseconds\n"
            "(last_step and total: total_ms, grid_build_ms, neighbours_ms, integrate_ms), with the steps\n"
            "the fast path took (fast_steps: 0 or 1 in last_step).")
        .def(
            "summary",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return format_stats(w.controller.stats());
            },
            "The stats as one line of key=value pairs, exactly as the control port's `stats` answers.")
        .def_property_readonly(
            "steps",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.steps_taken();
            },
            "The step index: steps since the start; a state file (state=, load_state) carries its own, so a "
            "loaded world continues from the step it was saved at.")
        .def_property_readonly(
            "counts",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                const AgentCounts c = w.controller.counts();
                py::dict d;
                d["boids"] = c.boids;
                d["scouts1"] = c.scouts1;
                d["scouts2"] = c.scouts2;
                d["predators"] = c.predators;
                return d;
            },
            "Agents by kind: a dict with boids, scouts1, scouts2, predators.")
        .def_property_readonly(
            "precision", [](PyWorld& w) { return std::string(precision_name(w.controller.precision())); },
            "The scalar type: 'f32' or 'f64'.")
        .def_property(
            "threads",
            [](PyWorld& w) {
                std::lock_guard lock(w.mutex);
                return w.controller.threads();
            },
            [](PyWorld& w, int threads) {
                std::lock_guard lock(w.mutex);
                w.controller.set_threads(threads);
            },
            "Threads per step (reading gives the number in use; set 0 for all cores). Results do not depend "
            "on it.")
        .def("__len__",
             [](PyWorld& w) {
                 std::lock_guard lock(w.mutex);
                 return w.controller.size();
             })
        .def("__repr__", [](PyWorld& w) {
            std::lock_guard lock(w.mutex);
            const AgentCounts c = w.controller.counts();
            return "<boids.World " + w.controller.setup().scenario.name + " " +
                   std::string(precision_name(w.controller.precision())) + ": " + std::to_string(c.boids) +
                   " boids, " + std::to_string(c.scouts1) + " scout1, " + std::to_string(c.scouts2) +
                   " scout2, " + std::to_string(c.predators) + " predators; " +
                   std::to_string(w.controller.steps_taken()) + " steps>";
        });
}

} // namespace boids::python
