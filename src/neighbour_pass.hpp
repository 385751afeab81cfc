#pragma once
// The one neighbour loop every model shares (internal). A model is a policy, in the manner of HOOMD-blue's
// pair evaluators: the loop finds each agent's neighbours through the grid and hands them to the policy,
// which says what to accumulate and how to turn the sums into a new velocity; the compiler inlines it.
//
// A policy provides:
//   using Sums = ...;                                  // per-agent accumulators, value-initialised
//   static constexpr NeighbourQuery query;             // InRange (3 x 3 cells) or KNearest
//   int k() const;                                     // KNearest only
//   double block_cell() const;                         // KNearest only: 0, or search only that block
//   void accumulate(Sums&, const Agent<Real>&, const Neighbour<Real>&) const;   // flock neighbours
//   void accumulate_predator(Sums&, const Agent<Real>&, const Neighbour<Real>&) const;
//   void steer(const Sums&, Agent<Real>&) const;       // a flocking agent's new state
// and optionally:
//   void start(Sums&, const Agent<Real>&) const;       // before the neighbours (e.g. count itself first)
//   static constexpr bool predators_keep_course = true; // the model has no predators: they fly straight on
// Otherwise predators move the same way in every model (predator_behavior.hpp).

#include "boids/detail/neighbour_search.hpp"
#include "boids/detail/spatial_grid.hpp"
#include "boids/world.hpp"
#include "neighbour_pass_types.hpp"
#include "predator_behavior.hpp"

#include <algorithm>
#include <vector>

namespace boids {

/// True when the policy leaves predators on their course (Policy::predators_keep_course).
template <class Policy>
constexpr bool keeps_course() {
    if constexpr (requires { Policy::predators_keep_course; }) {
        return Policy::predators_keep_course;
    } else {
        return false;
    }
}

/// Agent i of the world as a policy reads it (z and vz 0 in a 2D world).
template <class Real>
Agent<Real> agent_at(const World<Real>& w, std::size_t i, bool three_d, const std::uint32_t* ids = nullptr) {
    return {static_cast<std::uint32_t>(i),
            w.kind[i],
            w.x[i],
            w.y[i],
            w.vx[i],
            w.vy[i],
            w.bias[i],
            three_d ? w.z[i] : Real(0),
            three_d ? w.vz[i] : Real(0),
            w.target[i],
            w.rest[i],
            ids != nullptr ? ids[i] : static_cast<std::uint32_t>(i)};
}

/// A predator's new velocity (and prey): on its course in a model without predators, otherwise what
/// predators::Behavior makes of the flock it sees through the grid.
template <class Real, class Policy>
void steer_predator(Agent<Real>& a, const SpatialGrid<Real>& flock, const Geometry<Real>& geo,
                    const predators::Behavior<Real>& hunter) {
    if constexpr (!keeps_course<Policy>()) {
        typename predators::Behavior<Real>::Sight sight;
        if (hunter.hunts()) {
            flock.for_each_within(a.x, a.y, a.z, hunter.params.predator_vision, [&](std::uint32_t s) {
                hunter.see(sight, a,
                           geo.neighbour(a, flock.x(s), flock.y(s), flock.z(s), flock.vx(s), flock.vy(s),
                                         flock.vz(s), flock.agent(s)));
            });
        }
        hunter.steer(sight, a);
    }
}

/// Writes agent i's new state, as the policy or the predator's behaviour left it, into `next`.
template <class Real, class Next>
void store_next(const Agent<Real>& a, std::size_t i, bool three_d, Next& next) {
    next.vx[i] = a.vx;
    next.vy[i] = a.vy;
    if (three_d) {
        next.vz[i] = a.vz;
    }
    next.bias[i] = a.bias;
    next.target[i] = a.target;
    next.rest[i] = a.rest;
}

/// Computes every agent's new velocity and state from the old state (the world and the grids' copies),
/// in parallel.
/// `Next` has vectors vx, vy, vz, bias, target, rest sized to the world (vz empty in 2D).
template <class Real, class Policy, class Next>
void neighbour_pass(const World<Real>& w, const SpatialGrid<Real>& flock, const SpatialGrid<Real>& predators,
                    const Geometry<Real>& geo, const Policy& policy, const predators::Behavior<Real>& hunter,
                    Next& next, int threads, const std::uint32_t* ids = nullptr) {
    const std::size_t n = w.size();
    const bool depth = geo.three_d;
#pragma omp parallel num_threads(threads)
    {
        // The predator slots of an agent's block of cells, summed in world order (step 5).
        std::vector<std::uint32_t> predator_slots;
#pragma omp for schedule(dynamic, 1024)
        for (std::size_t i = 0; i < n; ++i) {
            Agent<Real> a = agent_at(w, i, depth, ids);
            const auto neighbour = [&](const SpatialGrid<Real>& grid, std::uint32_t s) {
                return geo.neighbour(a, grid.x(s), grid.y(s), grid.z(s), grid.vx(s), grid.vy(s), grid.vz(s),
                                     grid.agent(s));
            };
            if (is_flocking(a.kind)) {
                typename Policy::Sums sums{};
                if constexpr (requires { policy.start(sums, a); }) {
                    policy.start(sums, a);
                }
                if constexpr (Policy::query == NeighbourQuery::InRange) {
                    flock.for_each_candidate(a.x, a.y, a.z, [&](std::uint32_t s) {
                        if (flock.agent(s) != a.index) {
                            policy.accumulate(sums, a, neighbour(flock, s));
                        }
                    });
                } else {
                    KNearest nearest;
                    k_nearest(flock, a.x, a.y, a.index, policy.k(), geo.wrap, geo.width, geo.height, nearest,
                              policy.block_cell());
                    for (int m = 0; m < nearest.count; ++m) { // nearest first
                        policy.accumulate(sums, a,
                                          neighbour(flock, nearest.found[static_cast<std::size_t>(m)].slot));
                    }
                }
                // The predators in range are summed in world order, as the brute-force oracle
                // (reference_step), the sequential pass and the fast path sum them: the grid visits its cells
                // in block order, and three offsets or more summed in another order can round to a sum of
                // another sign, which is all step 5 reads. Two add to the same sum in either order.
                predator_slots.clear();
                predators.for_each_candidate(a.x, a.y, a.z,
                                             [&](std::uint32_t s) { predator_slots.push_back(s); });
                if (predator_slots.size() > 2) {
                    std::sort(predator_slots.begin(), predator_slots.end(),
                              [&](std::uint32_t l, std::uint32_t r) {
                                  return predators.agent(l) < predators.agent(r);
                              });
                }
                for (const std::uint32_t s : predator_slots) {
                    policy.accumulate_predator(sums, a, neighbour(predators, s));
                }
                policy.steer(sums, a);
            } else {
                steer_predator<Real, Policy>(a, flock, geo, hunter);
            }
            store_next(a, i, depth, next);
        }
    }
}

} // namespace boids
