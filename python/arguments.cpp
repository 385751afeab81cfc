// Python arguments that boids.World() and boids.sweep() share.

#include "arguments.hpp"

#include "boids/error.hpp"
#include "boids/params.hpp"

#include <limits>
#include <utility>

namespace py = pybind11;

namespace boids::python {

std::string param_text(const std::string& key, const py::handle& value) {
    if (py::isinstance<py::bool_>(value)) {
        return value.cast<bool>() ? "true" : "false";
    }
    if (py::isinstance<py::str>(value)) {
        return value.cast<std::string>();
    }
    if (py::isinstance<py::int_>(value)) {
        return py::str(value).cast<std::string>();
    }
    if (py::hasattr(value, "__float__")) { // float, numpy scalars: repr is the shortest round-trip text
        return py::repr(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
    }
    throw InputError(invalid_value_message(key, py::repr(value).cast<std::string>(),
                                           "expected a number, a bool or a str"));
}

long long int_arg(std::string_view field, const py::handle& value, long long lo, long long hi) {
    const std::string allowed = "expected an int in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (py::isinstance<py::bool_>(value) || !PyIndex_Check(value.ptr())) {
        throw InputError(
            invalid_value_message(std::string(field), py::repr(value).cast<std::string>(), allowed));
    }
    const auto integer = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (!integer) {
        throw py::error_already_set();
    }
    if (integer < py::int_(lo) || integer > py::int_(hi)) {
        throw InputError(invalid_value_message(std::string(field),
                                               py::str(py::handle(integer)).cast<std::string>(), allowed));
    }
    return integer.cast<long long>();
}

long long count_arg(std::string_view field, const py::handle& value) {
    return int_arg(field, value, 0, 100'000'000);
}

int threads_arg(int threads) {
    if (threads < 0 || threads > 1024) {
        throw InputError(
            invalid_value_message("threads", std::to_string(threads), "allowed range is [0, 1024]"));
    }
    return threads;
}

Scenario scene_arg(const std::optional<std::string>& preset,
                   const std::optional<std::filesystem::path>& scenario, const py::kwargs& params,
                   const CountArgs& counts, const py::object& seed, const char* counts_from) {
    if (preset && scenario) {
        throw InputError("preset and scenario are exclusive: give one scene");
    }
    Scenario scene =
        scenario ? load_scenario_file(*scenario) : load_preset(preset ? *preset : default_preset);
    for (const auto& [key, value] : params) {
        const std::string k = py::str(key).cast<std::string>();
        set_param(scene.params, k, param_text(k, value));
    }
    for (const auto& [key, value] : params) {
        require_key_used(scene.params, py::str(key).cast<std::string>());
    }
    validate(scene.params);
    const std::pair<const char*, const py::object*> by_kind[] = {{"boids", &counts.boids},
                                                                 {"scouts1", &counts.scouts1},
                                                                 {"scouts2", &counts.scouts2},
                                                                 {"predators", &counts.predators}};
    for (const auto& [key, value] : by_kind) {
        if (value->is_none()) {
            continue;
        }
        if (counts_from != nullptr) {
            throw InputError(std::string(key) + " cannot be combined with " + counts_from + " (the " +
                             counts_from + " file gives the agents)");
        }
        set_agent_count(scene.agents, key, count_arg(key, *value));
    }
    if (!seed.is_none()) {
        scene.seed =
            static_cast<std::uint64_t>(int_arg("seed", seed, 0, std::numeric_limits<long long>::max()));
    }
    return scene;
}

} // namespace boids::python
