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

namespace boids::weighted {

/// One neighbourhood of the weighted model: a radius and a half-angle around the velocity.
struct Neighbourhood {
    double radius, angle;
    double cos_below, cos_above; ///< cosines certainly beyond, certainly within the half-angle

    Neighbourhood(double r, double half_angle)
        : radius(r), angle(half_angle), cos_below(std::cos(half_angle) - 1e-9),
          cos_above(std::cos(half_angle) + 1e-9) {}

    /// Policy::in_view for an offset of length `length` whose cosine with the velocity is `cosine()`
    /// (called at most once, and only for a non-zero velocity and offset: `turning` says which).
    template <class Cosine>
    [[nodiscard]] bool sees(double length, bool turning, double& cosine_memo, bool& cosine_known,
                            Cosine&& cosine) const {
        if (length > radius) {
            return false;
        }
        if (!turning) {
            return true; // angle_between is 0
        }
        if (!cosine_known) {
            cosine_memo = cosine();
            cosine_known = true;
        }
        const double c = cosine_memo > 1 ? 1 : (cosine_memo < -1 ? -1 : cosine_memo);
        if (c <= cos_below) {
            return false;
        }
        if (c >= cos_above) {
            return true;
        }
        return !(std::acos(c) > angle);
    }
};

/// The neighbour phase of a weighted step (as neighbour_pass with weighted::Policy), on the flock grid's
/// slots, using `columns` for the unit headings.
template <class Real, class Next>
void fast_pass(const World<Real>& w, const SpatialGrid<Real>& flock, const Geometry<Real>& geo,
               const Policy<Real>& policy, const predators::Behavior<Real>& hunter, SlotColumnStore& columns,
               Next& next, int threads, const std::uint32_t* ids) {
    const auto slots = static_cast<std::uint32_t>(flock.size());
    columns.resize(3, slots);
    double* const ux = columns.column(0);
    double* const uy = columns.column(1);
    double* const uz = columns.column(2);
#pragma omp parallel for num_threads(threads) schedule(static)
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
    struct NoScratch {};
    slot_order_pass<Real, Policy<Real>, NoScratch>(
        w, flock, geo, hunter, next, threads, ids, [&](std::uint32_t self, Agent<Real>& a, NoScratch&) {
            typename Policy<Real>::Sums s;
            const Vec3 pos = Policy<Real>::position(a);
            const Vec3 v = Policy<Real>::heading(a);
            const double speed = v.norm();
            flock.for_each_candidate(a.x, a.y, a.z, [&](std::uint32_t k) {
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
                double cosine = 0;
                bool known = false;
                const auto cosine_of = [&] { return v.dot(offset) / (speed * length); };
                const Vec3 neighbour_at = pos + offset;
                if (center.sees(length, turning, cosine, known, cosine_of)) {
                    s.center_sum = s.center_sum + neighbour_at;
                    ++s.center_count;
                }
                if (avoid.sees(length, turning, cosine, known, cosine_of)) {
                    s.avoid_sum = s.avoid_sum + neighbour_at;
                    ++s.avoid_count;
                }
                if (align.sees(length, turning, cosine, known, cosine_of)) {
                    s.align_sum = s.align_sum + Vec3{ux[k], uy[k], uz[k]};
                    ++s.align_count;
                }
            });
            policy.steer(s, a);
        });
}

} // namespace boids::weighted
