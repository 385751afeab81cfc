#include "boids/metrics.hpp"

#include "boids/fix15.hpp"

#include <cmath>

namespace boids {

template <class Real>
FlockSummary summarize(const World<Real>& world) {
    FlockSummary summary;
    double speed_sum = 0.0, ux = 0.0, uy = 0.0;
    long long count = 0;
    for (std::size_t i = 0; i < world.size(); ++i) {
        const double x = static_cast<double>(world.x[i]), y = static_cast<double>(world.y[i]);
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(vx) || !std::isfinite(vy) ||
            !std::isfinite(static_cast<double>(world.bias[i]))) {
            summary.finite = false;
        }
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double speed = std::hypot(vx, vy);
        speed_sum += speed;
        if (speed > 0.0) {
            ux += vx / speed;
            uy += vy / speed;
        }
        ++count;
    }
    if (count > 0) {
        summary.mean_speed = speed_sum / static_cast<double>(count);
        summary.polarization = std::hypot(ux, uy) / static_cast<double>(count);
    }
    return summary;
}

template FlockSummary summarize(const World<float>&);
template FlockSummary summarize(const World<double>&);
template FlockSummary summarize(const World<Fix15>&);

} // namespace boids
