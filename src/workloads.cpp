#include "boids/workloads.hpp"

#include <cmath>
#include <numbers>

namespace boids {

Scenario w20_scenario(long long boids) {
    Scenario s = load_preset("vga-predator");
    s.name = "W20";
    s.description = "uniform wrap world, 20 neighbours within visual range on average";
    s.agents = AgentCounts{boids, 0, 0, 0};
    const double density = w20_mean_neighbours / (std::numbers::pi * s.params.visual_range * s.params.visual_range);
    const double side = std::sqrt(static_cast<double>(boids) / density);
    s.params.width = s.params.height = side;
    s.params.margin_left = s.params.margin_right = s.params.margin_top = s.params.margin_bottom = 0.0;
    s.params.boundary = Boundary::Wrap;
    return s;
}

} // namespace boids
