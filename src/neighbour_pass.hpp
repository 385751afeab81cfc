#pragma once
// The one neighbour loop every model shares (internal). A model is a policy, in the manner of HOOMD-blue's
// pair evaluators: the loop finds each agent's neighbours through the grid and hands them to the policy,
// which says what to accumulate and how to turn the sums into a new velocity; the compiler inlines it.
//
// A policy provides:
//   using Sums = ...;                                  // per-agent accumulators, value-initialised
//   static constexpr NeighbourQuery query;             // InRange (3 x 3 cells) or KNearest
//   int k() const;                                     // KNearest only
//   void accumulate(Sums&, const Agent<Real>&, const Neighbour<Real>&) const;   // flock neighbours
//   void accumulate_predator(Sums&, const Agent<Real>&, const Neighbour<Real>&) const;
//   void steer(const Sums&, Agent<Real>&) const;       // a flocking agent's new velocity (and bias)
//   void steer_predator(Agent<Real>&) const;           // a predator's new velocity

#include "boids/neighbour_search.hpp"
#include "boids/spatial_grid.hpp"
#include "boids/world.hpp"
#include "classic_rules.hpp"

#include <vector>

namespace boids {

enum class NeighbourQuery { InRange, KNearest };

/// The agent being updated, as the policy reads and writes it.
template <class Real>
struct Agent {
    std::uint32_t index;
    Kind kind;
    Real x, y, vx, vy, bias;
};

/// One neighbour as seen from the agent: `dx, dy` = agent minus neighbour (minimum image on a torus), and
/// the neighbour's own state.
template <class Real>
struct Neighbour {
    Real dx, dy;
    Real x, y, vx, vy;
    std::uint32_t index;
};

/// The torus, if any, in the scalar type.
template <class Real>
struct Geometry {
    bool wrap;
    Real width, height, half_width, half_height;

    void min_image(Real& dx, Real& dy) const {
        if (wrap) {
            dx = classic::min_image(dx, width, half_width);
            dy = classic::min_image(dy, height, half_height);
        }
    }
};

/// Computes every agent's new velocity and bias from the old state (the world and the grids' copies),
/// in parallel; writes them to the `next_*` arrays.
template <class Real, class Policy>
void neighbour_pass(const World<Real>& w, const SpatialGrid<Real>& flock, const SpatialGrid<Real>& predators,
                    const Geometry<Real>& geo, const Policy& policy, std::vector<Real>& next_vx,
                    std::vector<Real>& next_vy, std::vector<Real>& next_bias, int threads) {
    const std::size_t n = w.size();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (std::size_t i = 0; i < n; ++i) {
        Agent<Real> a{static_cast<std::uint32_t>(i), w.kind[i], w.x[i], w.y[i], w.vx[i], w.vy[i], w.bias[i]};
        const auto neighbour = [&](const SpatialGrid<Real>& grid, std::uint32_t s) {
            Neighbour<Real> nb{a.x - grid.x(s), a.y - grid.y(s), grid.x(s), grid.y(s),
                               grid.vx(s),      grid.vy(s),      grid.agent(s)};
            geo.min_image(nb.dx, nb.dy);
            return nb;
        };
        if (is_flocking(a.kind)) {
            typename Policy::Sums sums{};
            if constexpr (Policy::query == NeighbourQuery::InRange) {
                flock.for_each_candidate(a.x, a.y, [&](std::uint32_t s) {
                    if (flock.agent(s) != a.index) {
                        policy.accumulate(sums, a, neighbour(flock, s));
                    }
                });
            } else {
                KNearest nearest;
                k_nearest(flock, a.x, a.y, a.index, policy.k(), geo.wrap, geo.width, geo.height, nearest);
                for (int m = 0; m < nearest.count; ++m) { // nearest first
                    policy.accumulate(sums, a, neighbour(flock, nearest.found[static_cast<std::size_t>(m)].slot));
                }
            }
            predators.for_each_candidate(
                a.x, a.y, [&](std::uint32_t s) { policy.accumulate_predator(sums, a, neighbour(predators, s)); });
            policy.steer(sums, a);
        } else {
            policy.steer_predator(a);
        }
        next_vx[i] = a.vx;
        next_vy[i] = a.vy;
        next_bias[i] = a.bias;
    }
}

} // namespace boids
