#pragma once
// What the constant-speed heading models (Vicsek, Couzin) share: wrapping, moving, scratch buffers
// (internal). Each model's neighbour rule lives in its own file.

#include "boids/params.hpp"
#include "boids/profile.hpp"
#include "boids/spatial_grid.hpp"
#include "boids/world.hpp"
#include "classic_rules.hpp"

#include <cstdint>
#include <vector>

namespace boids::heading {

/// What a model step needs besides the world: the simulation's grid and scratch buffers, reused.
template <class Real>
struct StepContext {
    SpatialGrid<Real>& grid;
    std::vector<Real>& next_vx;
    std::vector<Real>& next_vy;
    long long step_index; ///< steps taken before this one: the noise counter
    int threads;
};

/// Wraps every position into the torus (no-op for open boundaries).
template <class Real>
void wrap_positions(World<Real>& w, const Params& p, int threads) {
    if (p.boundary != Boundary::Wrap) {
        return;
    }
    const Real width = ScalarTraits<Real>::from_double(p.width),
               height = ScalarTraits<Real>::from_double(p.height);
    const std::size_t n = w.size();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        w.x[i] = classic::wrap_position(w.x[i], width);
        w.y[i] = classic::wrap_position(w.y[i], height);
    }
}

/// Position += new velocity (wrapped on a torus), then the new velocities become current.
template <class Real>
void move_agents(World<Real>& w, const Params& p, std::vector<Real>& next_vx, std::vector<Real>& next_vy,
                 int threads) {
    const bool wrap = p.boundary == Boundary::Wrap;
    const Real width = ScalarTraits<Real>::from_double(p.width),
               height = ScalarTraits<Real>::from_double(p.height);
    const std::size_t n = w.size();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        Real x = w.x[i] + next_vx[i];
        Real y = w.y[i] + next_vy[i];
        if (wrap) {
            x = classic::wrap_position(x, width);
            y = classic::wrap_position(y, height);
        }
        w.x[i] = x;
        w.y[i] = y;
    }
    w.vx.swap(next_vx);
    w.vy.swap(next_vy);
}

/// Separation of agent at (x, y) from a neighbour at (nx, ny), as neighbour minus agent, minimum image on
/// a torus. In double: the models' trigonometry is done in double whatever the storage type.
struct Offset {
    double dx, dy;
};
inline Offset offset(double x, double y, double nx, double ny, const Params& p) {
    double dx = nx - x, dy = ny - y;
    if (p.boundary == Boundary::Wrap) {
        dx = classic::min_image(dx, p.width, 0.5 * p.width);
        dy = classic::min_image(dy, p.height, 0.5 * p.height);
    }
    return {dx, dy};
}

} // namespace boids::heading
