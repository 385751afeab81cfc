#pragma once
/// The agents of a simulation as a structure of arrays.

#include "boids/kind.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace boids {

/// Agent counts by kind, as scenario files and the CLI give them.
struct AgentCounts {
    long long boids = 0;
    long long scouts1 = 0;
    long long scouts2 = 0;
    long long predators = 0;

    [[nodiscard]] long long total() const { return boids + scouts1 + scouts2 + predators; }
    bool operator==(const AgentCounts&) const = default;
};

/// Every agent (boids, scouts, predators) in one structure of arrays, in a stable order: agent i is
/// row i of the state file it was loaded from. `bias` is a scout's own bias and 0 for other kinds.
template <class Real>
struct World {
    std::vector<Kind> kind;
    std::vector<Real> x, y, vx, vy, bias;

    [[nodiscard]] std::size_t size() const { return kind.size(); }

    /// Appends one agent.
    void add(Kind k, Real px, Real py, Real pvx, Real pvy, Real b) {
        kind.push_back(k);
        x.push_back(px);
        y.push_back(py);
        vx.push_back(pvx);
        vy.push_back(pvy);
        bias.push_back(b);
    }

    /// Removes agent i; later agents move up one place (order is preserved).
    void erase(std::size_t i) {
        kind.erase(kind.begin() + static_cast<std::ptrdiff_t>(i));
        for (auto* column : {&x, &y, &vx, &vy, &bias}) {
            column->erase(column->begin() + static_cast<std::ptrdiff_t>(i));
        }
    }

    void clear() {
        kind.clear();
        for (auto* column : {&x, &y, &vx, &vy, &bias}) {
            column->clear();
        }
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
