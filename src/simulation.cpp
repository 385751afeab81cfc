#include "boids/simulation.hpp"

#include "boids/spawn.hpp"
#include "classic_rules.hpp"
#include "couzin_model.hpp"
#include "vicsek_model.hpp"

#include <chrono>
#include <omp.h>

namespace boids {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

template <class Real>
void apply_group_bias(World<Real>& world, const Params& before, const Params& after) {
    const bool reset1 = !after.dynamic_bias || after.scout1_bias != before.scout1_bias;
    const bool reset2 = !after.dynamic_bias || after.scout2_bias != before.scout2_bias;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if ((world.kind[i] == Kind::Scout1 && reset1) || (world.kind[i] == Kind::Scout2 && reset2)) {
            world.bias[i] = ScalarTraits<Real>::from_double(initial_bias(after, world.kind[i]));
        }
    }
}

template <class Real>
Simulation<Real>::Simulation(const Params& params, World<Real> world) : params_(params), world_(std::move(world)) {
    validate(params_);
}

template <class Real>
void Simulation<Real>::set_params(const Params& params) {
    validate(params);
    apply_group_bias(world_, params_, params);
    params_ = params;
}

template <class Real>
int Simulation<Real>::threads() const {
    return threads_ > 0 ? threads_ : omp_get_max_threads();
}

template <class Real>
void Simulation<Real>::step(long long steps) {
    for (long long s = 0; s < steps; ++s) {
        step_once();
    }
}

template <class Real>
void Simulation<Real>::step_once() {
    // The other models (src/<name>_model.cpp) share the grid and scratch buffers; the classic model follows.
    if (params_.model != Model::Classic) {
        StepProfile other;
        const heading::StepContext<Real> context{flock_grid_, next_vx_, next_vy_, steps_taken_, threads()};
        switch (params_.model) {
        case Model::Vicsek:
            vicsek::step(world_, params_, context, other);
            break;
        case Model::Couzin:
            couzin::step(world_, params_, context, other);
            break;
        case Model::Classic:
            break;
        }
        last_profile_ = other;
        total_profile_ += other;
        ++steps_taken_;
        return;
    }
    using clock = std::chrono::steady_clock;
    const auto t_start = clock::now();
    const classic::Constants<Real> c(params_);
    const int nthreads = threads();
    World<Real>& w = world_;
    const std::size_t n = w.size();
    StepProfile profile;

    // Phase 1: bin the flock (for the neighbour rules) and the predators (for fleeing).
    if (c.wrap) {
#pragma omp parallel for num_threads(nthreads) schedule(static)
        for (std::size_t i = 0; i < n; ++i) {
            w.x[i] = classic::wrap_position(w.x[i], c.width);
            w.y[i] = classic::wrap_position(w.y[i], c.height);
        }
    }
    flock_grid_.build(w, GridMembers::Flocking, params_.visual_range, c.wrap, params_.width, params_.height,
                      nthreads);
    predator_grid_.build(w, GridMembers::Predators, params_.predator_range, c.wrap, params_.width, params_.height,
                         nthreads);
    profile.grid_build_ms = ms_since(t_start);

    // Phase 2: every agent's new velocity (and scout bias) from the old state only.
    const auto t_neighbours = clock::now();
    next_vx_.resize(n);
    next_vy_.resize(n);
    next_bias_.resize(n);
    using T = ScalarTraits<Real>;
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1024)
    for (std::size_t i = 0; i < n; ++i) {
        const Kind kind = w.kind[i];
        const Real x = w.x[i], y = w.y[i];
        Real vx = w.vx[i], vy = w.vy[i];
        Real bias = w.bias[i];
        if (is_flocking(kind)) {
            // Steps 1-3: separation, cohesion and alignment over the other flocking agents.
            Real xsum(0), ysum(0), vxsum(0), vysum(0), close_dx(0), close_dy(0);
            long long neighbours = 0;
            const auto self = static_cast<std::uint32_t>(i);
            flock_grid_.for_each_candidate(x, y, [&](std::uint32_t s) {
                if (flock_grid_.agent(s) == self) {
                    return;
                }
                Real dx = x - flock_grid_.x(s), dy = y - flock_grid_.y(s);
                if (c.wrap) {
                    dx = classic::min_image(dx, c.width, c.half_width);
                    dy = classic::min_image(dy, c.height, c.half_height);
                }
                if (T::abs(dx) < c.visual && T::abs(dy) < c.visual) {
                    const Real d2 = dx * dx + dy * dy;
                    if (d2 < c.protected2) {
                        close_dx = close_dx + dx;
                        close_dy = close_dy + dy;
                    } else if (d2 < c.visual2) {
                        // Across a wrap seam the neighbour's nearest image is what the boid sees.
                        xsum = xsum + (c.wrap ? x - dx : flock_grid_.x(s));
                        ysum = ysum + (c.wrap ? y - dy : flock_grid_.y(s));
                        vxsum = vxsum + flock_grid_.vx(s);
                        vysum = vysum + flock_grid_.vy(s);
                        ++neighbours;
                    }
                }
            });
            if (neighbours > 0) {
                const Real xavg = T::divide_by_count(xsum, neighbours);
                const Real yavg = T::divide_by_count(ysum, neighbours);
                const Real vxavg = T::divide_by_count(vxsum, neighbours);
                const Real vyavg = T::divide_by_count(vysum, neighbours);
                vx = vx + (xavg - x) * c.centering + (vxavg - vx) * c.matching;
                vy = vy + (yavg - y) * c.centering + (vyavg - vy) * c.matching;
            }
            vx = vx + close_dx * c.avoid;
            vy = vy + close_dy * c.avoid;
            if (!c.wrap) {
                classic::turn_at_edges(c, x, y, vx, vy);
            }
            // Step 5: flee the predators in range.
            Real pdx(0), pdy(0);
            predator_grid_.for_each_candidate(x, y, [&](std::uint32_t s) {
                Real dx = x - predator_grid_.x(s), dy = y - predator_grid_.y(s);
                if (c.wrap) {
                    dx = classic::min_image(dx, c.width, c.half_width);
                    dy = classic::min_image(dy, c.height, c.half_height);
                }
                if (T::abs(dx) < c.predator_range && T::abs(dy) < c.predator_range &&
                    dx * dx + dy * dy < c.predator_range2) {
                    pdx = pdx + dx;
                    pdy = pdy + dy;
                }
            });
            classic::flee_predators(c, pdx, pdy, vx, vy);
            classic::steer_scout(c, kind, vx, bias);
        } else if (!c.wrap) {
            classic::turn_at_edges(c, x, y, vx, vy); // predators: edges and speed limits only
        }
        classic::limit_speed(c, vx, vy);
        next_vx_[i] = vx;
        next_vy_[i] = vy;
        next_bias_[i] = bias;
    }
    profile.neighbours_ms = ms_since(t_neighbours);

    // Phase 3: move everyone with the new velocities.
    const auto t_integrate = clock::now();
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        Real x = w.x[i] + next_vx_[i];
        Real y = w.y[i] + next_vy_[i];
        if (c.wrap) {
            x = classic::wrap_position(x, c.width);
            y = classic::wrap_position(y, c.height);
        }
        w.x[i] = x;
        w.y[i] = y;
    }
    w.vx.swap(next_vx_);
    w.vy.swap(next_vy_);
    w.bias.swap(next_bias_);
    profile.integrate_ms = ms_since(t_integrate);
    profile.total_ms = ms_since(t_start);

    last_profile_ = profile;
    total_profile_ += profile;
    ++steps_taken_;
}

template class Simulation<float>;
template class Simulation<double>;
template void apply_group_bias(World<float>&, const Params&, const Params&);
template void apply_group_bias(World<double>&, const Params&, const Params&);

} // namespace boids
