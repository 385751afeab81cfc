#pragma once
// Vicsek et al. 1995 (internal): constant speed, heading = mean heading of the neighbours within
// interaction_radius (self included) plus uniform angle noise in [-noise/2, noise/2].

#include "heading_models.hpp"

namespace boids::vicsek {

/// One synchronous step of every agent. Flocking agents follow the Vicsek rule; predators, which are
/// not part of the model, keep their velocity. Fills the profile's phases.
template <class Real>
void step(World<Real>& world, const Params& params, heading::StepContext<Real> context, StepProfile& profile);

} // namespace boids::vicsek
