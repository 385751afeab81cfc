#pragma once
// The fast path of the models other than the classic one (internal): the plain path's grid, phases and
// arithmetic, with two changes that leave every bit as it was.
//
// - The agents are taken in the grid's cell order (its slots) rather than in world order, so that one
//   agent's candidates are, for the most part, the previous agent's, already in cache.
// - What depends on a neighbour alone (its unit heading: a hypot and two divisions) is computed once per
//   step into a column per slot, rather than once for each of the ~20 agents that see it.
//
// Each agent's sums still run over the same candidates in the same order (SpatialGrid's), and each term is
// the value the policy's own formula gives, so the new state is the plain path's to the bit; a model's
// fast pass (src/models/<model>_fast.hpp) is tested against its plain path (tests/engine).

#include "boids/detail/spatial_grid.hpp"
#include "boids/world.hpp"
#include "in_range_kernel.hpp"
#include "neighbour_pass.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace boids {

/// Per-slot columns in double that a model's fast pass fills once per step, in storage the simulation
/// keeps from step to step.
struct SlotColumnStore {
    std::vector<double>& values;
    std::size_t slots = 0;

    /// Makes room for `count` columns of `n` slots each.
    void resize(std::size_t count, std::size_t n) {
        slots = n;
        values.resize(count * n);
    }
    [[nodiscard]] double* column(std::size_t k) { return values.data() + k * slots; }
};

/// What a model's fast pass works on (the plain path's neighbour phase has the same): the world, the flock
/// grid, the torus, the predators' behaviour, the per-slot column storage, where the new states go, the
/// threads and the agents' ids (Simulation::set_agent_ids; nullptr: their indices).
template <class Real, class Next>
struct FastPass {
    const World<Real>& w;
    const SpatialGrid<Real>& flock;
    const Geometry<Real>& geo;
    const predators::Behavior<Real>& hunter;
    SlotColumnStore columns;
    Next& next;
    int threads;
    const std::uint32_t* ids;
};

/// Vicsek's, Couzin's and the topological model's unit heading (hypot, then two divisions); (0, 0) at rest,
/// which a sum that starts at +0 may add as if it were skipped (x + 0 is x for every x but -0, and such a
/// sum is never -0).
inline void hypot_unit(double vx, double vy, double& ux, double& uy) {
    const double speed = std::hypot(vx, vy);
    ux = speed > 0.0 ? vx / speed : 0.0;
    uy = speed > 0.0 ? vy / speed : 0.0;
}

/// The slots' unit headings as hypot_unit computes them: two columns of `columns`.
struct HeadingColumns {
    const double* ux;
    const double* uy;
};

template <class Real>
HeadingColumns hypot_heading_columns(const SpatialGrid<Real>& flock, SlotColumnStore& columns, int threads) {
    const auto n = static_cast<std::uint32_t>(flock.size());
    columns.resize(2, n);
    double* const ux = columns.column(0);
    double* const uy = columns.column(1);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::uint32_t s = 0; s < n; ++s) {
        hypot_unit(static_cast<double>(flock.vx(s)), static_cast<double>(flock.vy(s)), ux[s], uy[s]);
    }
    return {ux, uy};
}

/// Runs `flocking(slot, agent, scratch)` for every flocking agent in the grid's cell order and the
/// predators' steering (steer_predator) for the others, on `threads` threads (a Scratch each), and stores
/// each new state into `next` at the agent's world index. `flocking` changes the agent's velocity as the
/// policy's steer() does, and nothing else: the flocking agents' bias, prey and rest are copied as they
/// are, and the agent handed to it carries its kind, id, position and velocity (from the grid's copies,
/// which are the world's values) but not those.
template <class Policy, class Scratch, class Real, class Next, class Flocking>
void slot_order_pass(const FastPass<Real, Next>& pass, Flocking&& flocking) {
    const World<Real>& w = pass.w;
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    Next& next = pass.next;
    const std::uint32_t* const ids = pass.ids;
    const auto slots = static_cast<std::uint32_t>(flock.size());
    const std::size_t n = w.size();
    const bool depth = geo.three_d;
#pragma omp parallel num_threads(pass.threads)
    {
#pragma omp for schedule(static) nowait
        for (std::size_t i = 0; i < n; ++i) {
            next.bias[i] = w.bias[i];
            next.target[i] = w.target[i];
            next.rest[i] = w.rest[i];
        }
        Scratch scratch;
#pragma omp for schedule(dynamic, 1024) nowait
        for (std::uint32_t s = 0; s < slots; ++s) {
            const std::uint32_t i = flock.agent(s);
            Agent<Real> a{i,           w.kind[i],   flock.x(s), flock.y(s),
                          flock.vx(s), flock.vy(s), Real(0),    flock.z(s),
                          flock.vz(s), -1,          0,          ids != nullptr ? ids[i] : i};
            flocking(s, a, scratch);
            next.vx[i] = a.vx;
            next.vy[i] = a.vy;
            if (depth) {
                next.vz[i] = a.vz;
            }
        }
#pragma omp barrier
#pragma omp for schedule(dynamic, 4096)
        for (std::size_t i = 0; i < n; ++i) {
            if (!is_flocking(w.kind[i])) {
                Agent<Real> a = agent_at(w, i, depth, ids);
                steer_predator<Real, Policy>(a, flock, geo, pass.hunter);
                store_next(a, i, depth, next);
            }
        }
    }
}

/// What a thread of a fast pass keeps from agent to agent: the list of one agent's candidates in range.
struct InRangeScratch {
    std::vector<std::uint32_t> slot;
    std::vector<double> dx, dy, d2;

    /// Room for `candidates`, returned as the filter's output (with their offsets when `offsets`).
    fast::InRangeList room(std::size_t candidates, bool offsets) {
        if (slot.size() < candidates) {
            slot.resize(candidates);
        }
        if (!offsets) {
            return {slot.data(), nullptr, nullptr, nullptr};
        }
        if (dx.size() < candidates) {
            dx.resize(candidates);
            dy.resize(candidates);
            d2.resize(candidates);
        }
        return {slot.data(), dx.data(), dy.data(), d2.data()};
    }
};

/// The in-range filter (in_range_kernel.hpp) on a planar grid and torus, as the heading models use it.
template <class Real>
fast::InRangeGrid<Real> in_range_grid(const SpatialGrid<Real>& flock, const Geometry<Real>& geo,
                                      double range2) {
    return {flock.xs().data(), flock.ys().data(), geo.wrap,        geo.width,
            geo.height,        geo.half_width,    geo.half_height, range2};
}

/// The candidates of the agent in slot `self` (at a.x, a.y) within the range of `grid`, in the plain path's
/// order, with (when `offsets`) their offsets (neighbour minus agent, in double) and squared distances:
/// the list and its length.
template <class Real>
std::pair<fast::InRangeList, std::size_t>
candidates_in_range(const SpatialGrid<Real>& flock, const fast::InRangeGrid<Real>& grid, std::uint32_t self,
                    const Agent<Real>& a, InRangeScratch& scratch, bool offsets) {
    fast::CandidateRuns runs;
    flock.for_each_candidate_run(a.x, a.y, Real(0), [&](std::uint32_t begin, std::uint32_t end) {
        runs.begin[runs.count] = begin;
        runs.end[runs.count] = end;
        ++runs.count;
    });
    const fast::InRangeList list = scratch.room(runs.total() + fast::in_range_list_padding, offsets);
    return {list, fast::in_range(grid, a.x, a.y, self, runs, list)};
}

} // namespace boids
