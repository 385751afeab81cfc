// The SIMD neighbour pass of the fast classic step, compiled for every instruction set Highway targets
// on this architecture (foreach_target) and dispatched at run time to the best one the CPU supports.
//
// Layout of the work: a row of grid cells is cut into tiles of consecutive cells holding at most one
// vector of agents (a cell with more is split into several vectors). The agents of a tile sit in SIMD
// lanes; every candidate in the 3 rows x (tile + 2) columns around the tile is broadcast to all lanes.
// Candidates of one grid row in consecutive columns are consecutive slots, so each row is one loop.
//
// Bits: every lane sums its agent's neighbours in the plain path's order (rows r-1, r, r+1, then
// columns c-1, c, c+1, then world order within a cell), whatever the tile, the vector width or the
// thread; additions and multiplications stay separate (no FMA: -ffp-contract=off and no MulAdd), and
// min-image offsets are computed as in classic::min_image. So the fast path reproduces the plain
// path's bits (predator sums aside, see fast_classic_step.cpp), on every instruction set.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_classic_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "fast_classic_kernel.hpp"

#include <algorithm>
#include <array>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Per-lane sums of SPEC §2 step 1 for one vector of agents. The neighbour count is kept in the lanes'
/// floating-point type: a whole number far below 2^24, so exact, and one masked add per candidate.
template <class D>
struct NeighbourSums {
    using V = hn::Vec<D>;
    V xsum, ysum, vxsum, vysum, close_dx, close_dy, count;
};

/// Adds the candidates of slots [begin, end) to the lanes' sums. `shift_x`/`shift_y` (used when kShift)
/// move a candidate across the wrap seam exactly as classic::min_image would. kExact (wrap mode, no
/// shift, every lane's agent at least twice the visual range from the origin on both axes) adds the
/// candidate's x instead of the plain path's x - dx: the two are equal to the bit, because a neighbour in
/// range is then within a factor 2 of the agent on each axis, so dx = x - xj is exact (Sterbenz) and so is
/// x - dx = xj. It saves two of the loop's vector operations. kGeneral adds the checks
/// the common case can drop: the |dx|, |dy| < visual box (implied by d2 < visual^2 unless the protected
/// range exceeds the visual range) and the exclusion of the agent itself (free otherwise: its own pair
/// has d2 = 0, lands in the protected bucket and adds +0 to sums that start at +0).
template <bool kWrap, bool kShift, bool kExact, bool kGeneral, class D, class Real>
HWY_INLINE void add_candidates(D d, const FlockInCellOrder<Real>& f, std::uint32_t begin, std::uint32_t end,
                               Real shift_x, Real shift_y, hn::Vec<D> x, hn::Vec<D> y,
                               hn::Vec<hn::RebindToSigned<D>> lane_slot, NeighbourSums<D>& s) {
    static_assert(!(kExact && kShift), "a shifted candidate needs the plain path's x - dx");
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    const auto visual2 = hn::Set(d, f.c.visual2);
    const auto protected2 = hn::Set(d, f.c.protected2);
    const auto visual = hn::Set(d, f.c.visual);
    const auto sx = hn::Set(d, shift_x);
    const auto sy = hn::Set(d, shift_y);
    const auto one = hn::Set(d, Real(1));
    for (std::uint32_t j = begin; j < end; ++j) {
        const auto xj = hn::Set(d, f.x[j]);
        const auto yj = hn::Set(d, f.y[j]);
        auto dx = hn::Sub(x, xj);
        auto dy = hn::Sub(y, yj);
        if constexpr (kShift) {
            dx = hn::Add(dx, sx); // shift 0 on an axis that does not cross the seam: exact
            dy = hn::Add(dy, sy);
        }
        const auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
        auto near = hn::Lt(d2, visual2);
        auto close = hn::Lt(d2, protected2);
        if constexpr (kGeneral) {
            const auto in_box = hn::And(hn::Lt(hn::Abs(dx), visual), hn::Lt(hn::Abs(dy), visual));
            const auto other = hn::RebindMask(d, hn::Ne(lane_slot, hn::Set(di, static_cast<TI>(j))));
            near = hn::And(hn::And(near, in_box), other);
            close = hn::And(hn::And(close, in_box), other);
        } else {
            (void)visual;
            (void)lane_slot;
        }
        const auto averaged = hn::AndNot(close, near);
        s.close_dx = hn::IfThenElse(close, hn::Add(s.close_dx, dx), s.close_dx);
        s.close_dy = hn::IfThenElse(close, hn::Add(s.close_dy, dy), s.close_dy);
        if constexpr (kWrap && !kExact) {
            // Across a wrap seam the neighbour's nearest image is what the boid sees: x - dx.
            s.xsum = hn::IfThenElse(averaged, hn::Add(s.xsum, hn::Sub(x, dx)), s.xsum);
            s.ysum = hn::IfThenElse(averaged, hn::Add(s.ysum, hn::Sub(y, dy)), s.ysum);
        } else {
            s.xsum = hn::IfThenElse(averaged, hn::Add(s.xsum, xj), s.xsum);
            s.ysum = hn::IfThenElse(averaged, hn::Add(s.ysum, yj), s.ysum);
        }
        s.vxsum = hn::IfThenElse(averaged, hn::Add(s.vxsum, hn::Set(d, f.vx[j])), s.vxsum);
        s.vysum = hn::IfThenElse(averaged, hn::Add(s.vysum, hn::Set(d, f.vy[j])), s.vysum);
        s.count = hn::IfThenElse(averaged, hn::Add(s.count, one), s.count);
    }
}

/// The candidate rows and column runs of a tile, visited in the plain path's order.
template <bool kWrap, bool kGeneral, class D, class Real>
HWY_INLINE void add_tile_candidates(D d, const FlockInCellOrder<Real>& f, int row, int col0, int col1,
                                    hn::Vec<D> x, hn::Vec<D> y, hn::Vec<hn::RebindToSigned<D>> lane_slot,
                                    NeighbourSums<D>& s) {
    const int nx = f.nx, ny = f.ny;
    const Real zero(0);
    // Cells are at least the visual range wide and high, so the agents of a tile from the fourth column
    // and row on are more than twice the visual range from the origin (see add_candidates' kExact).
    const bool exact = row >= 3 && col0 >= 3;
    for (int dr = -1; dr <= 1; ++dr) {
        int r = row + dr;
        Real shift_y = zero;
        if (r < 0 || r >= ny) {
            if (!kWrap) {
                continue;
            }
            // Row across the seam: min_image adds +height (row above 0) or -height (row below ny-1).
            shift_y = r < 0 ? f.c.height : -f.c.height;
            r = r < 0 ? ny - 1 : 0;
        }
        const std::uint32_t* row_start =
            f.cell_start + static_cast<std::size_t>(r) * static_cast<std::size_t>(nx);
        int lo = col0 - 1, hi = col1 + 1;
        const bool left_seam = kWrap && lo < 0;
        const bool right_seam = kWrap && hi >= nx;
        lo = std::max(lo, 0);
        hi = std::min(hi, nx - 1);
        const auto run = [&](int c_lo, int c_hi, Real shift_x) {
            const std::uint32_t begin = row_start[c_lo], end = row_start[c_hi + 1];
            if (begin == end) {
                return;
            }
            if (shift_x != zero || shift_y != zero) {
                add_candidates<kWrap, true, false, kGeneral>(d, f, begin, end, shift_x, shift_y, x, y,
                                                             lane_slot, s);
            } else if (kWrap && exact) {
                add_candidates<kWrap, false, true, kGeneral>(d, f, begin, end, zero, zero, x, y, lane_slot,
                                                             s);
            } else {
                add_candidates<kWrap, false, false, kGeneral>(d, f, begin, end, zero, zero, x, y, lane_slot,
                                                              s);
            }
        };
        if (left_seam) {
            run(nx - 1, nx - 1, f.c.width);
        }
        run(lo, hi, zero);
        if (right_seam) {
            run(0, 0, -f.c.width);
        }
    }
}

/// classic::min_image on every lane.
template <class D>
HWY_INLINE hn::Vec<D> min_image(D d, hn::Vec<D> v, hn::TFromD<D> length, hn::TFromD<D> half) {
    const auto len = hn::Set(d, length);
    const auto h = hn::Set(d, half);
    const auto neg_h = hn::Neg(h);
    return hn::IfThenElse(hn::Gt(v, h), hn::Sub(v, len),
                          hn::IfThenElse(hn::Lt(v, neg_h), hn::Add(v, len), v));
}

/// SPEC §2 steps 2-9 for `count` agents in lanes, from their neighbour sums; the new state may be
/// stored up to slot `writable_end` (the end of the row).
template <bool kWrap, class D, class Real>
HWY_INLINE void finish_agents(D d, const FlockInCellOrder<Real>& f, std::uint32_t slot0, std::size_t count,
                              std::size_t writable_end, hn::Vec<D> x, hn::Vec<D> y,
                              const NeighbourSums<D>& s) {
    const auto& c = f.c;
    const auto zero = hn::Zero(d);
    auto vx = hn::LoadU(d, f.vx + slot0);
    auto vy = hn::LoadU(d, f.vy + slot0);

    // Step 2: cohesion and alignment (agents with no neighbour keep their velocity).
    const auto has_neighbours = hn::Gt(s.count, zero);
    const auto& n = s.count;
    const auto xavg = hn::Div(s.xsum, n), yavg = hn::Div(s.ysum, n);
    const auto vxavg = hn::Div(s.vxsum, n), vyavg = hn::Div(s.vysum, n);
    const auto centering = hn::Set(d, c.centering), matching = hn::Set(d, c.matching);
    const auto vx_flock =
        hn::Add(hn::Add(vx, hn::Mul(hn::Sub(xavg, x), centering)), hn::Mul(hn::Sub(vxavg, vx), matching));
    const auto vy_flock =
        hn::Add(hn::Add(vy, hn::Mul(hn::Sub(yavg, y), centering)), hn::Mul(hn::Sub(vyavg, vy), matching));
    vx = hn::IfThenElse(has_neighbours, vx_flock, vx);
    vy = hn::IfThenElse(has_neighbours, vy_flock, vy);

    // Step 3: separation.
    const auto avoid = hn::Set(d, c.avoid);
    vx = hn::Add(vx, hn::Mul(s.close_dx, avoid));
    vy = hn::Add(vy, hn::Mul(s.close_dy, avoid));

    // Step 4: edges, in SPEC order.
    if constexpr (!kWrap) {
        const auto turn = hn::Set(d, c.turn);
        vy = hn::IfThenElse(hn::Lt(y, hn::Set(d, c.top_edge)), hn::Add(vy, turn), vy);
        vx = hn::IfThenElse(hn::Gt(x, hn::Set(d, c.right_edge)), hn::Sub(vx, turn), vx);
        vx = hn::IfThenElse(hn::Lt(x, hn::Set(d, c.left_edge)), hn::Add(vx, turn), vx);
        vy = hn::IfThenElse(hn::Gt(y, hn::Set(d, c.bottom_edge)), hn::Sub(vy, turn), vy);
    }

    // Step 5: flee the predators in range (sum of offsets, then a fixed kick by sign).
    if (f.predators > 0) {
        auto pdx = zero, pdy = zero;
        const auto range = hn::Set(d, c.predator_range);
        const auto range2 = hn::Set(d, c.predator_range2);
        for (std::size_t p = 0; p < f.predators; ++p) {
            auto dx = hn::Sub(x, hn::Set(d, f.predator_x[p]));
            auto dy = hn::Sub(y, hn::Set(d, f.predator_y[p]));
            if constexpr (kWrap) {
                dx = min_image(d, dx, c.width, c.half_width);
                dy = min_image(d, dy, c.height, c.half_height);
            }
            const auto in_range = hn::And(hn::And(hn::Lt(hn::Abs(dx), range), hn::Lt(hn::Abs(dy), range)),
                                          hn::Lt(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), range2));
            pdx = hn::IfThenElse(in_range, hn::Add(pdx, dx), pdx);
            pdy = hn::IfThenElse(in_range, hn::Add(pdy, dy), pdy);
        }
        const auto kick = hn::Set(d, c.predator_turn);
        vy = hn::IfThenElse(hn::Gt(pdy, zero), hn::Add(vy, kick), vy);
        vy = hn::IfThenElse(hn::Lt(pdy, zero), hn::Sub(vy, kick), vy);
        vx = hn::IfThenElse(hn::Gt(pdx, zero), hn::Add(vx, kick), vx);
        vx = hn::IfThenElse(hn::Lt(pdx, zero), hn::Sub(vx, kick), vx);
    }

    // Steps 6-7: scouts' dynamic bias and pull toward their side.
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    HWY_ALIGN Real lane_bias[max_lanes] = {};
    if (f.has_scouts) {
        HWY_ALIGN Real lane_kind[max_lanes] = {};
        for (std::size_t l = 0; l < count; ++l) {
            lane_kind[l] = static_cast<Real>(static_cast<int>(f.kind[slot0 + l]));
        }
        const auto kind = hn::Load(d, lane_kind);
        auto bias = hn::LoadU(d, f.bias + slot0);
        const auto one = hn::Set(d, Real(1));
        const auto scout1 = hn::Eq(kind, hn::Set(d, static_cast<Real>(static_cast<int>(Kind::Scout1))));
        const auto scout2 = hn::Eq(kind, hn::Set(d, static_cast<Real>(static_cast<int>(Kind::Scout2))));
        const auto scout = hn::Or(scout1, scout2);
        if (c.dynamic_bias) {
            const auto its_way = hn::Or(hn::And(scout1, hn::Gt(vx, zero)), hn::And(scout2, hn::Lt(vx, zero)));
            const auto increment = hn::Set(d, c.bias_increment), max_bias = hn::Set(d, c.max_bias);
            const auto raised = hn::Add(bias, increment);
            const auto lowered = hn::Sub(bias, increment);
            const auto next =
                hn::IfThenElse(its_way, hn::IfThenElse(hn::Lt(raised, max_bias), raised, max_bias),
                               hn::IfThenElse(hn::Gt(lowered, increment), lowered, increment));
            bias = hn::IfThenElse(scout, next, bias);
        }
        const auto target = hn::IfThenElse(scout1, one, hn::Neg(one));
        vx = hn::IfThenElse(scout, hn::Add(hn::Mul(hn::Sub(one, bias), vx), hn::Mul(bias, target)), vx);
        hn::Store(bias, d, lane_bias);
    }

    // Step 8: speed limits (both components by one factor; zero velocity becomes (min_speed, 0)).
    const auto min_speed = hn::Set(d, c.min_speed), max_speed = hn::Set(d, c.max_speed);
    const auto speed = hn::Sqrt(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)));
    const auto slow = hn::Lt(speed, min_speed);
    const auto fast = hn::Gt(speed, max_speed);
    if (c.min_speed <= c.max_speed) {
        // A lane is slow or fast, not both: one division per component serves both limits.
        const auto limit = hn::IfThenElse(slow, min_speed, max_speed);
        const auto limited = hn::Or(slow, fast);
        vx = hn::IfThenElse(limited, hn::Mul(hn::Div(vx, speed), limit), vx);
        vy = hn::IfThenElse(limited, hn::Mul(hn::Div(vy, speed), limit), vy);
    } else { // SPEC order: the max limit applies to the velocity the min limit produced
        vx = hn::IfThenElse(slow, hn::Mul(hn::Div(vx, speed), min_speed), vx);
        vy = hn::IfThenElse(slow, hn::Mul(hn::Div(vy, speed), min_speed), vy);
        vx = hn::IfThenElse(fast, hn::Mul(hn::Div(vx, speed), max_speed), vx);
        vy = hn::IfThenElse(fast, hn::Mul(hn::Div(vy, speed), max_speed), vy);
    }
    const auto stopped = hn::Eq(speed, zero);
    vx = hn::IfThenElse(stopped, min_speed, vx);
    vy = hn::IfThenElse(stopped, zero, vy);

    // Step 9: move; the new state in slot order. The whole vector is stored when its lanes past `count`
    // fall on slots of this row (later tiles of the row, which this thread writes afterwards); otherwise
    // (the row's last vector: the next slots may be another thread's row) it is written lane by lane, as
    // is a vector with an agent to wrap.
    const auto moved_x = hn::Add(x, vx), moved_y = hn::Add(y, vy);
    bool whole_vector = slot0 + hn::Lanes(d) <= writable_end;
    if constexpr (kWrap) {
        const auto inside_x = hn::And(hn::Ge(moved_x, zero), hn::Lt(moved_x, hn::Set(d, c.width)));
        const auto inside_y = hn::And(hn::Ge(moved_y, zero), hn::Lt(moved_y, hn::Set(d, c.height)));
        const auto agents = hn::FirstN(d, count);
        whole_vector = whole_vector && hn::AllTrue(d, hn::Or(hn::And(inside_x, inside_y), hn::Not(agents)));
    }
    if (whole_vector) {
        hn::StoreU(moved_x, d, f.new_x + slot0);
        hn::StoreU(moved_y, d, f.new_y + slot0);
        hn::StoreU(vx, d, f.new_vx + slot0);
        hn::StoreU(vy, d, f.new_vy + slot0);
    } else {
        HWY_ALIGN Real lanes[4][max_lanes];
        hn::Store(moved_x, d, lanes[0]);
        hn::Store(moved_y, d, lanes[1]);
        hn::Store(vx, d, lanes[2]);
        hn::Store(vy, d, lanes[3]);
        for (std::size_t l = 0; l < count; ++l) {
            Real px = lanes[0][l], py = lanes[1][l];
            if constexpr (kWrap) {
                px = classic::wrap_position(px, c.width);
                py = classic::wrap_position(py, c.height);
            }
            f.new_x[slot0 + l] = px;
            f.new_y[slot0 + l] = py;
            f.new_vx[slot0 + l] = lanes[2][l];
            f.new_vy[slot0 + l] = lanes[3][l];
        }
    }
    if (f.has_scouts) {
        for (std::size_t l = 0; l < count; ++l) {
            f.new_bias[slot0 + l] = lane_bias[l];
        }
    }
}

/// Cell indices, a vector of doubles at a time (the divisions dominate the scalar loop).
template <class Real>
void cells_impl(const Real* xs, const Real* ys, std::size_t count, const CellGeometry& g,
                std::uint32_t* out) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr;
    const hn::Rebind<std::int32_t, decltype(dd)> di;
    const std::size_t lanes = hn::Lanes(dd);
    const double last_col = g.nx - 1.0, last_row = g.ny - 1.0;
    const auto load = [&](const Real* p) {
        if constexpr (std::is_same_v<Real, double>) {
            return hn::LoadU(dd, p);
        } else {
            return hn::PromoteTo(dd, hn::LoadU(dr, p));
        }
    };
    const auto ox = hn::Set(dd, g.origin_x), oy = hn::Set(dd, g.origin_y);
    const auto cw = hn::Set(dd, g.cell_w), ch = hn::Set(dd, g.cell_h);
    const auto lc = hn::Set(dd, last_col), lr = hn::Set(dd, last_row),
               nx = hn::Set(dd, static_cast<double>(g.nx));
    std::size_t i = 0;
    for (; i + lanes <= count; i += lanes) {
        // Positions are >= the origin, so the floor of the clamped quotient is SpatialGrid's line.
        const auto col = hn::Floor(hn::Min(hn::Div(hn::Sub(load(xs + i), ox), cw), lc));
        const auto row = hn::Floor(hn::Min(hn::Div(hn::Sub(load(ys + i), oy), ch), lr));
        hn::StoreU(hn::DemoteTo(di, hn::Add(hn::Mul(row, nx), col)), di,
                   reinterpret_cast<std::int32_t*>(out + i));
    }
    for (; i < count; ++i) {
        const double col = std::min((static_cast<double>(xs[i]) - g.origin_x) / g.cell_w, last_col);
        const double row = std::min((static_cast<double>(ys[i]) - g.origin_y) / g.cell_h, last_row);
        out[i] = static_cast<std::uint32_t>(static_cast<std::size_t>(row) * static_cast<std::size_t>(g.nx) +
                                            static_cast<std::size_t>(col));
    }
}

/// One row of cells: greedy tiles of consecutive cells that fit one vector.
template <bool kWrap, bool kGeneral, class Real>
void rows_impl(const FlockInCellOrder<Real>& f, int row_begin, int row_end) {
    using D = hn::ScalableTag<Real>;
    const D d;
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    const std::size_t lanes = hn::Lanes(d);
    // A tile never reaches around the torus to its own columns (each candidate column once), and stays
    // short enough that its candidate block is not mostly wasted on sparse rows.
    const int max_tile = kWrap ? std::min(4, f.nx - 2) : 4;
    for (int row = row_begin; row < row_end; ++row) {
        const std::uint32_t* start =
            f.cell_start + static_cast<std::size_t>(row) * static_cast<std::size_t>(f.nx);
        int col0 = 0;
        while (col0 < f.nx) {
            int col1 = col0;
            while (col1 + 1 < f.nx && col1 + 1 - col0 < max_tile && start[col1 + 2] - start[col0] <= lanes) {
                ++col1;
            }
            for (std::uint32_t slot = start[col0]; slot < start[col1 + 1];
                 slot += static_cast<std::uint32_t>(lanes)) {
                const std::size_t count = std::min<std::size_t>(lanes, start[col1 + 1] - slot);
                const auto x = hn::LoadU(d, f.x + slot);
                const auto y = hn::LoadU(d, f.y + slot);
                const auto lane_slot = hn::Iota(di, static_cast<TI>(slot));
                NeighbourSums<D> s{hn::Zero(d), hn::Zero(d), hn::Zero(d), hn::Zero(d),
                                   hn::Zero(d), hn::Zero(d), hn::Zero(d)};
                add_tile_candidates<kWrap, kGeneral>(d, f, row, col0, col1, x, y, lane_slot, s);
                finish_agents<kWrap>(d, f, slot, count, start[f.nx], x, y, s);
            }
            col0 = col1 + 1;
        }
        if (f.new_cell != nullptr) {
            const std::uint32_t begin = start[0], end = start[f.nx];
            cells_impl(f.new_x + begin, f.new_y + begin, end - begin, f.next_grid, f.new_cell + begin);
            if (f.old_cell != nullptr) {
                for (std::uint32_t k = begin; k < end; ++k) {
                    f.new_cell[k] |= f.new_cell[k] != f.old_cell[k] ? moved_cell_flag : 0u;
                }
            }
        }
    }
}

template <class Real>
void rows(const FlockInCellOrder<Real>& f, int row_begin, int row_end) {
    // The general candidate test is needed only when the protected range exceeds the visual range, or
    // is zero (then the agent's own pair must be excluded explicitly).
    const bool general = !(f.c.protected2 <= f.c.visual2) || !(f.c.protected2 > Real(0));
    if (f.c.wrap) {
        general ? rows_impl<true, true>(f, row_begin, row_end)
                : rows_impl<true, false>(f, row_begin, row_end);
    } else {
        general ? rows_impl<false, true>(f, row_begin, row_end)
                : rows_impl<false, false>(f, row_begin, row_end);
    }
}

void CellsF32(const float* x, const float* y, std::size_t count, const CellGeometry& g, std::uint32_t* out) {
    cells_impl(x, y, count, g, out);
}
void CellsF64(const double* x, const double* y, std::size_t count, const CellGeometry& g,
              std::uint32_t* out) {
    cells_impl(x, y, count, g, out);
}

void NeighbourRowsF32(const FlockInCellOrder<float>& f, int row_begin, int row_end) {
    rows(f, row_begin, row_end);
}
void NeighbourRowsF64(const FlockInCellOrder<double>& f, int row_begin, int row_end) {
    rows(f, row_begin, row_end);
}
std::size_t LanesF32() {
    return hn::Lanes(hn::ScalableTag<float>());
}
std::size_t LanesF64() {
    return hn::Lanes(hn::ScalableTag<double>());
}
const char* TargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(CellsF32);
HWY_EXPORT(CellsF64);
HWY_EXPORT(NeighbourRowsF32);
HWY_EXPORT(NeighbourRowsF64);
HWY_EXPORT(LanesF32);
HWY_EXPORT(LanesF64);
HWY_EXPORT(TargetName);

void neighbour_rows(const FlockInCellOrder<float>& flock, int row_begin, int row_end) {
    HWY_DYNAMIC_DISPATCH(NeighbourRowsF32)(flock, row_begin, row_end);
}
void neighbour_rows(const FlockInCellOrder<double>& flock, int row_begin, int row_end) {
    HWY_DYNAMIC_DISPATCH(NeighbourRowsF64)(flock, row_begin, row_end);
}
void cells_of(const float* x, const float* y, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell) {
    HWY_DYNAMIC_DISPATCH(CellsF32)(x, y, count, grid, cell);
}
void cells_of(const double* x, const double* y, std::size_t count, const CellGeometry& grid,
              std::uint32_t* cell) {
    HWY_DYNAMIC_DISPATCH(CellsF64)(x, y, count, grid, cell);
}
std::size_t simd_lanes_f32() {
    return HWY_DYNAMIC_DISPATCH(LanesF32)();
}
std::size_t simd_lanes_f64() {
    return HWY_DYNAMIC_DISPATCH(LanesF64)();
}
const char* simd_target_name() {
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace boids::fast
#endif
