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

template <class Real>
HWY_ATTR void Sums(const TopologicalNeighbours<Real>& in, std::uint32_t first, std::size_t count,
                   const TopologicalSums& out) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;                   // as many lanes of the storage type
    const hn::Rebind<std::int32_t, DD> di;           // and of slots
    const hn::Rebind<std::int64_t, DD> dl;           // slots to gather doubles with
    const hn::Rebind<hwy::MakeSigned<Real>, DD> dri; // slots to gather the storage type with
    using VR = hn::Vec<decltype(dr)>;
    const VR w = hn::Set(dr, in.width), h = hn::Set(dr, in.height);
    const VR hw = hn::Set(dr, in.half_width), hh = hn::Set(dr, in.half_height);
    const VR nhw = hn::Neg(hw), nhh = hn::Neg(hh);
    const std::size_t lanes = hn::Lanes(dd);
    for (std::size_t at = 0; at < count; at += lanes) {
        const std::size_t n = std::min(lanes, count - at);
        const auto i = static_cast<std::uint32_t>(at);
        const VR ax = LoadLanes(dr, in.x, first + i, n), ay = LoadLanes(dr, in.y, first + i, n);
        const V x = WidenLanes<Real>(dd, ax), y = WidenLanes<Real>(dd, ay);
        const auto found_slots = LoadLanes(di, in.count, i, n);
        const V found = hn::PromoteTo(dd, found_slots);
        V x_sum = hn::Zero(dd), y_sum = x_sum, cos_sum = x_sum, sin_sum = x_sum;
        V nearest_dx = x_sum, nearest_dy = x_sum;
        for (int m = 0; m < in.k; ++m) { // nearest first (Policy::accumulate)
            const M listed = hn::Lt(hn::Set(dd, static_cast<double>(m)), found);
            if (hn::AllFalse(dd, listed)) {
                break;
            }
            // A lane past its list reads slot 0, whose terms it leaves out.
            const auto slots =
                hn::IfThenElseZero(hn::Lt(hn::Set(di, m), found_slots),
                                   LoadLanes(di,
                                             reinterpret_cast<const std::int32_t*>(in.nearest) +
                                                 static_cast<std::size_t>(m) * in.stride,
                                             i, n));
            VR nx, ny;
            if constexpr (sizeof(Real) == sizeof(float)) {
                nx = hn::GatherIndex(dr, in.x, slots);
                ny = hn::GatherIndex(dr, in.y, slots);
            } else {
                const auto wide = hn::PromoteTo(dri, slots);
                nx = hn::GatherIndex(dr, in.x, wide);
                ny = hn::GatherIndex(dr, in.y, wide);
            }
            const auto wide = hn::PromoteTo(dl, slots);
            const V ux = hn::GatherIndex(dd, in.ux, wide), uy = hn::GatherIndex(dd, in.uy, wide);
            if (in.wrap) { // classic::nearest_image
                const VR ex = hn::Sub(ax, nx), ey = hn::Sub(ay, ny);
                nx = hn::IfThenElse(hn::Gt(ex, hw), hn::Add(nx, w),
                                    hn::IfThenElse(hn::Lt(ex, nhw), hn::Sub(nx, w), nx));
                ny = hn::IfThenElse(hn::Gt(ey, hh), hn::Add(ny, h),
                                    hn::IfThenElse(hn::Lt(ey, nhh), hn::Sub(ny, h), ny));
            }
            const V dx = WidenLanes<Real>(dd, hn::Sub(ax, nx)), dy = WidenLanes<Real>(dd, hn::Sub(ay, ny));
            if (m == 0) {
                nearest_dx = hn::IfThenElseZero(listed, dx);
                nearest_dy = hn::IfThenElseZero(listed, dy);
            }
            // The sums start at +0 and so are never -0: a term left out may be added as +0.
            x_sum = add_where(listed, x_sum, hn::Sub(x, dx));
            y_sum = add_where(listed, y_sum, hn::Sub(y, dy));
            cos_sum = add_where(listed, cos_sum, ux); // +0 for a neighbour at rest, which changes nothing
            sin_sum = add_where(listed, sin_sum, uy);
        }
        Store(found, out.count, at, n);
        Store(x_sum, out.x_sum, at, n);
        Store(y_sum, out.y_sum, at, n);
        Store(nearest_dx, out.nearest_dx, at, n);
        Store(nearest_dy, out.nearest_dy, at, n);
        Store(x, out.x, at, n);
        Store(y, out.y, at, n);
        Store(sin_sum, out.sin_sum, at, n);
        Store(cos_sum, out.cos_sum, at, n);
        Store(WidenLanes<Real>(dd, LoadLanes(dr, in.vy, first + i, n)), out.vy, at, n);
        Store(WidenLanes<Real>(dd, LoadLanes(dr, in.vx, first + i, n)), out.vx, at, n);
    }
}

HWY_ATTR void SumsF32(const TopologicalNeighbours<float>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out) {
    Sums(in, first, n, out);
}
HWY_ATTR void SumsF64(const TopologicalNeighbours<double>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out) {
    Sums(in, first, n, out);
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace boids::fast {

HWY_EXPORT(SumsF32);
HWY_EXPORT(SumsF64);
HWY_EXPORT(Bearings);
HWY_EXPORT(NewHeading);

void topological_sums(const TopologicalNeighbours<float>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out) {
    HWY_DYNAMIC_DISPATCH(SumsF32)(in, first, n, out);
}
void topological_sums(const TopologicalNeighbours<double>& in, std::uint32_t first, std::size_t n,
                      const TopologicalSums& out) {
    HWY_DYNAMIC_DISPATCH(SumsF64)(in, first, n, out);
}

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
