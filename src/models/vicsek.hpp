#pragma once
// Vicsek et al. 1995, "Novel type of phase transition in a system of self-driven particles": constant
// speed, the mean heading of the neighbours within a radius, uniform angular noise (docs/MODEL.md §6).

#include "../heading_policies.hpp"
#include "heading.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids::models {

struct Vicsek {
    static constexpr Model id = Model::Vicsek;
    static constexpr std::string_view name = "vicsek";
    static constexpr std::string_view title = "Vicsek";
    static constexpr ModelAbilities abilities{};

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {heading_speed_key, bit(Model::Couzin)},
        {{"interaction_radius", 0, range_max, "vicsek: neighbours closer than this (self included) are averaged", field<&Params::vicsek, &VicsekParams::interaction_radius>, "interaction radius", 0, 50}},
        {heading_noise_key, bit(Model::Couzin)},
        {noise_seed_key, bit(Model::Couzin)},
    });
    // clang-format on

    static void validate(const Params&) {}
    static double grid_range(const Params& p) { return p.vicsek.interaction_radius; }
    static double link_range(const Params& p) { return p.vicsek.interaction_radius; }

    template <class Real>
    static vicsek::Policy<Real> policy(const Params& p, const classic::Constants<Real>&, long long step) {
        return vicsek::Policy<Real>(p, step);
    }
};

} // namespace boids::models
