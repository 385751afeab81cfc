#pragma once
// Which of an agent's candidates lie within a range, in SIMD lanes (internal): the filter the weighted
// model's fast pass (src/models/weighted_fast.hpp) runs before its sums. Compiled once per instruction set by
// Highway and dispatched at run time, like the fast step's kernel. The offsets and squared distances are
// the plain path's to the bit (heading::offset: the neighbour's nearest image in the storage type, minus
// the agent, each in double; dx * dx + dy * dy without FMA), and the list keeps the candidates' order.

#include <cstddef>
#include <cstdint>

namespace boids::fast {

/// A planar grid's slot copies and its torus, as the filter reads them.
template <class Real>
struct InRangeGrid {
    const Real* x = nullptr;
    const Real* y = nullptr;
    bool wrap = false;
    Real width{}, height{}, half_width{}, half_height{}; ///< the torus (wrap only), as Geometry holds it
    double range2 = 0.0;                                 ///< candidates with dx^2 + dy^2 < range2 are kept
};

/// Runs of consecutive candidate slots [begin[k], end[k]), k < count, in the order the plain path visits
/// them (SpatialGrid::for_each_candidate_run); at most 9.
struct CandidateRuns {
    std::uint32_t begin[9], end[9];
    int count = 0;
    /// The candidates in all runs.
    [[nodiscard]] std::size_t total() const {
        std::size_t n = 0;
        for (int k = 0; k < count; ++k) {
            n += end[k] - begin[k];
        }
        return n;
    }
};

/// Entries past the candidates that the filter may write (a run's last vector, read ending at its last
/// slot, stores whole vectors of lanes at the list's end).
inline constexpr std::size_t in_range_list_padding = 16;

/// Where the filter writes: room for every candidate of the runs (CandidateRuns::total()) plus
/// in_range_list_padding. dx, dy and d2 are nullptr (all three) when the slots alone are wanted.
struct InRangeList {
    std::uint32_t* slot;
    double *dx, *dy, *d2;
};

/// Writes the candidates of `runs` other than slot `self` that lie within the range of the agent at
/// (ax, ay), in run order, with their offsets (neighbour minus agent) and squared distances; returns how
/// many.
std::size_t in_range(const InRangeGrid<float>& grid, float ax, float ay, std::uint32_t self,
                     const CandidateRuns& runs, const InRangeList& out);
std::size_t in_range(const InRangeGrid<double>& grid, double ax, double ay, std::uint32_t self,
                     const CandidateRuns& runs, const InRangeList& out);

} // namespace boids::fast
