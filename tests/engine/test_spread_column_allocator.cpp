#include "spread_column_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

namespace boids::detail {
namespace {

template <class T>
using Column = std::vector<T, SpreadColumnAllocator<T>>;

TEST(SpreadColumnAllocator, ConsecutiveColumnsStartAtDistinctOffsetsInAPage) {
    // Sixteen columns as large as a million agents' (blocks the C library maps as whole pages): each
    // starts on a cache line, and no two at the same offset in a page.
    std::vector<Column<float>> columns(16);
    std::set<std::uintptr_t> offsets;
    for (Column<float>& column : columns) {
        column.resize(1'000'000);
        const auto address = reinterpret_cast<std::uintptr_t>(column.data());
        EXPECT_EQ(address % 64, 0u);
        offsets.insert(address % 4096);
    }
    EXPECT_EQ(offsets.size(), columns.size());
}

TEST(SpreadColumnAllocator, ColumnsKeepTheirValuesThroughGrowthCopyAndSwap) {
    Column<std::uint32_t> a(1000);
    std::iota(a.begin(), a.end(), 0u);
    a.resize(300'000); // a new block: the first thousand move into it, the rest are zero
    Column<std::uint32_t> b = a;
    b.resize(10);
    a.swap(b); // the fast step swaps its agent and kind columns every step
    ASSERT_EQ(a.size(), 10u);
    ASSERT_EQ(b.size(), 300'000u);
    for (std::uint32_t i = 0; i < 1000; ++i) {
        EXPECT_EQ(b[i], i);
    }
    EXPECT_EQ(b.back(), 0u);
    EXPECT_EQ(a[9], 9u);
}

} // namespace
} // namespace boids::detail
