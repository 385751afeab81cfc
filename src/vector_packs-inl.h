// Packs of SIMD vectors computed side by side (internal). An operation on a pack applies Highway's operation
// to each of its vectors in turn, so a function written once over packs runs K independent chains of
// operations interleaved. A long chain of dependent operations (an arc tangent's series: 23 multiplications
// and additions one after another) keeps one vector waiting on each result; K of them in flight keep the
// CPU's units busy. Each lane still takes the same operations in the same order: the same bits.
//
// Every operation here also takes plain vectors and masks (Highway's own operation, unchanged), and a plain
// vector beside a pack stands for each of its vectors (a constant, broadcast once).

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_VECTOR_PACKS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_VECTOR_PACKS_INL_H_
#undef BOIDS_VECTOR_PACKS_INL_H_
#else
#define BOIDS_VECTOR_PACKS_INL_H_
#endif

#include "hwy/highway.h"

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

// The lambdas below are inlined as HWY_INLINE functions are: an operation on a pack must not become a call,
// which GCC otherwise makes of them in a large function.
#ifndef BOIDS_PACK_INLINE
#define BOIDS_PACK_INLINE __attribute__((always_inline))
#endif

HWY_BEFORE_NAMESPACE();
namespace boids::packs {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// K vectors (or masks) of one type.
template <class T, std::size_t K>
struct Pack {
    T part[K];
};

/// How many vectors a value holds as a pack (0: a plain vector or mask).
template <class T>
inline constexpr std::size_t pack_width = 0;
template <class T, std::size_t K>
inline constexpr std::size_t pack_width<Pack<T, K>> = K;

/// The k-th vector of a pack; a plain vector is every one.
template <class T>
HWY_INLINE const auto& PartOf(const T& x, std::size_t k) {
    if constexpr (pack_width<T> != 0) {
        return x.part[k];
    } else {
        (void)k;
        return x;
    }
}

/// f of the k-th vectors of the arguments, for each k: a pack as wide as the widest argument; f of the
/// arguments themselves where none is a pack.
template <class F, class... A>
HWY_INLINE auto Each(const F& f, const A&... a) {
    constexpr std::size_t k_count = std::max({pack_width<A>...});
    if constexpr (k_count == 0) {
        return f(a...);
    } else {
        const auto part = [&](auto k) HWY_ATTR BOIDS_PACK_INLINE { return f(PartOf(a, k)...); };
        return [&]<std::size_t... k>(std::index_sequence<k...>) HWY_ATTR BOIDS_PACK_INLINE {
            return Pack<decltype(part(std::size_t{0})), k_count>{{part(k)...}};
        }
        (std::make_index_sequence<k_count>());
    }
}

/// A pack of K vectors, the k-th make(k); for K = 0, the plain vector make(0).
template <std::size_t K, class Make>
HWY_INLINE auto MakePack(const Make& make) {
    if constexpr (K == 0) {
        return make(std::size_t{0});
    } else {
        return [&]<std::size_t... k>(std::index_sequence<k...>) HWY_ATTR BOIDS_PACK_INLINE {
            return Pack<decltype(make(std::size_t{0})), K>{{make(k)...}};
        }
        (std::make_index_sequence<K>());
    }
}

/// visit(k, v) for the k-th vector v of a pack, for each k; visit(0, x) for a plain vector or mask x.
template <class P, class Visit>
HWY_INLINE void EachPart(const P& p, const Visit& visit) {
    if constexpr (pack_width<P> == 0) {
        visit(std::size_t{0}, p);
    } else {
        [&]<std::size_t... k>(std::index_sequence<k...>) HWY_ATTR BOIDS_PACK_INLINE {
            (visit(k, p.part[k]), ...);
        }
        (std::make_index_sequence<pack_width<P>>());
    }
}

/// Whether no lane of any vector of the mask is set.
template <class D, class M>
HWY_INLINE bool AllFalse(D d, const M& mask) {
    bool none = true;
    EachPart(mask, [&](std::size_t, const auto& m)
                       HWY_ATTR BOIDS_PACK_INLINE { none = none && hn::AllFalse(d, m); });
    return none;
}

/// Runs body(pack, at, n) over the entries [0, count) of an array whose vectors hold `lanes` entries: for
/// each K whole vectors from `at`, with pack the constant K and n = K * lanes; then for each vector of the
/// rest, with pack the constant 0 and n its entries (the last vector may be partial). A body written over
/// packs so runs K vectors side by side, and the same code on single vectors for the rest.
template <std::size_t K, class Body>
HWY_ATTR void EachPackOf(std::size_t lanes, std::size_t count, const Body& body) {
    std::size_t at = 0;
    for (; at + K * lanes <= count; at += K * lanes) {
        body(std::integral_constant<std::size_t, K>(), at, K * lanes);
    }
    for (; at < count; at += lanes) {
        body(std::integral_constant<std::size_t, 0>(), at, std::min(lanes, count - at));
    }
}

// Highway's operations, on packs: op(a...) is hn::op of the arguments' k-th vectors (a plain vector, mask
// or tag standing for every k), for each k.
#define BOIDS_PACK_OPERATION(op)                                                                             \
    template <class... A>                                                                                    \
    HWY_INLINE auto op(const A&... a) {                                                                      \
        return Each([](const auto&... x) HWY_ATTR BOIDS_PACK_INLINE { return hn::op(x...); }, a...);         \
    }
BOIDS_PACK_OPERATION(Add)
BOIDS_PACK_OPERATION(Sub)
BOIDS_PACK_OPERATION(Mul)
BOIDS_PACK_OPERATION(Div)
BOIDS_PACK_OPERATION(Neg)
BOIDS_PACK_OPERATION(Abs)
BOIDS_PACK_OPERATION(CopySign)
BOIDS_PACK_OPERATION(Sqrt)
BOIDS_PACK_OPERATION(Floor)
BOIDS_PACK_OPERATION(Ge)
BOIDS_PACK_OPERATION(Le)
BOIDS_PACK_OPERATION(Gt)
BOIDS_PACK_OPERATION(Lt)
BOIDS_PACK_OPERATION(Eq)
BOIDS_PACK_OPERATION(Ne)
BOIDS_PACK_OPERATION(Not)
BOIDS_PACK_OPERATION(And)
BOIDS_PACK_OPERATION(Or)
BOIDS_PACK_OPERATION(Xor)
BOIDS_PACK_OPERATION(IfThenElse)
BOIDS_PACK_OPERATION(IfThenElseZero)
BOIDS_PACK_OPERATION(IfThenZeroElse)
BOIDS_PACK_OPERATION(BitCast)
BOIDS_PACK_OPERATION(TestBit)
BOIDS_PACK_OPERATION(RebindMask)
#undef BOIDS_PACK_OPERATION

template <int kBits, class A>
HWY_INLINE auto ShiftRight(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::ShiftRight<kBits>(x); }, a);
}

} // namespace HWY_NAMESPACE
} // namespace boids::packs
HWY_AFTER_NAMESPACE();

#endif // BOIDS_VECTOR_PACKS_INL_H_
