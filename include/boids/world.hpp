#pragma once
/// The agents of a simulation as a structure of arrays.

#include "boids/kind.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids {

/// Agent counts by kind, as scenario files and the CLI give them.
struct AgentCounts {
    long long boids = 0;
    long long scouts1 = 0;
    long long scouts2 = 0;
    long long predators = 0;

    /// Agents of every kind.
    [[nodiscard]] long long total() const { return boids + scouts1 + scouts2 + predators; }
    bool operator==(const AgentCounts&) const = default;
};

/// Every agent (boids, scouts, predators) in one structure of arrays, in a stable order: agent i is
/// row i of the state file it was loaded from. `bias` is a scout's own bias and 0 for other kinds.
/// `target` is a pursuing predator's locked prey (world index, -1 for none); `rest` the steps a perched
/// boid has left to rest (0 when flying).
///
/// A 3D world (Params::dimensions = 3) also has `z, vz`, one entry per agent; in a 2D world they are
/// empty, so 2D flocks pay nothing for the third axis. Code that reads them checks has_depth().
template <class Real>
struct World {
    std::vector<Kind> kind;
    std::vector<Real> x, y, vx, vy, bias;
    std::vector<Real> z, vz; ///< empty in a 2D world
    std::vector<std::int32_t> target, rest;

    /// The number of agents.
    [[nodiscard]] std::size_t size() const { return kind.size(); }

    /// True when the agents have a z coordinate (a 3D world with at least one agent).
    [[nodiscard]] bool has_depth() const { return !z.empty(); }

    /// Appends one agent to a 2D world.
    void add(Kind k, Real px, Real py, Real pvx, Real pvy, Real b, std::int32_t locked = -1,
             std::int32_t resting = 0) {
        kind.push_back(k);
        target.push_back(locked);
        rest.push_back(resting);
        x.push_back(px);
        y.push_back(py);
        vx.push_back(pvx);
        vy.push_back(pvy);
        bias.push_back(b);
    }

    /// Appends one agent to a 3D world (every agent of a world has z, or none has).
    void add_3d(Kind k, Real px, Real py, Real pz, Real pvx, Real pvy, Real pvz, Real b,
                std::int32_t locked = -1, std::int32_t resting = 0) {
        add(k, px, py, pvx, pvy, b, locked, resting);
        z.push_back(pz);
        vz.push_back(pvz);
    }

    /// Gives a 2D world a third axis: every agent at height `pz`, with no vertical velocity.
    void add_depth(Real pz) {
        z.assign(size(), pz);
        vz.assign(size(), Real(0));
    }

    /// Drops the third axis (projects the flock onto the x-y plane).
    void drop_depth() {
        z.clear();
        vz.clear();
    }

    /// Removes agent i; later agents move up one place (order is preserved), and locks on them follow.
    void erase(std::size_t i) {
        const auto at = static_cast<std::ptrdiff_t>(i);
        kind.erase(kind.begin() + at);
        for (auto* column : {&x, &y, &vx, &vy, &bias}) {
            column->erase(column->begin() + at);
        }
        if (has_depth()) {
            z.erase(z.begin() + at);
            vz.erase(vz.begin() + at);
        }
        target.erase(target.begin() + at);
        rest.erase(rest.begin() + at);
        for (std::int32_t& t : target) {
            t = t == static_cast<std::int32_t>(i) ? -1 : (t > static_cast<std::int32_t>(i) ? t - 1 : t);
        }
    }

    /// Removes every agent.
    void clear() {
        kind.clear();
        for (auto* column : {&x, &y, &vx, &vy, &bias, &z, &vz}) {
            column->clear();
        }
        target.clear();
        rest.clear();
    }

    /// True when some agent carries extension state (a pursuit lock or a rest timer).
    [[nodiscard]] bool has_extension_state() const {
        for (std::size_t i = 0; i < size(); ++i) {
            if (target[i] >= 0 || rest[i] != 0) {
                return true;
            }
        }
        return false;
    }

    /// Number of agents of each kind.
    [[nodiscard]] AgentCounts counts() const {
        std::array<long long, kind_count> n{};
        for (Kind k : kind) {
            ++n[static_cast<int>(k)];
        }
        return {n[0], n[1], n[2], n[3]};
    }

    bool operator==(const World&) const = default;
};

} // namespace boids
