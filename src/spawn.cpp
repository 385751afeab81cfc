#include "boids/spawn.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/obstacle.hpp"
#include "boids/scalar.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace boids {

namespace {

/// Positions drawn for one agent before spawning gives up: the obstacles cover (almost) all of the area.
constexpr int max_position_draws = 10'000;

/// True when the position, as the world will store it, is strictly outside every obstacle.
template <class Real>
bool clear_of_obstacles(const Params& params, const double (&p)[3], int axes) {
    using T = ScalarTraits<Real>;
    const double x = T::to_double(T::from_double(p[0])), y = T::to_double(T::from_double(p[1]));
    const double z = axes == 3 ? T::to_double(T::from_double(p[2])) : 0.0;
    for (const Obstacle& o : params.obstacles) {
        const SurfaceDistance sd =
            axes == 3 ? surface_distance(o, x, y, z, params.depth) : surface_distance(o, x, y);
        if (!(sd.distance > 0)) {
            return false;
        }
    }
    return true;
}

[[noreturn]] void throw_no_room(const Params& params, Kind kind, const double (&lo)[3], const double (&hi)[3],
                                int axes) {
    std::string shapes;
    for (std::size_t i = 0; i < params.obstacles.size(); ++i) {
        if (i == 4 && params.obstacles.size() > 5) {
            shapes += "; ... (" + std::to_string(params.obstacles.size()) + " obstacles)";
            break;
        }
        shapes += (i > 0 ? "; " : "") + to_string(params.obstacles[i]);
    }
    std::string area;
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < axes; ++a) {
        area += std::string(a > 0 ? ", " : "") + names[a] + " [" + text::readable(lo[a]) + ", " +
                text::readable(hi[a]) + "]";
    }
    throw InputError(invalid_value_message(
        "obstacles", "'" + shapes + "'",
        "they leave no room to spawn a " + std::string(kind_name(kind)) + " in the area " + area + " (" +
            std::to_string(max_position_draws) + " random positions tried, all inside an obstacle)"));
}

/// Drops the agents after the first `size` (an interrupted spawn leaves the world as it was).
template <class Real>
void keep_first(World<Real>& world, std::size_t size) {
    world.kind.resize(size);
    for (auto* column : {&world.x, &world.y, &world.vx, &world.vy, &world.bias}) {
        column->resize(size);
    }
    if (world.has_depth()) {
        world.z.resize(size);
        world.vz.resize(size);
    }
    world.target.resize(size);
    world.rest.resize(size);
}

} // namespace

double initial_bias(const Params& params, Kind kind) {
    switch (kind) {
    case Kind::Scout1:
        return params.scout1_bias;
    case Kind::Scout2:
        return params.scout2_bias;
    default:
        return 0.0;
    }
}

template <class Real>
bool Spawner::draw_position(const Params& params, const double (&lo)[3], const double (&hi)[3], int axes,
                            double (&p)[3]) {
    p[2] = 0.0;
    for (int tries = 0; tries < max_position_draws; ++tries) {
        for (int a = 0; a < axes; ++a) {
            p[a] = lo[a] + (hi[a] - lo[a]) * uniform01();
        }
        if (params.obstacles.empty() || clear_of_obstacles<Real>(params, p, axes)) {
            return true;
        }
    }
    return false;
}

template <class Real>
void Spawner::spawn(World<Real>& world, const Params& params, Kind kind, long long count) {
    if (count < 0) {
        throw InputError(invalid_value_message(std::string(kind_name(kind)) + " count", std::to_string(count),
                                               "must be >= 0"));
    }
    // Wrap worlds have no edges, so the whole torus is the spawning area; otherwise stay inside the margins.
    const bool wrap = params.boundary == Boundary::Wrap;
    const double x0 = wrap ? 0.0 : params.margin_left;
    const double x1 = wrap ? params.width : params.width - params.margin_right;
    const double y0 = wrap ? 0.0 : params.margin_top;
    const double y1 = wrap ? params.height : params.height - params.margin_bottom;
    const double bias = initial_bias(params, kind);
    using T = ScalarTraits<Real>;
    if (params.dimensions == 3) {
        spawn_3d(world, params, kind, count);
        return;
    }
    world.drop_depth(); // a planar world
    const double lo[3] = {x0, y0, 0.0}, hi[3] = {x1, y1, 0.0};
    const std::size_t before = world.size();
    for (long long i = 0; i < count; ++i) {
        double p[3];
        if (!draw_position<Real>(params, lo, hi, 2, p)) {
            keep_first(world, before);
            throw_no_room(params, kind, lo, hi, 2);
        }
        const double heading = 2.0 * std::numbers::pi * uniform01();
        const double speed = params.min_speed + (params.max_speed - params.min_speed) * uniform01();
        world.add(kind, T::from_double(p[0]), T::from_double(p[1]), T::from_double(speed * std::cos(heading)),
                  T::from_double(speed * std::sin(heading)), T::from_double(bias));
    }
}

template <class Real>
void Spawner::spawn_3d(World<Real>& world, const Params& params, Kind kind, long long count) {
    const bool wrap = params.boundary == Boundary::Wrap;
    const double lo[3] = {wrap ? 0.0 : params.margin_left, wrap ? 0.0 : params.margin_top,
                          wrap ? 0.0 : params.margin_front};
    const double hi[3] = {wrap ? params.width : params.width - params.margin_right,
                          wrap ? params.height : params.height - params.margin_bottom,
                          wrap ? params.depth : params.depth - params.margin_back};
    const double bias = initial_bias(params, kind);
    using T = ScalarTraits<Real>;
    // Agents already there without a third axis sit at mid-depth (as Simulation would place them).
    world.z.resize(world.size(), T::from_double(params.depth / 2));
    world.vz.resize(world.size(), Real(0));
    const std::size_t before = world.size();
    for (long long i = 0; i < count; ++i) {
        double p[3];
        if (!draw_position<Real>(params, lo, hi, 3, p)) {
            keep_first(world, before);
            throw_no_room(params, kind, lo, hi, 3);
        }
        // A direction uniform on the sphere: z = cos(polar) uniform in [-1, 1], azimuth uniform.
        const double cos_polar = 2.0 * uniform01() - 1.0;
        const double azimuth = 2.0 * std::numbers::pi * uniform01();
        const double sin_polar = std::sqrt(std::max(0.0, 1.0 - cos_polar * cos_polar));
        const double speed = params.min_speed + (params.max_speed - params.min_speed) * uniform01();
        world.add_3d(kind, T::from_double(p[0]), T::from_double(p[1]), T::from_double(p[2]),
                     T::from_double(speed * sin_polar * std::cos(azimuth)),
                     T::from_double(speed * sin_polar * std::sin(azimuth)), T::from_double(speed * cos_polar),
                     T::from_double(bias));
    }
}

template <class Real>
World<Real> spawn_world(const Params& params, const AgentCounts& counts, std::uint64_t seed) {
    World<Real> world;
    Spawner spawner(seed);
    spawner.spawn(world, params, Kind::Boid, counts.boids);
    spawner.spawn(world, params, Kind::Scout1, counts.scouts1);
    spawner.spawn(world, params, Kind::Scout2, counts.scouts2);
    spawner.spawn(world, params, Kind::Predator, counts.predators);
    return world;
}

template <class Real>
void place_agents(World<Real>& world, Spawner& spawner, const Params& params, Kind kind, double x, double y,
                  long long count, double spread) {
    World<Real> fresh;
    // The offsets are uniform over the whole square, wherever the obstacles are.
    Params anywhere = params;
    anywhere.obstacles.clear();
    spawner.spawn(fresh, anywhere, kind, count);
    // Reuse the spawner's uniform positions inside the margins as offsets within the square.
    const bool wrap = params.boundary == Boundary::Wrap;
    const double x0 = wrap ? 0.0 : params.margin_left;
    const double x1 = wrap ? params.width : params.width - params.margin_right;
    const double y0 = wrap ? 0.0 : params.margin_top;
    const double y1 = wrap ? params.height : params.height - params.margin_bottom;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        double px = x;
        double py = y;
        if (count > 1) {
            px += ((static_cast<double>(fresh.x[i]) - x0) / (x1 - x0) - 0.5) * spread;
            py += ((static_cast<double>(fresh.y[i]) - y0) / (y1 - y0) - 0.5) * spread;
        }
        if (fresh.has_depth()) {
            world.add_3d(fresh.kind[i], static_cast<Real>(px), static_cast<Real>(py), fresh.z[i], fresh.vx[i],
                         fresh.vy[i], fresh.vz[i], fresh.bias[i]);
        } else {
            world.add(fresh.kind[i], static_cast<Real>(px), static_cast<Real>(py), fresh.vx[i], fresh.vy[i],
                      fresh.bias[i]);
        }
    }
}

template void Spawner::spawn(World<float>&, const Params&, Kind, long long);
template void Spawner::spawn(World<double>&, const Params&, Kind, long long);
template World<float> spawn_world(const Params&, const AgentCounts&, std::uint64_t);
template World<double> spawn_world(const Params&, const AgentCounts&, std::uint64_t);
template void Spawner::spawn(World<Fix15>&, const Params&, Kind, long long);
template World<Fix15> spawn_world(const Params&, const AgentCounts&, std::uint64_t);
template void place_agents(World<float>&, Spawner&, const Params&, Kind, double, double, long long, double);
template void place_agents(World<double>&, Spawner&, const Params&, Kind, double, double, long long, double);
template void place_agents(World<Fix15>&, Spawner&, const Params&, Kind, double, double, long long, double);

} // namespace boids
