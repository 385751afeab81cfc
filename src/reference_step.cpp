// The brute-force steps: the classic model (docs/MODEL.md §2) transcribed line by line, every agent
// against every other, one thread.
// Synchronous, it is the oracle the grid path is tested against, and it deliberately shares no rule code
// with simulation.cpp, so that a mistake in the fast path cannot hide behind the same mistake here.
// Sequential, it is the lab's in-place loop as it runs on the microcontroller.

#include "boids/fix15.hpp"
#include "boids/scalar.hpp"
#include "boids/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>
#include <vector>

namespace boids {

namespace {

template <class Real>
Real nearest_image(Real d, Real length) {
    if (d > length / Real(2)) {
        return d - length;
    }
    if (d < -length / Real(2)) {
        return d + length;
    }
    return d;
}

template <class Real>
Real wrap_into(Real p, Real length) {
    if (p >= Real(0) && p < length) {
        return p;
    }
    Real w;
    if constexpr (std::is_floating_point_v<Real>) {
        w = p - length * std::floor(p / length);
    } else {
        const double d = static_cast<double>(p), l = static_cast<double>(length);
        w = ScalarTraits<Real>::from_double(d - l * std::floor(d / l));
    }
    return (w >= length || w < Real(0)) ? Real(0) : w;
}

/// One brute-force step. Synchronous: every agent reads a copy of the previous state. In place: agents
/// read the live arrays, so agent i sees agents 0..i-1 already moved.
template <class Real>
void brute_force_step(World<Real>& world, const Params& p, bool in_place) {
    using T = ScalarTraits<Real>;
    const auto R = [](double v) { return T::from_double(v); };
    const bool wrap = p.boundary == Boundary::Wrap;
    const bool solid = p.dimensions == 3; // a third axis: z, vz, front and back margins
    const Real W = R(p.width), H = R(p.height), D = R(p.depth);
    const std::size_t n = world.size();
    if (solid) {
        conform_dimensions(world, p);
    }
    if (wrap) {
        for (std::size_t i = 0; i < n; ++i) {
            world.x[i] = wrap_into(world.x[i], W);
            world.y[i] = wrap_into(world.y[i], H);
            if (solid) {
                world.z[i] = wrap_into(world.z[i], D);
            }
        }
    }
    const auto z_of = [&](const World<Real>& w, std::size_t i) { return solid ? w.z[i] : Real(0); };
    const auto vz_of = [&](const World<Real>& w, std::size_t i) { return solid ? w.vz[i] : Real(0); };
    World<Real> previous;
    if (!in_place) {
        previous = world; // synchronous update: everyone reads the previous step
    }
    const World<Real>& old = in_place ? world : previous;

    const Real visual = R(p.visual_range), protect = R(p.protected_range), pred = R(p.predator_range);
    const bool predators_first = p.predator_order == PredatorOrder::BeforeFlocking;
    for (std::size_t i = 0; i < n; ++i) {
        const Real x = old.x[i], y = old.y[i], z = z_of(old, i);
        Real vx = old.vx[i], vy = old.vy[i], vz = vz_of(old, i), bias = old.bias[i];
        const Kind kind = old.kind[i];
        // Agent i minus agent j (on a torus: the nearest image).
        const auto offset = [&](std::size_t j, Real& dx, Real& dy, Real& dz) {
            dx = x - old.x[j];
            dy = y - old.y[j];
            dz = z - z_of(old, j);
            if (wrap) {
                dx = nearest_image(dx, W);
                dy = nearest_image(dy, H);
                if (solid) {
                    dz = nearest_image(dz, D);
                }
            }
        };
        // 5. Predators: turn away from those within range, by the sign of the summed offsets.
        const auto flee = [&] {
            Real pdx(0), pdy(0), pdz(0);
            long long m = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (old.kind[j] != Kind::Predator) {
                    continue;
                }
                Real dx(0), dy(0), dz(0);
                offset(j, dx, dy, dz);
                if (T::abs(dx) < pred && T::abs(dy) < pred && T::abs(dz) < pred &&
                    dx * dx + dy * dy + dz * dz < pred * pred) {
                    pdx = pdx + dx;
                    pdy = pdy + dy;
                    pdz = pdz + dz;
                    m += 1;
                }
            }
            if (m > 0) {
                const Real kick = R(p.predator_turn_factor);
                if (pdz > Real(0)) {
                    vz = vz + kick;
                }
                if (pdz < Real(0)) {
                    vz = vz - kick;
                }
                if (pdy > Real(0)) {
                    vy = vy + kick;
                }
                if (pdy < Real(0)) {
                    vy = vy - kick;
                }
                if (pdx > Real(0)) {
                    vx = vx + kick;
                }
                if (pdx < Real(0)) {
                    vx = vx - kick;
                }
            }
        };
        if (kind != Kind::Predator && predators_first) { // the ECE 4760 lab page's order
            flee();
        }
        if (kind != Kind::Predator) {
            // 1. Neighbours.
            Real xpos_avg(0), ypos_avg(0), xvel_avg(0), yvel_avg(0), close_dx(0), close_dy(0);
            Real zpos_avg(0), zvel_avg(0), close_dz(0);
            long long neighboring = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (j == i || old.kind[j] == Kind::Predator) {
                    continue;
                }
                Real dx(0), dy(0), dz(0);
                offset(j, dx, dy, dz);
                // Field of view: the neighbour must lie within fov_angle / 2 of the velocity.
                bool in_view = true;
                if (p.fov_angle < 360.0) {
                    // (the velocity the step started with, also when predators kicked it first)
                    const double vxd = static_cast<double>(old.vx[i]), vyd = static_cast<double>(old.vy[i]);
                    const double vzd = static_cast<double>(vz_of(old, i));
                    const double tx = -static_cast<double>(dx), ty = -static_cast<double>(dy);
                    const double tz = -static_cast<double>(dz);
                    const double norms =
                        std::sqrt((vxd * vxd + vyd * vyd + vzd * vzd) * (tx * tx + ty * ty + tz * tz));
                    in_view = norms == 0.0 || vxd * tx + vyd * ty + vzd * tz >=
                                                  norms * std::cos(p.fov_angle * std::numbers::pi / 360.0);
                }
                if (T::abs(dx) < visual && T::abs(dy) < visual && T::abs(dz) < visual && in_view) {
                    const Real d2 = dx * dx + dy * dy + dz * dz;
                    if (d2 < protect * protect) {
                        close_dx = close_dx + dx;
                        close_dy = close_dy + dy;
                        close_dz = close_dz + dz;
                    } else if (d2 < visual * visual) {
                        xpos_avg = xpos_avg + (wrap ? x - dx : old.x[j]);
                        ypos_avg = ypos_avg + (wrap ? y - dy : old.y[j]);
                        xvel_avg = xvel_avg + old.vx[j];
                        yvel_avg = yvel_avg + old.vy[j];
                        if (solid) {
                            zpos_avg = zpos_avg + (wrap ? z - dz : old.z[j]);
                            zvel_avg = zvel_avg + old.vz[j];
                        }
                        neighboring += 1;
                    }
                }
            }
            // 2. Cohesion and alignment.
            if (neighboring > 0) {
                xpos_avg = T::divide_by_count(xpos_avg, neighboring);
                ypos_avg = T::divide_by_count(ypos_avg, neighboring);
                xvel_avg = T::divide_by_count(xvel_avg, neighboring);
                yvel_avg = T::divide_by_count(yvel_avg, neighboring);
                vx = vx + (xpos_avg - x) * R(p.centering_factor) + (xvel_avg - vx) * R(p.matching_factor);
                vy = vy + (ypos_avg - y) * R(p.centering_factor) + (yvel_avg - vy) * R(p.matching_factor);
                if (solid) {
                    zpos_avg = T::divide_by_count(zpos_avg, neighboring);
                    zvel_avg = T::divide_by_count(zvel_avg, neighboring);
                    vz = vz + (zpos_avg - z) * R(p.centering_factor) + (zvel_avg - vz) * R(p.matching_factor);
                }
            }
            // 3. Separation.
            vx = vx + close_dx * R(p.avoid_factor);
            vy = vy + close_dy * R(p.avoid_factor);
            vz = vz + close_dz * R(p.avoid_factor);
        }
        // 4. Edges (boids and predators alike).
        if (!wrap) {
            if (y < R(p.margin_top)) {
                vy = vy + R(p.turn_factor);
            }
            if (x > R(p.width - p.margin_right)) {
                vx = vx - R(p.turn_factor);
            }
            if (x < R(p.margin_left)) {
                vx = vx + R(p.turn_factor);
            }
            if (y > R(p.height - p.margin_bottom)) {
                vy = vy - R(p.turn_factor);
            }
            if (solid && z < R(p.margin_front)) {
                vz = vz + R(p.turn_factor);
            }
            if (solid && z > R(p.depth - p.margin_back)) {
                vz = vz - R(p.turn_factor);
            }
        }
        if (kind != Kind::Predator) {
            if (!predators_first) { // 5. Predators (Adams' VGA predator page's order).
                flee();
            }
            // 6. Dynamic bias. 7. Scout bias.
            if (kind == Kind::Scout1 || kind == Kind::Scout2) {
                const bool its_way = kind == Kind::Scout1 ? vx > Real(0) : vx < Real(0);
                if (p.dynamic_bias) {
                    bias = its_way ? std::min(R(p.max_bias), bias + R(p.bias_increment))
                                   : std::max(R(p.bias_increment), bias - R(p.bias_increment));
                }
                const Real target = kind == Kind::Scout1 ? Real(1) : Real(-1);
                vx = (Real(1) - bias) * vx + bias * target;
            }
        }
        // 8. Speed limits.
        Real speed = T::sqrt(vx * vx + vy * vy + vz * vz);
        if (p.speed_estimate == SpeedEstimate::AlphaMaxBetaMin) {
            const Real big = std::max(T::abs(vx), T::abs(vy)), small = std::min(T::abs(vx), T::abs(vy));
            speed = R(alpha_max_beta_min_alpha) * big + R(alpha_max_beta_min_beta) * small;
        }
        if (speed == Real(0)) {
            vx = R(p.min_speed);
            vy = Real(0);
            vz = Real(0);
        } else if (speed < R(p.min_speed)) {
            vx = (vx / speed) * R(p.min_speed);
            vy = (vy / speed) * R(p.min_speed);
            vz = (vz / speed) * R(p.min_speed);
        } else if (speed > R(p.max_speed)) {
            vx = (vx / speed) * R(p.max_speed);
            vy = (vy / speed) * R(p.max_speed);
            vz = (vz / speed) * R(p.max_speed);
        }
        // 9. Move.
        Real nx = x + vx, ny = y + vy, nz = z + vz;
        if (wrap) {
            nx = wrap_into(nx, W);
            ny = wrap_into(ny, H);
            if (solid) {
                nz = wrap_into(nz, D);
            }
        }
        world.x[i] = nx;
        world.y[i] = ny;
        if (solid) {
            world.z[i] = nz;
            world.vz[i] = vz;
        }
        world.vx[i] = vx;
        world.vy[i] = vy;
        world.bias[i] = bias;
    }
}

} // namespace

template <class Real>
void reference_step(World<Real>& world, const Params& params) {
    brute_force_step(world, params, false);
}

template <class Real>
void sequential_step(World<Real>& world, const Params& params) {
    brute_force_step(world, params, true);
}

template void reference_step(World<float>&, const Params&);
template void reference_step(World<double>&, const Params&);
template void reference_step(World<Fix15>&, const Params&);
template void sequential_step(World<float>&, const Params&);
template void sequential_step(World<double>&, const Params&);
template void sequential_step(World<Fix15>&, const Params&);

} // namespace boids
