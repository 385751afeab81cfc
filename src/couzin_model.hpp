#pragma once
// Couzin, Krause, Franks & Levin 2005 (internal): zone of repulsion (repulsion_radius, alpha) overrides
// everything; otherwise an agent heads toward the neighbours within attraction_radius (rho) and along
// their headings (its own included). Informed agents add informed_weight (omega) times their preferred
// direction g: scout1 prefers +x, scout2 prefers -x, boids are uninformed. The desired direction is
// rotated by Gaussian noise (std dev `noise`), then the heading turns toward it by at most turn_rate.
// Agents move at constant `speed`.

#include "heading_models.hpp"

namespace boids::couzin {

/// One synchronous step of every agent (predators, not part of the model, keep their velocity).
template <class Real>
void step(World<Real>& world, const Params& params, heading::StepContext<Real> context, StepProfile& profile);

} // namespace boids::couzin
