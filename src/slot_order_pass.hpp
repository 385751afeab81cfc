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

#include "angle_math.hpp"
#include "boids/detail/spatial_grid.hpp"
#include "boids/world.hpp"
#include "heading_lanes_kernel.hpp"
#include "lane_grid.hpp"
#include "neighbour_pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
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

/// Vicsek's, Couzin's and the topological model's unit heading: the speed (angle::length), then two
/// divisions; (0, 0) at rest, which a sum that starts at +0 may add as if it were skipped (x + 0 is x for
/// every x but -0, and such a sum is never -0).
inline void unit_heading(double vx, double vy, double& ux, double& uy) {
    const double speed = angle::length(vx, vy);
    ux = speed > 0.0 ? vx / speed : 0.0;
    uy = speed > 0.0 ? vy / speed : 0.0;
}

/// The slots' unit headings as unit_heading computes them: two columns of `columns`.
struct HeadingColumns {
    const double* ux;
    const double* uy;
};

/// Each slot's unit heading, in columns 0 and 1 of `columns`, which get `more` columns after them for the
/// caller; `also(begin, end)` runs on each block of slots [begin, end) in the same parallel loop (a model
/// that needs more per slot pays no second barrier).
template <class Real, class Also>
HeadingColumns heading_columns(const SpatialGrid<Real>& flock, SlotColumnStore& columns, int threads,
                               std::size_t more, const Also& also) {
    constexpr std::uint32_t block = 1024;
    const auto n = static_cast<std::uint32_t>(flock.size());
    columns.resize(2 + more, n);
    double* const ux = columns.column(0);
    double* const uy = columns.column(1);
    const std::uint32_t blocks = (n + block - 1) / block;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::uint32_t b = 0; b < blocks; ++b) {
        const std::uint32_t begin = b * block, end = std::min(n, begin + block);
        if constexpr (std::is_floating_point_v<Real>) { // in lanes, unit_heading's arithmetic
            fast::unit_headings(flock.vxs().data() + begin, flock.vys().data() + begin, end - begin,
                                ux + begin, uy + begin);
        } else {
            for (std::uint32_t s = begin; s < end; ++s) {
                unit_heading(static_cast<double>(flock.vx(s)), static_cast<double>(flock.vy(s)), ux[s],
                             uy[s]);
            }
        }
        also(begin, end);
    }
    return {ux, uy};
}

template <class Real>
HeadingColumns heading_columns(const SpatialGrid<Real>& flock, SlotColumnStore& columns, int threads) {
    return heading_columns(flock, columns, threads, 0, [](std::uint32_t, std::uint32_t) {});
}

/// The id of the flocking agent in slot `s` (Agent::id).
template <class Real, class Next>
std::uint32_t slot_id(const FastPass<Real, Next>& pass, std::uint32_t s) {
    const std::uint32_t i = pass.flock.agent(s);
    return pass.ids != nullptr ? pass.ids[i] : i;
}

/// The flocking agent in slot `s` as a fast pass hands it to its model: its kind, id, position and
/// velocity (from the grid's copies, which are the world's values); not its bias, prey or rest, which the
/// pass copies as they are.
template <class Real, class Next>
Agent<Real> slot_agent(const FastPass<Real, Next>& pass, std::uint32_t s) {
    const SpatialGrid<Real>& flock = pass.flock;
    const std::uint32_t i = flock.agent(s);
    return {i,       pass.w.kind[i], flock.x(s),  flock.y(s), flock.vx(s), flock.vy(s),
            Real(0), flock.z(s),     flock.vz(s), -1,         0,           slot_id(pass, s)};
}

/// Stores the new velocity of agent `a` (a slot_agent the model steered) at its world index.
template <class Real, class Next>
void store_velocity(const FastPass<Real, Next>& pass, const Agent<Real>& a) {
    pass.next.vx[a.index] = a.vx;
    pass.next.vy[a.index] = a.vy;
    if (pass.geo.three_d) {
        pass.next.vz[a.index] = a.vz;
    }
}

/// The flocking agents' slots are shared out among the threads in chunks of this many.
inline constexpr std::uint32_t slot_chunk = 256;

/// Runs `flocking(begin, end, scratch)` for the flocking agents' slots in chunks [begin, end) of
/// slot_chunk (the last one shorter), and the predators' steering (steer_predator) for the others, on
/// `threads` threads (a Scratch each). `flocking` stores each new velocity (store_velocity) of a chunk's
/// agents as the policy's steer() would leave it, and nothing else: the flocking agents' bias, prey and
/// rest are copied as they are. The chunks do not depend on the threads, so neither do the results.
template <class Policy, class Scratch, class Real, class Next, class Flocking>
void slot_chunk_pass(const FastPass<Real, Next>& pass, Flocking&& flocking) {
    const World<Real>& w = pass.w;
    Next& next = pass.next;
    const auto slots = static_cast<std::uint32_t>(pass.flock.size());
    const std::uint32_t chunks = (slots + slot_chunk - 1) / slot_chunk;
    const std::size_t n = w.size();
    const bool depth = pass.geo.three_d;
#pragma omp parallel num_threads(pass.threads)
    {
#pragma omp for schedule(static) nowait
        for (std::size_t i = 0; i < n; ++i) {
            next.bias[i] = w.bias[i];
            next.target[i] = w.target[i];
            next.rest[i] = w.rest[i];
        }
        Scratch scratch;
#pragma omp for schedule(dynamic, 1) nowait
        for (std::uint32_t k = 0; k < chunks; ++k) {
            const std::uint32_t begin = k * slot_chunk;
            flocking(begin, std::min(begin + slot_chunk, slots), scratch);
        }
#pragma omp barrier
#pragma omp for schedule(dynamic, 4096)
        for (std::size_t i = 0; i < n; ++i) {
            if (!is_flocking(w.kind[i])) {
                Agent<Real> a = agent_at(w, i, depth, pass.ids);
                steer_predator<Real, Policy>(a, pass.flock, pass.geo, pass.hunter);
                store_next(a, i, depth, next);
            }
        }
    }
}

/// slot_chunk_pass one agent at a time: `flocking(slot, agent, scratch)` changes the slot_agent's velocity
/// as the policy's steer() does.
template <class Policy, class Scratch, class Real, class Next, class Flocking>
void slot_order_pass(const FastPass<Real, Next>& pass, Flocking&& flocking) {
    slot_chunk_pass<Policy, Scratch>(pass, [&](std::uint32_t begin, std::uint32_t end, Scratch& scratch) {
        for (std::uint32_t s = begin; s < end; ++s) {
            Agent<Real> a = slot_agent(pass, s);
            flocking(s, a, scratch);
            store_velocity(pass, a);
        }
    });
}

/// The lanes kernels' grid (lane_grid.hpp) on a planar grid and torus, with a range.
template <class Real>
fast::InRangeGrid<Real> in_range_grid(const SpatialGrid<Real>& flock, const Geometry<Real>& geo,
                                      double range2) {
    return {flock.xs().data(),
            flock.ys().data(),
            geo.wrap,
            geo.width,
            geo.height,
            geo.half_width,
            geo.half_height,
            range2,
            static_cast<std::uint32_t>(flock.xs().size())};
}

/// The runs of candidate slots of a planar query whose query_key is `key`, in the plain path's order. With
/// `more` > 0, of the queries on its row from column key[0] to key[0] + more (a tile of lane_group_pass.hpp,
/// all within columns 1 to columns() - 2): the union of their blocks, row by row
/// (SpatialGrid::for_each_candidate_run_across), which holds each query's runs in its order.
template <class Real>
fast::CandidateRuns candidate_runs_of(const SpatialGrid<Real>& flock, const std::array<double, 3>& key,
                                      int more = 0) {
    fast::CandidateRuns runs{}; // zeroed: the entries past count are copied with the rest
    const auto add = [&](std::uint32_t begin, std::uint32_t end) {
        runs.begin[runs.count] = begin;
        runs.end[runs.count] = end;
        ++runs.count;
    };
    if (more == 0) {
        flock.for_each_candidate_run_of(key, add);
    } else {
        flock.for_each_candidate_run_across(key, more, add);
    }
    // On a torus whose cells tile it 5 or more to an axis, a query on a line that is not at the seam
    // visits that line and the two beside it, none across the seam. Its agents (on the query's line) and
    // the candidates are then less than 2 cells apart on that axis, 2/5 of the torus plus rounding (far
    // less than the 1/10 left), so every difference is within half the torus: its own nearest image. (A
    // tile's agents meet candidates of the other queries' columns too, which lie beyond the range for any
    // offset: lane_tiling.)
    const int columns = flock.columns(), rows = flock.rows();
    if (flock.wraps() && !flock.three_d() && columns >= 5 && rows >= 5) {
        runs.no_image = key[0] >= 1 && key[0] + more <= columns - 2 && key[1] >= 1 && key[1] <= rows - 2;
    }
    return runs;
}

/// The runs of candidate slots of a planar query at (x, y), in the plain path's order.
template <class Real>
fast::CandidateRuns candidate_runs(const SpatialGrid<Real>& flock, Real x, Real y) {
    return candidate_runs_of(flock, flock.query_key(x, y, Real(0)));
}

} // namespace boids
