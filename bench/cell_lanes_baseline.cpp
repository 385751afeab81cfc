// CellLanesBaseline (cell_lanes_baseline.hpp): the neighbour pass and the rules in SIMD lanes for every
// instruction set Highway targets here (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cell_lanes_baseline.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "cell_lanes_baseline.hpp"

#include "boids/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#ifndef BOIDS_CELL_LANES_BASELINE_ONCE
#define BOIDS_CELL_LANES_BASELINE_ONCE
namespace boids::bench {

/// What the kernel reads and writes: the sorted flock, its cells, the next state and the rules' constants.
struct BaselineStep {
    const float *x, *y, *vx, *vy;
    const std::uint32_t* cell_start;
    int nx, ny;
    float width, height;
    float visual2, protected2, centering, matching, avoid, min_speed, max_speed;
    float *next_x, *next_y, *next_vx, *next_vy;
};

} // namespace boids::bench
#endif

HWY_BEFORE_NAMESPACE();
namespace boids::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Every cell's agents, a vector of them at a time, against the agents of the 3 x 3 cells around (their
/// nearest images across the torus's seams), then the classic rules on a torus (docs/MODEL.md §2) in lanes.
/// The lanes past a cell's last agent hold the next slots' agents; their results are overwritten by those
/// slots' own vector, or land in the padding.
HWY_ATTR void StepCells(const BaselineStep& s) {
    const hn::ScalableTag<float> d;
    using V = hn::Vec<decltype(d)>;
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
    const V visual2 = hn::Set(d, s.visual2), protected2 = hn::Set(d, s.protected2);
    const V zero = hn::Zero(d);
    // A neighbour line of the grid (row or column `line` of `count`) and the shift of its agents' nearest
    // images: across a seam the line on the other side, seen one period away.
    const auto across = [](int& line, int count, float period) {
        if (line >= 0 && line < count) {
            return 0.0f;
        }
        const float shift = line < 0 ? -period : period;
        line = line < 0 ? count - 1 : 0;
        return shift;
    };
    for (int row = 0; row < s.ny; ++row) {
        for (int col = 0; col < s.nx; ++col) {
            const std::size_t cell = static_cast<std::size_t>(row) * static_cast<std::size_t>(s.nx) +
                                     static_cast<std::size_t>(col);
            for (std::uint32_t at = s.cell_start[cell]; at < s.cell_start[cell + 1]; at += lanes) {
                const V ax = hn::LoadU(d, s.x + at), ay = hn::LoadU(d, s.y + at);
                const V avx = hn::LoadU(d, s.vx + at), avy = hn::LoadU(d, s.vy + at);
                V xsum = zero, ysum = zero, vxsum = zero, vysum = zero, close_dx = zero, close_dy = zero;
                V count = zero;
                for (int dr = -1; dr <= 1; ++dr) {
                    int r = row + dr;
                    const float shift_y = across(r, s.ny, s.height);
                    for (int dc = -1; dc <= 1; ++dc) {
                        int c = col + dc;
                        const float shift_x = across(c, s.nx, s.width);
                        const std::size_t other =
                            static_cast<std::size_t>(r) * static_cast<std::size_t>(s.nx) +
                            static_cast<std::size_t>(c);
                        for (std::uint32_t j = s.cell_start[other]; j < s.cell_start[other + 1]; ++j) {
                            const V jx = hn::Set(d, s.x[j] + shift_x), jy = hn::Set(d, s.y[j] + shift_y);
                            const V dx = hn::Sub(ax, jx), dy = hn::Sub(ay, jy);
                            const V d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
                            const auto close = hn::Lt(d2, protected2);
                            const auto near = hn::AndNot(close, hn::Lt(d2, visual2));
                            close_dx = hn::IfThenElse(close, hn::Add(close_dx, dx), close_dx);
                            close_dy = hn::IfThenElse(close, hn::Add(close_dy, dy), close_dy);
                            xsum = hn::IfThenElse(near, hn::Add(xsum, jx), xsum);
                            ysum = hn::IfThenElse(near, hn::Add(ysum, jy), ysum);
                            vxsum = hn::IfThenElse(near, hn::Add(vxsum, hn::Set(d, s.vx[j])), vxsum);
                            vysum = hn::IfThenElse(near, hn::Add(vysum, hn::Set(d, s.vy[j])), vysum);
                            count = hn::IfThenElse(near, hn::Add(count, hn::Set(d, 1.0f)), count);
                        }
                    }
                }
                // Cohesion and alignment toward the neighbours' means, separation, the speed limits.
                const auto some = hn::Gt(count, zero);
                const V centering = hn::Set(d, s.centering), matching = hn::Set(d, s.matching);
                V vx = hn::IfThenElse(
                    some,
                    hn::Add(hn::Add(avx, hn::Mul(hn::Sub(hn::Div(xsum, count), ax), centering)),
                            hn::Mul(hn::Sub(hn::Div(vxsum, count), avx), matching)),
                    avx);
                V vy = hn::IfThenElse(
                    some,
                    hn::Add(hn::Add(avy, hn::Mul(hn::Sub(hn::Div(ysum, count), ay), centering)),
                            hn::Mul(hn::Sub(hn::Div(vysum, count), avy), matching)),
                    avy);
                const V avoid = hn::Set(d, s.avoid);
                vx = hn::Add(vx, hn::Mul(close_dx, avoid));
                vy = hn::Add(vy, hn::Mul(close_dy, avoid));
                const V speed = hn::Sqrt(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)));
                const V min_speed = hn::Set(d, s.min_speed), max_speed = hn::Set(d, s.max_speed);
                const V limit = hn::IfThenElse(hn::Lt(speed, min_speed), min_speed,
                                               hn::IfThenElse(hn::Gt(speed, max_speed), max_speed, speed));
                const auto at_rest = hn::Eq(speed, zero);
                const V scale = hn::Div(limit, hn::IfThenElse(at_rest, hn::Set(d, 1.0f), speed));
                vx = hn::IfThenElse(at_rest, min_speed, hn::Mul(vx, scale));
                vy = hn::IfThenElseZero(hn::Not(at_rest), hn::Mul(vy, scale));
                // The move, wrapped onto the torus (a step moves far less than a period).
                const auto wrap = [&](V p, float length) HWY_ATTR {
                    const V period = hn::Set(d, length);
                    p = hn::IfThenElse(hn::Lt(p, zero), hn::Add(p, period), p);
                    return hn::IfThenElse(hn::Ge(p, period), hn::Sub(p, period), p);
                };
                hn::StoreU(wrap(hn::Add(ax, vx), s.width), d, s.next_x + at);
                hn::StoreU(wrap(hn::Add(ay, vy), s.height), d, s.next_y + at);
                hn::StoreU(vx, d, s.next_vx + at);
                hn::StoreU(vy, d, s.next_vy + at);
            }
        }
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::bench {
HWY_EXPORT(StepCells);

namespace {

/// Room past the last agent for a whole vector of any target.
constexpr std::size_t padding = HWY_MAX_BYTES / sizeof(float);

void require(bool holds, const std::string& what) {
    if (!holds) {
        throw InputError("the cell-lanes baseline takes " + what);
    }
}

} // namespace

CellLanesBaseline::CellLanesBaseline(const Params& p, const World<float>& world) : params_(p) {
    require(p.model == Model::Classic && p.dimensions == 2 && p.boundary == Boundary::Wrap,
            "the classic model on a planar torus (model = classic, dimensions = 2, boundary = wrap)");
    require(p.fov_angle >= 360.0 && p.line_of_sight_factor == 0.0 && p.gravity == 0.0 &&
                p.obstacles.empty() && p.food.empty() && p.perch_rest_max == 0.0 &&
                p.speed_estimate == SpeedEstimate::Exact && p.update == UpdateOrder::Synchronous,
            "the lab's rules alone (no field of view, line of sight, gravity, obstacles, food or perching; "
            "exact speeds; synchronous update)");
    require(p.visual_range > 0 && p.protected_range <= p.visual_range,
            "a visual range above 0 and no smaller than the protected range");
    nx_ = static_cast<int>(std::floor(p.width / p.visual_range));
    ny_ = static_cast<int>(std::floor(p.height / p.visual_range));
    require(nx_ >= 3 && ny_ >= 3, "a torus of at least 3 x 3 cells of the visual range");
    cell_w_ = static_cast<float>(p.width / nx_);
    cell_h_ = static_cast<float>(p.height / ny_);
    for (const Kind k : world.kind) {
        require(k == Kind::Boid, "flocking agents alone (no predators or scouts)");
    }
    const std::size_t n = world.x.size();
    x_.assign(world.x.begin(), world.x.end());
    y_.assign(world.y.begin(), world.y.end());
    vx_.assign(world.vx.begin(), world.vx.end());
    vy_.assign(world.vy.begin(), world.vy.end());
    for (auto* column : {&x_, &y_, &vx_, &vy_}) {
        column->resize(n + padding, 0.0f);
    }
    for (auto* column : {&sx_, &sy_, &svx_, &svy_}) {
        column->assign(n + padding, 0.0f);
    }
    agent_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        agent_[i] = static_cast<std::uint32_t>(i);
    }
    sagent_.resize(n);
    cell_of_.resize(n);
    cell_start_.assign(static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_) + 1, 0);
}

void CellLanesBaseline::step() {
    const std::size_t n = agent_.size();
    // The counting sort into cells, from the state in the last step's order.
    std::fill(cell_start_.begin(), cell_start_.end(), 0u);
    for (std::size_t i = 0; i < n; ++i) {
        const int c = std::min(static_cast<int>(x_[i] / cell_w_), nx_ - 1);
        const int r = std::min(static_cast<int>(y_[i] / cell_h_), ny_ - 1);
        cell_of_[i] = static_cast<std::uint32_t>(r * nx_ + c);
        ++cell_start_[cell_of_[i] + 1];
    }
    for (std::size_t c = 1; c < cell_start_.size(); ++c) {
        cell_start_[c] += cell_start_[c - 1];
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t to = cell_start_[cell_of_[i]]++;
        sx_[to] = x_[i];
        sy_[to] = y_[i];
        svx_[to] = vx_[i];
        svy_[to] = vy_[i];
        sagent_[to] = agent_[i];
    }
    for (std::size_t c = cell_start_.size() - 1; c > 0; --c) { // the cursors back to the cells' starts
        cell_start_[c] = cell_start_[c - 1];
    }
    cell_start_[0] = 0;
    // The step, from the sorted copy into the state.
    const BaselineStep s{sx_.data(),
                         sy_.data(),
                         svx_.data(),
                         svy_.data(),
                         cell_start_.data(),
                         nx_,
                         ny_,
                         static_cast<float>(params_.width),
                         static_cast<float>(params_.height),
                         static_cast<float>(params_.visual_range * params_.visual_range),
                         static_cast<float>(params_.protected_range * params_.protected_range),
                         static_cast<float>(params_.centering_factor),
                         static_cast<float>(params_.matching_factor),
                         static_cast<float>(params_.avoid_factor),
                         static_cast<float>(params_.min_speed),
                         static_cast<float>(params_.max_speed),
                         x_.data(),
                         y_.data(),
                         vx_.data(),
                         vy_.data()};
    HWY_DYNAMIC_DISPATCH(StepCells)(s);
    agent_.swap(sagent_);
}

World<float> CellLanesBaseline::world() const {
    World<float> w;
    const std::size_t n = agent_.size();
    w.kind.assign(n, Kind::Boid);
    for (auto* column : {&w.x, &w.y, &w.vx, &w.vy, &w.bias}) {
        column->assign(n, 0.0f);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t a = agent_[i];
        w.x[a] = x_[i];
        w.y[a] = y_[i];
        w.vx[a] = vx_[i];
        w.vy[a] = vy_[i];
    }
    return w;
}

} // namespace boids::bench
#endif
