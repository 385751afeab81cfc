// The weighted model's sums with a group's agents in SIMD lanes (weighted_lanes_kernel.hpp; the layout is
// lane_vectors-inl.h's), compiled for every instruction set Highway targets on this architecture
// (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "weighted_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "lane_vectors-inl.h"
#include "models/weighted.hpp"
#include "weighted_lanes_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

/// A vector of agents: their positions, velocities and speeds, and their sums. `speed2` is the speed
/// squared where ConeLanes' squares may decide (WeightedSums), NaN elsewhere; `above_scale` and
/// `below_scale` the center's limits times speed2 (float storage, one half-angle). The neighbour counts
/// cn, an and ln are count_where's (read by counted).
template <class D>
struct WeightedLanes {
    using V = hn::Vec<D>;
    V px, py, vx, vy, speed, speed2, above_scale, below_scale;
    V cx, cy, cn, ax, ay, an, lx, ly, ln;
};

/// One neighbourhood in lanes of tag D (DD or DH): its radius and cosine limits.
template <class D>
struct ConeLanes {
    using V = hn::Vec<D>;
    using M = hn::Mask<D>;
    V radius, cos_below, cos_above, reach2, above_squared, below_squared;
    const weighted::Neighbourhood* cone;
    bool all_around; ///< Neighbourhood::all_around: the radius alone decides

    /// The limits' signed squares negated, as the lanes take the offset the other way round.
    explicit ConeLanes(D dd, const weighted::Neighbourhood& n)
        : radius(hn::Set(dd, n.radius)), cos_below(hn::Set(dd, n.cos_below)),
          cos_above(hn::Set(dd, n.cos_above)), reach2(hn::Set(dd, n.reach2)),
          above_squared(hn::Set(dd, -n.above_squared)), below_squared(hn::Set(dd, -n.below_squared)),
          cone(&n), all_around(n.all_around()) {}

    /// The lanes of `reached` whose neighbour at `length` with the clamped cosine `c` the neighbourhood
    /// sees (Neighbourhood::sees; the lanes within 1e-9 of the limit take its scalar acos).
    HWY_INLINE HWY_ATTR M Sees(M reached, M turning, V length, V c) const {
        const D dd;
        M within = hn::Or(hn::Not(turning), hn::Ge(c, cos_above));
        const M near = hn::And(reached, hn::AndNot(within, hn::And(turning, hn::Gt(c, cos_below))));
        if (!hn::AllFalse(dd, near)) [[unlikely]] {
            alignas(64) double cosine[max_lanes];
            alignas(64) double seen[max_lanes];
            hn::Store(c, dd, cosine);
            hn::Store(hn::IfThenElseZero(near, hn::Set(dd, 1.0)), dd, seen);
            for (std::size_t i = 0; i < hn::Lanes(dd); ++i) {
                seen[i] = seen[i] != 0.0 && cone->within(cosine[i]) ? 1.0 : 0.0;
            }
            within = hn::Or(within, hn::Ne(hn::Load(dd, seen), hn::Zero(dd)));
        }
        return hn::And(reached, hn::AndNot(hn::Gt(length, radius), within));
    }

    /// The half-angle's side without the square root and the division, where the signed squares tell it for
    /// certain (Neighbourhood::above_squared): `back_squared` is dot * |dot| of the offset taken the other
    /// way round (so -dot * |dot|), `scale` is speed^2 * d2 where both lie in ranges that keep the margin
    /// far above their roundings (NaN elsewhere: no comparison holds). Where the agent or the offset is zero
    /// (not turning: seen all around), scale and back_squared are zeros and both comparisons hold. Returns
    /// the lanes within the half-angle, and clears in `decided` the lanes it cannot tell (the caller decides
    /// those for all three neighbourhoods; in lanes not reached too, which only costs that).
    HWY_INLINE HWY_ATTR M WithinBySquares(V back_squared, V scale, M& decided) const {
        if (all_around) {
            return hn::FirstN(D(), hn::Lanes(D()));
        }
        return WithinCone(back_squared, scale, decided);
    }

    /// WithinBySquares of a half-angle below pi.
    HWY_INLINE HWY_ATTR M WithinCone(V back_squared, V scale, M& decided) const {
        return WithinLimits(back_squared, hn::Mul(above_squared, scale), hn::Mul(below_squared, scale),
                            decided);
    }

    /// WithinCone with the limits' signed squares already times the scale (`above`, `below`).
    static HWY_INLINE HWY_ATTR M WithinLimits(V back_squared, V above, V below, M& decided) {
        const M within = hn::Le(back_squared, above);
        decided = hn::And(decided, hn::Or(within, hn::Ge(back_squared, below)));
        return within;
    }

    /// WithinLimits as a candidate's first test: `decided` is set, not narrowed.
    static HWY_INLINE HWY_ATTR M FirstWithinLimits(V back_squared, V above, V below, M& decided) {
        const M within = hn::Le(back_squared, above);
        decided = hn::Or(within, hn::Ge(back_squared, below));
        return within;
    }

    /// The lanes of `reached` within the radius, for a half-angle that takes every direction.
    HWY_INLINE HWY_ATTR M SeesAround(M reached, V d2) const { return hn::And(reached, hn::Le(d2, reach2)); }
    HWY_INLINE HWY_ATTR M SeesAround(EveryLane, V d2) const { return hn::Le(d2, reach2); }

    /// The lanes of `reached` within the radius and, by `within`, the half-angle.
    HWY_INLINE HWY_ATTR M SeesWithin(M reached, V d2, M within) const {
        return hn::And(hn::And(reached, hn::Le(d2, reach2)), within);
    }
    HWY_INLINE HWY_ATTR M SeesWithin(EveryLane, V d2, M within) const {
        return hn::And(hn::Le(d2, reach2), within);
    }
};

/// WeightedSumsOf's constants in lanes of tag D (DD or DH).
template <class D>
struct WeightedConstants {
    using V = hn::Vec<D>;
    V zero, one, neg_one, nan, slowest2, fastest2, least_scale, most_scale;
    ConeLanes<D> center, avoid, align;

    WeightedConstants(D dd, const weighted::Neighbourhoods& near, double fastest_squared)
        : zero(hn::Zero(dd)), one(hn::Set(dd, 1.0)), neg_one(hn::Set(dd, -1.0)),
          nan(hn::Set(dd, std::numeric_limits<double>::quiet_NaN())), slowest2(hn::Set(dd, 1e-100)),
          fastest2(hn::Set(dd, fastest_squared)), least_scale(hn::Set(dd, 1e-200)),
          most_scale(hn::Set(dd, 1e200)), center(dd, near.center), avoid(dd, near.avoid),
          align(dd, near.align) {}
};

/// WeightedSums; kOneCone: one half-angle to test, the center's (below pi), which align shares, while
/// avoid sees all around (Downey's neighbourhoods): the other cases' tests, chosen per candidate, are left
/// out of the loop.
template <bool kOneCone, class Real>
HWY_ATTR void WeightedSumsOf(const InRangeGrid<Real>& grid, const weighted::Neighbourhoods& near,
                             const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                             std::uint32_t base, const WeightedLaneSums& sums) {
    // The squares decide where speed^2 * d2 lies within [1e-200, 1e200] (and the speed^2 within
    // [1e-100, 1e100]): all terms then are normal numbers, and their relative roundings (a few 2^-53) stay
    // far below the limits' margin of 1e-12, even against a limit's square of 1e-60. A float offset that is
    // not zero is at least 2^-149 long, so d2 >= 2^-298 > 1e-90, and speed^2 * d2 lies in that range for
    // every speed^2 up to 1e200 / range^2: float storage needs no test per candidate. There a zero speed
    // (whose velocity is zero: a float's square is never below 1e-90) takes speed2 = 0, so that a lane not
    // turning has zero scale and back_squared; in double storage it is out of range like the others.
    constexpr bool float_offsets = std::is_same_v<Real, float>;
    const double fastest2 = float_offsets ? std::min(1e100, 1e200 / grid.range2) : 1e100;
    const WeightedConstants<DD> full(DD(), near, fastest2);
    const WeightedConstants<DH> half(DH(), near, fastest2);
    // The constants of a vector's width.
    const auto constants = [&](auto d) -> const auto& {
        if constexpr (std::is_same_v<decltype(d), DD>) {
            return full;
        } else {
            return half;
        }
    };
    // speed^2 d2, NaN in double storage outside the ranges the squares decide in.
    const auto scale_of = [](auto speed2, auto d2, const auto& k) {
        auto scale = hn::Mul(speed2, d2);
        if constexpr (!float_offsets) {
            scale = hn::IfThenElse(hn::And(hn::Ge(scale, k.least_scale), hn::Le(scale, k.most_scale)), scale,
                                   k.nan);
        }
        return scale;
    };
    const bool avoid_as_center = near.avoid.angle == near.center.angle;
    const bool align_as_center = near.align.angle == near.center.angle;
    const bool align_as_avoid = near.align.angle == near.avoid.angle;
    const auto agents_of = [&](auto dd, std::uint32_t at, std::size_t n) {
        const hn::Rebind<Real, decltype(dd)> dr;
        const auto& k = constants(dd);
        const auto zero = k.zero;
        const auto speed = LoadLanes(dd, agents.speed, at, n);
        const auto speed2 = hn::Mul(speed, speed);
        const auto decidable = hn::Or(hn::And(hn::Ge(speed2, k.slowest2), hn::Le(speed2, k.fastest2)),
                                      float_offsets ? hn::Eq(speed, zero) : hn::FirstN(dd, 0));
        const auto squared = hn::IfThenElse(decidable, speed2, k.nan);
        return WeightedLanes<decltype(dd)>{
            WidenLanes<Real>(dd, LoadLanes(dr, grid.x, at, n)),
            WidenLanes<Real>(dd, LoadLanes(dr, grid.y, at, n)),
            LoadLanes(dd, agents.vx, at, n),
            LoadLanes(dd, agents.vy, at, n),
            speed,
            squared,
            kOneCone && float_offsets ? hn::Mul(k.center.above_squared, squared) : zero,
            kOneCone && float_offsets ? hn::Mul(k.center.below_squared, squared) : zero,
            zero,
            zero,
            zero,
            zero,
            zero,
            zero,
            zero,
            zero,
            zero};
    };
    // (bx, by): Geometry::neighbour's offset, the agent minus the neighbour's image; the plain path
    // takes its negation. -(a + b) and (-a) + (-b) differ only in a zero's sign, which no comparison
    // and no acos below tells apart; p + (-b) is p - b.
    const auto add_candidate = [&](auto& s, std::uint32_t c, auto bx, auto by, auto d2, auto other)
        __attribute__((always_inline)) {
        using D = hn::DFromV<decltype(bx)>;
        using V = hn::Vec<D>;
        using M = hn::Mask<D>;
        const D dd;
        const auto& k = constants(dd);
        const auto& center = k.center;
        const auto& avoid = k.avoid;
        const auto& align = k.align;
        // The candidates that reach no lane (about 40%, in no order a predictor learns) were left out
        // before (EachLaneVectorOf's filter), without a branch.
        // -v.dot(offset) (z adds 0); the velocity's lanes hold the storage type's values too.
        const V back_dot = WidenedDot<Real>(s.vx, bx, s.vy, by);
        // The cosine -back_dot / (speed * length) is compared with the limits as signed squares: no
        // square root, no division. The lanes the squares cannot decide take the plain path's
        // arithmetic below.
        const V back_squared = hn::Mul(back_dot, hn::Abs(back_dot));
        // Neighbourhoods of the same half-angle share its test (the same limits: the same answer). Where
        // one's answer is every lane, no mask of every lane is ANDed in (an operation per candidate each;
        // GCC does not fold Highway's FirstN).
        M decided;
        M center_within, avoid_within, align_within;
        if constexpr (kOneCone) {
            if constexpr (float_offsets) {
                // The limits times speed^2 made once per vector of agents: (limit speed^2) d2 and limit
                // (speed^2 d2) differ by a rounding or two, far below the margin, in the same ranges.
                // Where a limit's +-1e300 times speed^2 overflows, a zero d2 gives NaN, and the lane
                // takes the plain arithmetic below (a d2 above zero gives the infinity's answer, as
                // before).
                center_within = ConeLanes<D>::FirstWithinLimits(back_squared, hn::Mul(s.above_scale, d2),
                                                                hn::Mul(s.below_scale, d2), decided);
            } else {
                decided = hn::FirstN(dd, hn::Lanes(dd));
                center_within = center.WithinCone(back_squared, scale_of(s.speed2, d2, k), decided);
            }
            align_within = center_within;
        } else {
            decided = hn::FirstN(dd, hn::Lanes(dd));
            const V scale = scale_of(s.speed2, d2, k);
            center_within = center.WithinBySquares(back_squared, scale, decided);
            avoid_within =
                avoid_as_center ? center_within : avoid.WithinBySquares(back_squared, scale, decided);
            align_within = align_as_center  ? center_within
                           : align_as_avoid ? avoid_within
                                            : align.WithinBySquares(back_squared, scale, decided);
        }
        M seen_center = center.SeesWithin(other, d2, center_within);
        M seen_avoid;
        if constexpr (kOneCone) { // avoid sees all around
            seen_avoid = avoid.SeesAround(other, d2);
        } else {
            seen_avoid = avoid.SeesWithin(other, d2, avoid_within);
        }
        M seen_align = align.SeesWithin(other, d2, align_within);
        if (!hn::AllTrue(dd, decided)) [[unlikely]] { // near a limit, or out of those ranges
            M reached;
            if constexpr (std::is_same_v<decltype(other), EveryLane>) {
                reached = hn::FirstN(dd, hn::Lanes(dd));
            } else {
                reached = other;
            }
            const V length = hn::Sqrt(d2);
            const M turning = hn::And(hn::Ne(s.speed, k.zero), hn::Ne(length, k.zero));
            // v.dot(offset) / (speed * length), clamped as angle_between does.
            const V cosine = hn::Neg(hn::Div(back_dot, hn::Mul(s.speed, length)));
            const V clamped = hn::IfThenElse(hn::Gt(cosine, k.one), k.one,
                                             hn::IfThenElse(hn::Lt(cosine, k.neg_one), k.neg_one, cosine));
            seen_center = center.Sees(reached, turning, length, clamped);
            seen_avoid = avoid.Sees(reached, turning, length, clamped);
            seen_align = align.Sees(reached, turning, length, clamped);
        }
        const V nx = hn::Sub(s.px, bx), ny = hn::Sub(s.py, by); // the neighbour's image
        s.cx = add_where(seen_center, s.cx, nx);
        s.cy = add_where(seen_center, s.cy, ny);
        s.cn = count_where(dd, seen_center, s.cn);
        s.ax = add_where(seen_avoid, s.ax, nx);
        s.ay = add_where(seen_avoid, s.ay, ny);
        s.an = count_where(dd, seen_avoid, s.an);
        s.lx = add_where(seen_align, s.lx, hn::Set(dd, agents.ux[c]));
        s.ly = add_where(seen_align, s.ly, hn::Set(dd, agents.uy[c]));
        s.ln = count_where(dd, seen_align, s.ln);
    };
    const auto store_sums = [&](const auto& s, std::uint32_t at, std::size_t n) {
        const hn::DFromV<decltype(s.cx)> dd;
        const std::uint32_t i = at - base;
        StoreLanes(s.cx, sums.cx, i, n);
        StoreLanes(s.cy, sums.cy, i, n);
        StoreLanes(counted(dd, s.cn), sums.cn, i, n);
        StoreLanes(s.ax, sums.ax, i, n);
        StoreLanes(s.ay, sums.ay, i, n);
        StoreLanes(counted(dd, s.an), sums.an, i, n);
        StoreLanes(s.lx, sums.lx, i, n);
        StoreLanes(s.ly, sums.ly, i, n);
        StoreLanes(counted(dd, s.ln), sums.ln, i, n);
    };
    // The grid's range lies above every radius (weighted::fast_pass): the radii's tests alone decide.
    for (const LaneGroupRuns& g : groups) {
        EachLaneVectorOf<LaneOffset::AgentMinusImage, 1, true, true>(grid, g.group, g.runs, agents_of,
                                                                     add_candidate, store_sums);
    }
}

template <class Real>
HWY_ATTR void WeightedSums(const InRangeGrid<Real>& grid, const weighted::Neighbourhoods& near,
                           const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                           std::uint32_t base, const WeightedLaneSums& sums) {
    if (!near.center.all_around() && near.avoid.all_around() && near.align.angle == near.center.angle) {
        WeightedSumsOf<true>(grid, near, agents, groups, base, sums);
    } else {
        WeightedSumsOf<false>(grid, near, agents, groups, base, sums);
    }
}

/// Calls body(at, n, x, y) for each vector of lanes of entries [0, count): n of them from `at` (the last
/// vector may be partial), with two columns of the storage type there widened to double.
template <class Real, class Body>
HWY_INLINE HWY_ATTR void EachPlaneVector(const Real* xs, const Real* ys, std::uint32_t count,
                                         const Body& body) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(dd));
    for (std::uint32_t at = 0; at < count; at += lanes) {
        const std::size_t n = std::min(lanes, count - at);
        body(at, n, WidenLanes<Real>(dd, LoadLanes(dr, xs, at, n)),
             WidenLanes<Real>(dd, LoadLanes(dr, ys, at, n)));
    }
}

/// Vec3::norm of a planar vector: sqrt(x * x + y * y + z * z), whose z * z adds +0. Of a vector or a pack
/// of them (vector_packs-inl.h), as the functions below.
template <class P>
HWY_INLINE HWY_ATTR P PlaneNorm(P x, P y) {
    return pk::Sqrt(pk::Add(pk::Add(pk::Mul(x, x), pk::Mul(y, y)), hn::Zero(DD())));
}

template <class Real>
HWY_ATTR void WeightedHeadings(const Real* vx, const Real* vy, std::uint32_t count, double* out_vx,
                               double* out_vy, double* speed, double* ux, double* uy) {
    const DD dd;
    const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0);
    EachPlaneVector(vx, vy, count, [&](std::uint32_t at, std::size_t n, V x, V y) HWY_ATTR {
        const V norm = PlaneNorm(x, y);
        const M moving = hn::Gt(norm, zero);
        const V k = hn::Div(one, norm);
        StoreLanes(x, out_vx, at, n);
        StoreLanes(y, out_vy, at, n);
        StoreLanes(norm, speed, at, n);
        StoreLanes(hn::IfThenElse(moving, hn::Mul(x, k), x), ux, at, n);
        StoreLanes(hn::IfThenElse(moving, hn::Mul(y, k), y), uy, at, n);
    });
}

HWY_ATTR void WeightedHeadingsF32(const float* vx, const float* vy, std::uint32_t count, double* out_vx,
                                  double* out_vy, double* speed, double* ux, double* uy) {
    WeightedHeadings(vx, vy, count, out_vx, out_vy, speed, ux, uy);
}
HWY_ATTR void WeightedHeadingsF64(const double* vx, const double* vy, std::uint32_t count, double* out_vx,
                                  double* out_vy, double* speed, double* ux, double* uy) {
    WeightedHeadings(vx, vy, count, out_vx, out_vy, speed, ux, uy);
}

/// Downey's limit_vector in lanes (weighted::limit): a vector longer than 1 scaled to length 1. A square
/// root of a squared length at most 1 is at most 1 (sqrt is monotonic and exact at 1), so where no lane's
/// squared length exceeds 1 no lane is longer: the means of neighbours within a radius of 1 (Downey's) and
/// of unit headings never are, and skip the root and the division.
template <class P>
HWY_INLINE HWY_ATTR void LimitLanes(P& x, P& y) {
    const DD dd;
    const V one = hn::Set(dd, 1.0);
    if (pk::AllFalse(dd, pk::Gt(pk::Add(pk::Mul(x, x), pk::Mul(y, y)), one))) {
        return;
    }
    const P n = PlaneNorm(x, y);
    const auto longer = pk::Gt(n, one);
    const P k = pk::Div(one, n);
    x = pk::IfThenElse(longer, pk::Mul(x, k), x);
    y = pk::IfThenElse(longer, pk::Mul(y, k), y);
}

/// weighted::nearest_offset in lanes for offsets up to twice the side; `far` gets the lanes beyond, which
/// the caller takes from the scalar function.
template <class P, class MP>
HWY_INLINE HWY_ATTR P NearestOffsetLanes(P x, double side, MP& far) {
    const DD dd;
    const V length = hn::Set(dd, side), half = hn::Set(dd, side * 0.5), twice = hn::Set(dd, 2 * side);
    const P ax = pk::Abs(x);
    far = pk::Or(far, pk::Not(pk::Le(ax, twice)));
    const P step = pk::IfThenElse(pk::Gt(x, hn::Zero(dd)), length, hn::Neg(length));
    const P once = pk::Sub(x, step);
    P r = pk::IfThenElse(pk::Lt(pk::Abs(once), half), once, pk::Sub(x, pk::Add(step, step)));
    r = pk::IfThenElse(pk::Eq(r, hn::Zero(dd)), pk::CopySign(hn::Zero(dd), x), r);
    return pk::IfThenElse(pk::Le(ax, half), x, r);
}

/// weighted::Policy::steer's toward_mean: the mean of `count` terms minus `from`, limited; +0 for none.
template <class P, class F>
HWY_INLINE HWY_ATTR void TowardMeanLanes(P sx, P sy, P count, F fx, F fy, P& x, P& y) {
    const DD dd;
    const P k = pk::Div(hn::Set(dd, 1.0), count);
    x = pk::Sub(pk::Mul(sx, k), fx);
    y = pk::Sub(pk::Mul(sy, k), fy);
    LimitLanes(x, y);
    const auto some = pk::Gt(count, hn::Zero(dd));
    x = pk::IfThenElseZero(some, x);
    y = pk::IfThenElseZero(some, y);
}

/// How many vectors of agents WeightedSteer takes side by side (vector_packs-inl.h): its square roots and
/// divisions follow one another through the steering, which one vector at a time leaves waiting. Four took
/// 13% off the steering on AVX2 and 27% on SSE4; AVX-512's eight lanes gained nothing (two kept: no slower).
constexpr std::size_t steer_pack = HWY_TARGET <= HWY_AVX3 ? 2 : 4;

/// WeightedSteer for the agents from `at`: a vector of `n` of them (K = 0), or K whole vectors side by
/// side.
template <std::size_t K, class Real>
HWY_INLINE HWY_ATTR void SteerVectors(const WeightedSteering& st, const Real* x, const Real* y,
                                      const double* vx, const double* vy, const double* speed,
                                      const WeightedLaneSums& sums, std::uint32_t at, std::size_t n,
                                      double* out_vx, double* out_vy) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;
    const std::size_t lanes = hn::Lanes(dd);
    constexpr std::size_t vectors = std::max<std::size_t>(K, 1);
    const auto load = [&](const double* column) HWY_ATTR { return LoadColumn<K>(dd, column, at, n); };
    const auto load_position = [&](const Real* column) HWY_ATTR {
        return pk::Each([&](auto v) HWY_ATTR { return WidenLanes<Real>(dd, v); },
                        LoadColumn<K>(dr, column, at, n));
    };
    const auto store = [&](const auto& p, double* column) HWY_ATTR { StoreColumn<K>(p, column, at, n); };
    // Every lane of the vectors to an array and back, for the lanes that take scalar code.
    using P = decltype(load(vx));
    const auto spill = [&](const P& p, double* to) HWY_ATTR {
        pk::EachPart(p, [&](std::size_t k, V v) HWY_ATTR { hn::Store(v, dd, to + k * lanes); });
    };
    const auto fill = [&](const double* from) HWY_ATTR {
        return pk::MakePack<K>([&](std::size_t k) HWY_ATTR { return hn::Load(dd, from + k * lanes); });
    };
    const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0);
    const P px = load_position(x), py = load_position(y);
    const P ux = load(vx), uy = load(vy);
    const P v_norm = load(speed);
    // The carrot's offset, its nearest image on a torus (the lanes far outside take the C library's).
    P tx = pk::Sub(hn::Set(dd, st.carrot_x), px), ty = pk::Sub(hn::Set(dd, st.carrot_y), py);
    if (st.wrap) {
        auto far = pk::MakePack<K>([&](std::size_t) HWY_ATTR { return hn::FirstN(dd, 0); });
        const P wx = NearestOffsetLanes(tx, st.width, far);
        const P wy = NearestOffsetLanes(ty, st.height, far);
        if (!pk::AllFalse(dd, far)) [[unlikely]] {
            alignas(64) double ox[max_lanes * vectors], oy[max_lanes * vectors];
            spill(tx, ox);
            spill(ty, oy);
            for (std::size_t i = 0; i < lanes * vectors; ++i) {
                ox[i] = weighted::nearest_offset(ox[i], st.width);
                oy[i] = weighted::nearest_offset(oy[i], st.height);
            }
            tx = fill(ox);
            ty = fill(oy);
        } else {
            tx = wx;
            ty = wy;
        }
    }
    P ax = load(sums.ax), ay = load(sums.ay);
    P an = load(sums.an);
    // The carrot is avoided too where the avoid request sees it (Policy::in_view); it is seldom within
    // the radius, and those lanes take the angle in scalar code.
    const P carrot_length = PlaneNorm(tx, ty);
    auto carrot_seen = pk::Not(pk::Gt(carrot_length, hn::Set(dd, st.avoid.radius)));
    if (!pk::AllFalse(dd, carrot_seen)) [[unlikely]] {
        alignas(64) double cx[max_lanes * vectors], cy[max_lanes * vectors], wx[max_lanes * vectors],
            wy[max_lanes * vectors], seen[max_lanes * vectors];
        spill(tx, cx);
        spill(ty, cy);
        spill(ux, wx);
        spill(uy, wy);
        spill(pk::IfThenElseZero(carrot_seen, one), seen);
        for (std::size_t i = 0; i < lanes * vectors; ++i) {
            const bool sees = seen[i] != 0 &&
                              !(weighted::angle_between(weighted::Vec3{wx[i], wy[i], 0.0},
                                                        weighted::Vec3{cx[i], cy[i], 0.0}) > st.avoid.angle);
            seen[i] = sees ? 1.0 : 0.0;
        }
        carrot_seen = pk::Ne(fill(seen), zero);
        ax = pk::IfThenElse(carrot_seen, pk::Add(pk::Add(ax, px), tx), ax);
        ay = pk::IfThenElse(carrot_seen, pk::Add(pk::Add(ay, py), ty), ay);
        an = pk::IfThenElse(carrot_seen, pk::Add(an, one), an);
    }
    P center_x, center_y, avoid_x, avoid_y, align_x, align_y;
    TowardMeanLanes(load(sums.cx), load(sums.cy), load(sums.cn), px, py, center_x, center_y);
    TowardMeanLanes(ax, ay, an, px, py, avoid_x, avoid_y);
    const V minus_one = hn::Set(dd, -1.0);
    avoid_x = pk::Mul(avoid_x, minus_one);
    avoid_y = pk::Mul(avoid_y, minus_one);
    TowardMeanLanes(load(sums.lx), load(sums.ly), load(sums.ln), zero, zero, align_x, align_y);
    P love_x = tx, love_y = ty;
    LimitLanes(love_x, love_y);
    const V wc = hn::Set(dd, st.w_center), wa = hn::Set(dd, st.w_avoid), wl = hn::Set(dd, st.w_align),
            wv = hn::Set(dd, st.w_love);
    P goal_x = pk::Add(pk::Add(pk::Add(pk::Mul(center_x, wc), pk::Mul(avoid_x, wa)), pk::Mul(align_x, wl)),
                       pk::Mul(love_x, wv));
    P goal_y = pk::Add(pk::Add(pk::Add(pk::Mul(center_y, wc), pk::Mul(avoid_y, wa)), pk::Mul(align_y, wl)),
                       pk::Mul(love_y, wv));
    const P goal_norm = PlaneNorm(goal_x, goal_y);
    const auto moving = pk::Gt(v_norm, zero);
    const P inverse_speed = pk::Div(one, v_norm);
    const P unit_x = pk::IfThenElse(moving, pk::Mul(ux, inverse_speed), one);
    const P unit_y = pk::IfThenElse(moving, pk::Mul(uy, inverse_speed), zero);
    const auto has_goal = pk::Gt(goal_norm, zero);
    const P inverse_goal = pk::Div(one, goal_norm);
    goal_x = pk::IfThenElse(has_goal, pk::Mul(goal_x, inverse_goal), unit_x);
    goal_y = pk::IfThenElse(has_goal, pk::Mul(goal_y, inverse_goal), unit_y);
    const V keep = hn::Set(dd, 1.0 - st.maneuverability), turn = hn::Set(dd, st.maneuverability);
    P next_x = pk::Add(pk::Mul(unit_x, keep), pk::Mul(goal_x, turn));
    P next_y = pk::Add(pk::Mul(unit_y, keep), pk::Mul(goal_y, turn));
    const P next_norm = PlaneNorm(next_x, next_y);
    const auto has_next = pk::Gt(next_norm, zero);
    const P inverse_next = pk::Div(one, next_norm);
    next_x = pk::IfThenElse(has_next, pk::Mul(next_x, inverse_next), unit_x);
    next_y = pk::IfThenElse(has_next, pk::Mul(next_y, inverse_next), unit_y);
    const V dt = hn::Set(dd, st.time_step);
    store(pk::Mul(next_x, dt), out_vx);
    store(pk::Mul(next_y, dt), out_vy);
}

template <class Real>
HWY_ATTR void WeightedSteer(const WeightedSteering& st, const Real* x, const Real* y, const double* vx,
                            const double* vy, const double* speed, const WeightedLaneSums& sums,
                            std::uint32_t count, double* out_vx, double* out_vy) {
    EachColumnPack<steer_pack>(count, [&](auto pack, std::uint32_t at, std::size_t n) HWY_ATTR {
        SteerVectors<decltype(pack)::value>(st, x, y, vx, vy, speed, sums, at, n, out_vx, out_vy);
    });
}

HWY_ATTR void WeightedSteerF32(const WeightedSteering& st, const float* x, const float* y, const double* vx,
                               const double* vy, const double* speed, const WeightedLaneSums& sums,
                               std::uint32_t count, double* out_vx, double* out_vy) {
    WeightedSteer(st, x, y, vx, vy, speed, sums, count, out_vx, out_vy);
}
HWY_ATTR void WeightedSteerF64(const WeightedSteering& st, const double* x, const double* y, const double* vx,
                               const double* vy, const double* speed, const WeightedLaneSums& sums,
                               std::uint32_t count, double* out_vx, double* out_vy) {
    WeightedSteer(st, x, y, vx, vy, speed, sums, count, out_vx, out_vy);
}

HWY_ATTR void WeightedSumsF32(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                              const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                              std::uint32_t base, const WeightedLaneSums& sums) {
    WeightedSums(grid, near, agents, groups, base, sums);
}
HWY_ATTR void WeightedSumsF64(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                              const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                              std::uint32_t base, const WeightedLaneSums& sums) {
    WeightedSums(grid, near, agents, groups, base, sums);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(WeightedSumsF32);
HWY_EXPORT(WeightedSumsF64);
HWY_EXPORT(WeightedSteerF32);
HWY_EXPORT(WeightedHeadingsF32);
HWY_EXPORT(WeightedHeadingsF64);
HWY_EXPORT(WeightedSteerF64);

void weighted_sums(const InRangeGrid<float>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                   std::uint32_t base, const WeightedLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(WeightedSumsF32)(grid, near, agents, groups, base, sums);
}
void weighted_sums(const InRangeGrid<double>& grid, const weighted::Neighbourhoods& near,
                   const WeightedLaneAgents& agents, std::span<const LaneGroupRuns> groups,
                   std::uint32_t base, const WeightedLaneSums& sums) {
    HWY_DYNAMIC_DISPATCH(WeightedSumsF64)(grid, near, agents, groups, base, sums);
}

void weighted_headings(const float* vx, const float* vy, std::uint32_t count, double* out_vx, double* out_vy,
                       double* speed, double* ux, double* uy) {
    HWY_DYNAMIC_DISPATCH(WeightedHeadingsF32)(vx, vy, count, out_vx, out_vy, speed, ux, uy);
}
void weighted_headings(const double* vx, const double* vy, std::uint32_t count, double* out_vx,
                       double* out_vy, double* speed, double* ux, double* uy) {
    HWY_DYNAMIC_DISPATCH(WeightedHeadingsF64)(vx, vy, count, out_vx, out_vy, speed, ux, uy);
}
void weighted_steer(const WeightedSteering& steering, const float* x, const float* y, const double* vx,
                    const double* vy, const double* speed, const WeightedLaneSums& sums, std::uint32_t count,
                    double* out_vx, double* out_vy) {
    HWY_DYNAMIC_DISPATCH(WeightedSteerF32)(steering, x, y, vx, vy, speed, sums, count, out_vx, out_vy);
}
void weighted_steer(const WeightedSteering& steering, const double* x, const double* y, const double* vx,
                    const double* vy, const double* speed, const WeightedLaneSums& sums, std::uint32_t count,
                    double* out_vx, double* out_vy) {
    HWY_DYNAMIC_DISPATCH(WeightedSteerF64)(steering, x, y, vx, vy, speed, sums, count, out_vx, out_vy);
}

} // namespace boids::fast
#endif
