#pragma once
// A planar grid as the SIMD lanes kernels read it (internal; lane_vectors-inl.h): the grid's slot copies,
// its torus and a range, and the runs of candidate slots of a query, in the plain path's order.

#include <cstdint>

namespace boids::fast {

/// A planar grid's slot copies and its torus, and the range within which a candidate reaches an agent.
template <class Real>
struct InRangeGrid {
    const Real* x = nullptr;
    const Real* y = nullptr;
    bool wrap = false;
    Real width{}, height{}, half_width{}, half_height{}; ///< the torus (wrap only), as Geometry holds it
    double range2 = 0.0;    ///< candidates with dx^2 + dy^2 < range2 reach the agent
    std::uint32_t size = 0; ///< slots in x and y (a vector of candidates is read whole below it)
};

/// Runs of consecutive candidate slots [begin[k], end[k]), k < count, in the order the plain path visits
/// them (SpatialGrid::for_each_candidate_run); at most 9.
struct CandidateRuns {
    std::uint32_t begin[9], end[9];
    int count = 0;
    /// Known without looking at the positions: no candidate needs its nearest image for the query's
    /// agents (candidate_runs). False: it may, which the kernel checks.
    bool no_image = false;
};

} // namespace boids::fast
