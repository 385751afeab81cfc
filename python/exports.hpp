#pragma once
// The Python module `boids`: one export function per area (see module.cpp).

#include <pybind11/pybind11.h>

namespace boids::python {

/// boids.InputError (a ValueError) and the translation of the engine's InputError.
void export_errors(pybind11::module_& m);

/// Module-level catalogue: presets(), param_table(), KINDS, PRECISIONS, __version__.
void export_catalog(pybind11::module_& m);

/// boids.sweep(): full-factorial parameter sweeps returned as numpy record arrays.
void export_sweep(pybind11::module_& m);

/// boids.World and its parameter view boids.ParamsView.
void export_world(pybind11::module_& m);

} // namespace boids::python
