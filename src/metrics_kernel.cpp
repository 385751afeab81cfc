// The SIMD neighbour scan of the metrics, compiled for every instruction set Highway targets on this
// architecture (foreach_target) and dispatched at run time to the best one the CPU supports.
//
// Layout of the work: one agent at a time, its candidates in SIMD lanes. The candidates of an agent are
// the slots of the 3 x 3 (x 3) cells around its cell; the cells of one row that are neighbours in the row
// are consecutive slots, so the block is a few runs of slots, shared by every agent of the cell. Each run
// is read a vector at a time; a vector that would reach past the last slot is read ending at the last slot
// instead, its lanes outside the run masked off, so that no slot array needs padding.
//
// Bits: distances are computed in double lanes as the plain scan computes them (metrics.cpp,
// separation2): the candidate's coordinate minus the agent's, each in double, the minimum image on a
// torus, then dx * dx + dy * dy (+ dz * dz), no FMA. The nearest is the minimum of those (taken as the
// plain scan's std::min takes it: a candidate replaces the best only when strictly smaller), which does
// not depend on the order the candidates are visited in; the groups are the connected components of the
// links, which do not either.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "metrics_kernel.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

// Its own namespace: the step's kernel (fast_classic_kernel.cpp) has helpers of the same names.
HWY_BEFORE_NAMESPACE();
namespace boids::metrics_simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using fast::MetricsFlock;

/// The distinct lines (columns, rows or layers) within one line of line `c` of `n`, ascending; as
/// SpatialGrid's query visits them. Returns how many were written to `out`.
inline int lines_around(int c, int n, bool wrap, std::array<int, 3>& out) {
    int count = 0;
    if (wrap && n >= 3) {
        const int before = c == 0 ? n - 1 : c - 1, after = c == n - 1 ? 0 : c + 1;
        out = {before, c, after};
        std::sort(out.begin(), out.end());
        return 3;
    }
    for (int i = wrap ? 0 : c - 1; i <= (wrap ? n - 1 : c + 1); ++i) { // a torus under 3 lines: all once
        if (i >= 0 && i < n) {
            out[count++] = i;
        }
    }
    return count;
}

/// A run of consecutive candidate slots [begin, end).
struct Run {
    std::uint32_t begin, end;
};

/// The candidate runs of the cells around a cell: at most 2 column runs per row (one across a wrap seam),
/// 3 rows, 3 layers.
struct Block {
    std::array<Run, 18> runs;
    int count = 0;
    void add(std::uint32_t begin, std::uint32_t end) {
        if (begin == end) {
            return;
        }
        if (count > 0 && runs[count - 1].end == begin) { // consecutive in slot order: one loop
            runs[count - 1].end = end;
            return;
        }
        runs[count++] = {begin, end};
    }
};

template <class Real>
Block block_around(const MetricsFlock<Real>& f, int col, int row, int layer) {
    std::array<int, 3> cols{}, rows{}, layers{0, 0, 0};
    const int ncols = lines_around(col, f.nx, f.wrap, cols);
    const int nrows = lines_around(row, f.ny, f.wrap, rows);
    const int nlayers = f.z != nullptr ? lines_around(layer, f.nz, f.wrap, layers) : 1;
    Block block;
    for (int l = 0; l < nlayers; ++l) {
        for (int r = 0; r < nrows; ++r) {
            const std::size_t base = (static_cast<std::size_t>(layers[l]) * static_cast<std::size_t>(f.ny) +
                                      static_cast<std::size_t>(rows[r])) *
                                     static_cast<std::size_t>(f.nx);
            for (int c = 0; c < ncols;) {
                int last = c; // columns c..last are consecutive: one run
                while (last + 1 < ncols && cols[last + 1] == cols[last] + 1) {
                    ++last;
                }
                block.add(f.cell_start[base + static_cast<std::size_t>(cols[c])],
                          f.cell_start[base + static_cast<std::size_t>(cols[last]) + 1]);
                c = last + 1;
            }
        }
    }
    return block;
}

/// The minimum image of differences `d` on an axis of period `length` (metrics.cpp's min_image).
template <class D>
HWY_INLINE hn::Vec<D> min_image(D d, hn::Vec<D> v, double length) {
    const auto half = hn::Set(d, 0.5 * length), minus_half = hn::Set(d, -0.5 * length);
    const auto period = hn::Set(d, length);
    return hn::IfThenElse(hn::Gt(v, half), hn::Sub(v, period),
                          hn::IfThenElse(hn::Lt(v, minus_half), hn::Add(v, period), v));
}

/// Later slots closer than the link range to the agent being scanned, gathered without a branch per vector
/// (which slots link is as good as random: a branch on it mispredicted at every other vector) and united
/// once the agent's scan is done, or when the list is full.
struct Links {
    static constexpr std::size_t capacity = 256;
    std::uint32_t slot[capacity + HWY_MAX_BYTES / sizeof(double)]; // room for a vector past capacity
};

/// For each mask of up to 8 lanes (bit l set: lane l), the set lanes in ascending order: the lanes to list.
constexpr std::array<std::array<std::uint8_t, 8>, 256> make_lane_offsets() {
    std::array<std::array<std::uint8_t, 8>, 256> table{};
    for (std::size_t bits = 0; bits < 256; ++bits) {
        std::size_t k = 0;
        for (std::uint8_t l = 0; l < 8; ++l) {
            if ((bits >> l) & 1) {
                table[bits][k++] = l;
            }
        }
    }
    return table;
}
constexpr std::array<std::array<std::uint8_t, 8>, 256> lane_offsets = make_lane_offsets();

/// Unites `a` with the `count` listed slots. Sets only ever merge, so a slot whose set once had a's root
/// is in a's set: most links of a dense flock end at the first or second comparison, without a write.
inline void unite_links(std::uint32_t a, const Links& links, std::size_t count,
                        detail::ConcurrentUnionFind& sets) {
    std::uint32_t root = sets.find(a);
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t b = links.slot[k];
        const std::uint32_t up = sets.parent(b); // b's parent or grandparent is the root, mostly
        if (up != root && sets.parent(up) != root && sets.find(b) != root) {
            sets.unite(a, b);
            root = sets.find(a);
        }
    }
}

/// One vector of candidates, slots [p, p + lanes), none of them the agent itself: lowers `best` where a
/// candidate is closer, and with kLink lists those within the link range. With kMasked, only the slots in
/// [first, end) are candidates. With kWrap, differences are taken at their minimum image.
template <bool kWrap, bool k3D, bool kLink, bool kMasked, class D, class Real>
HWY_INLINE void scan_vector(D d, const MetricsFlock<Real>& f, std::size_t p, std::size_t first,
                            std::size_t end, hn::Vec<D> ax, hn::Vec<D> ay, hn::Vec<D> az, hn::Vec<D>& best,
                            Links& links, std::size_t& listed) {
    const hn::Rebind<Real, D> dr;
    const auto load = [&](const Real* q) {
        if constexpr (std::is_same_v<Real, double>) {
            return hn::LoadU(d, q);
        } else {
            return hn::PromoteTo(d, hn::LoadU(dr, q));
        }
    };
    auto dx = hn::Sub(load(f.x + p), ax);
    auto dy = hn::Sub(load(f.y + p), ay);
    auto dz = k3D ? hn::Sub(load(f.z + p), az) : hn::Zero(d);
    if constexpr (kWrap) {
        dx = min_image(d, dx, f.width);
        dy = min_image(d, dy, f.height);
        if constexpr (k3D) {
            dz = min_image(d, dz, f.depth);
        }
    }
    auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
    if constexpr (k3D) {
        d2 = hn::Add(d2, hn::Mul(dz, dz));
    }
    auto closer = hn::Lt(d2, best);
    auto linked = hn::Lt(d2, hn::Set(d, f.link2));
    if constexpr (kMasked) {
        const auto slot = hn::Iota(d, static_cast<double>(p)); // exact: slots are below 2^32
        const auto in_run = hn::And(hn::Ge(slot, hn::Set(d, static_cast<double>(first))),
                                    hn::Lt(slot, hn::Set(d, static_cast<double>(end))));
        closer = hn::And(closer, in_run);
        linked = hn::And(linked, in_run);
    }
    best = hn::IfThenElse(closer, d2, best);
    if constexpr (kLink) {
        const std::size_t lanes = hn::Lanes(d);
        if (lanes <= 8) { // every x86 target: the set lanes' offsets from a table, then one count
            std::uint8_t bits = 0;
            hn::StoreMaskBits(d, linked, &bits);
            const std::uint8_t* const offsets = lane_offsets[bits].data();
            for (std::size_t l = 0; l < lanes; ++l) {
                links.slot[listed + l] = static_cast<std::uint32_t>(p + offsets[l]);
            }
            listed += static_cast<std::size_t>(std::popcount(bits));
        } else { // wider vectors (other architectures): bit by bit
            std::uint8_t bytes[HWY_MAX_BYTES / sizeof(double) / 8 + 1] = {};
            hn::StoreMaskBits(d, linked, bytes);
            for (std::size_t l = 0; l < lanes; ++l) {
                links.slot[listed] = static_cast<std::uint32_t>(p + l);
                listed += (bytes[l / 8] >> (l % 8)) & 1;
            }
        }
    }
}

/// The candidates [begin, end), none of them the agent: full vectors, then the last, partial one read
/// ending at `end` (or at the last slot) with the slots outside [j, end) masked off.
template <bool kWrap, bool k3D, bool kLink, class D, class Real>
HWY_INLINE void scan_run(D d, const MetricsFlock<Real>& f, std::size_t begin, std::size_t end, hn::Vec<D> ax,
                         hn::Vec<D> ay, hn::Vec<D> az, hn::Vec<D>& best, std::uint32_t a, Links& links,
                         std::size_t& listed, detail::ConcurrentUnionFind& sets) {
    const std::size_t lanes = hn::Lanes(d);
    // A vector lists at most `lanes` slots, so flushing a full list after every vector keeps it in bounds.
    const auto flush_full = [&] {
        if (kLink && listed >= Links::capacity) {
            unite_links(a, links, listed, sets);
            listed = 0;
        }
    };
    std::size_t j = begin;
    for (; j + lanes <= end; j += lanes) {
        scan_vector<kWrap, k3D, kLink, false>(d, f, j, j, end, ax, ay, az, best, links, listed);
        flush_full();
    }
    if (j < end) {
        const std::size_t p = end >= lanes ? end - lanes : 0; // the grid has at least `lanes` slots
        scan_vector<kWrap, k3D, kLink, true>(d, f, p, j, end, ax, ay, az, best, links, listed);
        flush_full();
    }
}

/// The squared distance from slot `a` to its nearest other slot among `runs` (infinity if none); with
/// `link`, unites `a` with every later slot closer than the link range. A run holding `a` is read as the
/// part before it (whose links its own scan found) and the part after it, so that no lane needs comparing
/// with `a`.
template <bool kWrap, bool k3D, class Real>
HWY_INLINE double scan_agent(const MetricsFlock<Real>& f, std::uint32_t a, const Run* runs, int count,
                             bool link, detail::ConcurrentUnionFind& sets, Links& links) {
    const hn::ScalableTag<double> d;
    const auto ax = hn::Set(d, static_cast<double>(f.x[a])), ay = hn::Set(d, static_cast<double>(f.y[a]));
    const auto az = hn::Set(d, k3D ? static_cast<double>(f.z[a]) : 0.0);
    auto best = hn::Set(d, std::numeric_limits<double>::infinity());
    std::size_t listed = 0;
    for (int r = 0; r < count; ++r) {
        const std::size_t begin = runs[r].begin, end = runs[r].end;
        const std::size_t before = std::min<std::size_t>(end, std::max<std::size_t>(begin, a));
        const std::size_t after =
            std::max<std::size_t>(begin, std::min<std::size_t>(end, a + std::size_t{1}));
        scan_run<kWrap, k3D, false>(d, f, begin, before, ax, ay, az, best, a, links, listed, sets);
        if (link) {
            scan_run<kWrap, k3D, true>(d, f, after, end, ax, ay, az, best, a, links, listed, sets);
        } else {
            scan_run<kWrap, k3D, false>(d, f, after, end, ax, ay, az, best, a, links, listed, sets);
        }
    }
    if (listed > 0) {
        unite_links(a, links, listed, sets);
    }
    return hn::GetLane(hn::MinOfLanes(d, best));
}

template <bool kWrap, bool k3D, class Real>
void scan_lines(const MetricsFlock<Real>& f, int line_begin, int line_end, detail::ConcurrentUnionFind& sets,
                double* nearest) {
    const Run everyone{0, static_cast<std::uint32_t>(f.slots)};
    Links links;
    for (int line = line_begin; line < line_end; ++line) {
        const int layer = line / f.ny, row = line % f.ny;
        const std::size_t line_base = static_cast<std::size_t>(line) * static_cast<std::size_t>(f.nx);
        for (int col = 0; col < f.nx; ++col) {
            const std::size_t cell = line_base + static_cast<std::size_t>(col);
            const std::uint32_t first = f.cell_start[cell], last = f.cell_start[cell + 1];
            if (first == last) {
                continue;
            }
            const Block block = block_around(f, col, row, layer);
            // Away from the seams of a torus of 6 or more cells a side, every candidate is less than 2 cells
            // (a third of the torus) away on each axis: the minimum image is the difference itself.
            const bool seam = kWrap && (!f.inside || col == 0 || col == f.nx - 1 || row == 0 ||
                                        row == f.ny - 1 || (k3D && (layer == 0 || layer == f.nz - 1)));
            for (std::uint32_t a = first; a < last; ++a) {
                double best =
                    seam ? scan_agent<true, k3D>(f, a, block.runs.data(), block.count, true, sets, links)
                         : scan_agent<false, k3D>(f, a, block.runs.data(), block.count, true, sets, links);
                if (!(best < f.range2)) { // nothing within the grid's range: the nearest may lie further out
                    best = scan_agent<kWrap, k3D>(f, a, &everyone, 1, false, sets, links);
                }
                nearest[a] = std::isfinite(best) ? std::sqrt(best) : 0.0;
            }
        }
    }
}

template <class Real>
void lines(const MetricsFlock<Real>& f, int line_begin, int line_end, detail::ConcurrentUnionFind& sets,
           double* nearest) {
    const bool solid = f.z != nullptr;
    if (f.wrap) {
        solid ? scan_lines<true, true>(f, line_begin, line_end, sets, nearest)
              : scan_lines<true, false>(f, line_begin, line_end, sets, nearest);
    } else {
        solid ? scan_lines<false, true>(f, line_begin, line_end, sets, nearest)
              : scan_lines<false, false>(f, line_begin, line_end, sets, nearest);
    }
}

void MetricsLinesF32(const MetricsFlock<float>& f, int line_begin, int line_end,
                     detail::ConcurrentUnionFind& sets, double* nearest) {
    lines(f, line_begin, line_end, sets, nearest);
}
void MetricsLinesF64(const MetricsFlock<double>& f, int line_begin, int line_end,
                     detail::ConcurrentUnionFind& sets, double* nearest) {
    lines(f, line_begin, line_end, sets, nearest);
}

} // namespace HWY_NAMESPACE
} // namespace boids::metrics_simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::metrics_simd {

HWY_EXPORT(MetricsLinesF32);
HWY_EXPORT(MetricsLinesF64);

} // namespace boids::metrics_simd

namespace boids::fast {

void metrics_lines(const MetricsFlock<float>& flock, int line_begin, int line_end,
                   detail::ConcurrentUnionFind& sets, double* nearest) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsLinesF32)(flock, line_begin, line_end, sets, nearest);
}
void metrics_lines(const MetricsFlock<double>& flock, int line_begin, int line_end,
                   detail::ConcurrentUnionFind& sets, double* nearest) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsLinesF64)(flock, line_begin, line_end, sets, nearest);
}

} // namespace boids::fast
#endif
