// The Vicsek and Couzin sums with a group's agents in SIMD lanes (heading_lanes_kernel.hpp; the layout is
// lane_vectors-inl.h's), compiled for every instruction set Highway targets on this architecture
// (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "heading_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "heading_lanes_kernel.hpp"
#include "lane_vectors-inl.h"

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

struct VicsekLanes {
    V sx, sy;
};

template <class Real>
HWY_ATTR void VicsekSums(const InRangeGrid<Real>& grid, const double* ux, const double* uy, LaneGroup group,
                         const CandidateRuns& runs, const VicsekLaneSums& sums) {
    const DD dd;
    const std::uint32_t base = group.first; // the sums are indexed from the group's first agent
    EachLaneVectorOf(
        grid, group, runs,
        [&](std::uint32_t at, std::size_t n) {
            return VicsekLanes{LoadLanes(dd, sums.sx, at - base, n), LoadLanes(dd, sums.sy, at - base, n)};
        },
        [&](VicsekLanes& s, std::uint32_t c, V, V, V, M reached) {
            s.sx = hn::IfThenElse(reached, hn::Add(s.sx, hn::Set(dd, ux[c])), s.sx);
            s.sy = hn::IfThenElse(reached, hn::Add(s.sy, hn::Set(dd, uy[c])), s.sy);
        },
        [&](const VicsekLanes& s, std::uint32_t at, std::size_t n) {
            StoreLanes(s.sx, sums.sx, at - base, n);
            StoreLanes(s.sy, sums.sy, at - base, n);
        });
}

struct CouzinLanes {
    V rx, ry, ax, ay, ox, oy;
    M repelled;
};

template <class Real>
HWY_ATTR void CouzinSums(const InRangeGrid<Real>& grid, double alpha2, const double* ux, const double* uy,
                         LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    const DD dd;
    const V zero = hn::Zero(dd), a2 = hn::Set(dd, alpha2);
    const std::uint32_t base = group.first;
    EachLaneVectorOf(
        grid, group, runs,
        [&](std::uint32_t at, std::size_t n) {
            const std::uint32_t i = at - base;
            return CouzinLanes{LoadLanes(dd, sums.rx, i, n),
                               LoadLanes(dd, sums.ry, i, n),
                               LoadLanes(dd, sums.ax, i, n),
                               LoadLanes(dd, sums.ay, i, n),
                               LoadLanes(dd, sums.ox, i, n),
                               LoadLanes(dd, sums.oy, i, n),
                               hn::FirstN(dd, 0)};
        },
        [&](CouzinLanes& s, std::uint32_t c, V dx, V dy, V d2, M reached) {
            const M in = hn::And(reached, hn::Ne(d2, zero)); // exactly on top: no direction to take
            if (hn::AllFalse(dd, in)) {
                return;
            }
            const V dist = hn::Sqrt(d2);
            const V qx = hn::Div(dx, dist), qy = hn::Div(dy, dist);
            const M repel = hn::And(in, hn::Lt(d2, a2));
            const M attract = hn::AndNot(repel, in);
            s.repelled = hn::Or(s.repelled, repel);
            s.rx = hn::IfThenElse(repel, hn::Sub(s.rx, qx), s.rx);
            s.ry = hn::IfThenElse(repel, hn::Sub(s.ry, qy), s.ry);
            s.ax = hn::IfThenElse(attract, hn::Add(s.ax, qx), s.ax);
            s.ay = hn::IfThenElse(attract, hn::Add(s.ay, qy), s.ay);
            if (ux[c] != 0.0 || uy[c] != 0.0) { // a neighbour at rest adds no heading
                s.ox = hn::IfThenElse(attract, hn::Add(s.ox, hn::Set(dd, ux[c])), s.ox);
                s.oy = hn::IfThenElse(attract, hn::Add(s.oy, hn::Set(dd, uy[c])), s.oy);
            }
        },
        [&](const CouzinLanes& s, std::uint32_t at, std::size_t n) {
            const std::uint32_t i = at - base;
            StoreLanes(s.rx, sums.rx, i, n);
            StoreLanes(s.ry, sums.ry, i, n);
            StoreLanes(s.ax, sums.ax, i, n);
            StoreLanes(s.ay, sums.ay, i, n);
            StoreLanes(s.ox, sums.ox, i, n);
            StoreLanes(s.oy, sums.oy, i, n);
            alignas(8) std::uint8_t bits[8] = {};
            hn::StoreMaskBits(dd, s.repelled, bits);
            for (std::size_t k = 0; k < n; ++k) {
                sums.repelled[i + k] = static_cast<std::uint8_t>((bits[0] >> k) & 1u);
            }
        });
}

HWY_ATTR void VicsekSumsF32(const InRangeGrid<float>& grid, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const VicsekLaneSums& sums) {
    VicsekSums(grid, ux, uy, group, runs, sums);
}
HWY_ATTR void VicsekSumsF64(const InRangeGrid<double>& grid, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const VicsekLaneSums& sums) {
    VicsekSums(grid, ux, uy, group, runs, sums);
}
HWY_ATTR void CouzinSumsF32(const InRangeGrid<float>& grid, double alpha2, const double* ux, const double* uy,
                            LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    CouzinSums(grid, alpha2, ux, uy, group, runs, sums);
}
HWY_ATTR void CouzinSumsF64(const InRangeGrid<double>& grid, double alpha2, const double* ux,
                            const double* uy, LaneGroup group, const CandidateRuns& runs,
                            const CouzinLaneSums& sums) {
    CouzinSums(grid, alpha2, ux, uy, group, runs, sums);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(VicsekSumsF32);
HWY_EXPORT(VicsekSumsF64);
HWY_EXPORT(CouzinSumsF32);
HWY_EXPORT(CouzinSumsF64);

void vicsek_sums(const InRangeGrid<float>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(VicsekSumsF32)(grid, ux, uy, group, runs, sums);
}
void vicsek_sums(const InRangeGrid<double>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(VicsekSumsF64)(grid, ux, uy, group, runs, sums);
}
void couzin_sums(const InRangeGrid<float>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(CouzinSumsF32)(grid, alpha2, ux, uy, group, runs, sums);
}
void couzin_sums(const InRangeGrid<double>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(CouzinSumsF64)(grid, alpha2, ux, uy, group, runs, sums);
}

} // namespace boids::fast
#endif
