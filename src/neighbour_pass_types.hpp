#pragma once
// What the neighbour loop hands to a model's policy (internal; see neighbour_pass.hpp).

#include "boids/kind.hpp"
#include "classic_rules.hpp"

#include <cstdint>

namespace boids {

enum class NeighbourQuery { InRange, KNearest };

/// The agent being updated, as a policy reads and writes it. In a 2D world z and vz are 0 and stay 0.
template <class Real>
struct Agent {
    std::uint32_t index;
    Kind kind;
    Real x, y, vx, vy, bias;
    Real z, vz;
    std::int32_t target; ///< a pursuing predator's prey (-1: none)
    std::int32_t rest;   ///< steps left perched (0: flying)
    /// The agent's identity for per-agent draws (noise, rest times): its index in the whole flock, which
    /// is `index` unless this world is part of a larger one (Simulation::set_agent_ids).
    std::uint32_t id;
};

/// One neighbour as seen from the agent: its position (on a torus, its image nearest to the agent:
/// classic::nearest_image), `dx, dy, dz` = agent minus that position, and its velocity (z terms 0 in 2D).
template <class Real>
struct Neighbour {
    Real dx, dy;
    Real x, y, vx, vy;
    std::uint32_t index;
    Real dz, z, vz;
};

/// The torus, if any, in the scalar type.
template <class Real>
struct Geometry {
    bool wrap;
    Real width, height, half_width, half_height;
    bool three_d;
    Real depth, half_depth;

    /// Moves a neighbour's position (x, y, z) to its image nearest to the agent at (ax, ay, az).
    void nearest_image(Real ax, Real ay, Real az, Real& x, Real& y, Real& z) const {
        if (wrap) {
            x = classic::nearest_image(ax, x, width, half_width);
            y = classic::nearest_image(ay, y, height, half_height);
            if (three_d) {
                z = classic::nearest_image(az, z, depth, half_depth);
            }
        }
    }

    /// Agent a's view of the agent `index` at (x, y, z) with velocity (vx, vy, vz): its nearest image, and
    /// the offset a minus that image.
    [[nodiscard]] Neighbour<Real> neighbour(const Agent<Real>& a, Real x, Real y, Real z, Real vx, Real vy,
                                            Real vz, std::uint32_t index) const {
        nearest_image(a.x, a.y, a.z, x, y, z);
        return {a.x - x, a.y - y, x, y, vx, vy, index, a.z - z, z, vz};
    }
};

} // namespace boids
