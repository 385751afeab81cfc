// k_nearest_two_rings (k_nearest_two_rings.hpp): a block's distances and the ranks of the nearest in SIMD
// lanes, for every instruction set Highway targets here (foreach_target), dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "k_nearest_two_rings.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "k_nearest_two_rings.hpp"

#include "cell_block_lines.hpp"
#include "compress_lanes-inl.h"
#include "lane_vectors-inl.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace boids::two_rings {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(double);

/// The candidates of a search: squared distances and slots (as doubles, exact below 2^53). The first
/// `nearest` are the k nearest of those ranked so far, in k_nearest's order (nearer first, the lower world
/// index first among equals); after them come the candidates not ranked yet, as read.
///
/// Why ranks: each candidate's rank is the count of candidates before it, compared in lanes, and no
/// comparison waits for another, where an insertion into a sorted list waits for the one before and the
/// loop over a vector's nearer lanes ends where no predictor can tell.
struct Candidates {
    using DD = hn::ScalableTag<double>;
    using V = hn::Vec<DD>;
    /// Candidates are ranked before they pass `limit`: k rounded up to whole vectors, and four vectors
    /// more. A vector is appended whole, and ranking reads two vectors at a time past the last.
    static constexpr std::size_t capacity = max_k_nearest + 6 * max_lanes;
    alignas(64) double d2[capacity], slot[capacity];
    const std::uint32_t* agents; ///< the grid's world index of each slot
    std::size_t size = 0, nearest = 0;
    std::size_t k, limit;
    V kth; ///< the k-th nearest's squared distance in every lane; infinity while fewer are ranked

    HWY_INLINE Candidates(int k_, const std::uint32_t* agents_)
        : agents(agents_), k(static_cast<std::size_t>(k_)),
          limit((k + hn::Lanes(DD()) - 1) / hn::Lanes(DD()) * hn::Lanes(DD()) + 4 * hn::Lanes(DD())),
          kth(hn::Inf(DD())) {}

    /// Keeps the k nearest of every candidate as the first `nearest`, in k_nearest's order.
    HWY_INLINE void Rank() {
        if (size == nearest) {
            return;
        }
        const DD dd;
        const std::size_t lanes = hn::Lanes(dd);
        const std::size_t padded = (size + 2 * lanes - 1) / (2 * lanes) * (2 * lanes);
        hn::StoreU(hn::Inf(dd), dd, d2 + size); // after every candidate
        hn::StoreU(hn::Inf(dd), dd, d2 + size + lanes);
        // A candidate's rank: how many candidates rank before it. Ranked by distance alone, candidates at
        // the same distance share a rank, and the ranks of all candidates sum to less than 0 + 1 + ... +
        // (size - 1); only then are the world indices compared too (k_nearest's keys (d2, index) all
        // differ). Each lane past the candidates ranks after all of them.
        alignas(64) double rank[capacity];
        const double sum = RankBy<false>(padded, rank);
        if (sum != static_cast<double>(size * (size - 1) / 2 + (padded - size) * size)) {
            RankBy<true>(padded, rank);
        }
        alignas(64) double by_rank_d2[capacity], by_rank_slot[capacity];
        for (std::size_t i = 0; i < size; ++i) {
            const auto r = static_cast<std::size_t>(rank[i]);
            by_rank_d2[r] = d2[i];
            by_rank_slot[r] = slot[i];
        }
        nearest = size = std::min(size, k);
        std::copy_n(by_rank_d2, size, d2);
        std::copy_n(by_rank_slot, size, slot);
        if (nearest == k) {
            kth = hn::Set(dd, d2[k - 1]);
        }
    }

    /// Each candidate's count of candidates before it (nearer; with kTies, or as near with a lower world
    /// index) into `rank`, for the first `padded` (whole pairs of vectors, those past `size` at infinity).
    /// Returns the sum of the counts.
    template <bool kTies>
    HWY_INLINE double RankBy(std::size_t padded, double* rank) const {
        const DD dd;
        const std::size_t lanes = hn::Lanes(dd);
        alignas(64) double index[kTies ? capacity : 1];
        if constexpr (kTies) {
            for (std::size_t i = 0; i < padded; ++i) {
                index[i] = i < size ? static_cast<double>(agents[static_cast<std::size_t>(slot[i])])
                                    : std::numeric_limits<double>::infinity();
            }
        }
        const auto before = [&](std::size_t j, V d, V i) HWY_ATTR {
            const V dj = hn::Set(dd, d2[j]);
            if constexpr (kTies) {
                return hn::Or(hn::Lt(dj, d), hn::And(hn::Eq(dj, d), hn::Lt(hn::Set(dd, index[j]), i)));
            } else {
                (void)i;
                return hn::Lt(dj, d);
            }
        };
        V sum = hn::Zero(dd);
        for (std::size_t v = 0; v < padded; v += 2 * lanes) {
            const V da = hn::Load(dd, d2 + v), db = hn::Load(dd, d2 + v + lanes);
            V ia = da, ib = db;
            if constexpr (kTies) {
                ia = hn::Load(dd, index + v);
                ib = hn::Load(dd, index + v + lanes);
            }
            // Two counts per vector, of the even and the odd candidates, so that each addition waits for
            // the one two candidates back.
            V ra = hn::Zero(dd), rb = ra, ra_odd = ra, rb_odd = ra;
            std::size_t j = 0;
            for (; j + 1 < size; j += 2) {
                ra = fast::HWY_NAMESPACE::count_where(dd, before(j, da, ia), ra);
                rb = fast::HWY_NAMESPACE::count_where(dd, before(j, db, ib), rb);
                ra_odd = fast::HWY_NAMESPACE::count_where(dd, before(j + 1, da, ia), ra_odd);
                rb_odd = fast::HWY_NAMESPACE::count_where(dd, before(j + 1, db, ib), rb_odd);
            }
            if (j < size) {
                ra = fast::HWY_NAMESPACE::count_where(dd, before(j, da, ia), ra);
                rb = fast::HWY_NAMESPACE::count_where(dd, before(j, db, ib), rb);
            }
            ra = hn::Add(fast::HWY_NAMESPACE::counted(dd, ra), fast::HWY_NAMESPACE::counted(dd, ra_odd));
            rb = hn::Add(fast::HWY_NAMESPACE::counted(dd, rb), fast::HWY_NAMESPACE::counted(dd, rb_odd));
            hn::Store(ra, dd, rank + v);
            hn::Store(rb, dd, rank + v + lanes);
            sum = hn::Add(sum, hn::Add(ra, rb));
        }
        return hn::GetLane(hn::SumOfLanes(dd, sum));
    }

    /// The k nearest (fewer when fewer were appended) into k_nearest's list.
    HWY_INLINE void Write(KNearest& out) {
        Rank();
        out.count = static_cast<int>(nearest);
        for (std::size_t m = 0; m < nearest; ++m) {
            const auto at = static_cast<std::uint32_t>(slot[m]);
            out.found[m] = {at, agents[at], d2[m]};
        }
    }
};

/// k_nearest's list. past_two_rings: the caller knows that fewer than k others of the 5 x 5 cells lie nearer
/// than two rings (the search would find so first).
template <class Real>
HWY_ATTR void Search(const SpatialGrid<Real>& grid, Real px, Real py, std::uint32_t self, int k, bool wrap,
                     Real width, Real height, bool past_two_rings, KNearest& out) {
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
    const auto lane_slot = hn::Iota(dd, 0.0);

    // The k nearest among the cells within `reach` (1, 2 or 3) rings of the agent's, as k_nearest ranks them
    // (Candidates), of those nearer than sqrt(bound2); fewer than k when fewer are that near.
    const auto nearest_within = [&](int reach, double bound2, KNearest& found) HWY_ATTR {
        const auto bound = hn::Set(dd, bound2);
        Candidates list(k, grid.agents().data());
        // Appends the slots [begin, end) that are near enough. The list's count and k-th stay in registers:
        // Highway's stores may alias any member.
        const auto append_nearer = [&](std::size_t begin, std::size_t end) HWY_ATTR {
            std::size_t listed = list.size;
            auto kth = list.kth;
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
                // k_nearest's distance: the offset in the storage type, widened, squared and summed (the
                // plain bits).
                hn::Vec<decltype(dd)> dx, dy;
                if constexpr (sizeof(Real) == sizeof(double)) {
                    dx = hn::Sub(vpx, x);
                    dy = hn::Sub(vpy, y);
                } else {
                    dx = hn::PromoteTo(dd, hn::Sub(vpx, x));
                    dy = hn::PromoteTo(dd, hn::Sub(vpy, y));
                }
                const auto d2 = fast::HWY_NAMESPACE::WidenedDot<Real>(dx, dx, dy, dy);
                // The unsigned index, read as signed 32-bit lanes (Highway 1.0 widens those to double).
                const auto signed_index = hn::PromoteTo(dd, index);
                const auto index_d =
                    hn::IfThenElse(hn::Lt(signed_index, hn::Zero(dd)),
                                   hn::Add(signed_index, hn::Set(dd, 4294967296.0)), signed_index);
                // Near enough, not the agent, and no farther than the k-th so far (it would stay out).
                const auto taken =
                    hn::AndNot(hn::Eq(index_d, own),
                               hn::And(hn::And(hn::Lt(d2, bound), hn::Le(d2, kth)), hn::FirstN(dd, n)));
                const fast::HWY_NAMESPACE::Compressor<decltype(dd)> compress(dd, taken);
                hn::StoreU(compress(d2), dd, list.d2 + listed);
                hn::StoreU(compress(hn::Add(lane_slot, hn::Set(dd, static_cast<double>(at)))), dd,
                           list.slot + listed);
                listed += hn::CountTrue(dd, taken);
                if (listed + lanes > list.limit) {
                    list.size = listed;
                    list.Rank();
                    listed = list.size;
                    kth = list.kth;
                }
            }
            list.size = listed;
        };
        block_lines::Columns columns[2];
        const int spans = block_lines::column_spans(cx - reach, cx + reach, nx, wrap, columns);
        int rows[7];
        block_lines::rows_of(cy - reach, cy + reach, ny, wrap, rows);
        // The agent's row first, then outward: the nearest found early keep more of the farther rows out.
        for (int step = 0; step <= 2 * reach; ++step) {
            const int r = reach + (step % 2 == 0 ? step / 2 : -(step + 1) / 2);
            if (rows[r] < 0) {
                continue;
            }
            const std::size_t base = static_cast<std::size_t>(rows[r]) * static_cast<std::size_t>(nx);
            for (int c = 0; c < spans; ++c) {
                append_nearer(start[base + static_cast<std::size_t>(columns[c].first)],
                              start[base + static_cast<std::size_t>(columns[c].last) + 1]);
            }
        }
        list.Write(found);
    };
    // The k nearest of rings 0 to 2 (the 5 x 5 cells) nearer than two rings. Fewer than k: the k-th of
    // those rings is no nearer, and the ring search goes on past ring 2.
    if (past_two_rings) {
        out.count = 0;
    } else {
        nearest_within(2, far2, out);
    }
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
                        bool wrap, float width, float height, bool past_two_rings, KNearest& out) {
    Search(grid, px, py, self, k, wrap, width, height, past_two_rings, out);
}
HWY_ATTR void SearchF64(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self, int k,
                        bool wrap, double width, double height, bool past_two_rings, KNearest& out) {
    Search(grid, px, py, self, k, wrap, width, height, past_two_rings, out);
}

} // namespace HWY_NAMESPACE
} // namespace boids::two_rings
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids {
namespace two_rings {
// Dispatched unqualified, under `using namespace two_rings`: a one-target build calls N_<target>::<name>.
HWY_EXPORT(SearchF32);
HWY_EXPORT(SearchF64);
} // namespace two_rings

void k_nearest_two_rings(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                         bool wrap, float width, float height, KNearest& out) {
    using namespace two_rings;
    HWY_DYNAMIC_DISPATCH(SearchF32)(grid, px, py, self, k, wrap, width, height, false, out);
}
void k_nearest_two_rings(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self, int k,
                         bool wrap, double width, double height, KNearest& out) {
    using namespace two_rings;
    HWY_DYNAMIC_DISPATCH(SearchF64)(grid, px, py, self, k, wrap, width, height, false, out);
}
void k_nearest_past_two_rings(const SpatialGrid<float>& grid, float px, float py, std::uint32_t self, int k,
                              bool wrap, float width, float height, KNearest& out) {
    using namespace two_rings;
    HWY_DYNAMIC_DISPATCH(SearchF32)(grid, px, py, self, k, wrap, width, height, true, out);
}
void k_nearest_past_two_rings(const SpatialGrid<double>& grid, double px, double py, std::uint32_t self,
                              int k, bool wrap, double width, double height, KNearest& out) {
    using namespace two_rings;
    HWY_DYNAMIC_DISPATCH(SearchF64)(grid, px, py, self, k, wrap, width, height, true, out);
}
} // namespace boids
#endif
