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
};

/// One neighbour as seen from the agent: `dx, dy, dz` = agent minus neighbour (minimum image on a torus),
/// and the neighbour's own state (z terms 0 in 2D).
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

    void min_image(Real& dx, Real& dy, Real& dz) const {
        if (wrap) {
            dx = classic::min_image(dx, width, half_width);
            dy = classic::min_image(dy, height, half_height);
            if (three_d) {
                dz = classic::min_image(dz, depth, half_depth);
            }
        }
    }
};

} // namespace boids
