#pragma once
// The weighted model's fast pass (internal; slot_order_pass.hpp). What the plain path computes up to six
// times per candidate (the offset's length, for each neighbourhood's radius and angle) is computed once, a
// neighbour's unit heading once per step, and the angle's acos only when the cosine lies within 1e-9 of a
// neighbourhood's limit: elsewhere acos is monotonic and accurate far beyond that margin, so the side of
// the limit is known without it. The agents run in cell order and the sums in the plain path's order: the
// same bits as weighted::Policy on the plain path.

#include "../slot_order_pass.hpp"
#include "weighted.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace boids::weighted {

/// One neighbourhood of the weighted model: a radius and a half-angle around the velocity.
struct Neighbourhood {
    double radius, angle;
    double cos_below, cos_above; ///< cosines certainly beyond, certainly within the half-angle

    Neighbourhood(double r, double half_angle)
        : radius(r), angle(half_angle), cos_below(std::cos(half_angle) - 1e-9),
          cos_above(std::cos(half_angle) + 1e-9) {}

    /// Policy::in_view for an offset of length `length` whose cosine with the velocity is `cosine` (not
    /// clamped yet; unused unless `turning`: the velocity and the offset are non-zero).
    [[nodiscard]] bool sees(double length, bool turning, double cosine) const {
        const double c = cosine > 1 ? 1 : (cosine < -1 ? -1 : cosine);
        bool within = !turning || c >= cos_above;
        if (turning && !within && c > cos_below) [[unlikely]] {
            within = !(std::acos(c) > angle);
        }
        return !(length > radius) && within;
    }
};

/// The neighbour phase of a weighted step (as neighbour_pass with weighted::Policy), on the flock grid's
/// slots.
template <class Real, class Next>
void fast_pass(const Policy<Real>& policy, FastPass<Real, Next>& pass) {
    const SpatialGrid<Real>& flock = pass.flock;
    const Geometry<Real>& geo = pass.geo;
    SlotColumnStore& columns = pass.columns;
    const auto slots = static_cast<std::uint32_t>(flock.size());
    columns.resize(3, slots);
    double* const ux = columns.column(0);
    double* const uy = columns.column(1);
    double* const uz = columns.column(2);
#pragma omp parallel for num_threads(pass.threads) schedule(static)
    for (std::uint32_t s = 0; s < slots; ++s) {
        const Vec3 u = unit(Vec3{static_cast<double>(flock.vx(s)), static_cast<double>(flock.vy(s)),
                                 static_cast<double>(flock.vz(s))});
        ux[s] = u.x;
        uy[s] = u.y;
        uz[s] = u.z;
    }
    const WeightedParams& own = policy.own;
    const Neighbourhood center(own.center_radius, own.center_angle);
    const Neighbourhood avoid(own.avoid_radius, own.avoid_angle);
    const Neighbourhood align(own.align_radius, own.align_angle);
    // Beyond every radius for certain (sqrt is correctly rounded; the margin is far above its error).
    const double reach = std::max({own.center_radius, own.avoid_radius, own.align_radius}) * (1 + 1e-9);
    const double beyond2 = reach * reach;
    // In a plane the SIMD filter first drops the candidates beyond every radius: it keeps those closer
    // than the largest radius plus 1e-6 of it in its double offsets, which differ from the storage type's
    // offsets below by a rounding of the latter (a relative 6e-8 in f32), so it keeps every candidate a
    // neighbourhood takes, in the same order (and, with every radius 0, those on top of the agent).
    const double filter_reach =
        std::max({own.center_radius, own.avoid_radius, own.align_radius}) * (1 + 1e-6);
    const fast::InRangeGrid<Real> grid = in_range_grid(
        flock, geo, std::nextafter(filter_reach * filter_reach, std::numeric_limits<double>::infinity()));
    slot_order_pass<Policy<Real>, InRangeScratch>(
        pass, [&](std::uint32_t self, Agent<Real>& a, InRangeScratch& scratch) {
            typename Policy<Real>::Sums s;
            const Vec3 pos = Policy<Real>::position(a);
            const Vec3 v = Policy<Real>::heading(a);
            const double speed = v.norm();
            const auto visit = [&](std::uint32_t k) { // Policy::accumulate
                if (k == self) {
                    return;
                }
                const Neighbour<Real> n = geo.neighbour(a, flock.x(k), flock.y(k), flock.z(k), flock.vx(k),
                                                        flock.vy(k), flock.vz(k), flock.agent(k));
                const Vec3 offset{-static_cast<double>(n.dx), -static_cast<double>(n.dy),
                                  -static_cast<double>(n.dz)};
                const double squared = offset.x * offset.x + offset.y * offset.y + offset.z * offset.z;
                if (squared > beyond2) {
                    return;
                }
                const double length = std::sqrt(squared); // offset.norm()
                const bool turning = speed != 0 && length != 0;
                const double cosine = turning ? v.dot(offset) / (speed * length) : 0.0;
                const Vec3 neighbour_at = pos + offset;
                // The sums take +0 where a neighbourhood does not see the neighbour, which leaves them as
                // they are (they start at +0 and so are never -0): no branch to mispredict.
                const auto add_if = [](Vec3& sum, int& count, bool seen, Vec3 term) {
                    sum = sum + Vec3{seen ? term.x : 0.0, seen ? term.y : 0.0, seen ? term.z : 0.0};
                    count += seen ? 1 : 0;
                };
                add_if(s.center_sum, s.center_count, center.sees(length, turning, cosine), neighbour_at);
                add_if(s.avoid_sum, s.avoid_count, avoid.sees(length, turning, cosine), neighbour_at);
                add_if(s.align_sum, s.align_count, align.sees(length, turning, cosine),
                       Vec3{ux[k], uy[k], uz[k]});
            };
            if (geo.three_d) {
                flock.for_each_candidate(a.x, a.y, a.z, visit);
            } else {
                const auto [near, count] = candidates_in_range(flock, grid, self, a, scratch, false);
                for (std::size_t k = 0; k < count; ++k) {
                    visit(near.slot[k]);
                }
            }
            policy.steer(s, a);
        });
}

} // namespace boids::weighted
