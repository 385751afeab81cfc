#pragma once
// Disjoint sets over agent slots that threads link concurrently (internal), for counting groups.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace boids::detail {

/// One 32-bit parent per slot (O(N) memory, whatever the number of linked pairs). A root is only ever
/// linked under a smaller index (compare-and-swap, so only while it is still a root) and path halving only
/// moves a parent to an ancestor, so parent[i] <= i always holds and no cycle can form. The number of sets
/// is the number of connected components of the links, whatever order the threads add them in: the count
/// is deterministic.
class ConcurrentUnionFind {
public:
    ConcurrentUnionFind(std::size_t n, int threads)
        : parent_(std::make_unique<std::atomic<std::uint32_t>[]>(n)), size_(n) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::size_t i = 0; i < n; ++i) {
            parent_[i].store(static_cast<std::uint32_t>(i), std::memory_order_relaxed);
        }
    }

    /// The parent of `a` (a itself for a root), as last written: a hint that may be stale.
    [[nodiscard]] std::uint32_t parent(std::uint32_t a) const {
        return parent_[a].load(std::memory_order_relaxed);
    }

    std::uint32_t find(std::uint32_t a) {
        for (;;) {
            std::uint32_t p = parent_[a].load(std::memory_order_relaxed);
            if (p == a) {
                return a;
            }
            const std::uint32_t grand = parent_[p].load(std::memory_order_relaxed);
            if (grand != p) {
                // Path halving, by a plain store: a is no root (only roots are linked, by compare-and-swap),
                // so no link can be lost, and whichever ancestor another thread's halving wrote stays an
                // ancestor (links are never undone).
                parent_[a].store(grand, std::memory_order_relaxed);
            }
            a = grand;
        }
    }

    /// Unites the sets of `a` and `b`; returns the root it linked the other under (or their common root),
    /// a node of the united set.
    std::uint32_t unite(std::uint32_t a, std::uint32_t b) {
        for (;;) {
            a = find(a);
            b = find(b);
            if (a == b) {
                return a;
            }
            if (a < b) {
                std::swap(a, b);
            }
            std::uint32_t expected = a; // link the larger root under the smaller one if it is still a root
            if (parent_[a].compare_exchange_strong(expected, b, std::memory_order_relaxed)) {
                return b;
            }
        }
    }

    /// The number of sets. Call after every unite has finished (outside the parallel region).
    [[nodiscard]] long long roots(int threads) const {
        long long count = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : count)
        for (std::size_t i = 0; i < size_; ++i) {
            count += parent_[i].load(std::memory_order_relaxed) == i ? 1 : 0;
        }
        return count;
    }

private:
    std::unique_ptr<std::atomic<std::uint32_t>[]> parent_;
    std::size_t size_;
};

} // namespace boids::detail
