#pragma once
// The prefix sum of a parallel counting sort by cell (internal), shared by SpatialGrid::build and the fast
// step's sort.

#include <cstddef>
#include <cstdint>
#include <omp.h>

namespace boids::detail {

/// Turns counting-sort counters into scatter cursors; called by every thread of the team that counted
/// (it holds the team's barriers). Each cell has `groups` counters, taken in order: `counter(cell, k)` is
/// the k-th (a reference). The exclusive prefix sum runs in the order (cell, then k), each thread over its
/// contiguous share of the cells: first its share's total into chunk_total[thread], then, after a barrier,
/// the cursors. first[cell] becomes the cell's first slot and first[cells] the total; `at(cell, k, base)`
/// sees each counter's cursor as it is set. Returns after a final barrier, when every cursor is set.
template <class Counter, class At>
void prefix_cursors(std::size_t cells, std::size_t groups, std::uint32_t* first, std::uint32_t* chunk_total,
                    Counter&& counter, At&& at) {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto nt = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t begin = cells * t / nt, end = cells * (t + 1) / nt;
    std::uint32_t total = 0;
    for (std::size_t cell = begin; cell < end; ++cell) {
        for (std::size_t k = 0; k < groups; ++k) {
            total += counter(cell, k);
        }
    }
    chunk_total[t] = total;
#pragma omp barrier
    std::uint32_t base = 0;
    for (std::size_t u = 0; u < t; ++u) {
        base += chunk_total[u];
    }
    for (std::size_t cell = begin; cell < end; ++cell) {
        first[cell] = base;
        for (std::size_t k = 0; k < groups; ++k) {
            at(cell, k, base);
            std::uint32_t& cursor = counter(cell, k);
            const std::uint32_t count = cursor;
            cursor = base;
            base += count;
        }
    }
    if (t + 1 == nt) {
        first[cells] = base;
    }
#pragma omp barrier
}

} // namespace boids::detail
