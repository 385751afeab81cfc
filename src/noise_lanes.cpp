// noise_lanes.hpp's Gaussian draws for each instruction set (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise_lanes.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "angle_lanes-inl.h"
#include "counter_noise.hpp"
#include "noise_lanes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::noise {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace lanes = angle::HWY_NAMESPACE;
namespace pk = packs::HWY_NAMESPACE;

/// log_unit in lanes: of a vector or a pack of them (vector_packs-inl.h).
template <class D, class P>
HWY_INLINE P LogUnit(D d, P x) {
    using namespace log_constants;
    const hn::RebindToUnsigned<D> du;
    const auto bits = pk::BitCast(du, x);
    auto m = pk::BitCast(
        d, pk::Or(pk::And(bits, hn::Set(du, 0x000fffffffffffffULL)), hn::Set(du, 0x3ff0000000000000ULL)));
    // The biased exponent, a whole number below 2^11, as a double: exactly (bits >> 52) + 2^52, less 2^52.
    const auto biased =
        pk::Sub(pk::BitCast(d, pk::Or(pk::ShiftRight<52>(bits), hn::Set(du, 0x4330000000000000ULL))),
                hn::Set(d, 0x1p52));
    auto e = pk::Sub(biased, hn::Set(d, 1023.0));
    const auto halve = pk::Ge(m, hn::Set(d, sqrt_two));
    m = pk::IfThenElse(halve, pk::Mul(m, hn::Set(d, 0.5)), m);
    e = pk::IfThenElse(halve, pk::Add(e, hn::Set(d, 1.0)), e);
    const auto f = pk::Sub(m, hn::Set(d, 1.0));
    const auto s = pk::Div(f, pk::Add(hn::Set(d, 2.0), f));
    const auto z = pk::Mul(s, s);
    const auto r = pk::Mul(z, lanes::Horner(d, z, series));
    const auto half_square = pk::Mul(pk::Mul(hn::Set(d, 0.5), f), f);
    const auto tail = pk::Add(pk::Mul(s, pk::Add(half_square, r)), pk::Mul(e, hn::Set(d, ln2_lo)));
    return pk::Sub(pk::Mul(e, hn::Set(d, ln2_hi)), pk::Sub(pk::Sub(half_square, tail), f));
}

/// A Gaussian draw from its two uniforms (counter_noise.hpp's Box-Muller), of a vector or a pack of them.
template <class D, class P>
HWY_INLINE P Gaussian(D d, P u1, P u2) {
    P sin, cos;
    lanes::SinCos(d, pk::Mul(hn::Set(d, 6.283185307179586), u2), sin, cos);
    return pk::Mul(pk::Sqrt(pk::Mul(hn::Set(d, -2.0), LogUnit(d, u1))), cos);
}

/// a b modulo 2^64 in u64 lanes: AVX-512's multiplication; below it, from the products of the 32-bit
/// halves (the high halves' product lies past 2^64); a lane at a time elsewhere.
template <class DU>
HWY_INLINE HWY_ATTR hn::Vec<DU> MulLow64(DU du, hn::Vec<DU> a, hn::Vec<DU> b) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    (void)du;
    return hn::Mul(a, b);
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
    const hn::Repartition<std::uint32_t, DU> d32;
    const auto low = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
    const auto cross = hn::Add(hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(a)), hn::BitCast(d32, b)),
                               hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, hn::ShiftRight<32>(b))));
    return hn::Add(low, hn::ShiftLeft<32>(cross));
#else
    alignas(64) std::uint64_t x[hn::MaxLanes(DU())], y[hn::MaxLanes(DU())];
    hn::Store(a, du, x);
    hn::Store(b, du, y);
    for (std::size_t i = 0; i < hn::Lanes(du); ++i) {
        x[i] *= y[i];
    }
    return hn::Load(du, x);
#endif
}

/// counter_noise.hpp's mix in lanes.
template <class DU>
HWY_INLINE HWY_ATTR hn::Vec<DU> Mix(DU du, hn::Vec<DU> z) {
    z = MulLow64(du, hn::Xor(z, hn::ShiftRight<30>(z)), hn::Set(du, 0xbf58476d1ce4e5b9ULL));
    z = MulLow64(du, hn::Xor(z, hn::ShiftRight<27>(z)), hn::Set(du, 0x94d049bb133111ebULL));
    return hn::Xor(z, hn::ShiftRight<31>(z));
}

/// For each agent ids[i], i < n: its key (agent_key), then `streams` uniforms of consecutive streams from
/// `first` (stream_uniform01), uniforms[j][i] for stream first + j. Whole numbers below 2^53 convert
/// exactly, so the scalar bits.
template <std::size_t streams>
HWY_ATTR void StreamUniforms(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n,
                             std::uint64_t first, double* const (&uniforms)[streams]) {
    const hn::ScalableTag<double> dd;
    const hn::RebindToUnsigned<decltype(dd)> du;
    const hn::RebindToSigned<decltype(dd)> di;
    const hn::Rebind<std::uint32_t, decltype(dd)> d32;
    const std::size_t lanes = hn::Lanes(dd);
    if constexpr (hn::MaxLanes(decltype(dd)()) < 4) { // SSE4's two lanes: slower than one at a time (5%)
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t key = agent_key(step_key, ids[i]);
            for (std::size_t j = 0; j < streams; ++j) {
                uniforms[j][i] = stream_uniform01(key, first + j);
            }
        }
        return;
    }
    for (std::size_t at = 0; at < n; at += lanes) {
        const std::size_t count = std::min(lanes, n - at);
        alignas(64) std::uint32_t spare[hn::MaxLanes(decltype(d32)())] = {}; // a partial last vector
        if (count < lanes) {
            std::copy_n(ids + at, count, spare);
        }
        const auto id = hn::PromoteTo(du, count < lanes ? hn::Load(d32, spare) : hn::LoadU(d32, ids + at));
        const auto key = Mix(du, hn::Xor(hn::Set(du, step_key), hn::Add(id, hn::Set(du, 0x85157af5ULL))));
        for (std::size_t j = 0; j < streams; ++j) {
            const auto bits = hn::ShiftRight<11>(Mix(du, hn::Xor(key, hn::Set(du, first + j))));
            const auto u = hn::Mul(hn::ConvertTo(dd, hn::BitCast(di, bits)), hn::Set(dd, 0x1.0p-53));
            if (count < lanes) {
                alignas(64) double out[hn::MaxLanes(decltype(dd)())];
                hn::Store(u, dd, out);
                std::copy_n(out, count, uniforms[j] + at);
            } else {
                hn::StoreU(u, dd, uniforms[j] + at);
            }
        }
    }
}

HWY_ATTR void NormalDrawLanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n,
                              std::uint64_t stream, double* u1, double* u2) {
    double* const uniforms[2] = {u1, u2};
    StreamUniforms(step_key, ids, n, 2 * stream, uniforms);
    for (std::size_t i = 0; i < n; ++i) { // normal_draw's u1: in (0, 1], its log finite
        u1[i] = 1.0 - u1[i];
    }
}

HWY_ATTR void UniformLanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n,
                           std::uint64_t stream, double* out) {
    double* const uniforms[1] = {out};
    StreamUniforms(step_key, ids, n, stream, uniforms);
}

HWY_ATTR void GaussianLanes(const double* u1, const double* u2, std::size_t n, double* out) {
    const hn::ScalableTag<double> d;
    lanes::EachArrayPack(n, [&](auto pack, std::size_t i, std::size_t count) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        lanes::StoreArray<k>(
            d, Gaussian(d, lanes::LoadArray<k>(d, u1 + i, count), lanes::LoadArray<k>(d, u2 + i, count)),
            out + i, count);
    });
}

} // namespace HWY_NAMESPACE
} // namespace boids::noise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::noise {

HWY_EXPORT(GaussianLanes);
HWY_EXPORT(NormalDrawLanes);
HWY_EXPORT(UniformLanes);

void normal_draw_lanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n, std::uint64_t stream,
                       double* u1, double* u2) {
    HWY_DYNAMIC_DISPATCH(NormalDrawLanes)(step_key, ids, n, stream, u1, u2);
}

void uniform_lanes(std::uint64_t step_key, const std::uint32_t* ids, std::size_t n, std::uint64_t stream,
                   double* out) {
    HWY_DYNAMIC_DISPATCH(UniformLanes)(step_key, ids, n, stream, out);
}

void gaussian_lanes(const double* u1, const double* u2, std::size_t n, double* out) {
    HWY_DYNAMIC_DISPATCH(GaussianLanes)(u1, u2, n, out);
}

} // namespace boids::noise
#endif
