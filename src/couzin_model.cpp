#include "couzin_model.hpp"

#include "counter_noise.hpp"

#include <chrono>
#include <cmath>

namespace boids::couzin {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The preferred direction's x component of an informed agent (0 for the uninformed).
double preferred_x(Kind kind) {
    switch (kind) {
    case Kind::Scout1:
        return 1.0;
    case Kind::Scout2:
        return -1.0;
    default:
        return 0.0;
    }
}

} // namespace

template <class Real>
void step(World<Real>& w, const Params& p, heading::StepContext<Real> ctx, StepProfile& profile) {
    using clock = std::chrono::steady_clock;
    using T = ScalarTraits<Real>;
    const auto t_start = clock::now();
    heading::wrap_positions(w, p, ctx.threads);
    ctx.grid.build(w, GridMembers::Flocking, p.attraction_radius, p.boundary == Boundary::Wrap, p.width,
                   p.height, ctx.threads);
    profile.grid_build_ms = ms_since(t_start);

    const auto t_neighbours = clock::now();
    const std::size_t n = w.size();
    ctx.next_vx.resize(n);
    ctx.next_vy.resize(n);
    const double alpha2 = p.repulsion_radius * p.repulsion_radius;
    const double rho2 = p.attraction_radius * p.attraction_radius;
    const double cos_turn = std::cos(p.turn_rate);
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
        const double vx = T::to_double(w.vx[i]), vy = T::to_double(w.vy[i]);
        const double v = std::hypot(vx, vy);
        // The current heading; an agent at rest is taken to face +x.
        const double hx = v > 0.0 ? vx / v : 1.0, hy = v > 0.0 ? vy / v : 0.0;

        double rx = 0.0, ry = 0.0; // repulsion: away from neighbours within alpha
        double ax = 0.0, ay = 0.0; // attraction: toward neighbours within rho
        double ox = hx, oy = hy;   // orientation: headings within rho, own included
        bool repelled = false;
        const auto self = static_cast<std::uint32_t>(i);
        ctx.grid.for_each_candidate(w.x[i], w.y[i], [&](std::uint32_t s) {
            if (ctx.grid.agent(s) == self) {
                return;
            }
            const auto d = heading::offset(x, y, T::to_double(ctx.grid.x(s)), T::to_double(ctx.grid.y(s)), p);
            const double d2 = d.dx * d.dx + d.dy * d.dy;
            if (d2 >= rho2 || d2 == 0.0) {
                return; // out of range, or exactly on top: no direction to take
            }
            const double dist = std::sqrt(d2);
            if (d2 < alpha2) {
                repelled = true;
                rx -= d.dx / dist;
                ry -= d.dy / dist;
                return;
            }
            ax += d.dx / dist;
            ay += d.dy / dist;
            const double nvx = T::to_double(ctx.grid.vx(s)), nvy = T::to_double(ctx.grid.vy(s));
            const double nv = std::hypot(nvx, nvy);
            if (nv > 0.0) {
                ox += nvx / nv;
                oy += nvy / nv;
            }
        });
        double dx = repelled ? rx : ax + ox;
        double dy = repelled ? ry : ay + oy;
        double dn = std::hypot(dx, dy);
        if (dn == 0.0) { // balanced pulls: keep going
            dx = hx;
            dy = hy;
            dn = 1.0;
        }
        dx /= dn;
        dy /= dn;
        if (const double gx = preferred_x(w.kind[i]); gx != 0.0) {
            dx += p.informed_weight * gx;
            dn = std::hypot(dx, dy);
            if (dn > 0.0) {
                dx /= dn;
                dy /= dn;
            } else {
                dx = gx;
                dy = 0.0;
            }
        }
        // Angular noise, then the turning-rate limit toward the noisy desired direction.
        double desired = std::atan2(dy, dx) + p.noise * noise::normal(seed, step_index, i, 0);
        const double current = std::atan2(hy, hx);
        const double cos_between = std::cos(desired - current);
        if (cos_between < cos_turn) {
            // Turn by turn_rate toward the desired side: the sign of the cross product.
            const double cross = std::sin(desired - current);
            desired = current + (cross >= 0.0 ? p.turn_rate : -p.turn_rate);
        }
        ctx.next_vx[i] = T::from_double(p.speed * std::cos(desired));
        ctx.next_vy[i] = T::from_double(p.speed * std::sin(desired));
    }
    profile.neighbours_ms = ms_since(t_neighbours);

    const auto t_integrate = clock::now();
    heading::move_agents(w, p, ctx.next_vx, ctx.next_vy, ctx.threads);
    profile.integrate_ms = ms_since(t_integrate);
    profile.total_ms = ms_since(t_start);
}

template void step(World<float>&, const Params&, heading::StepContext<float>, StepProfile&);
template void step(World<double>&, const Params&, heading::StepContext<double>, StepProfile&);

} // namespace boids::couzin
