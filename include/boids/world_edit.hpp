#pragma once
/// Edits of a world's agent list between steps, shared by live sessions (SimulationController, the
/// control port, Python) and the viewer: counts by kind and removal of the most recently added agents.

#include "boids/kind.hpp"
#include "boids/world.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids {

/// The count of `kind` in `counts`.
[[nodiscard]] inline long long& count_of(AgentCounts& counts, Kind kind) {
    switch (kind) {
    case Kind::Scout1:
        return counts.scouts1;
    case Kind::Scout2:
        return counts.scouts2;
    case Kind::Predator:
        return counts.predators;
    case Kind::Boid:
        break;
    }
    return counts.boids;
}

[[nodiscard]] inline long long count_of(const AgentCounts& counts, Kind kind) {
    return count_of(const_cast<AgentCounts&>(counts), kind);
}

/// Removes the `excess[k]` most recently added agents of each kind k (all of them if fewer) in one stable
/// pass: the other agents keep their order, and a pursuit lock follows its prey to its new index (a lock
/// on a removed agent is released).
template <class Real>
void remove_newest(World<Real>& world, const std::array<long long, kind_count>& excess) {
    std::array<long long, kind_count> left = excess;
    std::vector<char> keep(world.size(), 1);
    bool any = false;
    for (std::size_t i = world.size(); i-- > 0;) {
        long long& e = left[static_cast<std::size_t>(world.kind[i])];
        if (e > 0) {
            keep[i] = 0;
            --e;
            any = true;
        }
    }
    if (!any) {
        return;
    }
    std::vector<std::int32_t> new_index(world.size(), -1);
    std::size_t out = 0;
    // Every column of World moves here (as in World::erase); a new column must be added too.
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (!keep[i]) {
            continue;
        }
        new_index[i] = static_cast<std::int32_t>(out);
        world.kind[out] = world.kind[i];
        world.x[out] = world.x[i];
        world.y[out] = world.y[i];
        world.vx[out] = world.vx[i];
        world.vy[out] = world.vy[i];
        world.bias[out] = world.bias[i];
        if (world.has_depth()) {
            world.z[out] = world.z[i];
            world.vz[out] = world.vz[i];
        }
        world.target[out] = world.target[i];
        world.rest[out] = world.rest[i];
        ++out;
    }
    world.kind.resize(out);
    for (auto* column : {&world.x, &world.y, &world.vx, &world.vy, &world.bias}) {
        column->resize(out);
    }
    if (world.has_depth()) {
        world.z.resize(out);
        world.vz.resize(out);
    }
    world.target.resize(out);
    world.rest.resize(out);
    for (std::int32_t& t : world.target) {
        t = t >= 0 && static_cast<std::size_t>(t) < new_index.size() ? new_index[static_cast<std::size_t>(t)]
                                                                     : -1;
    }
}

/// Removes the `count` most recently added agents of `kind` (all of them if fewer); see above.
template <class Real>
void remove_newest(World<Real>& world, Kind kind, long long count) {
    std::array<long long, kind_count> excess{};
    excess[static_cast<std::size_t>(kind)] = count;
    remove_newest(world, excess);
}

} // namespace boids
