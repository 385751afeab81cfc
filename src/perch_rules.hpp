#pragma once
// Perching (docs/MODEL.md §3), in the engine's scalar type (internal): a classic agent that reaches the ledge
// from above lands on it and rests for a time drawn from a hash of its id and the step (World::rest), sits
// still while it rests, and takes off upward on its last step. The plain path and the fast kernel call these
// same functions, so they agree to the bit; the kernel calls land_on_ledge only for the lanes its ledge test
// cannot rule out.

#include "boids/params.hpp"
#include "boids/scalar.hpp"

#include <cstdint>

namespace boids {

/// Where agents perch, and for how long.
struct Ledge {
    explicit Ledge(const Params& p)
        : on(p.perch_rest_max > 0), y(p.ledge_y >= 0 ? p.ledge_y : p.height - p.margin_bottom),
          x0(p.ledge_x0 >= 0 ? p.ledge_x0 : p.margin_left),
          x1(p.ledge_x1 >= 0 ? p.ledge_x1 : p.width - p.margin_right),
          takeoff_vy(-(p.min_speed + p.max_speed) / 2), rest_min(p.perch_rest_min),
          rest_max(p.perch_rest_max) {}

    bool on;           ///< perching is switched on (perch_rest_max > 0)
    double y, x0, x1;  ///< the ledge's height and ends (in 3D it runs through the whole depth)
    double takeoff_vy; ///< the vertical velocity of the last resting step
    double rest_min, rest_max;

    /// A rest time in [perch_rest_min, perch_rest_max] steps, from a hash of the agent's id and the step, so
    /// it is the same for any thread count and any split of the flock.
    [[nodiscard]] std::int32_t rest_time(std::uint32_t id, long long step) const {
        std::uint64_t z = (static_cast<std::uint64_t>(id) << 32) ^ static_cast<std::uint64_t>(step);
        z += 0x9e3779b97f4a7c15ull; // splitmix64 finaliser
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        const auto lo = static_cast<std::uint64_t>(rest_min);
        const auto span = static_cast<std::uint64_t>(rest_max) - lo + 1;
        return static_cast<std::int32_t>(lo + z % span);
    }

    /// A resting agent's step (rest > 0): one step less to rest; still, or on the last step a take-off.
    template <class Real>
    void rest_step(std::int32_t& rest, Real& vx, Real& vy, Real& vz) const {
        --rest;
        vx = Real(0);
        vz = Real(0);
        vy = rest == 0 ? ScalarTraits<Real>::from_double(takeoff_vy) : Real(0);
    }

    /// Reaching the ledge from above at (x, y) with the velocity after the speed limits: the velocity that
    /// lands it on the ledge this step, and true; otherwise false, and nothing changes.
    template <class Real>
    bool land(Real x, Real y, Real& vx, Real& vy, Real& vz) const {
        const double px = static_cast<double>(x), py = static_cast<double>(y);
        const double next_y = py + static_cast<double>(vy);
        if (py < this->y && next_y >= this->y && px >= x0 && px <= x1) {
            vx = Real(0);
            vz = Real(0);
            vy = ScalarTraits<Real>::from_double(this->y) - y;
            return true;
        }
        return false;
    }
};

} // namespace boids
