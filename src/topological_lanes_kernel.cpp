// The topological model's steering in SIMD lanes (topological_lanes_kernel.hpp), compiled for every
// instruction set Highway targets on this architecture (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "topological_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "lane_vectors-inl.h"
#include "topological_lanes_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numbers>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

/// `n` entries of `column` from `at` in lanes, and back (lane_vectors-inl.h's, at a chunk's offsets).
HWY_INLINE HWY_ATTR V Load(const double* column, std::size_t at, std::size_t n) {
    return LoadLanes(DD(), column, static_cast<std::uint32_t>(at), n);
}
HWY_INLINE HWY_ATTR void Store(V v, double* column, std::size_t at, std::size_t n) {
    StoreLanes(v, column, static_cast<std::uint32_t>(at), n);
}

/// topological::degrees: radians * 180 / pi.
HWY_INLINE HWY_ATTR V Degrees(V radians) {
    const DD dd;
    return hn::Div(hn::Mul(radians, hn::Set(dd, 180.0)), hn::Set(dd, std::numbers::pi));
}

/// topological::turn_toward(to, from): the signed turn (-180, 180] from one heading to the other.
HWY_INLINE HWY_ATTR V TurnToward(V to, V from) {
    const DD dd;
    const V full = hn::Set(dd, 360.0), half = hn::Set(dd, 180.0);
    const V diff = hn::Add(hn::Sub(to, from), half);
    const V turns = hn::Div(diff, full);
    return hn::Sub(hn::Mul(hn::Sub(turns, hn::Floor(turns)), full), half);
}

/// std::min(a, b) and std::max(a, b): b where b < a (a where a < b), else a.
HWY_INLINE HWY_ATTR V StdMin(V a, V b) {
    return hn::IfThenElse(hn::Lt(b, a), b, a);
}
HWY_INLINE HWY_ATTR V StdMax(V a, V b) {
    return hn::IfThenElse(hn::Lt(a, b), b, a);
}

HWY_ATTR void Bearings(const TopologicalSteering& st, const TopologicalColumns& c, std::size_t count) {
    const DD dd;
    const V one = hn::Set(dd, 1.0), too_close = hn::Set(dd, st.too_close);
    for (std::size_t at = 0; at < count; at += hn::Lanes(dd)) {
        const std::size_t n = std::min(hn::Lanes(dd), count - at);
        const V found = Load(c.count, at, n);
        const M several = hn::Gt(found, one); // s.count > 1
        const V ndx = Load(c.nearest_dx, at, n), ndy = Load(c.nearest_dy, at, n);
        const M flee = hn::Lt(Length(ndx, ndy), too_close);
        const V tx = hn::IfThenElse(flee, hn::Neg(ndx),
                                    hn::Sub(hn::Div(Load(c.x_sum, at, n), found), Load(c.x, at, n)));
        const V ty = hn::IfThenElse(flee, hn::Neg(ndy),
                                    hn::Sub(hn::Div(Load(c.y_sum, at, n), found), Load(c.y, at, n)));
        Store(hn::IfThenElseZero(several, Load(c.s_sin_sum, at, n)), c.sin_sum, at, n);
        Store(hn::IfThenElseZero(several, Load(c.s_cos_sum, at, n)), c.cos_sum, at, n);
        Store(hn::IfThenElseZero(several, tx), c.tx, at, n);
        Store(hn::IfThenElseZero(several, ty), c.ty, at, n);
        Store(hn::IfThenElseZero(several, Length(tx, ty)), c.target_distance, at, n);
        Store(hn::IfThenElseZero(hn::And(several, flee), one), c.flee, at, n);
    }
}

HWY_ATTR void NewHeading(const TopologicalSteering& st, const TopologicalColumns& c, std::size_t count,
                         double* radians_now) {
    const DD dd;
    const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0), full = hn::Set(dd, 360.0);
    for (std::size_t at = 0; at < count; at += hn::Lanes(dd)) {
        const std::size_t n = std::min(hn::Lanes(dd), count - at);
        V heading = Degrees(Load(c.own_angle, at, n));
        if (st.positive_range) {
            heading = hn::IfThenElse(hn::Lt(heading, zero), hn::Add(heading, full), heading);
            heading = hn::IfThenElse(hn::Ge(heading, full), hn::Sub(heading, full), heading);
        }
        V turn_rate = hn::Set(dd, st.turn_rate);
        V turn = zero;
        V target_angle = heading;
        const M several = hn::Gt(Load(c.count, at, n), one);
        const V distance = Load(c.target_distance, at, n);
        {
            const V mean_heading = Degrees(Load(c.mean_angle, at, n));
            V target = Degrees(Load(c.target_angle, at, n));
            target = hn::IfThenElse(hn::Lt(distance, hn::Set(dd, st.align_within)), mean_heading, target);
            V t = hn::IfThenElse(hn::Gt(hn::Abs(hn::Sub(target, heading)), hn::Set(dd, st.tolerance)),
                                 TurnToward(target, heading), zero);
            const M flee =
                hn::And(hn::Lt(distance, hn::Set(dd, st.too_close)), hn::Ne(Load(c.flee, at, n), zero));
            t = hn::IfThenElse(flee, hn::Neg(t), t);
            target_angle = hn::IfThenElse(several, target, target_angle);
            turn = hn::IfThenElse(several, t, turn);
        }
        if (st.margins) { // within a margin: head for the inside, turning harder the deeper in
            const V x = Load(c.x, at, n), y = Load(c.y, at, n);
            const V w = hn::Set(dd, st.width), h = hn::Set(dd, st.height);
            const V left = hn::Set(dd, st.margin_left), top = hn::Set(dd, st.margin_top);
            const V right = hn::Set(dd, st.margin_right), bottom = hn::Set(dd, st.margin_bottom);
            V depth = hn::Div(x, left); // std::min of the four, in their order
            depth = StdMin(depth, hn::Div(y, top));
            depth = StdMin(depth, hn::Div(hn::Sub(w, x), right));
            depth = StdMin(depth, hn::Div(hn::Sub(h, y), bottom));
            const M inside = hn::Lt(depth, one);
            V edge = target_angle;
            edge = hn::IfThenElse(
                hn::Lt(x, left), zero,
                hn::IfThenElse(hn::Gt(x, hn::Set(dd, st.width - st.margin_right)), hn::Set(dd, 180.0), edge));
            edge = hn::IfThenElse(hn::Lt(y, top), hn::Set(dd, 90.0),
                                  hn::IfThenElse(hn::Gt(y, hn::Set(dd, st.height - st.margin_bottom)),
                                                 hn::Set(dd, 270.0), edge));
            const V rate = hn::Add(turn_rate, hn::Mul(hn::Sub(one, StdMax(depth, zero)),
                                                      hn::Sub(hn::Set(dd, st.edge_turn_rate), turn_rate)));
            turn = hn::IfThenElse(inside, TurnToward(edge, heading), turn);
            turn_rate = hn::IfThenElse(inside, rate, turn_rate);
        }
        const V turned = hn::Add(heading, hn::IfThenElse(hn::Gt(turn, zero), turn_rate, hn::Neg(turn_rate)));
        const V wrapped = hn::Sub(turned, hn::Mul(full, hn::Floor(hn::Div(turned, full))));
        heading = hn::IfThenElse(hn::Ne(turn, zero), wrapped, heading);
        // topological::radians: degrees * pi / 180.
        Store(hn::Div(hn::Mul(heading, hn::Set(dd, std::numbers::pi)), hn::Set(dd, 180.0)), radians_now, at,
              n);
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(Bearings);
HWY_EXPORT(NewHeading);

void topological_bearings(const TopologicalSteering& steering, const TopologicalColumns& columns,
                          std::size_t n) {
    HWY_DYNAMIC_DISPATCH(Bearings)(steering, columns, n);
}

void topological_new_heading(const TopologicalSteering& steering, const TopologicalColumns& columns,
                             std::size_t n, double* radians_now) {
    HWY_DYNAMIC_DISPATCH(NewHeading)(steering, columns, n, radians_now);
}

} // namespace boids::fast
#endif
