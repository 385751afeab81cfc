// A vector's kept lanes moved to its front (internal), as Highway's Compress does, without its costs in
// Highway 1.0.3: below AVX-512 (AVX2, SSE4, SSSE3), and for 64-bit lanes on AVX-512 too, Compress keeps its
// index table in a constexpr local array that GCC 12 copies onto the stack at every call (1 KiB on AVX2 with
// `rep movsq`, 2 KiB for AVX-512's 64-bit lanes). Here the order comes from a table in static storage, read
// once for every vector that one mask compresses; AVX-512 compresses in a register instead (its
// `vcompress` to memory is microcoded on Zen 4). Read by the classic kernel's listing and the topological
// k-nearest search.

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_COMPRESS_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_COMPRESS_LANES_INL_H_
#undef BOIDS_COMPRESS_LANES_INL_H_
#else
#define BOIDS_COMPRESS_LANES_INL_H_
#endif

#include "hwy/highway.h"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Row `bits` of the table lists the lanes set in `bits` in order, then the others: the permutation that
/// moves a vector's kept lanes to its front, as Compress does.
template <std::size_t kLanes, class T>
struct CompressOrder {
    alignas(64) T lane[std::size_t{1} << kLanes][kLanes]{};
    constexpr CompressOrder() {
        for (std::size_t bits = 0; bits < (std::size_t{1} << kLanes); ++bits) {
            std::size_t out = 0;
            for (const bool kept : {true, false}) {
                for (std::size_t l = 0; l < kLanes; ++l) {
                    if ((((bits >> l) & 1) != 0) == kept) {
                        lane[bits][out++] = static_cast<T>(l);
                    }
                }
            }
        }
    }
};
template <std::size_t kLanes, class T>
inline constexpr CompressOrder<kLanes, T> compress_order{};

/// The lane order that moves the lanes of `keep` to the front, for TableLookupLanes (with IndicesFromVec)
/// on vectors of D or of its signed integers. 32-bit lanes read bytes (2 KiB for 8 lanes), 64-bit ones
/// their own width (512 bytes for 4 lanes).
template <class D>
HWY_INLINE hn::Vec<hn::RebindToSigned<D>> compress_order_of(D d, hn::Mask<D> keep) {
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    constexpr std::size_t lanes = hn::MaxLanes(D());
    static_assert(lanes <= 8, "a table of 2^lanes rows");
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(d, keep, bits);
    if constexpr (sizeof(TI) == 4) {
        const hn::Rebind<std::int8_t, decltype(di)> d8;
        return hn::PromoteTo(di, hn::LoadU(d8, compress_order<lanes, std::int8_t>.lane[bits[0]]));
    } else {
        return hn::LoadU(di, compress_order<lanes, TI>.lane[bits[0]]);
    }
}

/// Compresses vectors of D's lanes, and of integers as wide, by one mask: each call gives its vector's kept
/// lanes at the front, in order (the other lanes are unspecified). AVX-512 compresses in a register
/// (Highway's own Compress for 32-bit lanes); elsewhere the order comes from compress_order, looked up once
/// for the mask.
template <class D>
class Compressor {
    using DI = hn::RebindToSigned<D>;
    static constexpr bool kNative = HWY_TARGET <= HWY_AVX3;

public:
    HWY_INLINE Compressor(D d, hn::Mask<D> keep) : keep_(keep) {
        if constexpr (!kNative) {
            order_ = hn::IndicesFromVec(d, compress_order_of(d, keep));
        }
    }
    HWY_INLINE hn::Vec<D> operator()(hn::Vec<D> v) const {
        if constexpr (!kNative) {
            return hn::TableLookupLanes(v, order_);
        } else if constexpr (sizeof(hn::TFromD<D>) == 8) {
            // Highway 1.0.3 compresses 64-bit lanes with a table it copies at each call.
            static_assert(hn::MaxLanes(D()) == 8, "whole 512-bit vectors");
            return hn::BitCast(D(), hn::Vec<hn::Repartition<double, D>>{_mm512_maskz_compress_pd(
                                        keep_.raw, hn::BitCast(hn::Repartition<double, D>(), v).raw)});
        } else {
            return hn::Compress(v, keep_);
        }
    }
    HWY_INLINE hn::Vec<DI> operator()(hn::Vec<DI> v) const {
        const D d;
        return hn::BitCast(DI(), (*this)(hn::BitCast(d, v)));
    }

private:
    hn::Mask<D> keep_;
    decltype(hn::IndicesFromVec(D(), hn::Zero(DI()))) order_{};
};

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
