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

// Its own namespace: the step's kernel (fast_classic_kernel-inl.h) has helpers of the same names.
HWY_BEFORE_NAMESPACE();
namespace boids::metrics_simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using fast::MetricsFlock;

/// A run of consecutive candidate slots [begin, end), and the slots of its plane (its row, or in 3D its
/// layer; of both planes, for a run that spans two) [lo, hi): a thread scanning a plane writes that plane's
/// and the next one's nearest distances, and no other thread reads or writes them meanwhile.
struct Run {
    std::uint32_t begin, end, lo, hi;
};

/// The lines (columns, rows or layers) next to line `c` of `n` on one axis, each once, with their offsets
/// (-1, 0, +1). On a torus of 2 lines the other line is at +1 only (it is also at -1), of 1 line there is no
/// other; without wrap, the lines outside the grid are left out.
struct Axis {
    std::array<int, 3> line{}, offset{};
    int count = 0;
};

inline Axis axis_around(int c, int n, bool wrap) {
    Axis a;
    for (int o = -1; o <= 1; ++o) {
        int line = c + o;
        if (wrap) {
            if ((o == -1 && n < 3) || (o == 1 && n < 2)) {
                continue;
            }
            line = (line + n) % n;
        } else if (line < 0 || line >= n) {
            continue;
        }
        a.line[static_cast<std::size_t>(a.count)] = line;
        a.offset[static_cast<std::size_t>(a.count)] = o;
        ++a.count;
    }
    return a;
}

/// The forward half of the cells around a cell: those whose offset (layer, row, column) is positive in that
/// order of precedence, so that every pair of neighbouring cells is met from one of its two cells (from
/// both on a torus of 2 lines, which does no harm: a minimum and a link do not mind meeting a pair twice).
/// Their slots as runs (at most 13 cells in 3D, 4 in a plane, in slot order and merged where consecutive),
/// and the end of the run that continues the cell's own slots, if one does.
struct ForwardBlock {
    std::array<Run, 13> runs;
    int count = 0;
    Run own{}; ///< [a + 1, own.end): the agents after one in its cell, and a run that follows them
};

template <class Real>
ForwardBlock forward_block(const MetricsFlock<Real>& f, int col, int row, int layer) {
    const bool solid = f.z != nullptr;
    const auto nx = static_cast<std::size_t>(f.nx), ny = static_cast<std::size_t>(f.ny);
    const std::size_t own = (static_cast<std::size_t>(layer) * ny + static_cast<std::size_t>(row)) * nx +
                            static_cast<std::size_t>(col);
    const std::size_t per_plane = solid ? nx * ny : nx, planes = solid ? static_cast<std::size_t>(f.nz) : ny;
    const std::size_t own_plane = solid ? static_cast<std::size_t>(layer) : static_cast<std::size_t>(row);
    const auto plane = [&](std::size_t p) { // the slots of plane p
        return std::array<std::uint32_t, 2>{f.cell_start[p * per_plane], f.cell_start[(p + 1) * per_plane]};
    };
    const auto [own_lo, own_hi] = plane(own_plane);
    ForwardBlock block;
    if (col >= 1 && col + 1 < f.nx && row + 1 < f.ny && (!solid || (row >= 1 && layer + 1 < f.nz))) {
        // Away from the grid's edges, no line repeats and none wraps: the next column, then runs of three
        // cells centred below the cell (in the next row; in 3D also the three rows of the next layer).
        const auto [next_lo, next_hi] = plane(own_plane + 1);
        block.own = {0, f.cell_start[own + 2], own_lo, own_hi};
        const auto add_three = [&](std::size_t centre, std::uint32_t lo, std::uint32_t hi) {
            const std::uint32_t begin = f.cell_start[centre - 1], end = f.cell_start[centre + 2];
            if (begin != end) {
                block.runs[static_cast<std::size_t>(block.count++)] = {begin, end, lo, hi};
            }
        };
        if (solid) {
            add_three(own + nx, own_lo, own_hi);
            add_three(own + nx * ny - nx, next_lo, next_hi);
            add_three(own + nx * ny, next_lo, next_hi);
            add_three(own + nx * ny + nx, next_lo, next_hi);
        } else {
            add_three(own + nx, next_lo, next_hi);
        }
        return block;
    }
    const Axis cols = axis_around(col, f.nx, f.wrap), rows = axis_around(row, f.ny, f.wrap);
    const Axis layers = solid ? axis_around(layer, f.nz, f.wrap) : axis_around(0, 1, false);
    std::array<std::size_t, 13> cells{};
    std::size_t n = 0;
    for (int l = 0; l < layers.count; ++l) {
        for (int r = 0; r < rows.count; ++r) {
            for (int c = 0; c < cols.count; ++c) {
                const int ol = layers.offset[static_cast<std::size_t>(l)];
                const int orow = rows.offset[static_cast<std::size_t>(r)];
                const int oc = cols.offset[static_cast<std::size_t>(c)];
                if (ol > 0 || (ol == 0 && (orow > 0 || (orow == 0 && oc > 0)))) {
                    cells[n++] = (static_cast<std::size_t>(layers.line[static_cast<std::size_t>(l)]) * ny +
                                  static_cast<std::size_t>(rows.line[static_cast<std::size_t>(r)])) *
                                     nx +
                                 static_cast<std::size_t>(cols.line[static_cast<std::size_t>(c)]);
                }
            }
        }
    }
    std::sort(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(n));
    block.own = {0, f.cell_start[own + 1], own_lo, own_hi};
    // Runs that meet are merged: every plane between them in slot order is empty, so their planes' slots
    // together are the two planes', which the scanning thread owns.
    const auto merge = [](Run& run, const Run& next) {
        run.end = next.end;
        run.lo = std::min(run.lo, next.lo);
        run.hi = std::max(run.hi, next.hi);
    };
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t begin = f.cell_start[cells[k]], end = f.cell_start[cells[k] + 1];
        if (begin == end) {
            continue;
        }
        const auto [lo, hi] = plane(cells[k] / per_plane == own_plane ? own_plane : (own_plane + 1) % planes);
        const Run run{begin, end, lo, hi};
        if (begin == block.own.end) { // slots right after the cell's own: one run with them
            merge(block.own, run);
        } else if (block.count > 0 && block.runs[static_cast<std::size_t>(block.count - 1)].end == begin) {
            merge(block.runs[static_cast<std::size_t>(block.count - 1)], run);
        } else {
            block.runs[static_cast<std::size_t>(block.count++)] = run;
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

/// How a scan treats the pairs it meets: not at all (the exhaustive search of an isolated agent's nearest),
/// or as the forward half of an agent's neighbours, with the sets shared with other threads or owned by the
/// calling thread (see metrics_lines).
enum class Pairs { None, Shared, Owned };

/// One agent's scan: its slot, a node of its set, and the links listed and not yet united.
struct AgentScan {
    std::uint32_t a = 0;
    std::uint32_t root = 0;
    std::size_t listed = 0;
    Links* links = nullptr;
    detail::ConcurrentUnionFind* sets = nullptr;
    double* nearest2 = nullptr;
};

/// Unites the agent with its listed slots. Sets only ever merge, so a slot whose parent once was a node of
/// the agent's set is in that set: most links of a dense flock end there. With shared sets that check runs
/// over the whole list first without a branch (keeping the slots that fail it), as whether a link ends
/// there is hard to predict (with owned sets the scan has already made it, a vector at a time); the slots
/// kept are checked again one by one (the grandparent, then the root) and united.
template <Pairs kPairs>
void unite_links(AgentScan& scan) {
    detail::ConcurrentUnionFind& sets = *scan.sets;
    std::uint32_t* const slot = scan.links->slot;
    std::size_t kept = scan.listed;
    if constexpr (kPairs == Pairs::Shared) {
        scan.root = sets.find(scan.root); // another thread may have linked it under a new root
        kept = 0;
        for (std::size_t k = 0; k < scan.listed; ++k) {
            const std::uint32_t b = slot[k];
            slot[kept] = b;
            kept += sets.parent(b) != scan.root ? 1 : 0;
        }
    }
    for (std::size_t k = 0; k < kept; ++k) {
        const std::uint32_t b = slot[k];
        if constexpr (kPairs == Pairs::Owned) {
            const std::uint32_t* const parent = sets.owned_parents();
            if (parent[b] != scan.root && parent[parent[b]] != scan.root) {
                scan.root = sets.unite_owned(scan.root, b);
            }
        } else {
            const std::uint32_t up = sets.parent(b);
            if (up != scan.root && sets.parent(up) != scan.root) {
                scan.root = sets.unite(scan.root, b);
            }
        }
    }
    scan.listed = 0;
}

/// One vector of candidates, slots [p, p + lanes), none of them the agent itself: lowers `best` where a
/// candidate is closer. With pairs (the forward half of the agent's neighbours), also lowers the candidates'
/// own nearest squared distances where the agent is closer to them, and lists those within the link range
/// (with owned sets, only those whose parent is not the agent's set's node at hand). With kMasked, only
/// the slots in [first, end) are candidates; the others are the scanning thread's to read and write back
/// unchanged when `ours` (they lie in a plane it owns), else they may be another thread's and their nearest
/// distance and parent are neither read nor written. With kWrap, differences are taken at their minimum
/// image.
template <bool kWrap, bool k3D, Pairs kPairs, bool kMasked, class D, class Real>
HWY_INLINE void scan_vector(D d, const MetricsFlock<Real>& f, std::size_t p, std::size_t first,
                            std::size_t end, bool ours, hn::Vec<D> ax, hn::Vec<D> ay, hn::Vec<D> az,
                            hn::Vec<D>& best, AgentScan& scan) {
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
    const auto slot = hn::Iota(d, static_cast<double>(p)); // exact: slots are below 2^32
    const auto in_run = hn::And(hn::Ge(slot, hn::Set(d, static_cast<double>(first))),
                                hn::Lt(slot, hn::Set(d, static_cast<double>(end))));
    if constexpr (kMasked) {
        closer = hn::And(closer, in_run);
        linked = hn::And(linked, in_run);
    }
    best = hn::IfThenElse(closer, d2, best);
    if constexpr (kPairs != Pairs::None) {
        double* const nearest2 = scan.nearest2;
        if (!kMasked || ours) {
            const auto theirs = hn::LoadU(d, nearest2 + p);
            auto lower = hn::Lt(d2, theirs);
            if constexpr (kMasked) {
                lower = hn::And(lower, in_run);
            }
            hn::StoreU(hn::IfThenElse(lower, d2, theirs), d, nearest2 + p);
            if constexpr (kPairs == Pairs::Owned) { // links to slots already in the agent's set: none to list
                const hn::Rebind<std::uint64_t, D> du64;
                const hn::Rebind<std::uint32_t, D> du32;
                const auto parent = hn::PromoteTo(du64, hn::LoadU(du32, scan.sets->owned_parents() + p));
                linked = hn::AndNot(hn::RebindMask(d, hn::Eq(parent, hn::Set(du64, scan.root))), linked);
            }
        } else { // lane by lane, within [first, end) only
            HWY_ALIGN double lanes_d2[HWY_MAX_BYTES / sizeof(double)];
            hn::Store(d2, d, lanes_d2);
            for (std::size_t s = first; s < end; ++s) {
                const double v = lanes_d2[s - p];
                nearest2[s] = v < nearest2[s] ? v : nearest2[s];
            }
        }
        std::uint32_t* const listed = scan.links->slot + scan.listed;
        const std::size_t lanes = hn::Lanes(d);
        if (lanes <= 8) { // every x86 target: the set lanes' offsets from a table, then one count
            std::uint8_t bits = 0;
            hn::StoreMaskBits(d, linked, &bits);
            const std::uint8_t* const offsets = lane_offsets[bits].data();
            for (std::size_t l = 0; l < lanes; ++l) {
                listed[l] = static_cast<std::uint32_t>(p + offsets[l]);
            }
            scan.listed += static_cast<std::size_t>(std::popcount(bits));
        } else { // wider vectors (other architectures): bit by bit
            std::uint8_t bytes[HWY_MAX_BYTES / sizeof(double) / 8 + 1] = {};
            hn::StoreMaskBits(d, linked, bytes);
            std::size_t count = 0;
            for (std::size_t l = 0; l < lanes; ++l) {
                listed[count] = static_cast<std::uint32_t>(p + l);
                count += (bytes[l / 8] >> (l % 8)) & 1;
            }
            scan.listed += count;
        }
    }
}

/// The candidates of `run` from `begin` (its first slot, or later), none of them the agent: full vectors,
/// then the last, partial one with the slots outside [j, end) masked off, read within the run's planes
/// (where the scanning thread owns the slots around the run) if they hold a vector, else ending at `end` (or
/// at the grid's last slot).
template <bool kWrap, bool k3D, Pairs kPairs, class D, class Real>
HWY_INLINE void scan_run(D d, const MetricsFlock<Real>& f, const Run& run, std::size_t begin, hn::Vec<D> ax,
                         hn::Vec<D> ay, hn::Vec<D> az, hn::Vec<D>& best, AgentScan& scan) {
    const std::size_t end = run.end;
    const std::size_t lanes = hn::Lanes(d);
    // A vector lists at most `lanes` slots, so uniting a full list after every vector keeps it in bounds.
    const auto unite_full = [&] {
        if constexpr (kPairs != Pairs::None) {
            if (scan.listed >= Links::capacity) {
                unite_links<kPairs>(scan);
            }
        }
    };
    std::size_t j = begin;
    for (; j + lanes <= end; j += lanes) {
        scan_vector<kWrap, k3D, kPairs, false>(d, f, j, j, end, true, ax, ay, az, best, scan);
        unite_full();
    }
    if (j < end) {
        const bool ours = kPairs != Pairs::None && run.hi - run.lo >= lanes;
        const std::size_t p =
            ours           ? std::clamp<std::size_t>(end - std::min(end, lanes), run.lo, run.hi - lanes)
            : end >= lanes ? end - lanes
                           : 0; // the grid has at least `lanes` slots
        scan_vector<kWrap, k3D, kPairs, true>(d, f, p, j, end, ours, ax, ay, az, best, scan);
        unite_full();
    }
}

/// The agent's position in every lane.
template <bool k3D, class D, class Real>
HWY_INLINE std::array<hn::Vec<D>, 3> position(D d, const MetricsFlock<Real>& f, std::uint32_t a) {
    return {hn::Set(d, static_cast<double>(f.x[a])), hn::Set(d, static_cast<double>(f.y[a])),
            hn::Set(d, k3D ? static_cast<double>(f.z[a]) : 0.0)};
}

/// Slot `a` against the forward half of its neighbours: its own cell's later slots and the runs of `block`.
/// Lowers nearest2 of `a` and of every candidate to their squared distance where smaller, and unites `a`
/// with every candidate closer than the link range.
template <bool kWrap, bool k3D, Pairs kPairs, class Real>
HWY_INLINE void scan_pairs(const MetricsFlock<Real>& f, std::uint32_t a, const ForwardBlock& block,
                           double* nearest2, detail::ConcurrentUnionFind& sets, Links& links) {
    const hn::ScalableTag<double> d;
    const auto [ax, ay, az] = position<k3D>(d, f, a);
    auto best = hn::Set(d, std::numeric_limits<double>::infinity());
    AgentScan scan;
    scan.a = a;
    scan.root = kPairs == Pairs::Owned ? sets.find_owned(a) : a;
    scan.links = &links;
    scan.sets = &sets;
    scan.nearest2 = nearest2;
    scan_run<kWrap, k3D, kPairs>(d, f, block.own, a + std::size_t{1}, ax, ay, az, best, scan);
    for (int r = 0; r < block.count; ++r) {
        const Run& run = block.runs[static_cast<std::size_t>(r)];
        scan_run<kWrap, k3D, kPairs>(d, f, run, run.begin, ax, ay, az, best, scan);
    }
    if (scan.listed > 0) {
        unite_links<kPairs>(scan);
    }
    const double mine = hn::GetLane(hn::MinOfLanes(d, best));
    nearest2[a] = mine < nearest2[a] ? mine : nearest2[a];
}

/// The squared distance from slot `a` to the nearest other slot of the whole grid (infinity if none): the
/// slots before it and the slots after it, so that no lane needs comparing with `a`.
template <bool kWrap, bool k3D, class Real>
double nearest_of_all(const MetricsFlock<Real>& f, std::uint32_t a) {
    const hn::ScalableTag<double> d;
    const auto [ax, ay, az] = position<k3D>(d, f, a);
    auto best = hn::Set(d, std::numeric_limits<double>::infinity());
    AgentScan scan;
    const auto slots = static_cast<std::uint32_t>(f.slots);
    scan_run<kWrap, k3D, Pairs::None>(d, f, Run{0, a, 0, slots}, 0, ax, ay, az, best, scan);
    scan_run<kWrap, k3D, Pairs::None>(d, f, Run{a + 1, slots, 0, slots}, a + std::size_t{1}, ax, ay, az, best,
                                      scan);
    return hn::GetLane(hn::MinOfLanes(d, best));
}

template <bool kWrap, bool k3D, Pairs kPairs, class Real>
void scan_lines(const MetricsFlock<Real>& f, int line_begin, int line_end, detail::ConcurrentUnionFind& sets,
                double* nearest2) {
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
            const ForwardBlock block = forward_block(f, col, row, layer);
            // Away from the seams of a torus of 6 or more cells a side, every candidate is less than 2 cells
            // (a third of the torus) away on each axis: the minimum image is the difference itself.
            const bool seam = kWrap && (!f.inside || col == 0 || col == f.nx - 1 || row == 0 ||
                                        row == f.ny - 1 || (k3D && (layer == 0 || layer == f.nz - 1)));
            for (std::uint32_t a = first; a < last; ++a) {
                if (seam) {
                    scan_pairs<true, k3D, kPairs>(f, a, block, nearest2, sets, links);
                } else {
                    scan_pairs<false, k3D, kPairs>(f, a, block, nearest2, sets, links);
                }
            }
        }
    }
}

template <bool kWrap, bool k3D, class Real>
void search_isolated(const MetricsFlock<Real>& f, std::size_t slot_begin, std::size_t slot_end,
                     double* nearest2) {
    for (std::size_t s = slot_begin; s < slot_end; ++s) {
        if (!(nearest2[s] < f.range2)) { // nothing within the grid's range: the nearest may lie further out
            nearest2[s] = nearest_of_all<kWrap, k3D>(f, static_cast<std::uint32_t>(s));
        }
    }
}

template <Pairs kPairs, class Real>
void lines_with(const MetricsFlock<Real>& f, int line_begin, int line_end, detail::ConcurrentUnionFind& sets,
                double* nearest2) {
    const bool solid = f.z != nullptr;
    if (f.wrap) {
        solid ? scan_lines<true, true, kPairs>(f, line_begin, line_end, sets, nearest2)
              : scan_lines<true, false, kPairs>(f, line_begin, line_end, sets, nearest2);
    } else {
        solid ? scan_lines<false, true, kPairs>(f, line_begin, line_end, sets, nearest2)
              : scan_lines<false, false, kPairs>(f, line_begin, line_end, sets, nearest2);
    }
}

template <class Real>
void lines(const MetricsFlock<Real>& f, int line_begin, int line_end, bool owned,
           detail::ConcurrentUnionFind& sets, double* nearest2) {
    owned ? lines_with<Pairs::Owned>(f, line_begin, line_end, sets, nearest2)
          : lines_with<Pairs::Shared>(f, line_begin, line_end, sets, nearest2);
}

template <class Real>
void isolated(const MetricsFlock<Real>& f, std::size_t slot_begin, std::size_t slot_end, double* nearest2) {
    const bool solid = f.z != nullptr;
    if (f.wrap) {
        solid ? search_isolated<true, true>(f, slot_begin, slot_end, nearest2)
              : search_isolated<true, false>(f, slot_begin, slot_end, nearest2);
    } else {
        solid ? search_isolated<false, true>(f, slot_begin, slot_end, nearest2)
              : search_isolated<false, false>(f, slot_begin, slot_end, nearest2);
    }
}

void MetricsLinesF32(const MetricsFlock<float>& f, int line_begin, int line_end, bool owned,
                     detail::ConcurrentUnionFind& sets, double* nearest2) {
    lines(f, line_begin, line_end, owned, sets, nearest2);
}
void MetricsLinesF64(const MetricsFlock<double>& f, int line_begin, int line_end, bool owned,
                     detail::ConcurrentUnionFind& sets, double* nearest2) {
    lines(f, line_begin, line_end, owned, sets, nearest2);
}
void MetricsIsolatedF32(const MetricsFlock<float>& f, std::size_t slot_begin, std::size_t slot_end,
                        double* nearest2) {
    isolated(f, slot_begin, slot_end, nearest2);
}
void MetricsIsolatedF64(const MetricsFlock<double>& f, std::size_t slot_begin, std::size_t slot_end,
                        double* nearest2) {
    isolated(f, slot_begin, slot_end, nearest2);
}

} // namespace HWY_NAMESPACE
} // namespace boids::metrics_simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::metrics_simd {

HWY_EXPORT(MetricsLinesF32);
HWY_EXPORT(MetricsLinesF64);
HWY_EXPORT(MetricsIsolatedF32);
HWY_EXPORT(MetricsIsolatedF64);

} // namespace boids::metrics_simd

namespace boids::fast {

void metrics_lines(const MetricsFlock<float>& flock, int line_begin, int line_end, bool owned,
                   detail::ConcurrentUnionFind& sets, double* nearest2) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsLinesF32)(flock, line_begin, line_end, owned, sets, nearest2);
}
void metrics_lines(const MetricsFlock<double>& flock, int line_begin, int line_end, bool owned,
                   detail::ConcurrentUnionFind& sets, double* nearest2) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsLinesF64)(flock, line_begin, line_end, owned, sets, nearest2);
}
void metrics_isolated(const MetricsFlock<float>& flock, std::size_t slot_begin, std::size_t slot_end,
                      double* nearest2) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsIsolatedF32)(flock, slot_begin, slot_end, nearest2);
}
void metrics_isolated(const MetricsFlock<double>& flock, std::size_t slot_begin, std::size_t slot_end,
                      double* nearest2) {
    using namespace metrics_simd;
    HWY_DYNAMIC_DISPATCH(MetricsIsolatedF64)(flock, slot_begin, slot_end, nearest2);
}

} // namespace boids::fast
#endif
