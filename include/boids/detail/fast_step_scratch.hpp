#pragma once
/// Storage of the fast classic step (src/fast_classic_step.hpp), held by Simulation. Internal: the
/// header exists only so that Simulation can own the fast path's state without exposing it.

#include "boids/fix15.hpp"
#include "boids/world.hpp"

#include <memory>

namespace boids::detail {

template <class Real>
class FastClassicStep;

/// Owns a FastClassicStep created on first use; copies are deep (the fast step may hold the flock's
/// current state, see FastClassicStep::sync).
template <class Real>
class FastStepScratch {
public:
    FastStepScratch();
    FastStepScratch(const FastStepScratch& other);
    FastStepScratch& operator=(const FastStepScratch& other);
    FastStepScratch(FastStepScratch&&) noexcept;
    FastStepScratch& operator=(FastStepScratch&&) noexcept;
    ~FastStepScratch();

    /// The fast step, created on first call.
    FastClassicStep<Real>& get();

    /// Writes the flock's state back into `world` if the fast step holds a newer one; with `release`,
    /// `world` becomes the only copy again (see FastClassicStep::sync).
    void sync(World<Real>& world, bool release, int threads);

private:
    std::unique_ptr<FastClassicStep<Real>> impl_;
};

/// Fixed point has no fast path (the lab's arithmetic is the point of it): an empty stand-in.
template <>
class FastStepScratch<Fix15> {};

} // namespace boids::detail
