// The topological model's steering in SIMD lanes (topological_lanes_kernel.hpp), compiled for every
// instruction set Highway targets on this architecture (foreach_target) and dispatched at run time.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "topological_lanes_kernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "hwy/highway.h"

#include "lane_vectors-inl.h"
#include "scattered_lanes-inl.h"
#include "topological_lanes_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numbers>

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {

/// A chunk's `n` entries from `at` in lanes (lane_vectors-inl.h's StoreLanes, at a chunk's offsets).
HWY_INLINE HWY_ATTR void Store(V v, double* column, std::size_t at, std::size_t n) {
    StoreLanes(v, column, static_cast<std::uint32_t>(at), n);
}

/// topological::degrees: radians * 180 / pi. Of a vector or a pack of them (vector_packs-inl.h), as the
/// functions below.
template <class P>
HWY_INLINE HWY_ATTR P Degrees(P radians) {
    const DD dd;
    return pk::Div(pk::Mul(radians, hn::Set(dd, 180.0)), hn::Set(dd, std::numbers::pi));
}

/// topological::turn_toward(to, from): the signed turn (-180, 180] from one heading to the other.
template <class P, class Q>
HWY_INLINE HWY_ATTR P TurnToward(P to, Q from) {
    const DD dd;
    const V full = hn::Set(dd, 360.0), half = hn::Set(dd, 180.0);
    const P diff = pk::Add(pk::Sub(to, from), half);
    const P turns = pk::Div(diff, full);
    return pk::Sub(pk::Mul(pk::Sub(turns, pk::Floor(turns)), full), half);
}

/// std::min(a, b) and std::max(a, b): b where b < a (a where a < b), else a.
template <class P, class Q>
HWY_INLINE HWY_ATTR P StdMin(P a, Q b) {
    return pk::IfThenElse(pk::Lt(b, a), b, a);
}
template <class P, class Q>
HWY_INLINE HWY_ATTR P StdMax(P a, Q b) {
    return pk::IfThenElse(pk::Lt(a, b), b, a);
}

/// How many vectors of agents the steering takes side by side (vector_packs-inl.h): its square roots,
/// divisions and floors follow one another, which one vector at a time leaves waiting.
constexpr std::size_t steer_pack = 4;

HWY_ATTR void Bearings(const TopologicalSteering& st, const TopologicalColumns& c, std::size_t count) {
    EachColumnPack<steer_pack>(count, [&](auto pack, std::uint32_t at, std::size_t n) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        const DD dd;
        const auto load = [&](const double* column) HWY_ATTR { return LoadColumn<k>(dd, column, at, n); };
        const auto store = [&](const auto& v, double* column) HWY_ATTR { StoreColumn<k>(v, column, at, n); };
        const V one = hn::Set(dd, 1.0);
        const auto found = load(c.count);
        const auto several = pk::Gt(found, one); // s.count > 1
        const auto ndx = load(c.nearest_dx), ndy = load(c.nearest_dy);
        const auto flee = pk::Lt(Length(ndx, ndy), hn::Set(dd, st.too_close));
        const auto tx = pk::IfThenElse(flee, pk::Neg(ndx), pk::Sub(pk::Div(load(c.x_sum), found), load(c.x)));
        const auto ty = pk::IfThenElse(flee, pk::Neg(ndy), pk::Sub(pk::Div(load(c.y_sum), found), load(c.y)));
        const auto distance = pk::IfThenElseZero(several, Length(tx, ty));
        // What the agent aims at (Policy::Bearings): its neighbours' mean heading within align_within.
        const auto aligning = pk::Lt(distance, hn::Set(dd, st.align_within));
        store(pk::IfThenElseZero(several, pk::IfThenElse(aligning, load(c.s_sin_sum), ty)), c.aim_y);
        store(pk::IfThenElseZero(several, pk::IfThenElse(aligning, load(c.s_cos_sum), tx)), c.aim_x);
        store(distance, c.target_distance);
        store(pk::IfThenElseZero(pk::And(several, flee), one), c.flee);
    });
}

HWY_ATTR void NewHeading(const TopologicalSteering& st, const TopologicalColumns& c, std::size_t count,
                         double* radians_now) {
    EachColumnPack<steer_pack>(count, [&](auto pack, std::uint32_t at, std::size_t n) HWY_ATTR {
        constexpr std::size_t k = decltype(pack)::value;
        const DD dd;
        const auto load = [&](const double* column) HWY_ATTR { return LoadColumn<k>(dd, column, at, n); };
        using P = decltype(load(c.count));
        const V zero = hn::Zero(dd), one = hn::Set(dd, 1.0), full = hn::Set(dd, 360.0);
        P heading = Degrees(load(c.own_angle));
        if (st.positive_range) {
            heading = pk::IfThenElse(pk::Lt(heading, zero), pk::Add(heading, full), heading);
            heading = pk::IfThenElse(pk::Ge(heading, full), pk::Sub(heading, full), heading);
        }
        P turn_rate = pk::MakePack<k>([&](std::size_t) HWY_ATTR { return hn::Set(dd, st.turn_rate); });
        P turn = pk::MakePack<k>([&](std::size_t) HWY_ATTR { return zero; });
        P target_angle = heading;
        const auto several = pk::Gt(load(c.count), one);
        const P distance = load(c.target_distance);
        {
            const P target = Degrees(load(c.aim_angle));
            P t = pk::IfThenElse(pk::Gt(pk::Abs(pk::Sub(target, heading)), hn::Set(dd, st.tolerance)),
                                 TurnToward(target, heading), zero);
            const auto flee =
                pk::And(pk::Lt(distance, hn::Set(dd, st.too_close)), pk::Ne(load(c.flee), zero));
            t = pk::IfThenElse(flee, pk::Neg(t), t);
            target_angle = pk::IfThenElse(several, target, target_angle);
            turn = pk::IfThenElse(several, t, turn);
        }
        if (st.margins) { // within a margin: head for the inside, turning harder the deeper in
            const P x = load(c.x), y = load(c.y);
            const V w = hn::Set(dd, st.width), h = hn::Set(dd, st.height);
            const V left = hn::Set(dd, st.margin_left), top = hn::Set(dd, st.margin_top);
            const V right = hn::Set(dd, st.margin_right), bottom = hn::Set(dd, st.margin_bottom);
            P depth = pk::Div(x, left); // std::min of the four, in their order
            depth = StdMin(depth, pk::Div(y, top));
            depth = StdMin(depth, pk::Div(pk::Sub(w, x), right));
            depth = StdMin(depth, pk::Div(pk::Sub(h, y), bottom));
            const auto inside = pk::Lt(depth, one);
            P edge = target_angle;
            edge = pk::IfThenElse(
                pk::Lt(x, left), zero,
                pk::IfThenElse(pk::Gt(x, hn::Set(dd, st.width - st.margin_right)), hn::Set(dd, 180.0), edge));
            edge = pk::IfThenElse(pk::Lt(y, top), hn::Set(dd, 90.0),
                                  pk::IfThenElse(pk::Gt(y, hn::Set(dd, st.height - st.margin_bottom)),
                                                 hn::Set(dd, 270.0), edge));
            const P rate = pk::Add(turn_rate, pk::Mul(pk::Sub(one, StdMax(depth, zero)),
                                                      pk::Sub(hn::Set(dd, st.edge_turn_rate), turn_rate)));
            turn = pk::IfThenElse(inside, TurnToward(edge, heading), turn);
            turn_rate = pk::IfThenElse(inside, rate, turn_rate);
        }
        const P turned = pk::Add(heading, pk::IfThenElse(pk::Gt(turn, zero), turn_rate, pk::Neg(turn_rate)));
        const P wrapped = pk::Sub(turned, pk::Mul(full, pk::Floor(pk::Div(turned, full))));
        heading = pk::IfThenElse(pk::Ne(turn, zero), wrapped, heading);
        // topological::radians: degrees * pi / 180.
        StoreColumn<k>(pk::Div(pk::Mul(heading, hn::Set(dd, std::numbers::pi)), hn::Set(dd, 180.0)),
                       radians_now, at, n);
    });
}

template <class Real>
HWY_ATTR void Sums(const TopologicalNeighbours<Real>& in, std::uint32_t first, std::size_t count,
                   const TopologicalSums& out) {
    const DD dd;
    const hn::Rebind<Real, DD> dr;         // as many lanes of the storage type
    const hn::Rebind<std::int32_t, DD> di; // and of slots
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
            // The neighbours' coordinates and headings loaded a lane at a time: with Highway's GatherIndex
            // (hardware gathers on AVX2 and AVX-512) these sums took two fifths longer on Zen 5.
            alignas(64) std::int32_t slot_of[max_lanes];
            hn::Store(slots, di, slot_of);
            VR nx = ScatteredLanes(dr, in.x, slot_of), ny = ScatteredLanes(dr, in.y, slot_of);
            const V ux = ScatteredLanes(dd, in.ux, slot_of), uy = ScatteredLanes(dd, in.uy, slot_of);
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
