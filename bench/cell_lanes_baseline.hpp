#pragma once
// The yardstick of the fast path's speed (docs/PERFORMANCE.md §3.1, "The 2D step against a straightforward
// cell-lanes kernel"): the classic model on a torus as a straightforward SIMD kernel computes it. Each step
// sorts the flock into cells (a counting sort), then takes each cell's agents in the lanes of a vector (or
// of several) against every agent of the 3 x 3 cells around it, sums under masks, and applies the rules in
// lanes. It leaves out what the fast path adds to that design: tiles across cells, candidates culled to a
// tile's reach, the flock kept in cell order between steps with the move fused into the pass, and the plain
// path's bits (its sums run in another order: the same rules, not the same rounding).
//
// Not a product path: boids_bench times it beside the fast step (CellLanesBaseline, FastStepOneThread), on
// the SIMD target BOIDS_SIMD_TARGET names, and tests/bench holds it to the plain path's rules.

#include "boids/params.hpp"
#include "boids/world.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids::bench {

class CellLanesBaseline {
public:
    /// The flocking agents of `world` on the torus of `p`. Throws InputError unless the world wraps, is
    /// planar, holds flocking agents only, the rules are those the kernel computes (exact speeds, no field
    /// of view, line of sight, gravity, obstacles, food or perching) and the torus spans at least 3 x 3
    /// cells of the visual range.
    CellLanesBaseline(const Params& p, const World<float>& world);

    /// One step of every agent, on one thread.
    void step();

    /// The agents in world order (for tests: not timed).
    [[nodiscard]] World<float> world() const;

    [[nodiscard]] std::size_t size() const { return agent_.size(); }

private:
    Params params_;
    int nx_ = 0, ny_ = 0;
    float cell_w_ = 0, cell_h_ = 0;
    // The state, in the order of the last sort (a vector of padding past the end: whole vectors load and
    // store there), and each slot's world index.
    std::vector<float> x_, y_, vx_, vy_;
    std::vector<std::uint32_t> agent_;
    // The sort's output, which the step reads, and the next state, which it writes.
    std::vector<float> sx_, sy_, svx_, svy_;
    std::vector<std::uint32_t> sagent_;
    std::vector<std::uint32_t> cell_of_, cell_start_;
};

} // namespace boids::bench
