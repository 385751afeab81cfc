// Entry point of the Python module `boids`. The engine itself never includes pybind11.

#include "exports.hpp"

PYBIND11_MODULE(boids, m) {
    m.doc() =
        "Craig Reynolds' boids (Cornell ECE 4760) on numpy: a deterministic, multithreaded C++ engine.\n\n"
        "    import boids\n"
        "    w = boids.World(preset=\"vga-predator\", boids=500, seed=1)\n"
        "    w.step(100)\n"
        "    w.positions      # numpy (N, 2) copy\n"
        "    w.params[\"visual_range\"] = 30\n\n"
        "See help(boids.World), help(boids.sweep), boids.presets() and boids.param_table().";
    boids::python::export_errors(m);
    boids::python::export_catalog(m);
    boids::python::export_world(m);
    boids::python::export_sweep(m);
}
