#include "boids/simulation.hpp"

#include "boids/fast_path.hpp"
#include "boids/spawn.hpp"
#include "classic_rules.hpp"
#include "fast_classic_step.hpp"
#include "models/fast_passes.hpp"
#include "models/registry.hpp"
#include "neighbour_pass.hpp"
#include "obstacle_rules.hpp"
#include "position_lanes.hpp"
#include "sequential_pass.hpp"
#include "step_threads.hpp"

#include <algorithm>
#include <chrono>
#include <omp.h>
#include <span>
#include <type_traits>

namespace boids {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// Positions are moved and wrapped in blocks of this many agents, shared out among the threads.
constexpr std::size_t position_block = 4096;

/// One axis of the positions: the coordinates, what moves them (nullptr: nothing) and the torus's length.
template <class Real>
struct PositionAxis {
    Real* p;
    const Real* v;
    Real length;
};

/// Simulation::integrate where nothing but the torus acts on the move (or, with every v nullptr, the wrap
/// alone), in lanes (position_lanes.hpp): the same sums and wraps as one agent at a time, in one parallel
/// loop for every axis.
template <class Real>
void move_in_blocks(std::span<const PositionAxis<Real>> axes, std::size_t n, bool wrap, int nthreads) {
    const std::size_t blocks = (n + position_block - 1) / position_block;
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t begin = b * position_block, end = std::min(n, begin + position_block);
        for (const PositionAxis<Real>& axis : axes) {
            move_positions(axis.p + begin, axis.v != nullptr ? axis.v + begin : nullptr, end - begin, wrap,
                           axis.length);
        }
    }
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
void conform_dimensions(World<Real>& world, const Params& params) {
    if (params.dimensions != 3) {
        world.drop_depth();
        return;
    }
    const Real middle = ScalarTraits<Real>::from_double(params.depth / 2);
    world.z.resize(world.size(), middle);
    world.vz.resize(world.size(), Real(0));
}

/// Every check a parameter set must pass for this scalar type.
template <class Real>
void validate_for(const Params& params) {
    validate(params);
    if constexpr (std::is_same_v<Real, Fix15>) {
        validate_fix15(params);
    }
}

/// The fast path implements the lab's rules as they stand (docs/MODEL.md §2) and the extensions the
/// classic model's table marks as its own (src/models/classic.hpp). Everything else takes the policy path.
bool fast_path_applies(const Params& p) {
    return p.model == Model::Classic && !models::off_the_fast_path(p);
}

/// Locks and rest timers mean nothing once pursuit or perching is off: clear them, so that a world without
/// extensions never carries extension state (which the fast path does not move).
template <class Real>
void clear_unused_extension_state(World<Real>& world, const Params& p) {
    if (p.predator_behavior != PredatorBehavior::Pursue) {
        std::fill(world.target.begin(), world.target.end(), -1);
    }
    if (p.perch_rest_max == 0.0) {
        std::fill(world.rest.begin(), world.rest.end(), 0);
    }
}

template <class Real>
Simulation<Real>::Simulation(const Params& params, World<Real> world)
    : params_(params), world_(std::move(world)) {
    // Every model's lanes kernels run the instruction set BOIDS_SIMD_TARGET names (a bad name is refused
    // here, before a step), not only the classic fast step's.
    apply_fast_path_target_environment();
    validate_for<Real>(params_);
    conform_dimensions(world_, params_);
    clear_unused_extension_state(world_, params_);
}

template <class Real>
void Simulation<Real>::set_params(const Params& params) {
    validate_for<Real>(params);
    sync_world(true);
    apply_group_bias(world_, params_, params);
    conform_dimensions(world_, params);
    clear_unused_extension_state(world_, params);
    params_ = params;
}

template <class Real>
void Simulation<Real>::sync_world(bool release) {
    if constexpr (std::is_floating_point_v<Real>) {
        fast_.sync(world_, release, threads());
    }
}

template <class Real>
int Simulation<Real>::threads() const {
    return threads_ > 0 ? threads_ : omp_get_max_threads();
}

template <class Real>
int Simulation<Real>::threads_for_step() {
    if (threads_ > 0 || world_.size() < serial_below) {
        return step_threads(world_.size(), threads());
    }
    return thread_chooser_.threads_for_step(omp_get_max_threads(), world_.size());
}

template <class Real>
void Simulation<Real>::step(long long steps) {
    for (long long s = 0; s < steps; ++s) {
        step_once();
    }
}

template <class Real>
void Simulation<Real>::step_once() {
    // The SIMD path (fast_classic_step.cpp) when it applies; the code below is the readable reference.
    last_step_fast_ = false;
    const int nthreads = threads_for_step();
    const auto timed = [&] {
        if (threads_ == 0 && world_.size() >= serial_below) {
            thread_chooser_.record(nthreads, last_profile_.total_ms);
        }
    };
    if constexpr (std::is_floating_point_v<Real>) {
        if (fast_path_ && fast_path_applies(params_) &&
            fast_.get().try_step(world_, params_, steps_taken_, nthreads, last_profile_,
                                 whole_flock_grids_ ? whole_flock_grids_->data() : nullptr,
                                 agent_ids_.size() == world_.size() ? agent_ids_.data() : nullptr)) {
            last_step_fast_ = true;
            last_profile_.fast_steps = 1;
            total_profile_ += last_profile_;
            ++steps_taken_;
            timed();
            return;
        }
    }
    sync_world(true);
    if (world_.z.size() != (params_.dimensions == 3 ? world_.size() : 0)) {
        conform_dimensions(world_, params_); // agents were added or removed through world()
    }
    using clock = std::chrono::steady_clock;
    const auto t_start = clock::now();
    if (params_.update == UpdateOrder::Sequential) {
        // In place, one agent after another: no grid, no threads. The classic model runs the lab's loop
        // as transcribed; the others their own rules through their policy.
        if (params_.model == Model::Classic) {
            sequential_step(world_, params_);
        } else {
            const classic::Constants<Real> c(params_);
            models::with_model(params_.model, [&]<class M>() {
                sequential_pass(world_, params_, c, M::template policy<Real>(params_, c, steps_taken_));
            });
        }
        last_profile_ = StepProfile{};
        last_profile_.neighbours_ms = last_profile_.total_ms = ms_since(t_start);
        total_profile_ += last_profile_;
        ++steps_taken_;
        return;
    }
    const classic::Constants<Real> c(params_);
    StepProfile profile;
    {
        const auto t = clock::now();
        build_grids(c, nthreads);
        profile.grid_build_ms = ms_since(t);
    }
    {
        const auto t = clock::now();
        neighbour_phase(c, nthreads);
        profile.neighbours_ms = ms_since(t);
    }
    {
        const auto t = clock::now();
        integrate(c, nthreads);
        profile.integrate_ms = ms_since(t);
    }
    profile.total_ms = ms_since(t_start);
    profile.fast_steps = last_step_fast_ ? 1 : 0; // a model's fast pass (neighbour_phase)
    last_profile_ = profile;
    total_profile_ += profile;
    ++steps_taken_;
    timed();
}

template <class Real>
void Simulation<Real>::build_grids(const classic::Constants<Real>& c, int nthreads) {
    World<Real>& w = world_;
    const std::size_t n = w.size();
    if (c.wrap) { // the positions are inside after every step; an edit of the world may move them out
        if constexpr (std::is_floating_point_v<Real>) {
            const PositionAxis<Real> axes[] = {{w.x.data(), nullptr, c.width},
                                               {w.y.data(), nullptr, c.height},
                                               {w.z.data(), nullptr, c.depth}};
            move_in_blocks<Real>(std::span(axes, c.three_d ? 3 : 2), n, true, nthreads);
        } else {
#pragma omp parallel for num_threads(nthreads) schedule(static)
            for (std::size_t i = 0; i < n; ++i) {
                w.x[i] = classic::wrap_position(w.x[i], c.width);
                w.y[i] = classic::wrap_position(w.y[i], c.height);
                if (c.three_d) {
                    w.z[i] = classic::wrap_position(w.z[i], c.depth);
                }
            }
        }
    }
    const double depth = c.three_d ? params_.depth : 0.0; // 0: planar grids
    const detail::GridExtent* whole = whole_flock_grids_ ? whole_flock_grids_->data() : nullptr;
    flock_grid_.build(w, GridMembers::Flocking, grid_range(params_), c.wrap, params_.width, params_.height,
                      depth, nthreads, false, whole);
    predator_grid_.build(w, GridMembers::Predators, params_.predator_range, c.wrap, params_.width,
                         params_.height, depth, nthreads, false, whole != nullptr ? whole + 1 : nullptr);
}

template <class Real>
void Simulation<Real>::neighbour_phase(const classic::Constants<Real>& c, int nthreads) {
    next_.resize(world_.size(), c.three_d);
    const Geometry<Real> geo{c.wrap,        c.width,   c.height, c.half_width,
                             c.half_height, c.three_d, c.depth,  c.half_depth};
    const predators::Behavior<Real> hunter(params_, c);
    const std::uint32_t* const ids = agent_ids_.size() == world_.size() ? agent_ids_.data() : nullptr;
    models::with_model(params_.model, [&]<class M>() {
        const auto policy = M::template policy<Real>(params_, c, steps_taken_);
        // A model with a fast pass (models/fast_passes.hpp) runs it unless the fast path is forbidden.
        if constexpr (std::is_floating_point_v<Real> &&
                      requires(FastPass<Real, Next> pass) { fast_pass(policy, pass); }) {
            if (fast_path_) {
                FastPass<Real, Next> pass{world_,          flock_grid_, geo,      hunter,
                                          {slot_columns_}, next_,       nthreads, ids};
                fast_pass(policy, pass);
                last_step_fast_ = true;
                return;
            }
        }
        neighbour_pass(world_, flock_grid_, predator_grid_, geo, policy, hunter, next_, nthreads, ids);
    });
}

template <class Real>
void Simulation<Real>::integrate(const classic::Constants<Real>& c, int nthreads) {
    World<Real>& w = world_;
    const std::size_t n = w.size();
    const double depth = c.three_d ? params_.depth : 0.0;
    if constexpr (std::is_floating_point_v<Real>) {
        if (!c.sprite_wrap && params_.obstacles.empty()) {
            const PositionAxis<Real> axes[] = {{w.x.data(), next_.vx.data(), c.width},
                                               {w.y.data(), next_.vy.data(), c.height},
                                               {w.z.data(), next_.vz.data(), c.depth}};
            move_in_blocks<Real>(std::span(axes, c.three_d ? 3 : 2), n, c.wrap, nthreads);
            swap_in_next(c.three_d);
            return;
        }
    }
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        Real x = w.x[i] + next_.vx[i];
        Real y = w.y[i] + next_.vy[i];
        if (c.wrap) {
            x = classic::wrap_position(x, c.width);
            y = classic::wrap_position(y, c.height);
        } else if (c.sprite_wrap) {
            topological::wrap_sprite(w.x[i], w.y[i], next_.vx[i], next_.vy[i], x, y, params_.width,
                                     params_.height);
        }
        Real z(0), vz(0);
        if (c.three_d) {
            z = w.z[i] + next_.vz[i];
            if (c.wrap) {
                z = classic::wrap_position(z, c.depth);
            }
            vz = next_.vz[i];
        }
        if (!params_.obstacles.empty()) {
            keep_out_of_obstacles(params_.obstacles, depth, x, y, z, next_.vx[i], next_.vy[i], vz);
        }
        w.x[i] = x;
        w.y[i] = y;
        if (c.three_d) {
            w.z[i] = z;
            next_.vz[i] = vz;
        }
    }
    swap_in_next(c.three_d);
}

template <class Real>
void Simulation<Real>::swap_in_next(bool three_d) {
    World<Real>& w = world_;
    w.vx.swap(next_.vx);
    w.vy.swap(next_.vy);
    if (three_d) {
        w.vz.swap(next_.vz);
    }
    w.bias.swap(next_.bias);
    w.target.swap(next_.target);
    w.rest.swap(next_.rest);
}

template class Simulation<float>;
template class Simulation<double>;
template class Simulation<Fix15>;
template void conform_dimensions(World<float>&, const Params&);
template void conform_dimensions(World<double>&, const Params&);
template void conform_dimensions(World<Fix15>&, const Params&);
template void apply_group_bias(World<float>&, const Params&, const Params&);
template void apply_group_bias(World<double>&, const Params&, const Params&);
template void apply_group_bias(World<Fix15>&, const Params&, const Params&);

} // namespace boids
