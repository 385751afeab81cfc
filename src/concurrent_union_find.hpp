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
///
/// Two ways in: find() and unite() may run on any threads at once (relaxed atomic loads, stores and
/// compare-and-swap, through std::atomic_ref); the *_owned ones and owned_parents() are plain loads and
/// stores, for a thread that alone touches every slot of the sets involved while it calls them (a part of
/// the slots that no link has yet joined to another part). The two never run at the same time on the same
/// slots: the caller separates them by a barrier.
class ConcurrentUnionFind {
public:
    /// Sets over `n` slots, uninitialised: make_set(a) for every slot before any other call.
    explicit ConcurrentUnionFind(std::size_t n) : parent_(new std::uint32_t[n]) {}

    /// Makes `a` a set of its own (threads may share the slots out, before any of them links).
    void make_set(std::uint32_t a) { parent_[a] = a; }

    /// The parent of `a` (a itself for a root), as last written: a hint that may be stale.
    [[nodiscard]] std::uint32_t parent(std::uint32_t a) const {
        return shared(a).load(std::memory_order_relaxed);
    }

    std::uint32_t find(std::uint32_t a) {
        for (;;) {
            std::uint32_t p = shared(a).load(std::memory_order_relaxed);
            if (p == a) {
                return a;
            }
            const std::uint32_t grand = shared(p).load(std::memory_order_relaxed);
            if (grand != p) {
                // Path halving, by a plain store: a is no root (only roots are linked, by compare-and-swap),
                // so no link can be lost, and whichever ancestor another thread's halving wrote stays an
                // ancestor (links are never undone).
                shared(a).store(grand, std::memory_order_relaxed);
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
            if (shared(a).compare_exchange_strong(expected, b, std::memory_order_relaxed)) {
                return b;
            }
        }
    }

    /// Every slot's parent, for a thread reading slots it owns (see the class comment).
    [[nodiscard]] const std::uint32_t* owned_parents() const { return parent_.get(); }

    /// find(), on slots the calling thread owns.
    std::uint32_t find_owned(std::uint32_t a) {
        while (parent_[a] != a) {
            a = parent_[a] = parent_[parent_[a]]; // path halving
        }
        return a;
    }

    /// unite(), on slots the calling thread owns.
    std::uint32_t unite_owned(std::uint32_t a, std::uint32_t b) {
        a = find_owned(a);
        b = find_owned(b);
        if (a < b) {
            std::swap(a, b);
        }
        parent_[a] = b; // the larger root under the smaller (a == b: a root stays its own parent)
        return b;
    }

    /// True if `a` is the root of its set: counting the roots counts the sets. Call once every link is made.
    [[nodiscard]] bool is_root(std::uint32_t a) const { return parent_[a] == a; }

private:
    [[nodiscard]] std::atomic_ref<std::uint32_t> shared(std::uint32_t a) const {
        return std::atomic_ref<std::uint32_t>(parent_[a]);
    }

    std::unique_ptr<std::uint32_t[]> parent_;
};

} // namespace boids::detail
