#pragma once
// What the constant-speed heading models (Vicsek et al. 1995, Couzin et al. 2005) share (internal): their
// speed, their noise and its seed, and the policy base that flies at that speed. Both steer by heading
// angle, take their noise from counter-based draws (counter_noise.hpp), and leave predators, which are not
// part of these models, on their course. Their trigonometry is done in double whatever the storage type,
// with the engine's own functions (angle_math.hpp), and their lengths are square roots of sums of squares,
// so a step gives the same bits with every C library, and in SIMD lanes. Both are planar (validate()
// refuses them in 3D).

#include "../angle_math.hpp"
#include "../counter_noise.hpp"
#include "../neighbour_pass_types.hpp"
#include "key_table.hpp"

#include <array>
#include <cmath>
#include <cstdint>

namespace boids::models {

template <auto Member>
double& heading_field(Params& p) {
    return p.heading.*Member;
}

// clang-format off
/// Keys of both heading models (each lists them with `also` naming the other).
inline constexpr NumberKey heading_speed_key{"speed", 0, speed_max, "vicsek, couzin: constant speed per step", heading_field<&HeadingParams::speed>, "speed", 0, 10};
inline constexpr NumberKey heading_noise_key{"noise", 0, two_pi, "vicsek: width eta of the uniform angle noise; couzin: std dev of the angle noise (rad)", heading_field<&HeadingParams::noise>, "noise"};
inline constexpr NumberKey noise_seed_key{"noise_seed", 0, seed_max, "vicsek, couzin: integer seed of the noise (the CLI sets it from --seed)", field<&Params::noise_seed>, "noise seed", 0, 1e6, SliderScale::Linear, true};
// clang-format on

} // namespace boids::models

namespace boids::heading {

/// Neighbour minus agent in double (on a torus the neighbour's position is already its image nearest to
/// the agent: see Neighbour).
struct Offset {
    double dx, dy;
};

template <class Real>
Offset offset(const Agent<Real>& a, const Neighbour<Real>& n) {
    using T = ScalarTraits<Real>;
    return {T::to_double(n.x) - T::to_double(a.x), T::to_double(n.y) - T::to_double(a.y)};
}

/// What both models share: the constants of a step and flying on at `speed` along an angle.
template <class Real>
struct ConstantSpeed {
    using T = ScalarTraits<Real>;
    static constexpr NeighbourQuery query = NeighbourQuery::InRange;
    static constexpr bool predators_keep_course = true; ///< predators are not part of these models

    ConstantSpeed(const Params& p, long long step_index)
        : params(p), noise_key(noise::step_key(static_cast<std::uint64_t>(p.noise_seed),
                                               static_cast<std::uint64_t>(step_index))) {}

    void accumulate_predator(auto&, const Agent<Real>&, const Neighbour<Real>&) const {}

    void fly(Agent<Real>& a, double angle) const { fly(a, angle::sin_cos(angle)); }

    /// Flies along the angle whose sine and cosine are `along`.
    void fly(Agent<Real>& a, angle::SinCos along) const {
        a.vx = T::from_double(params.heading.speed * along.cos);
        a.vy = T::from_double(params.heading.speed * along.sin);
    }

    const Params& params;
    std::uint64_t noise_key; ///< the step's noise key (counter_noise.hpp), from the noise seed and the step
};

} // namespace boids::heading
