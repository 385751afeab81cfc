#pragma once
// Vicsek et al. 1995, "Novel type of phase transition in a system of self-driven particles": constant
// speed, the mean heading of the neighbours within a radius, uniform angular noise (docs/MODEL.md §6).

#include "heading.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids {

/// Vicsek's own parameter (keys below).
struct VicsekParams {
    static constexpr Model model = Model::Vicsek;
    double interaction_radius = 1.0; ///< neighbours closer than this (self included) are averaged
    bool operator==(const VicsekParams&) const = default;
};

} // namespace boids

namespace boids::vicsek {

/// Heading = mean heading of the neighbours within interaction_radius, self included, plus uniform angle
/// noise in [-noise / 2, noise / 2].
template <class Real>
struct Policy : heading::ConstantSpeed<Real> {
    using Base = heading::ConstantSpeed<Real>;
    using T = ScalarTraits<Real>;
    using Base::params;

    struct Sums {
        double sx = 0.0, sy = 0.0; ///< sum of unit headings
    };

    Policy(const Params& p, long long step_index)
        : Base(p, step_index), r2(square(models::own<VicsekParams>(p).interaction_radius)) {}

    static double square(double x) { return x * x; }

    static void add_heading(Sums& s, double vx, double vy) {
        const double speed = angle::length(vx, vy);
        if (speed > 0.0) {
            s.sx += vx / speed;
            s.sy += vy / speed;
        }
    }

    /// Self first, then the neighbours in the grid's fixed order.
    void start(Sums& s, const Agent<Real>& a) const {
        add_heading(s, T::to_double(a.vx), T::to_double(a.vy));
    }

    void accumulate(Sums& s, const Agent<Real>& a, const Neighbour<Real>& n) const {
        const heading::Offset d = heading::offset(a, n);
        if (d.dx * d.dx + d.dy * d.dy < r2) {
            add_heading(s, T::to_double(n.vx), T::to_double(n.vy));
        }
    }

    /// The angle of the sum (0 if it is zero), given atan2(sy, sx).
    static double mean_angle(const Sums& s, double atan2) {
        return (s.sx == 0.0 && s.sy == 0.0) ? 0.0 : atan2;
    }

    /// The noise an agent's heading takes, eta (u - 1/2).
    double noise_angle(std::uint32_t id) const {
        return noise_angle_by(noise::uniform01(this->noise_key, id, 0));
    }

    /// The noise of a uniform draw u in [0, 1).
    double noise_angle_by(double u) const { return params.heading.noise * (u - 0.5); }

    void steer(const Sums& s, Agent<Real>& a) const {
        this->fly(a, mean_angle(s, angle::atan2(s.sy, s.sx)) + noise_angle(a.id));
    }

    double r2;
};

} // namespace boids::vicsek

namespace boids::models {

struct Vicsek {
    static constexpr Model id = Model::Vicsek;
    static constexpr std::string_view name = "vicsek";
    static constexpr std::string_view title = "Vicsek";
    using Own = VicsekParams; ///< the parameters it keeps for itself
    static constexpr ModelAbilities abilities{};

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {heading_speed_key, bit(Model::Couzin)},
        {{"interaction_radius", 0, range_max, "vicsek: neighbours closer than this (self included) are averaged", own_field<&VicsekParams::interaction_radius>, "interaction radius", 0, 50}},
        {heading_noise_key, bit(Model::Couzin)},
        {noise_seed_key, bit(Model::Couzin)},
    });
    // clang-format on

    static void validate(const Params&) {}
    static double grid_range(const Params& p) { return own<VicsekParams>(p).interaction_radius; }
    static double link_range(const Params& p) { return own<VicsekParams>(p).interaction_radius; }

    template <class Real>
    static vicsek::Policy<Real> policy(const Params& p, const classic::Constants<Real>&, long long step) {
        return vicsek::Policy<Real>(p, step);
    }
};

} // namespace boids::models
