#include "boids/workloads.hpp"

#include <cmath>
#include <numbers>

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

} // namespace boids
