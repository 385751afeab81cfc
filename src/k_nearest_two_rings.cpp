// k_nearest_two_rings (k_nearest_two_rings.hpp): a block's distances and its sorted list of the nearest in
// SIMD lanes, for every instruction set Highway targets here (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "k_nearest_two_rings.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "k_nearest_two_rings.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>

#ifndef BOIDS_K_NEAREST_TWO_RINGS_BLOCK
#define BOIDS_K_NEAREST_TWO_RINGS_BLOCK
namespace boids::two_rings {

/// Columns [first, last] of a row.
struct Columns {
    int first = 0, last = -1;
};

/// The columns from `first` to `last` (within [-r, nx - 1 + r]) of a row of nx >= 2r + 1: on a torus one or
/// two spans (its seam splits them), on an open grid the part within it. Returns how many spans.
inline int column_spans(int first, int last, int nx, bool wrap, Columns (&out)[2]) {
    if (!wrap) {
        out[0] = {std::max(first, 0), std::min(last, nx - 1)};
        return 1;
    }
    if (first < 0) {
        out[0] = {first + nx, nx - 1};
        out[1] = {0, last};
        return 2;
    }
    if (last >= nx) {
        out[0] = {first, nx - 1};
        out[1] = {0, last - nx};
        return 2;
    }
    out[0] = {first, last};
    return 1;
}

/// The rows from `first` to `last` (within [-r, ny - 1 + r]) of a grid of ny >= 2r + 1, wrapped on a torus,
/// or -1 where an open grid ends.
inline void rows_of(int first, int last, int ny, bool wrap, int* out) {
    for (int r = first; r <= last; ++r) {
        const int row = wrap ? (r < 0 ? r + ny : (r >= ny ? r - ny : r)) : (r >= 0 && r < ny ? r : -1);
        *out++ = row;
    }
}

} // namespace boids::two_rings
#endif

HWY_BEFORE_NAMESPACE();
namespace boids::two_rings {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(double);

/// The nearest found so far, sorted as k_nearest keeps its list (nearer first, the lower index first among
/// equals): squared distances, world indices and slots (the last two as doubles, exact below 2^53), in
/// vectors of lanes. kFixed > 0: exactly that many vectors, which the compiler keeps in registers; 0: as
/// many as the constructor is given.
template <std::size_t kFixed>
struct SortedLanes {
    using DD = hn::ScalableTag<double>;
    using V = hn::Vec<DD>;
    static constexpr std::size_t capacity = kFixed != 0 ? kFixed : max_k_nearest;
    V d2[capacity], index[capacity], slot[capacity];
    std::size_t vectors;
    using Indices = decltype(hn::SetTableIndices(DD(), static_cast<const std::int64_t*>(nullptr)));
    Indices rotate; // lane l takes lane l - 1 (lane 0, the last)
    Indices last;   // every lane takes the lane of the list's k-th entry
    std::size_t kth_vector;

    /// A list of k entries in `count` vectors.
    HWY_INLINE SortedLanes(std::size_t count, int k) : vectors(kFixed != 0 ? kFixed : count) {
        const DD dd;
        const hn::RebindToSigned<DD> di;
        const auto lanes = static_cast<std::int64_t>(hn::Lanes(dd));
        const auto kth = static_cast<std::int64_t>(k - 1);
        rotate = hn::IndicesFromVec(dd, hn::And(hn::Iota(di, -1), hn::Set(di, lanes - 1)));
        last = hn::IndicesFromVec(dd, hn::Set(di, kth % lanes));
        kth_vector = static_cast<std::size_t>(kth / lanes);
        for (std::size_t v = 0; v < vectors; ++v) {
            d2[v] = index[v] = hn::Inf(dd); // after every candidate
            slot[v] = hn::Zero(dd);
        }
    }

    /// Inserts a candidate without a branch: where it ranks before an entry, the entry takes the one before
    /// it (or the candidate, first of those), which moves the rest of the list up by one lane.
    HWY_INLINE void Insert(double candidate_d2, double candidate_index, double candidate_slot) {
        const DD dd;
        const auto first_lane = hn::FirstN(dd, 1);
        const V cd = hn::Set(dd, candidate_d2), ci = hn::Set(dd, candidate_index);
        const V cs = hn::Set(dd, candidate_slot);
        // Whether the candidate ranks before entries (d, i): k_nearest's order.
        const auto ranks_before = [&](V d, V i) HWY_ATTR {
            return hn::Or(hn::Lt(cd, d), hn::And(hn::Eq(cd, d), hn::Lt(ci, i)));
        };
        // The entry before the list's first: nothing ranks before it.
        V carry_d = hn::Set(dd, -std::numeric_limits<double>::infinity()), carry_i = hn::Zero(dd),
          carry_s = carry_i;
        for (std::size_t v = 0; v < (kFixed != 0 ? kFixed : vectors); ++v) {
            const V ld = d2[v], li = index[v], ls = slot[v];
            const V rd = hn::TableLookupLanes(ld, rotate), ri = hn::TableLookupLanes(li, rotate);
            const V rs = hn::TableLookupLanes(ls, rotate);
            // Each lane's entry and the one before it.
            const V pd = hn::IfThenElse(first_lane, carry_d, rd),
                    pi = hn::IfThenElse(first_lane, carry_i, ri);
            const V ps = hn::IfThenElse(first_lane, carry_s, rs);
            const auto before = ranks_before(ld, li), after_previous = hn::Not(ranks_before(pd, pi));
            // Where the candidate ranks before the entry: the candidate if it ranks after the entry before
            // (its place), else the entry before (moved up a lane).
            d2[v] = hn::IfThenElse(before, hn::IfThenElse(after_previous, cd, pd), ld);
            index[v] = hn::IfThenElse(before, hn::IfThenElse(after_previous, ci, pi), li);
            slot[v] = hn::IfThenElse(before, hn::IfThenElse(after_previous, cs, ps), ls);
            carry_d = rd;
            carry_i = ri;
            carry_s = rs;
        }
    }

    /// The squared distance of the k-th entry (infinity while the list is shorter) in every lane.
    HWY_INLINE V Kth() const { return hn::TableLookupLanes(d2[kth_vector], last); }

    /// The first `count` entries into k_nearest's list.
    HWY_INLINE void Write(int count, KNearest& out) const {
        const DD dd;
        const std::size_t lanes = hn::Lanes(dd);
        alignas(64) double lane_d2[max_lanes], lane_index[max_lanes], lane_slot[max_lanes];
        out.count = count;
        for (std::size_t v = 0; v * lanes < static_cast<std::size_t>(count); ++v) {
            hn::Store(d2[v], dd, lane_d2);
            hn::Store(index[v], dd, lane_index);
            hn::Store(slot[v], dd, lane_slot);
            for (std::size_t l = 0; l < lanes && v * lanes + l < static_cast<std::size_t>(count); ++l) {
                out.found[v * lanes + l] = {static_cast<std::uint32_t>(lane_slot[l]),
                                            static_cast<std::uint32_t>(lane_index[l]), lane_d2[l]};
            }
        }
    }
};

template <class Real>
HWY_ATTR void Search(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
                     Real width, Real height, KNearest& out) {
    assert(k >= 1 && k <= max_k_nearest);
    const int nx = grid.columns(), ny = grid.rows();
    if (grid.three_d() || nx < 5 || ny < 5) {
        k_nearest(grid, px, py, self, k, wrap, width, height, out);
        return;
    }
    // k_nearest's ring search stops after ring r once it holds k whose k-th is nearer than r * min_cell.
    const double one_ring = 1 * grid.min_cell(), two_rings = 2 * grid.min_cell();
    const double near2 = one_ring * one_ring, far2 = two_rings * two_rings;
    const detail::GridGeometry g = grid.geometry();
    const int cx = detail::clamped_line(static_cast<double>(px), g.origin_x, g.cell_w, nx);
    const int cy = detail::clamped_line(static_cast<double>(py), g.origin_y, g.cell_h, ny);
    const std::uint32_t* const start = grid.cell_starts().data();

    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr; // as many lanes of the storage type
    using VR = hn::Vec<decltype(dr)>;
    const std::size_t lanes = hn::Lanes(dd);
    const Real* const xs = grid.xs().data();
    const Real* const ys = grid.ys().data();
    const std::size_t size = grid.size();
    const VR vpx = hn::Set(dr, px), vpy = hn::Set(dr, py);
    const VR w = hn::Set(dr, width), h = hn::Set(dr, height);
    const VR hw = hn::Set(dr, width / Real(2)), hh = hn::Set(dr, height / Real(2));
    const VR nhw = hn::Neg(hw), nhh = hn::Neg(hh);
    const hn::Rebind<std::int32_t, decltype(dd)> di;
    const auto* const agents = reinterpret_cast<const std::int32_t*>(grid.agents().data());
    const auto own = hn::Set(dd, static_cast<double>(self));

    // The k nearest among the cells within `reach` (1, 2 or 3) rings of the agent's, as k_nearest ranks them
    // (SortedLanes), of those nearer than sqrt(bound2); fewer than k when fewer are that near.
    const auto nearest = [&](auto& list, int reach, double bound2, KNearest& found) HWY_ATTR {
        const auto bound = hn::Set(dd, bound2);
        int listed = 0;
        // Inserts the slots [begin, end) that are near enough.
        const auto insert_nearer = [&](std::size_t begin, std::size_t end) HWY_ATTR {
            for (std::size_t at = begin; at < end; at += lanes) {
                const std::size_t n = std::min(lanes, end - at);
                VR x, y;
                hn::Vec<decltype(di)> index;
                if (at + lanes <= size) { // lanes past the span read other slots: masked off below
                    x = hn::LoadU(dr, xs + at);
                    y = hn::LoadU(dr, ys + at);
                    index = hn::LoadU(di, agents + at);
                } else {
                    alignas(64) Real bx[max_lanes] = {};
                    alignas(64) Real by[max_lanes] = {};
                    alignas(64) std::int32_t bi[max_lanes] = {};
                    std::copy_n(xs + at, n, bx);
                    std::copy_n(ys + at, n, by);
                    std::copy_n(agents + at, n, bi);
                    x = hn::Load(dr, bx);
                    y = hn::Load(dr, by);
                    index = hn::Load(di, bi);
                }
                if (wrap) { // classic::nearest_image
                    const VR ex = hn::Sub(vpx, x), ey = hn::Sub(vpy, y);
                    x = hn::IfThenElse(hn::Gt(ex, hw), hn::Add(x, w),
                                       hn::IfThenElse(hn::Lt(ex, nhw), hn::Sub(x, w), x));
                    y = hn::IfThenElse(hn::Gt(ey, hh), hn::Add(y, h),
                                       hn::IfThenElse(hn::Lt(ey, nhh), hn::Sub(y, h), y));
                }
                // k_nearest's distance: the offset in the storage type, widened, squared and summed, no FMA.
                hn::Vec<decltype(dd)> dx, dy;
                if constexpr (sizeof(Real) == sizeof(double)) {
                    dx = hn::Sub(vpx, x);
                    dy = hn::Sub(vpy, y);
                } else {
                    dx = hn::PromoteTo(dd, hn::Sub(vpx, x));
                    dy = hn::PromoteTo(dd, hn::Sub(vpy, y));
                }
                const auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
                // The unsigned index, read as signed 32-bit lanes (Highway 1.0 widens those to double).
                const auto signed_index = hn::PromoteTo(dd, index);
                const auto index_d =
                    hn::IfThenElse(hn::Lt(signed_index, hn::Zero(dd)),
                                   hn::Add(signed_index, hn::Set(dd, 4294967296.0)), signed_index);
                // Near enough, not the agent, and no farther than the k-th so far (it would stay out).
                const auto taken = hn::AndNot(
                    hn::Eq(index_d, own),
                    hn::And(hn::And(hn::Lt(d2, bound), hn::Le(d2, list.Kth())), hn::FirstN(dd, n)));
                alignas(64) double lane_d2[max_lanes], lane_index[max_lanes];
                hn::Store(d2, dd, lane_d2);
                hn::Store(index_d, dd, lane_index);
                std::uint8_t bits[(max_lanes + 7) / 8] = {};
                hn::StoreMaskBits(dd, taken, bits);
                for (std::size_t byte = 0; byte < (lanes + 7) / 8; ++byte) {
                    // The lanes in order, an iteration each: a branch per lane would be a coin toss.
                    for (unsigned b = bits[byte]; b != 0; b &= b - 1) {
                        const std::size_t l = byte * 8 + static_cast<std::size_t>(__builtin_ctz(b));
                        list.Insert(lane_d2[l], lane_index[l], static_cast<double>(at + l));
                        listed += listed < k;
                    }
                }
            }
        };
        Columns columns[2];
        const int spans = column_spans(cx - reach, cx + reach, nx, wrap, columns);
        int rows[7];
        rows_of(cy - reach, cy + reach, ny, wrap, rows);
        // The agent's row first, then outward: the nearest found early keep more of the farther rows out.
        for (int step = 0; step <= 2 * reach; ++step) {
            const int r = reach + (step % 2 == 0 ? step / 2 : -(step + 1) / 2);
            if (rows[r] < 0) {
                continue;
            }
            const std::size_t base = static_cast<std::size_t>(rows[r]) * static_cast<std::size_t>(nx);
            for (int c = 0; c < spans; ++c) {
                insert_nearer(start[base + static_cast<std::size_t>(columns[c].first)],
                              start[base + static_cast<std::size_t>(columns[c].last) + 1]);
            }
        }
        list.Write(listed, found);
    };
    const std::size_t vectors = (static_cast<std::size_t>(k) + lanes - 1) / lanes;
    const auto nearest_within = [&](int reach, double bound2, KNearest& found) HWY_ATTR {
        if (vectors == 1) {
            SortedLanes<1> list(1, k);
            nearest(list, reach, bound2, found);
        } else if (vectors == 2) {
            SortedLanes<2> list(2, k);
            nearest(list, reach, bound2, found);
        } else if (vectors <= 4) { // k = 7 in SSE4's two lanes (a spare vector for 3)
            SortedLanes<4> list(4, k);
            nearest(list, reach, bound2, found);
        } else {
            SortedLanes<0> list(vectors, k);
            nearest(list, reach, bound2, found);
        }
    };
    // The k nearest of rings 0 to 2 (the 5 x 5 cells) nearer than two rings. Fewer than k: the k-th of
    // those rings is no nearer, and the ring search goes on past ring 2.
    nearest_within(2, far2, out);
    if (out.count < k) {
        // Likewise after ring 3, where the grid has the cells (7 x 7) for it; else the ring search itself.
        const double three_rings = 3 * grid.min_cell();
        if (nx >= 7 && ny >= 7) {
            nearest_within(3, three_rings * three_rings, out);
        }
        if (out.count < k) {
            k_nearest(grid, px, py, self, k, wrap, width, height, out);
        }
        return;
    }
    // The ring search stops after ring 1 when the k-th of the 3 x 3 cells is nearer than one ring, and it
    // can only be if the k-th of the 5 x 5 is (the 3 x 3 cells' k-th is no nearer). Otherwise it stops
    // after ring 2, with these.
    if (out.found[static_cast<std::size_t>(k - 1)].distance2 < near2) {
        KNearest inner;
        nearest_within(1, near2, inner);
        if (inner.count == k) {
            out = inner;
        }
    }
}

HWY_ATTR void SearchF32(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                        bool wrap, float width, float height, KNearest& out) {
    Search(grid, px, py, self, k, wrap, width, height, out);
}
HWY_ATTR void SearchF64(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self, int k,
                        bool wrap, double width, double height, KNearest& out) {
    Search(grid, px, py, self, k, wrap, width, height, out);
}

} // namespace HWY_NAMESPACE
} // namespace boids::two_rings
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids {
namespace two_rings {
HWY_EXPORT(SearchF32);
HWY_EXPORT(SearchF64);
} // namespace two_rings

void k_nearest_two_rings(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                         bool wrap, float width, float height, KNearest& out) {
    HWY_DYNAMIC_DISPATCH(two_rings::SearchF32)(grid, px, py, self, k, wrap, width, height, out);
}
void k_nearest_two_rings(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self, int k,
                         bool wrap, double width, double height, KNearest& out) {
    HWY_DYNAMIC_DISPATCH(two_rings::SearchF64)(grid, px, py, self, k, wrap, width, height, out);
}
} // namespace boids
#endif
