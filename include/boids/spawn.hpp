#pragma once
/// Random initial states (docs/MODEL.md §1.5): positions uniform inside the margins (the whole world when it
/// wraps) and outside every obstacle, heading uniform, speed uniform in [min_speed, max_speed]. In 3D the
/// box includes the front and back margins and the heading is uniform on the sphere.

#include "boids/kind.hpp"
#include "boids/params.hpp"
#include "boids/world.hpp"

#include <cstdint>
#include <random>

namespace boids {

/// The seed used when the user gives none.
inline constexpr std::uint64_t default_seed = 4760;

/// A seeded source of new agents. The stream is consumed serially (4 draws per agent: x, y, heading,
/// speed; in 3D 6: x, y, z, two for the direction, speed), so a seed gives the same agents whatever the
/// thread count, on every platform. A position inside an obstacle (or on its surface, as the world stores
/// it) is drawn again before the heading: worlds without obstacles, or whose obstacles no draw hits, get
/// exactly the same agents as without.
class Spawner {
public:
    explicit Spawner(std::uint64_t seed) : engine_(seed) {}

    /// Appends `count` agents of `kind` to `world`. Scouts get their group's bias. Throws InputError,
    /// leaving the world as it was, when 10,000 positions in a row for one agent all fall inside obstacles.
    template <class Real>
    void spawn(World<Real>& world, const Params& params, Kind kind, long long count);

private:
    template <class Real>
    void spawn_3d(World<Real>& world, const Params& params, Kind kind, long long count);

    /// A position uniform in the box [lo, hi) on `axes` axes and outside every obstacle; false when none was
    /// found in the allowed number of draws.
    template <class Real>
    bool draw_position(const Params& params, const double (&lo)[3], const double (&hi)[3], int axes,
                       double (&p)[3]);

    /// Uniform in [0, 1) from the top 53 bits: portable, unlike std::uniform_real_distribution.
    double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

    std::mt19937_64 engine_;
};

/// A world of `counts` agents (boids, then scouts1, scouts2, predators) spawned from `seed`.
template <class Real>
[[nodiscard]] World<Real> spawn_world(const Params& params, const AgentCounts& counts, std::uint64_t seed);

/// Appends `count` agents of `kind` around (x, y), as a click in the viewer places them: positions within a
/// square of side `spread` centred there (exactly there for one agent), obstacles or not (the first step
/// puts an agent placed inside one out on its surface), velocities as `spawner` draws them. In 3D the
/// agents sit at the spawner's depth.
template <class Real>
void place_agents(World<Real>& world, Spawner& spawner, const Params& params, Kind kind, double x, double y,
                  long long count, double spread);

/// The bias a newly created agent of `kind` starts with.
[[nodiscard]] double initial_bias(const Params& params, Kind kind);

} // namespace boids
