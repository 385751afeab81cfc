#pragma once
/// A std::vector whose resize() leaves new elements of trivial types uninitialised. (An engine internal,
/// public only because SpatialGrid is.) For large arrays written in full before they are read: zero-filling
/// them first is a serial pass over the memory, and its pages would be touched by the thread that fills
/// instead of by the threads that write.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace boids::detail {

/// std::allocator, except that a value constructed without arguments is default-initialised.
template <class T>
class DefaultInitAllocator : public std::allocator<T> {
public:
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };

    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {} // NOLINT: converting, as std::allocator

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        std::construct_at(p, std::forward<Args>(args)...);
    }
};

template <class T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

} // namespace boids::detail
