#pragma once
// What the constant-speed heading models (Vicsek, Couzin) share: their speed, their noise and its seed.

#include "key_table.hpp"

#include <array>

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
