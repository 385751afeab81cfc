#pragma once
/// A hash of a world's exact bits, for determinism checks.

#include "boids/world.hpp"

#include <cstdint>

namespace boids {

/// FNV-1a over every agent's kind and the bytes of x, y, vx, vy, bias, in agent order.
template <class Real>
[[nodiscard]] std::uint64_t state_hash(const World<Real>& world);

} // namespace boids
