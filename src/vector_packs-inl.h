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

// Highway's operations, on packs.
template <class A, class B>
HWY_INLINE auto Add(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Add(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Sub(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Sub(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Mul(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Mul(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Div(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Div(x, y); }, a, b);
}
template <class A>
HWY_INLINE auto Neg(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::Neg(x); }, a);
}
template <class A>
HWY_INLINE auto Abs(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::Abs(x); }, a);
}
template <class A, class B>
HWY_INLINE auto CopySign(const A& magnitude, const B& sign) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::CopySign(x, y); }, magnitude,
                sign);
}
template <class A>
HWY_INLINE auto Sqrt(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::Sqrt(x); }, a);
}
template <class A>
HWY_INLINE auto Floor(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::Floor(x); }, a);
}
template <int kBits, class A>
HWY_INLINE auto ShiftRight(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::ShiftRight<kBits>(x); }, a);
}
template <class A, class B>
HWY_INLINE auto Ge(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Ge(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Le(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Le(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Gt(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Gt(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Lt(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Lt(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Eq(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Eq(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Ne(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Ne(x, y); }, a, b);
}
template <class A>
HWY_INLINE auto Not(const A& a) {
    return Each([](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::Not(x); }, a);
}
template <class A, class B>
HWY_INLINE auto And(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::And(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Or(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Or(x, y); }, a, b);
}
template <class A, class B>
HWY_INLINE auto Xor(const A& a, const B& b) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::Xor(x, y); }, a, b);
}
template <class M, class A, class B>
HWY_INLINE auto IfThenElse(const M& mask, const A& yes, const B& no) {
    return Each([](auto m, auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::IfThenElse(m, x, y); },
                mask, yes, no);
}
template <class M, class A>
HWY_INLINE auto IfThenElseZero(const M& mask, const A& yes) {
    return Each([](auto m, auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::IfThenElseZero(m, x); }, mask,
                yes);
}
template <class M, class A>
HWY_INLINE auto IfThenZeroElse(const M& mask, const A& no) {
    return Each([](auto m, auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::IfThenZeroElse(m, x); }, mask, no);
}
template <class D, class A>
HWY_INLINE auto BitCast(D d, const A& a) {
    return Each([d](auto x) HWY_ATTR BOIDS_PACK_INLINE { return hn::BitCast(d, x); }, a);
}
template <class A, class B>
HWY_INLINE auto TestBit(const A& a, const B& bit) {
    return Each([](auto x, auto y) HWY_ATTR BOIDS_PACK_INLINE { return hn::TestBit(x, y); }, a, bit);
}
template <class D, class M>
HWY_INLINE auto RebindMask(D d, const M& mask) {
    return Each([d](auto m) HWY_ATTR BOIDS_PACK_INLINE { return hn::RebindMask(d, m); }, mask);
}

} // namespace HWY_NAMESPACE
} // namespace boids::packs
HWY_AFTER_NAMESPACE();

#endif // BOIDS_VECTOR_PACKS_INL_H_
