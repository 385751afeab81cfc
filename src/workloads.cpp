#include "boids/workloads.hpp"

#include "boids/detail/spatial_grid.hpp"
#include "boids/kind.hpp"
#include "boids/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>

namespace boids {

Scenario w20_scenario(long long boids) {
    Scenario s = load_preset("vga-predator");
    s.name = "W20";
    s.description = "uniform wrap world, 20 neighbours within visual range on average";
    s.agents = AgentCounts{boids, 0, 0, 0};
    const double density =
        w20_mean_neighbours / (std::numbers::pi * s.params.visual_range * s.params.visual_range);
    const double side = std::sqrt(static_cast<double>(boids) / density);
    s.params.width = s.params.height = side;
    s.params.margin_left = s.params.margin_right = s.params.margin_top = s.params.margin_bottom = 0.0;
    s.params.boundary = Boundary::Wrap;
    return s;
}

Scenario w20_3d_scenario(long long boids) {
    Scenario s = w20_scenario(boids);
    s.name = "W20-3D";
    s.description = "uniform 3D wrap world, 20 neighbours within visual range on average";
    const double r = s.params.visual_range;
    const double density = w20_mean_neighbours / (4.0 / 3.0 * std::numbers::pi * r * r * r);
    const double side = std::cbrt(static_cast<double>(boids) / density);
    s.params.dimensions = 3;
    s.params.width = s.params.height = s.params.depth = side;
    s.params.margin_front = s.params.margin_back = 0.0;
    return s;
}

Scenario vga_predator_at_density(long long boids) {
    Scenario s = load_preset("vga-predator");
    const Params& p0 = s.params;
    const double inner_w = p0.width - p0.margin_left - p0.margin_right;
    const double inner_h = p0.height - p0.margin_top - p0.margin_bottom;
    const double scale = std::sqrt(static_cast<double>(boids) / static_cast<double>(s.agents.boids));
    s.name = "vga-predator at its density";
    s.description = "vga-predator grown to N boids, inner area per boid kept";
    s.params.width = inner_w * scale + p0.margin_left + p0.margin_right;
    s.params.height = inner_h * scale + p0.margin_top + p0.margin_bottom;
    s.agents.boids = boids;
    return s;
}

namespace {

/// Sizes a square wrap world so that a flocking agent has w20_mean_neighbours others within its model's
/// link range, for a uniform start.
void at_w20_count(Scenario& s) {
    const double r = link_range(s.params);
    const auto flocking = static_cast<double>(s.agents.boids + s.agents.scouts1 + s.agents.scouts2);
    const double side = std::sqrt(flocking * std::numbers::pi * r * r / w20_mean_neighbours);
    s.params.width = s.params.height = side;
    s.params.margin_left = s.params.margin_right = s.params.margin_top = s.params.margin_bottom = 0.0;
    s.params.boundary = Boundary::Wrap;
    s.params.update = UpdateOrder::Synchronous;
}

/// A model's preset, run as a synchronous wrap world of `boids` agents at W20's neighbour count.
Scenario model_at_w20(std::string_view preset, std::string name, long long boids, const std::string& setup) {
    Scenario s = load_preset(preset);
    s.name = std::move(name);
    s.agents = AgentCounts{boids, 0, 0, 0};
    s.description = "the " + std::string(preset) + " preset's parameters" + setup;
    return s;
}

/// The obstacles preset's 800 x 600 room mapped onto a W20 world: positions scale, sizes do not.
std::pair<double, double> from_room(const Scenario& s, double x, double y) {
    return {x * s.params.width / 800.0, y * s.params.height / 600.0};
}

} // namespace

std::vector<Scenario> w20_every_model(long long boids) {
    std::vector<Scenario> scenes;
    scenes.push_back(w20_scenario(boids));
    scenes.back().name = "classic";

    Scenario topological = model_at_w20("pynboids", "topological k=7", boids,
                                        ", the exact 7 nearest anywhere (search_cell = 0), torus wrap");
    set_param(topological.params, "search_cell", "0");
    set_param(topological.params, "wrap_style", "torus");
    scenes.push_back(std::move(topological));
    scenes.push_back(model_at_w20("downey-2d", "weighted", boids, ""));
    scenes.push_back(model_at_w20("vicsek", "vicsek", boids, ""));
    Scenario couzin = model_at_w20("couzin", "couzin", boids, ", one agent in ten informed (scout1)");
    couzin.agents = AgentCounts{boids - boids / 10, boids / 10, 0, 0};
    scenes.push_back(std::move(couzin));
    for (std::size_t m = 1; m < scenes.size(); ++m) {
        at_w20_count(scenes[m]);
    }

    // W20 with one extension of the classic model on, set up by `set`.
    const auto extension = [&](std::string name, std::string description, const auto& set) {
        Scenario s = w20_scenario(boids);
        s.name = std::move(name);
        s.description = std::move(description);
        set(s);
        scenes.push_back(std::move(s));
    };
    extension("classic fov 270", "field of view 270 degrees",
              [](Scenario& s) { s.params.fov_angle = 270.0; });
    const std::string obstacles =
        "the obstacles preset's two pillars and wall (margin 25, turn 0.6), placed as in "
        "its 800 x 600 room scaled to the world, sizes kept";
    const auto place_obstacles = [](Scenario& s) {
        s.params.obstacle_margin = 25;
        s.params.obstacle_turn_factor = 0.6;
        for (const auto& [x, y, radius] :
             {std::array<double, 3>{250, 300, 50}, std::array<double, 3>{560, 220, 35}}) {
            Obstacle pillar;
            std::tie(pillar.x, pillar.y) = from_room(s, x, y);
            pillar.radius = radius;
            s.params.obstacles.push_back(pillar);
        }
        Obstacle wall;
        wall.shape = Obstacle::Shape::Rect;
        std::tie(wall.x0, wall.y0) = from_room(s, 500, 380);
        wall.x1 = wall.x0 + 120;
        wall.y1 = wall.y0 + 30;
        s.params.obstacles.push_back(wall);
    };
    extension("classic obstacles", obstacles, place_obstacles);
    extension(
        "classic food",
        "the obstacles preset's food source circling its room, scaled to the world (speed 2, range 150, "
        "strength 0.08)",
        [](Scenario& s) {
            FoodSource source;
            for (const auto& [x, y] :
                 {std::pair{150.0, 150.0}, {650.0, 150.0}, {650.0, 450.0}, {150.0, 450.0}}) {
                source.path.push_back(from_room(s, x, y));
            }
            source.speed = 2;
            source.range = 150;
            source.strength = 0.08;
            s.params.food.push_back(source);
        });
    extension("classic line of sight", "line_of_sight_factor 0.5, angle 15 degrees",
              [](Scenario& s) { s.params.line_of_sight_factor = 0.5; });
    extension("classic perching",
              "the perching preset's rests (30 to 120 steps) on a ledge across the middle of the world",
              [](Scenario& s) {
                  s.params.perch_rest_min = 30;
                  s.params.perch_rest_max = 120;
                  s.params.ledge_y = s.params.height / 2;
              });
    extension("classic gravity", "the perching preset's gravity 0.03, dive speed 8", [](Scenario& s) {
        s.params.gravity = 0.03;
        s.params.max_dive_speed = 8;
    });
    // The lab's two predators (vga-predator's, which vga_predator_at_density keeps at every size), with its
    // predator range (100) and turn factor: more would crowd the boids that flee them far beyond W20's count.
    const std::string with_predators = "vga-predator's 2 predators";
    for (const auto& [name, how, behavior] :
         {std::tuple{"classic predators edge", " that fly straight on", PredatorBehavior::Edge},
          {"classic predators chasing", " chasing the centroid they see (vision 150)",
           PredatorBehavior::ChaseCentroid},
          {"classic predators pursuing", " each pursuing one boid (vision 150)", PredatorBehavior::Pursue}}) {
        extension(name, with_predators + how, [behavior = behavior](Scenario& s) {
            s.agents.predators = 2;
            s.params.predator_behavior = behavior;
        });
    }
    // The obstacles preset's scene: its lab predator among its obstacles (two, as in the rows above).
    extension("classic obstacles, predators",
              obstacles + ", with " + with_predators + " that fly straight on", [&](Scenario& s) {
                  place_obstacles(s);
                  s.agents.predators = 2;
              });
    return scenes;
}

template <class Real>
double mean_neighbours(const World<Real>& world, const Params& params) {
    const double range = link_range(params);
    const bool wrap = params.boundary == Boundary::Wrap;
    const bool three_d = params.dimensions == 3 && world.z.size() == world.size();
    SpatialGrid<Real> grid;
    grid.build(world, GridMembers::Flocking, range, wrap, params.width, params.height,
               three_d ? params.depth : 0.0, 1);
    const auto apart = [wrap](double d, double side) { return wrap ? d - side * std::round(d / side) : d; };
    long long pairs = 0, agents = 0;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        ++agents;
        const double x = static_cast<double>(world.x[i]), y = static_cast<double>(world.y[i]);
        const double z = three_d ? static_cast<double>(world.z[i]) : 0.0;
        grid.for_each_candidate(world.x[i], world.y[i], three_d ? world.z[i] : Real(0), [&](std::uint32_t s) {
            const double dx = apart(x - static_cast<double>(grid.x(s)), params.width);
            const double dy = apart(y - static_cast<double>(grid.y(s)), params.height);
            const double dz = three_d ? apart(z - static_cast<double>(grid.z(s)), params.depth) : 0.0;
            if (grid.agent(s) != i && dx * dx + dy * dy + dz * dz < range * range) {
                ++pairs;
            }
        });
    }
    return agents == 0 ? 0.0 : static_cast<double>(pairs) / static_cast<double>(agents);
}

template double mean_neighbours(const World<float>&, const Params&);
template double mean_neighbours(const World<double>&, const Params&);

} // namespace boids
