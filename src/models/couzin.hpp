#pragma once
// Couzin et al. 2005, "Effective leadership and decision-making in animal groups on the move": zones of
// repulsion, orientation and attraction, a turning limit, and informed agents (docs/MODEL.md §7).

#include "../heading_policies.hpp"
#include "../text.hpp"
#include "boids/error.hpp"
#include "heading.hpp"
#include "key_table.hpp"

#include <array>
#include <string_view>

namespace boids::models {

struct Couzin {
    static constexpr Model id = Model::Couzin;
    static constexpr std::string_view name = "couzin";
    static constexpr std::string_view title = "Couzin";
    static constexpr ModelAbilities abilities{};

    template <auto Member>
    static double& own(Params& p) {
        return p.couzin.*Member;
    }

    // clang-format off
    static constexpr auto keys = std::to_array<ModelKey>({
        {heading_speed_key, bit(Model::Vicsek)},
        {heading_noise_key, bit(Model::Vicsek)},
        {{"repulsion_radius", 0, range_max, "couzin: zone of repulsion alpha (<= attraction_radius)", own<&CouzinParams::repulsion_radius>, "repulsion radius", 0, 50}},
        {{"attraction_radius", 0, range_max, "couzin: zone of orientation and attraction rho", own<&CouzinParams::attraction_radius>, "attraction radius", 0, 100}},
        {{"turn_rate", 0, pi, "couzin: largest heading change per step (rad)", own<&CouzinParams::turn_rate>, "turn rate (rad)"}},
        {{"informed_weight", 0, 1000, "couzin: omega, weight of an informed agent's preferred direction", own<&CouzinParams::informed_weight>, "informed weight", 0, 10}},
        {noise_seed_key, bit(Model::Vicsek)},
    });
    // clang-format on

    static void validate(const Params& p) {
        if (p.couzin.repulsion_radius > p.couzin.attraction_radius) {
            throw InputError(invalid_value_message(
                "repulsion_radius", text::shortest(p.couzin.repulsion_radius),
                "must not exceed attraction_radius = " + text::shortest(p.couzin.attraction_radius)));
        }
    }
    static double grid_range(const Params& p) { return p.couzin.attraction_radius; }
    static double link_range(const Params& p) { return p.couzin.attraction_radius; }

    template <class Real>
    static couzin::Policy<Real> policy(const Params& p, const classic::Constants<Real>&, long long step) {
        return couzin::Policy<Real>(p, step);
    }
};

} // namespace boids::models
