// Module-level functions and constants: what the engine offers (presets, parameters, kinds, precisions).

#include "exports.hpp"

#include "boids/error.hpp"
#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/precision.hpp"
#include "boids/scenario.hpp"
#include "boids/version.hpp"

#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;

namespace boids::python {

void export_errors(py::module_& m) {
    // A subclass of ValueError, so `except ValueError` catches every rejected input.
    py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
    py::register_exception<IoError>(m, "IoError", PyExc_OSError); // a full disk, not bad input
}

void export_catalog(py::module_& m) {
    m.attr("__version__") = std::string(version);

    py::tuple kinds(kind_count);
    for (int k = 0; k < kind_count; ++k) {
        kinds[static_cast<std::size_t>(k)] = std::string(kind_name(static_cast<Kind>(k)));
    }
    m.attr("KINDS") = kinds;
    m.attr("BOID") = static_cast<int>(Kind::Boid);
    m.attr("SCOUT1") = static_cast<int>(Kind::Scout1);
    m.attr("SCOUT2") = static_cast<int>(Kind::Scout2);
    m.attr("PREDATOR") = static_cast<int>(Kind::Predator);

    py::list precisions;
    const std::string choices = precision_choices();
    for (std::size_t start = 0; start <= choices.size();) {
        const std::size_t end = std::min(choices.find(" | ", start), choices.size());
        precisions.append(choices.substr(start, end - start));
        start = end + 3;
    }
    m.attr("PRECISIONS") = py::tuple(precisions);

    m.def("presets", &preset_names, "Names of the built-in scenes (presets/*.toml), sorted.");
    m.def(
        "preset_description", [](const std::string& name) { return load_preset(name).description; },
        py::arg("name"), "The one-line description of a built-in scene. Raises ValueError if unknown.");
    m.def(
        "param_table",
        [] {
            const Params defaults;
            py::list rows;
            for (const ParamInfo& info : param_table()) {
                py::dict row;
                row["key"] = std::string(info.key);
                row["kind"] = std::string(info.kind);
                row["min"] = info.min;
                row["max"] = info.max;
                row["default"] = get_param(defaults, info.key);
                row["help"] = std::string(info.help);
                rows.append(row);
            }
            return rows;
        },
        "Every parameter key as a dict: key, kind ('number', 'bool' or 'choice'), min, max (inclusive, for\n"
        "numbers), default (text form) and help. The same keys as `boids params`, --set and the control "
        "port.");
}

} // namespace boids::python
