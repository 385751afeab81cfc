#pragma once
// The in-place update of a policy model (internal; update = sequential, docs/MODEL.md §1.2): agents move
// one after another in array order, each reading the live state, so that agent i sees agents 0..i-1
// already moved. This is how Downey's World.step and PyNBoids' Group.update run. The classic model's
// in-place loop is the lab's own transcription (reference_step.cpp); this pass serves the other models
// through the same policy the neighbour pass uses (neighbour_pass.hpp), so both orders share every rule.
//
// Neighbours are found by brute force against every other agent, on one thread: the sources that update
// in place fly tens to hundreds of boids. What each policy receives is what the grid would hand it:
// InRange policies get every flocking agent (they test their own ranges), KNearest ones the k nearest
// (within the policy's block of cells, if any), nearest first, ties to the lower index.

#include "boids/detail/neighbour_search.hpp"
#include "boids/world.hpp"
#include "classic_rules.hpp"
#include "models/topological.hpp"
#include "neighbour_pass.hpp"
#include "neighbour_pass_types.hpp"
#include "predator_behavior.hpp"

#include <cstddef>
#include <cstdint>

namespace boids {

template <class Real, class Policy>
void sequential_pass(World<Real>& w, const Params& params, const classic::Constants<Real>& c,
                     const Policy& policy) {
    const std::size_t n = w.size();
    const bool depth = c.three_d;
    if (c.wrap) { // as the grid pass does at the start of a step
        for (std::size_t i = 0; i < n; ++i) {
            w.x[i] = classic::wrap_position(w.x[i], c.width);
            w.y[i] = classic::wrap_position(w.y[i], c.height);
            if (depth) {
                w.z[i] = classic::wrap_position(w.z[i], c.depth);
            }
        }
    }
    const Geometry<Real> geo{c.wrap,        c.width,   c.height, c.half_width,
                             c.half_height, c.three_d, c.depth,  c.half_depth};
    const predators::Behavior<Real> hunter(params, c);
    for (std::size_t i = 0; i < n; ++i) {
        Agent<Real> a = agent_at(w, i, depth);
        const auto neighbour = [&](std::size_t j) {
            return geo.neighbour(a, w.x[j], w.y[j], depth ? w.z[j] : Real(0), w.vx[j], w.vy[j],
                                 depth ? w.vz[j] : Real(0), static_cast<std::uint32_t>(j));
        };
        const auto flock_member = [&](std::size_t j) { return j != i && is_flocking(w.kind[j]); };
        if (is_flocking(a.kind)) {
            typename Policy::Sums sums{};
            if constexpr (requires { policy.start(sums, a); }) {
                policy.start(sums, a);
            }
            if constexpr (Policy::query == NeighbourQuery::InRange) {
                for (std::size_t j = 0; j < n; ++j) {
                    if (flock_member(j)) {
                        policy.accumulate(sums, a, neighbour(j));
                    }
                }
            } else {
                KNearest nearest;
                const double cell = policy.block_cell();
                // Every agent is a candidate: the block's edges pay for themselves.
                const CellBlock block =
                    CellBlock::with_edges(static_cast<double>(a.x), static_cast<double>(a.y), cell);
                for (std::size_t j = 0; j < n; ++j) {
                    if (!flock_member(j) || (cell > 0 && !block.contains(static_cast<double>(w.x[j]),
                                                                         static_cast<double>(w.y[j])))) {
                        continue;
                    }
                    const Neighbour<Real> m = neighbour(j);
                    const double dx = static_cast<double>(m.dx), dy = static_cast<double>(m.dy);
                    const auto index = static_cast<std::uint32_t>(j);
                    offer_nearest(nearest, policy.k(), FoundNeighbour{index, index, dx * dx + dy * dy});
                }
                for (int m = 0; m < nearest.count; ++m) { // nearest first
                    policy.accumulate(sums, a, neighbour(nearest.found[static_cast<std::size_t>(m)].index));
                }
            }
            for (std::size_t j = 0; j < n; ++j) {
                if (w.kind[j] == Kind::Predator) {
                    policy.accumulate_predator(sums, a, neighbour(j));
                }
            }
            policy.steer(sums, a);
        } else if constexpr (!keeps_course<Policy>()) {
            typename predators::Behavior<Real>::Sight sight;
            if (hunter.hunts()) {
                for (std::size_t j = 0; j < n; ++j) {
                    if (flock_member(j)) {
                        hunter.see(sight, a, neighbour(j));
                    }
                }
            }
            hunter.steer(sight, a);
        }
        // Move at once: the next agent sees this one where it now is.
        Real x = a.x + a.vx, y = a.y + a.vy;
        if (c.wrap) {
            x = classic::wrap_position(x, c.width);
            y = classic::wrap_position(y, c.height);
        } else if (c.sprite_wrap) {
            topological::wrap_sprite(a.x, a.y, a.vx, a.vy, x, y, params.width, params.height);
        }
        w.x[i] = x;
        w.y[i] = y;
        w.vx[i] = a.vx;
        w.vy[i] = a.vy;
        if (depth) {
            const Real z = a.z + a.vz;
            w.z[i] = c.wrap ? classic::wrap_position(z, c.depth) : z;
            w.vz[i] = a.vz;
        }
        w.bias[i] = a.bias;
        w.target[i] = a.target;
        w.rest[i] = a.rest;
    }
}

} // namespace boids
