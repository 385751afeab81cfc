#pragma once
// The fast classic step's column allocator (internal): each allocation starts at its own offset within a
// 4 KiB page. The step reads and writes many columns at one slot index together (the sort moves five to
// seven columns into as many others; the kernel writes four to six beside the ones it reads). Large
// blocks from the C library are whole pages plus a fixed header, so separately allocated columns would
// all start at the same offset in their pages: their entries at one index would fall in the same set of
// the L1 data cache (a 32 KiB, 8-way cache maps addresses 4 KiB apart to one set of eight lines), and
// more than eight such streams evict one another. docs/PERFORMANCE.md §4.7.

#include <atomic>
#include <cstddef>
#include <cstring>
#include <new>

namespace boids::detail {

/// std::allocator's interface; consecutive allocations start 256 bytes apart modulo a page (16 offsets),
/// and every block is aligned to a cache line.
template <class T>
class SpreadColumnAllocator {
public:
    using value_type = T;

    SpreadColumnAllocator() = default;
    template <class U>
    SpreadColumnAllocator(const SpreadColumnAllocator<U>&) noexcept {} // NOLINT: converting

    [[nodiscard]] T* allocate(std::size_t n) {
        const std::size_t offset = next_offset();
        auto* const block =
            static_cast<std::byte*>(::operator new (n * sizeof(T) + line + offset, std::align_val_t{line}));
        std::byte* const start = block + line + offset;
        // The block's own address, kept in the line before the column for deallocate().
        std::memcpy(start - sizeof block, &block, sizeof block);
        return reinterpret_cast<T*>(start);
    }

    void deallocate(T* p, std::size_t) noexcept {
        std::byte* block = nullptr;
        std::memcpy(&block, reinterpret_cast<std::byte*>(p) - sizeof block, sizeof block);
        ::operator delete (block, std::align_val_t{line});
    }

    /// Any instance frees what any other allocated: the offset is chosen per allocation.
    template <class U>
    bool operator==(const SpreadColumnAllocator<U>&) const noexcept {
        return true;
    }

private:
    static constexpr std::size_t line = 64;
    static constexpr std::size_t page = 4096;
    static constexpr std::size_t spread = 256;
    static_assert(spread % line == 0 && page % spread == 0 && alignof(T) <= line);

    static std::size_t next_offset() {
        static std::atomic<std::size_t> count{0};
        return count.fetch_add(1, std::memory_order_relaxed) % (page / spread) * spread;
    }
};

} // namespace boids::detail
