#include "vicsek_model.hpp"

#include "counter_noise.hpp"

#include <chrono>
#include <cmath>

namespace boids::vicsek {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

template <class Real>
void step(World<Real>& w, const Params& p, heading::StepContext<Real> ctx, StepProfile& profile) {
    using clock = std::chrono::steady_clock;
    using T = ScalarTraits<Real>;
    const auto t_start = clock::now();
    heading::wrap_positions(w, p, ctx.threads);
    ctx.grid.build(w, GridMembers::Flocking, p.interaction_radius, p.boundary == Boundary::Wrap, p.width,
                   p.height, ctx.threads);
    profile.grid_build_ms = ms_since(t_start);

    const auto t_neighbours = clock::now();
    const std::size_t n = w.size();
    ctx.next_vx.resize(n);
    ctx.next_vy.resize(n);
    const double r2 = p.interaction_radius * p.interaction_radius;
    const auto seed = static_cast<std::uint64_t>(p.noise_seed);
    const auto step_index = static_cast<std::uint64_t>(ctx.step_index);
#pragma omp parallel for num_threads(ctx.threads) schedule(dynamic, 1024)
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_flocking(w.kind[i])) {
            ctx.next_vx[i] = w.vx[i];
            ctx.next_vy[i] = w.vy[i];
            continue;
        }
        const double x = T::to_double(w.x[i]), y = T::to_double(w.y[i]);
        // Sum of unit headings: self first, then the neighbours in the grid's fixed order.
        double sx = 0.0, sy = 0.0;
        const auto add_heading = [&](double vx, double vy) {
            const double speed = std::hypot(vx, vy);
            if (speed > 0.0) {
                sx += vx / speed;
                sy += vy / speed;
            }
        };
        add_heading(T::to_double(w.vx[i]), T::to_double(w.vy[i]));
        const auto self = static_cast<std::uint32_t>(i);
        ctx.grid.for_each_candidate(w.x[i], w.y[i], [&](std::uint32_t s) {
            if (ctx.grid.agent(s) == self) {
                return;
            }
            const auto d = heading::offset(x, y, T::to_double(ctx.grid.x(s)), T::to_double(ctx.grid.y(s)), p);
            if (d.dx * d.dx + d.dy * d.dy < r2) {
                add_heading(T::to_double(ctx.grid.vx(s)), T::to_double(ctx.grid.vy(s)));
            }
        });
        const double mean_angle = (sx == 0.0 && sy == 0.0) ? 0.0 : std::atan2(sy, sx);
        const double angle = mean_angle + p.noise * (noise::uniform01(seed, step_index, i, 0) - 0.5);
        ctx.next_vx[i] = T::from_double(p.speed * std::cos(angle));
        ctx.next_vy[i] = T::from_double(p.speed * std::sin(angle));
    }
    profile.neighbours_ms = ms_since(t_neighbours);

    const auto t_integrate = clock::now();
    heading::move_agents(w, p, ctx.next_vx, ctx.next_vy, ctx.threads);
    profile.integrate_ms = ms_since(t_integrate);
    profile.total_ms = ms_since(t_start);
}

template void step(World<float>&, const Params&, heading::StepContext<float>, StepProfile&);
template void step(World<double>&, const Params&, heading::StepContext<double>, StepProfile&);

} // namespace boids::vicsek
