// The SIMD neighbour pass of the fast classic step (internal). It is read once for every instruction set
// Highway targets on this architecture (foreach_target) by the translation units that compile it: the four
// fast_classic_lines_*.cpp (float or double agents, with margins or on a torus), which share out its many
// instantiations so that a build compiles them in parallel, and fast_classic_kernel.cpp (the cells of
// positions, the dispatch). At run time the best instruction set the CPU supports is chosen.
//
// Layout of the work: a line of grid cells (a row; in 3D a row of one layer) is cut into tiles of
// consecutive cells holding at most one vector of agents (a cell with more is split into several vectors).
// The agents of a tile sit in SIMD lanes; every candidate in the 3 rows x (tile + 2) columns around the
// tile (3 layers x 3 rows x (tile + 2) columns in 3D) is broadcast to all lanes. Candidates of one line in
// consecutive columns are consecutive slots, so each line of the block is one loop. The 3D kernel is the
// same code with the z terms switched on (k3D); in 2D they are compiled out.
//
// Bits: every lane sums its agent's neighbours in the plain path's order (layers l-1, l, l+1, then rows
// r-1, r, r+1, then columns c-1, c, c+1, then world order within a cell), whatever the tile, the vector
// width or the thread; the sums' additions and multiplications stay separate (no FMA: -ffp-contract=off, and
// MulAdd only in the field-of-view test, whose answer does not depend on its rounding), and a candidate
// across a wrap seam is seen at its nearest image, x - shift, as classic::nearest_image computes it. A field
// of view below 360 degrees takes each pair's view test in lanes where its answer is certain and in double,
// as the plain path does, where it is not (in_view); Flake's line of sight notes the candidates that test may
// put in a lane's sight cone and shows them to the plain path's own double test in the same order (Sight). So
// the fast path reproduces the plain path's bits on every instruction set.

#include "fast_classic_kernel.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

// Highway's per-target include guard: this file is read once for each instruction set.
#if defined(BOIDS_FAST_CLASSIC_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOIDS_FAST_CLASSIC_KERNEL_INL_H_
#undef BOIDS_FAST_CLASSIC_KERNEL_INL_H_
#else
#define BOIDS_FAST_CLASSIC_KERNEL_INL_H_
#endif

#include "hwy/highway.h"

#include "compress_lanes-inl.h"
#include "masked_sums-inl.h"

HWY_BEFORE_NAMESPACE();
namespace boids::fast {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Per-lane sums of docs/MODEL.md §2.2 for one vector of agents. The neighbour count (count_where, read by
/// counted) is a whole number far below 2^24, so the same value the plain path's count has. The z sums are
/// used in 3D only.
template <class D>
struct NeighbourSums {
    using V = hn::Vec<D>;
    explicit NeighbourSums(D d)
        : xsum(hn::Zero(d)), ysum(xsum), vxsum(xsum), vysum(xsum), close_dx(xsum), close_dy(xsum),
          count(xsum), zsum(xsum), vzsum(xsum), close_dz(xsum) {}
    V xsum, ysum, vxsum, vysum, close_dx, close_dy;
    V count; ///< see count_where: +0 is 0 either way
    V zsum, vzsum, close_dz;
};

/// The neighbour tests beyond the lab's rules a variant of the kernel compiles in (its kView bits): a field
/// of view, and Flake's line of sight (planar).
inline constexpr unsigned view_fov = 1, view_sight = 2;

/// The lanes' bounding box, which a candidate must be within reach of to matter to some lane (see
/// list_and_add), in vectors, and the square of that reach: the visual range plus an allowance for rounding.
template <class D>
struct ReachBox {
    hn::Vec<D> lo_x, hi_x, lo_y, hi_y, lo_z, hi_z, reach2;
};

template <class D>
struct Sight;

/// A cone's thresholds on (v.d) |v.d| per unit of |d|^2, v a lane's velocity and d the offset to a
/// candidate: at or below `seen` the lane surely sees the candidate, above `hidden` it surely does not (see
/// view_test).
template <class D>
struct ViewCone {
    hn::Vec<D> seen, hidden;
};

/// One vector of agents: their old positions, and their slots (for excluding an agent's own pair).
template <class D>
struct Lanes {
    hn::Vec<D> x, y, z; // z is unused in 2D
    hn::Vec<hn::RebindToSigned<D>> slot;
    ReachBox<D> box; ///< 3D culling only (set by bound_lanes; left uninitialised otherwise)
    // A field of view or a line of sight only (set by view_lanes; left uninitialised otherwise): the lanes'
    // velocities, and each cone's thresholds (see view_test): NaN in the lanes whose every candidate takes
    // the exact test, 0 in the lanes without an agent.
    hn::Vec<D> vx, vy, vz;
    ViewCone<D> fov, sight_cone;
    hn::Vec<D> apart_d2; ///< line of sight: 0, or -1 in the lanes that take the exact test
    hn::Mask<D> agents;  ///< the lanes that hold an agent (the others hold the next slots' positions)
    // Line of sight only (left uninitialised otherwise): each lane's neighbour dead ahead, and the notes.
    // Not in NeighbourSums: the loops copy the sums to keep them in registers, and a struct of vectors and
    // scalars was copied with `rep movs` (see tests/engine/check_kernel_code.sh).
    Sight<D>* sight;
};

/// The lanes that see a candidate at offset (dx, dy, dz), by classic::in_field_of_view itself, lane by lane.
/// Out of line: rare (see in_view).
template <bool k3D, class D>
HWY_NOINLINE hn::Mask<D> exact_view(D d, const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz,
                                    double cos_half_fov) {
    using Real = hn::TFromD<D>;
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    HWY_ALIGN Real lane[6][max_lanes] = {};
    hn::Store(a.vx, d, lane[0]);
    hn::Store(a.vy, d, lane[1]);
    hn::Store(a.vz, d, lane[2]);
    hn::Store(dx, d, lane[3]);
    hn::Store(dy, d, lane[4]);
    hn::Store(dz, d, lane[5]);
    HWY_ALIGN Real seen[max_lanes] = {};
    for (std::size_t l = 0; l < hn::Lanes(d); ++l) {
        // As the plain path asks it (classic::Policy::sees): toward the neighbour, minus its offset; in 2D
        // vz = 0 and dz = 0.
        const double vz = k3D ? static_cast<double>(lane[2][l]) : 0.0;
        const double dz_l = k3D ? static_cast<double>(lane[5][l]) : 0.0;
        seen[l] = classic::in_field_of_view(static_cast<double>(lane[0][l]), static_cast<double>(lane[1][l]),
                                            vz, -static_cast<double>(lane[3][l]),
                                            -static_cast<double>(lane[4][l]), -dz_l, cos_half_fov)
                      ? Real(1)
                      : Real(0);
    }
    return hn::Ne(hn::Load(d, seen), hn::Zero(d));
}

/// Field-of-view tests by the cheap form that decides, in lanes (see in_view): the margin in units of the
/// lanes' epsilon, and the bounds on speeds, coordinates and ranges within which it holds.
inline constexpr double view_margin_epsilons = 64.0;
inline constexpr double view_min_speed2 = 0x1p-20, view_max_speed2 = 0x1p40;
inline constexpr double view_min_coordinate = 0x1p-20;
/// The largest visual or protected range the kernel takes with a field of view (fast_path_view_range).
static_assert(fast_path_view_range * fast_path_view_range <= 0x1p60);

/// What the field-of-view test needs of the lanes (`count` agents from `slot`): see in_view.
template <bool k3D, class D, class Real>
HWY_INLINE void view_lanes(D d, const FlockInCellOrder<Real>& f, std::uint32_t slot, std::size_t count,
                           Lanes<D>& a) {
    a.vx = hn::LoadU(d, f.vx + slot);
    a.vy = hn::LoadU(d, f.vy + slot);
    a.vz = k3D ? hn::LoadU(d, f.vz + slot) : hn::Zero(d);
    auto vv = hn::Add(hn::Mul(a.vx, a.vx), hn::Mul(a.vy, a.vy));
    if constexpr (k3D) {
        vv = hn::Add(vv, hn::Mul(a.vz, a.vz));
    }
    const auto margin = static_cast<Real>(view_margin_epsilons * std::numeric_limits<Real>::epsilon());
    const auto min_coordinate = hn::Set(d, static_cast<Real>(view_min_coordinate));
    auto fit = hn::And(hn::Ge(vv, hn::Set(d, static_cast<Real>(view_min_speed2))),
                       hn::Le(vv, hn::Set(d, static_cast<Real>(view_max_speed2))));
    fit = hn::And(fit, hn::And(hn::Ge(hn::Abs(a.x), min_coordinate), hn::Ge(hn::Abs(a.y), min_coordinate)));
    if constexpr (k3D) {
        fit = hn::And(fit, hn::Ge(hn::Abs(a.z), min_coordinate));
    }
    a.agents = hn::FirstN(d, count);
    const auto exact = hn::AndNot(fit, a.agents);
    const auto cone = [&](double cos) HWY_ATTR {
        const auto kvv = hn::Mul(hn::Set(d, static_cast<Real>(cos * std::abs(cos))), vv);
        const auto mvv = hn::IfThenElse(exact, hn::Set(d, std::numeric_limits<Real>::quiet_NaN()),
                                        hn::IfThenElseZero(a.agents, hn::Mul(hn::Set(d, margin), vv)));
        return ViewCone<D>{hn::Neg(hn::Add(kvv, mvv)), hn::Sub(mvv, kvv)};
    };
    a.fov = cone(f.c.cos_half_fov);
    a.sight_cone = cone(f.c.cos_line_of_sight);
    a.apart_d2 = hn::IfThenElseZero(exact, hn::Set(d, Real(-1)));
}

/// (v.d) |v.d| for the lanes' velocities v and the offset d to a candidate (view_test's q).
template <bool k3D, class D>
HWY_INLINE hn::Vec<D> signed_square_along(const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz) {
    auto along = hn::MulAdd(a.vx, dx, hn::Mul(a.vy, dy));
    if constexpr (k3D) {
        along = hn::MulAdd(a.vz, dz, along);
    }
    return hn::Mul(along, hn::Abs(along));
}

/// The lanes that see a candidate at offset (dx, dy, dz) = agent - candidate, d2 its squared length:
/// classic::in_field_of_view to the bit. With v the lane's velocity, t = -d the direction to the candidate
/// and c the cosine of half the field of view, the test is v.t >= c |v| |t|, which, written with x |x|
/// (monotone) on both sides, is S = (v.d) |v.d| + c |c| |v|^2 |t|^2 <= 0; the double test decides as the
/// sign of S unless S is within 18 u_double |v|^2 |t|^2 of 0. In the lanes' type (u = epsilon / 2),
/// q = (v.d) |v.d| is off by less than 8 u |v|^2 |t|^2, and each of the cone's thresholds times d2
/// (view_lanes: -(c |c| + m) |v|^2 and (m - c |c|) |v|^2, m = 64 epsilon = 128 u) by less than
/// 12 u |v|^2 |t|^2 (the roundings of c |c|, |v|^2, |t|^2, the sum and the products; a fused multiply-add
/// only drops one). So where q is at most the first, S <= -108 u |v|^2 |t|^2, and where q is above the
/// second, S > 108 u |v|^2 |t|^2: the double test's answers. The few other lanes (a candidate near the cone's
/// edge: about one in 10^5), and lanes whose speed or position is so small or large that a product could lose
/// its relative precision (view_lanes), take the double test itself. A candidate on top of the agent (t = 0:
/// q = 0 and d2 = 0) is seen, as there; the lanes' position bound keeps any other candidate at
/// |t|^2 >= 2^-88, so that a product that underflows errs by far less than u |v|^2 |t|^2. Two thresholds
/// rather than S and a margin around it: no sum per candidate, which without fused multiply-adds (SSE4) is
/// also a copy and a multiplication. kHidden: the lanes that do not see it instead.
template <bool kHidden, bool k3D, class D>
HWY_INLINE hn::Mask<D> view_test(D d, const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz,
                                 hn::Vec<D> d2, const ViewCone<D>& cone, double cos_half_fov) {
    const auto signed_square = signed_square_along<k3D>(a, dx, dy, dz);
    const auto seen = hn::Le(signed_square, hn::Mul(cone.seen, d2));
    const auto hidden = hn::Gt(signed_square, hn::Mul(cone.hidden, d2));
    if (HWY_LIKELY(all_in_either(d, seen, hidden))) {
        return kHidden ? hidden : seen;
    }
    const auto exact = exact_view<k3D>(d, a, dx, dy, dz, cos_half_fov);
    return kHidden ? hn::Not(exact) : exact;
}

/// The lanes that see a candidate (view_test).
template <bool k3D, class D>
HWY_INLINE hn::Mask<D> in_view(D d, const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz,
                               hn::Vec<D> d2, const ViewCone<D>& cone, double cos_half_fov) {
    return view_test<false, k3D>(d, a, dx, dy, dz, d2, cone, cos_half_fov);
}

/// The lanes that do not see a candidate (view_test).
template <bool k3D, class D>
HWY_INLINE hn::Mask<D> out_of_view(D d, const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz,
                                   hn::Vec<D> d2, const ViewCone<D>& cone, double cos_half_fov) {
    return view_test<true, k3D>(d, a, dx, dy, dz, d2, cone, cos_half_fov);
}

/// The lanes that surely do not see a candidate: view_test's cheap form alone, which leaves out the lanes
/// it cannot decide (near the cone's edge, and every lane that takes the double test: their threshold is
/// NaN). Its complement is a superset of the lanes that see it, for a test that then decides exactly.
template <bool k3D, class D>
HWY_INLINE hn::Mask<D> surely_hidden(const Lanes<D>& a, hn::Vec<D> dx, hn::Vec<D> dy, hn::Vec<D> dz,
                                     hn::Vec<D> d2, const ViewCone<D>& cone) {
    return hn::Gt(signed_square_along<k3D>(a, dx, dy, dz), hn::Mul(cone.hidden, d2));
}

/// The lanes' bounding box (first `count` lanes) and reach, for list_and_add.
template <bool k3D, class D>
HWY_INLINE void bound_lanes(D d, std::size_t count, hn::TFromD<D> visual, Lanes<D>& a) {
    using Real = hn::TFromD<D>;
    const auto agents = hn::FirstN(d, count);
    const auto big = hn::Set(d, std::numeric_limits<Real>::max());
    const auto low = [&](hn::Vec<D> v) {
        return hn::GetLane(hn::MinOfLanes(d, hn::IfThenElse(agents, v, big)));
    };
    const auto high = [&](hn::Vec<D> v) {
        return hn::GetLane(hn::MaxOfLanes(d, hn::IfThenElse(agents, v, hn::Neg(big))));
    };
    const Real lo_x = low(a.x), hi_x = high(a.x), lo_y = low(a.y), hi_y = high(a.y);
    const Real lo_z = k3D ? low(a.z) : Real(0), hi_z = k3D ? high(a.z) : Real(0);
    // The kernel's d2 and list_and_add's distance (both from the same candidate positions, images across a
    // seam) differ from the true ones by a few units in the last place of the differences: far less than
    // this allowance, which keeps the culling conservative.
    const Real magnitude = std::max(
        {std::abs(lo_x), std::abs(hi_x), std::abs(lo_y), std::abs(hi_y), std::abs(lo_z), std::abs(hi_z)});
    const Real reach = visual + visual * Real(1e-3) + magnitude * Real(1e-5);
    a.box = {hn::Set(d, lo_x), hn::Set(d, hi_x), hn::Set(d, lo_y),         hn::Set(d, hi_y),
             hn::Set(d, lo_z), hn::Set(d, hi_z), hn::Set(d, reach * reach)};
}

/// The period subtracted from a candidate's position on each axis when it sits across a wrap seam (its
/// nearest image: classic::nearest_image).
template <class Real>
struct SeamShift {
    Real x, y, z;
    [[nodiscard]] bool any() const { return x != Real(0) || y != Real(0) || z != Real(0); }
};

/// Where a tile's candidates are gathered before the neighbour loop runs over them (slots, in the plain
/// path's order), with room for one vector written past the end. A tile with candidates across a wrap seam
/// also lists each candidate's position as the tile sees it (its nearest image), so that one loop serves
/// all its candidates.
template <class D>
struct CandidateList {
    using Real = hn::TFromD<D>;
    using Index = hn::TFromD<hn::RebindToSigned<D>>;
    static constexpr std::size_t capacity = 512;
    static constexpr std::size_t room = capacity + HWY_MAX_BYTES / sizeof(Index);
    HWY_ALIGN Index slot[room];
    HWY_ALIGN Real x[room], y[room], z[room]; ///< seam tiles only
    std::size_t size = 0;
};

/// Flake's line of sight for one vector of agents: their neighbour dead ahead so far (classic::LookAhead's
/// fields, a column per field, the index as a double: exact below 2^53), and the candidates that may be
/// ahead of some lane, noted in the neighbour loop's order without a branch and shown to the lanes by
/// sight_settle. A note is one record per candidate (which lanes, its slot, where they see it), written with
/// scalar stores: four whole vectors per candidate, as a note per lane took, kept the store unit busier
/// than the loop's arithmetic.
template <class D>
struct Sight {
    using Real = hn::TFromD<D>;
    static constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    static constexpr std::size_t capacity = 256;
    static constexpr std::size_t lane_bytes = (max_lanes + 7) / 8;
    HWY_ALIGN double ahead_d2[max_lanes];    ///< classic::LookAhead::d2: below 0, none seen
    HWY_ALIGN double ahead_index[max_lanes]; ///< classic::LookAhead::index
    HWY_ALIGN double ahead_cross[max_lanes]; ///< classic::LookAhead::cross
    HWY_ALIGN Real x[max_lanes], y[max_lanes], vx[max_lanes], vy[max_lanes]; ///< the lanes' agents
    // The noted candidates: the lanes that may have it ahead (bit l of the bytes: lane l), its slot, and
    // where those lanes see it (its nearest image).
    std::uint8_t lanes[capacity][lane_bytes];
    std::uint32_t slot[capacity];
    Real seen_x[capacity], seen_y[capacity];
    std::size_t noted = 0; ///< how many candidates are noted

    /// Lane l's neighbour ahead, as classic::sidestep takes it.
    [[nodiscard]] classic::LookAhead ahead(std::size_t l) const {
        return {ahead_d2[l], static_cast<std::uint32_t>(ahead_index[l]), ahead_cross[l]};
    }
};

/// The lanes' own values in double: a conversion from the lanes' type (or none, when that is double).
template <class DD, class DR>
HWY_INLINE hn::Vec<DD> in_double(DD dd, DR, hn::Vec<DR> v) {
    if constexpr (std::is_same_v<hn::TFromD<DR>, double>) {
        (void)dd;
        return v;
    } else {
        return hn::PromoteTo(dd, v);
    }
}

/// Shows the noted candidates to the lanes that may have them ahead, as classic::LookAhead::see does for
/// the plain path (the offset computed as the kernel's lanes do, then the test and the choice in double),
/// and empties the notes. The lanes go through in vectors of doubles, a part of the agents' vector at a
/// time, without a branch per lane: the pairs come 1.3 to a candidate, and a branch on each, its bits and
/// its outcome mispredicted often enough to cost more than the part's arithmetic. The nearest ahead is a
/// least (distance, then index), whatever the order it is offered in; the parts still take the notes in
/// their order.
template <class D, class Real>
HWY_NOINLINE void sight_settle(D d, const FlockInCellOrder<Real>& f, Sight<D>& sight) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr; // the lanes' type, as many lanes as dd
    const std::size_t part = hn::Lanes(dd);
    const std::size_t lanes = hn::Lanes(d);
    const auto cos_sight = hn::Set(dd, f.c.cos_line_of_sight);
    const auto zero = hn::Zero(dd);
    // The notes with a lane in each part, in order, listed first without a branch: most notes have one
    // lane, so a branch per note and part on whether it has any there mispredicts.
    constexpr std::size_t max_parts = Sight<D>::max_lanes * sizeof(double) / HWY_MAX_BYTES;
    static_assert(max_parts == 1 || max_parts == 2,
                  "the lanes of the kernel's type span one or two vectors of doubles");
    // Each listed note's bits for the part, from the part's first lane.
    const std::uint64_t part_bits = part >= 64 ? ~0ull : (1ull << part) - 1;
    std::uint16_t in_part[max_parts][Sight<D>::capacity];
    std::uint64_t part_lanes[max_parts][Sight<D>::capacity];
    std::size_t in_part_count[max_parts] = {};
    for (std::size_t e = 0; e < sight.noted; ++e) {
        std::uint64_t bits = 0;
        for (std::size_t b = 0; b < Sight<D>::lane_bytes; ++b) {
            bits |= static_cast<std::uint64_t>(sight.lanes[e][b]) << (8 * b);
        }
        for (std::size_t k = 0; k < max_parts; ++k) {
            const std::uint64_t mine = (bits >> (k * part)) & part_bits;
            in_part[k][in_part_count[k]] = static_cast<std::uint16_t>(e);
            part_lanes[k][in_part_count[k]] = mine;
            in_part_count[k] += static_cast<std::size_t>(mine != 0);
        }
    }
    for (std::size_t p0 = 0; p0 < lanes; p0 += part) {
        const auto vx = in_double(dd, dr, hn::LoadU(dr, sight.vx + p0));
        const auto vy = in_double(dd, dr, hn::LoadU(dr, sight.vy + p0));
        const auto vv = hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy));
        const auto x = hn::LoadU(dr, sight.x + p0), y = hn::LoadU(dr, sight.y + p0);
        auto best_d2 = hn::Load(dd, sight.ahead_d2 + p0);
        auto best_index = hn::Load(dd, sight.ahead_index + p0);
        auto best_cross = hn::Load(dd, sight.ahead_cross + p0);
        const std::size_t k = p0 / part;
        for (std::size_t listed = 0; listed < in_part_count[k]; ++listed) {
            const std::size_t e = in_part[k][listed];
            // This part's bits of the note, in bytes from its first lane (LoadMaskBits' layout).
            const std::uint64_t bits = part_lanes[k][listed];
            std::uint8_t part_bytes[8];
            for (std::size_t b = 0; b < 8; ++b) {
                part_bytes[b] = static_cast<std::uint8_t>(bits >> (8 * b));
            }
            const auto noted = hn::LoadMaskBits(dd, part_bytes);
            // classic::LookAhead::see, lane by lane.
            const auto tx = hn::Neg(in_double(dd, dr, hn::Sub(x, hn::Set(dr, sight.seen_x[e]))));
            const auto ty = hn::Neg(in_double(dd, dr, hn::Sub(y, hn::Set(dr, sight.seen_y[e]))));
            const auto t2 = hn::Add(hn::Mul(tx, tx), hn::Mul(ty, ty));
            const auto norms = hn::Sqrt(hn::Mul(vv, t2));
            const auto dot = hn::Add(hn::Mul(vx, tx), hn::Mul(vy, ty));
            const auto ahead =
                hn::AndNot(hn::Or(hn::Eq(norms, zero), hn::Lt(dot, hn::Mul(norms, cos_sight))), noted);
            const auto index = hn::Set(dd, static_cast<double>(f.agent[sight.slot[e]]));
            const auto nearer = hn::Or(hn::Or(hn::Lt(best_d2, zero), hn::Lt(t2, best_d2)),
                                       hn::And(hn::Eq(t2, best_d2), hn::Lt(index, best_index)));
            const auto take = hn::And(ahead, nearer);
            best_d2 = hn::IfThenElse(take, t2, best_d2);
            best_index = hn::IfThenElse(take, index, best_index);
            best_cross = hn::IfThenElse(take, hn::Sub(hn::Mul(vx, ty), hn::Mul(vy, tx)), best_cross);
        }
        hn::Store(best_d2, dd, sight.ahead_d2 + p0);
        hn::Store(best_index, dd, sight.ahead_index + p0);
        hn::Store(best_cross, dd, sight.ahead_cross + p0);
    }
    sight.noted = 0;
}

/// classic::sidestep for every lane that saw a neighbour ahead (the others have none: Sight's lanes start
/// without one), as lane operations in double, a part of the lanes at a time: the same operations in the
/// same order, and the push rounded to the lanes' type before it is added, as from_double does.
template <class D>
HWY_INLINE void sidestep_lanes(D d, const Sight<D>& sight, double factor, hn::Vec<D>& vx, hn::Vec<D>& vy) {
    using Real = hn::TFromD<D>;
    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr;
    const std::size_t part = hn::Lanes(dd);
    HWY_ALIGN Real lane_vx[Sight<D>::max_lanes], lane_vy[Sight<D>::max_lanes];
    hn::Store(vx, d, lane_vx);
    hn::Store(vy, d, lane_vy);
    const auto zero = hn::Zero(dd);
    const auto push = hn::Set(dd, factor);
    const auto to_lanes_type = [&](hn::Vec<decltype(dd)> v) {
        if constexpr (std::is_same_v<Real, double>) {
            return v;
        } else {
            return hn::DemoteTo(dr, v);
        }
    };
    for (std::size_t p0 = 0; p0 < hn::Lanes(d); p0 += part) {
        const auto lvx = hn::LoadU(dr, lane_vx + p0), lvy = hn::LoadU(dr, lane_vy + p0);
        const auto x = in_double(dd, dr, lvx), y = in_double(dd, dr, lvy);
        const auto speed = hn::Sqrt(hn::Add(hn::Mul(x, x), hn::Mul(y, y)));
        const auto seen = hn::Not(hn::Lt(hn::Load(dd, sight.ahead_d2 + p0), zero));
        const auto moves = hn::And(seen, hn::Gt(speed, zero));
        const auto side = hn::IfThenElse(hn::Gt(hn::Load(dd, sight.ahead_cross + p0), zero),
                                         hn::Set(dd, -1.0), hn::Set(dd, 1.0));
        // The lanes that do not move may divide by a zero speed; their results are not taken.
        const auto push_x = hn::Mul(hn::Div(hn::Mul(side, hn::Neg(y)), speed), push);
        const auto push_y = hn::Mul(hn::Div(hn::Mul(side, x), speed), push);
        std::uint8_t moving[8] = {}; // the mask, from lanes of doubles to lanes of the lanes' type
        hn::StoreMaskBits(dd, moves, moving);
        const auto taken = hn::LoadMaskBits(dr, moving);
        hn::StoreU(hn::IfThenElse(taken, hn::Add(lvx, to_lanes_type(push_x)), lvx), dr, lane_vx + p0);
        hn::StoreU(hn::IfThenElse(taken, hn::Add(lvy, to_lanes_type(push_y)), lvy), dr, lane_vy + p0);
    }
    vx = hn::Load(d, lane_vx);
    vy = hn::Load(d, lane_vy);
}

/// Notes candidate `j`, seen at (xj, yj), for the lanes `ahead` (see Sight): a record written whatever the
/// lanes, and kept (the count advanced) when there are any.
template <class D, class Real>
HWY_INLINE void sight_note(D d, const FlockInCellOrder<Real>& f, std::uint32_t j, hn::Vec<D> xj,
                           hn::Vec<D> yj, const Lanes<D>& a, hn::Mask<D> ahead) {
    Sight<D>& sight = *a.sight;
    if (HWY_UNLIKELY(sight.noted == Sight<D>::capacity)) {
        sight_settle(d, f, sight);
    }
    const std::size_t at = sight.noted;
    hn::StoreMaskBits(d, ahead, sight.lanes[at]);
    sight.slot[at] = j;
    sight.seen_x[at] = hn::GetLane(xj);
    sight.seen_y[at] = hn::GetLane(yj);
    sight.noted = at + static_cast<std::size_t>(!hn::AllFalse(d, ahead));
}

/// Adds candidate `j`, seen at (xj, yj, zj), to the sums of the lanes `averaged`: those that have it in
/// visual range but not in protected range. (A function rather than a lambda: GCC outlined the lambda,
/// which sent the sums through memory at every candidate.)
template <bool k3D, class D, class Real>
HWY_INLINE void add_averaged(D d, const FlockInCellOrder<Real>& f, std::uint32_t j, hn::Mask<D> averaged,
                             hn::Vec<D> xj, hn::Vec<D> yj, hn::Vec<D> zj, NeighbourSums<D>& s) {
    s.xsum = add_where(averaged, s.xsum, xj);
    s.ysum = add_where(averaged, s.ysum, yj);
    if constexpr (k3D) {
        s.zsum = add_where(averaged, s.zsum, zj);
    } else {
        (void)zj;
    }
    s.vxsum = add_where(averaged, s.vxsum, hn::Set(d, f.vx[j]));
    s.vysum = add_where(averaged, s.vysum, hn::Set(d, f.vy[j]));
    if constexpr (k3D) {
        s.vzsum = add_where(averaged, s.vzsum, hn::Set(d, f.vz[j]));
    }
    s.count = count_where(d, averaged, s.count);
}

/// Adds candidate `j`, seen at (xj, yj, zj) (its position, or across a wrap seam its nearest image), to the
/// lanes' sums: dx = x - xj as classic::nearest_image's caller computes it, and the position sums add xj.
/// kGeneral adds the checks the common case can drop: the |dx|, |dy|, |dz| < visual box (implied by
/// d2 < visual^2 unless the protected range exceeds the visual range) and the exclusion of the agent itself
/// (free otherwise: its own pair has d2 = 0, lands in the protected bucket and adds +0 to sums that start
/// at +0).
template <bool kGeneral, bool kRareClose, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_candidate(D d, const FlockInCellOrder<Real>& f, std::uint32_t j, hn::Vec<D> xj,
                              hn::Vec<D> yj, hn::Vec<D> zj, const Lanes<D>& a, NeighbourSums<D>& s) {
    static_assert(!(kRareClose && kGeneral), "kRareClose relies on the common case's candidate test");
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    const auto visual2 = hn::Set(d, f.c.visual2);
    const auto protected2 = hn::Set(d, f.c.protected2);
    const auto visual = hn::Set(d, f.c.visual);
    const auto dx = hn::Sub(a.x, xj);
    const auto dy = hn::Sub(a.y, yj);
    auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
    auto dz = hn::Zero(d);
    if constexpr (k3D) {
        dz = hn::Sub(a.z, zj);
        d2 = hn::Add(d2, hn::Mul(dz, dz));
    } else {
        (void)zj;
    }
    // Only the candidates in the lane's view count. With mask registers (AVX-512) the view masks the two
    // range comparisons themselves. Without them, the others' squared distance is tested as NaN (all bits
    // set), which no range passes: one OR instead of a mask on each range, and taken before the ranges so
    // that fewer values are live at once (the 2D loop has more than registers).
#if HWY_TARGET <= HWY_AVX3
    hn::Mask<D> near, close;
    if constexpr ((kView & view_fov) != 0) {
        const auto seen = in_view<k3D>(d, a, dx, dy, dz, d2, a.fov, f.c.cos_half_fov);
        near = less_where(d, seen, d2, visual2);
        close = less_where(d, seen, d2, protected2);
    } else {
        near = hn::Lt(d2, visual2);
        close = hn::Lt(d2, protected2);
    }
#else
    auto tested2 = d2;
    if constexpr ((kView & view_fov) != 0) {
        const auto hidden = out_of_view<k3D>(d, a, dx, dy, dz, d2, a.fov, f.c.cos_half_fov);
        tested2 = hn::Or(d2, hn::VecFromMask(d, hidden));
    }
    auto near = hn::Lt(tested2, visual2);
    auto close = hn::Lt(tested2, protected2);
#endif
    if constexpr (kGeneral) {
        auto in_box = hn::And(hn::Lt(hn::Abs(dx), visual), hn::Lt(hn::Abs(dy), visual));
        if constexpr (k3D) {
            in_box = hn::And(in_box, hn::Lt(hn::Abs(dz), visual));
        }
        const auto other = hn::RebindMask(d, hn::Ne(a.slot, hn::Set(di, static_cast<TI>(j))));
        near = hn::And(hn::And(near, in_box), other);
        close = hn::And(hn::And(close, in_box), other);
    } else {
        (void)visual;
    }
    if constexpr ((kView & view_sight) != 0) {
        // The lanes whose agent may have this candidate dead ahead keep it if it is the nearest there so
        // far, by the plain path's own double test (sight_settle), which also decides the cone: so here
        // the lanes the cheap cone test cannot rule out (surely_hidden), without the exact test that
        // in_view takes near the cone's edge. A candidate at the agent's own position (itself, mostly) is
        // never ahead there: left out here, where d2 > 0 says so; in the lanes that take the exact view
        // test an offset may square to 0 in the lanes' type and still be ahead in double, so there every
        // candidate goes to that test (view_lanes).
        static_assert(!k3D, "Flake's line of sight is planar");
        const auto apart = hn::And(hn::And(near, a.agents), hn::Gt(d2, a.apart_d2));
        const auto ahead = hn::AndNot(surely_hidden<k3D>(a, dx, dy, dz, d2, a.sight_cone), apart);
        sight_note(d, f, j, xj, yj, a, ahead);
    }
    if constexpr (kRareClose) {
        // No lane has this candidate in its protected range (in 3D W20 about one candidate in fifty
        // outside the tile's own agents): the close sums are unchanged and every near lane averages.
        if (HWY_LIKELY(hn::AllFalse(d, close))) {
            add_averaged<k3D>(d, f, j, near, xj, yj, zj, s);
            return;
        }
    }
    s.close_dx = add_where(close, s.close_dx, dx);
    s.close_dy = add_where(close, s.close_dy, dy);
    if constexpr (k3D) {
        s.close_dz = add_where(close, s.close_dz, dz);
    }
    add_averaged<k3D>(d, f, j, hn::AndNot(close, near), xj, yj, zj, s);
}

/// Adds the candidates of slots [begin, end) to the lanes' sums (see add_candidate), all of them in order,
/// kShift: seen across a wrap seam at x - shift. The sums are accumulated in a local copy (see add_listed).
template <bool kShift, bool kGeneral, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_candidates(D d, const FlockInCellOrder<Real>& f, std::uint32_t begin, std::uint32_t end,
                               SeamShift<Real> shift, const Lanes<D>& a, NeighbourSums<D>& sums) {
    NeighbourSums<D> s = sums;
    const auto sx = hn::Set(d, shift.x), sy = hn::Set(d, shift.y), sz = hn::Set(d, shift.z);
    for (std::uint32_t j = begin; j < end; ++j) {
        auto xj = hn::Set(d, f.x[j]), yj = hn::Set(d, f.y[j]);
        auto zj = k3D ? hn::Set(d, f.z[j]) : hn::Zero(d);
        if constexpr (kShift) { // x - 0 is x: an axis not across the seam keeps its position
            xj = hn::Sub(xj, sx);
            yj = hn::Sub(yj, sy);
            if constexpr (k3D) {
                zj = hn::Sub(zj, sz);
            }
        } else {
            (void)sx, (void)sy, (void)sz;
        }
        add_candidate<kGeneral, false, kView, k3D>(d, f, j, xj, yj, zj, a, s);
    }
    sums = s;
}

/// Candidates in consecutive slots, all seen across the wrap seams by the same shift.
template <class Real>
struct CandidateRun {
    std::uint32_t begin, end;
    SeamShift<Real> shift;
};

/// The most runs a tile has: 3 layers x 3 rows x (the line's columns, and one column across each seam).
inline constexpr int max_tile_runs = 27;

/// A tile's runs (tile_runs): how many, which one holds the tile's own agents, and whether any is across
/// a wrap seam. Noted as the runs are collected: a test of every run's shift afterwards took a branch per
/// axis and run, mispredicted near the seams.
struct TileRuns {
    int count = 0;
    int own = 0;
    bool seam = false;
};

/// The runs of candidates of a tile of columns [col0, col1] in line (layer, row), in the plain path's order
/// (layers, then rows, then columns). Collecting them first keeps one copy of the neighbour loop per variant
/// in the kernel (instead of one per run, which multiplied the code by 9 in 2D and 27 in 3D: compile time,
/// instruction cache).
template <bool kWrap, bool k3D, class Real>
HWY_INLINE TileRuns tile_runs(const FlockInCellOrder<Real>& f, int layer, int row, int col0, int col1,
                              CandidateRun<Real>* runs) {
    const int nx = f.nx, ny = f.ny, nz = f.nz;
    const Real zero(0);
    TileRuns tile;
    int count = 0;
    for (int dl = k3D ? -1 : 0; dl <= (k3D ? 1 : 0); ++dl) {
        int l = layer + dl;
        Real shift_z = zero;
        if (l < 0 || l >= nz) {
            if (!kWrap) {
                continue;
            }
            shift_z = l < 0 ? f.c.depth : -f.c.depth; // as for rows, below
            l = l < 0 ? nz - 1 : 0;
            tile.seam = true;
        }
        for (int dr = -1; dr <= 1; ++dr) {
            int r = row + dr;
            Real shift_y = zero;
            if (r < 0 || r >= ny) {
                if (!kWrap) {
                    continue;
                }
                // Row across the seam: its agents are seen at y - height (from row 0) or y + height (from
                // row ny - 1), as classic::nearest_image places them.
                shift_y = r < 0 ? f.c.height : -f.c.height;
                r = r < 0 ? ny - 1 : 0;
                tile.seam = true;
            }
            const std::uint32_t* line_start =
                f.cell_start +
                (static_cast<std::size_t>(l) * static_cast<std::size_t>(ny) + static_cast<std::size_t>(r)) *
                    static_cast<std::size_t>(nx);
            const int lo = std::max(col0 - 1, 0), hi = std::min(col1 + 1, nx - 1);
            if (kWrap && col0 - 1 < 0) { // the column across the left seam
                runs[count++] = {line_start[nx - 1], line_start[nx], {f.c.width, shift_y, shift_z}};
                tile.seam = true;
            }
            if (dl == 0 && dr == 0) {
                tile.own = count;
            }
            runs[count++] = {line_start[lo], line_start[hi + 1], {zero, shift_y, shift_z}};
            if (kWrap && col1 + 1 >= nx) { // the column across the right seam
                runs[count++] = {line_start[0], line_start[1], {-f.c.width, shift_y, shift_z}};
                tile.seam = true;
            }
        }
    }
    tile.count = count;
    return tile;
}

/// The neighbour loop over the listed candidates [begin, end), seen at their listed positions (kListed:
/// a seam tile's, see CandidateList) or their own. kRareClose: see add_candidate.
template <bool kListed, bool kRareClose, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_list_range(D d, const FlockInCellOrder<Real>& f, const CandidateList<D>& list,
                               std::size_t begin, std::size_t end, const Lanes<D>& a, NeighbourSums<D>& s) {
    for (std::size_t k = begin; k < end; ++k) {
        const auto j = static_cast<std::uint32_t>(list.slot[k]);
        if constexpr (kListed) {
            add_candidate<false, kRareClose, kView, k3D>(d, f, j, hn::Set(d, list.x[k]),
                                                         hn::Set(d, list.y[k]), hn::Set(d, list.z[k]), a, s);
        } else {
            add_candidate<false, kRareClose, kView, k3D>(d, f, j, hn::Set(d, f.x[j]), hn::Set(d, f.y[j]),
                                                         k3D ? hn::Set(d, f.z[j]) : hn::Zero(d), a, s);
        }
    }
}

/// The neighbour loop over the whole list. The tile's own agents, [own_begin, own_end) in the list, are
/// each in its own lane's protected range (d2 = 0); the others rarely in any lane's, so they take
/// add_candidate's kRareClose test and the own agents do not (it would mispredict on each of them).
template <bool kListed, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_list(D d, const FlockInCellOrder<Real>& f, const CandidateList<D>& list,
                         std::size_t own_begin, std::size_t own_end, const Lanes<D>& a, NeighbourSums<D>& s) {
    add_list_range<kListed, true, kView, k3D>(d, f, list, 0, own_begin, a, s);
    add_list_range<kListed, false, kView, k3D>(d, f, list, own_begin, own_end, a, s);
    add_list_range<kListed, true, kView, k3D>(d, f, list, own_end, list.size, a, s);
}

/// Runs the neighbour loop over the listed candidates and empties the list. The sums are accumulated in a
/// local copy: Highway's vector types may alias any float, so the compiler would otherwise store every sum
/// back to `sums` after each candidate in case the next candidate's loads read them. Out of line: one copy
/// of the loops serves the listing's flushes and the tile's end.
template <unsigned kView, bool k3D, class D, class Real>
HWY_NOINLINE void add_listed(D d, const FlockInCellOrder<Real>& f, bool seam, CandidateList<D>& list,
                             std::size_t own_begin, std::size_t own_end, const Lanes<D>& a,
                             NeighbourSums<D>& sums) {
    NeighbourSums<D> s = sums;
    if (seam) {
        add_list<true, kView, k3D>(d, f, list, own_begin, own_end, a, s);
    } else {
        add_list<false, kView, k3D>(d, f, list, own_begin, own_end, a, s);
    }
    sums = s;
    list.size = 0;
}

/// Lists the candidates of a tile's runs that lie within the lanes' reach of their bounding box: the
/// others are beyond the visual range of every lane, so skipping them changes no sum (in 3D about a third
/// of the 3 x 3 x 3 block's candidates: its edges and corners are far from a tile), and runs the neighbour
/// loop over the list. The list keeps the plain path's order; it is run early only if it could overflow.
/// A run is examined a vector at a time (its first one or two before any test: kSecondVector). kListed: some
/// run is across a wrap seam (`tile.seam`); then the tile's candidates are culled and listed at the
/// positions the tile sees (x - shift, the nearest images), and the loop reads them from the list. A
/// template parameter rather than a flag: the common tile then spends no test per vector on it, and the
/// registers the shifts would hold are free for the box's bounds. The lanes' own agents are the `own_count`
/// slots from `own` (a.slot): listed whole, and their place noted (see add_list).
template <bool kListed, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void list_runs_and_add(D d, const FlockInCellOrder<Real>& f, const CandidateRun<Real>* runs,
                                  TileRuns tile, std::uint32_t own, std::size_t own_count, const Lanes<D>& a,
                                  NeighbourSums<D>& sums) {
    const std::size_t lanes = hn::Lanes(d);
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    CandidateList<D> list;
    // 0, 1, 2, ... from the lanes' slots (own + lane): Highway's Iota builds its vector through memory,
    // and the wide load after narrow stores would stall on store forwarding once per tile.
    const auto lane_index = hn::Sub(a.slot, hn::Set(di, static_cast<TI>(own)));
    const auto step = hn::Set(di, static_cast<TI>(lanes));
    // A run's first vector, or on vectors of 16 lanes its first two, are listed before the loop's test:
    // a 16-lane tile's runs (about 5.4 cells, 26 candidates at W20) seldom need a third, and a loop whose
    // trip count varies ends in a mispredicted branch. An 8-lane tile's runs (about 3.7 cells, 18
    // candidates) need two or three vectors about equally often, so the test mispredicts either way:
    // there a second vector before it measured 2% slower than the loop taking it, and a third slower
    // still (docs/PERFORMANCE.md, §3.3 and §6).
    constexpr bool kSecondVector = hn::MaxLanes(D()) >= 16;
    std::size_t size = 0; // a local: the list's stores may alias list.size as far as the compiler knows
    std::size_t own_begin = 0, own_end = 0;
    const auto flush_if_full = [&]() {
        if (HWY_UNLIKELY(size + lanes > CandidateList<D>::capacity)) {
            list.size = size;
            add_listed<kView, k3D>(d, f, kListed, list, own_begin, own_end, a, sums);
            size = own_begin = own_end = 0;
        }
    };
    const auto zero = hn::Zero(d);
    const ReachBox<D>& box = a.box;
    // Signed distance from the box along one axis (0 inside it): v minus its clamp to [lo, hi], three
    // operations; its square is that of max(lo - v, v - hi, 0) to the bit.
    const auto outside = [&](hn::Vec<D> v, hn::Vec<D> lo, hn::Vec<D> hi)
                             HWY_ATTR { return hn::Sub(v, hn::Min(hn::Max(v, lo), hi)); };
    for (int r = 0; r < tile.count; ++r) {
        const CandidateRun<Real>& run = runs[r];
        // Lists the kept slots among [k, k + lanes) ∩ [k, end), `slots` holding k, k + 1, ...: a lane
        // at or past the end (in the next cells or the arrays' padding; a segment may be empty) is not
        // kept. The slots are compressed in a register and stored whole (the list has a vector of room
        // past its capacity): the memory form of AVX-512's compress is several times slower on Intel
        // cores.
        const auto list_vector = [&](std::uint32_t k, hn::Vec<decltype(di)> slots,
                                     hn::Vec<decltype(di)> end) HWY_ATTR {
            flush_if_full();
            auto x = hn::LoadU(d, f.x + k), y = hn::LoadU(d, f.y + k);
            auto z = k3D ? hn::LoadU(d, f.z + k) : zero;
            if constexpr (kListed) { // the nearest images (x - 0 is x)
                x = hn::Sub(x, hn::Set(d, run.shift.x));
                y = hn::Sub(y, hn::Set(d, run.shift.y));
                z = hn::Sub(z, hn::Set(d, run.shift.z));
            }
            const auto ex = outside(x, box.lo_x, box.hi_x);
            const auto ey = outside(y, box.lo_y, box.hi_y);
            auto e2 = hn::Add(hn::Mul(ex, ex), hn::Mul(ey, ey));
            if constexpr (k3D) {
                const auto ez = outside(z, box.lo_z, box.hi_z);
                e2 = hn::Add(e2, hn::Mul(ez, ez));
            }
            const auto keep = hn::And(hn::Lt(e2, box.reach2), hn::RebindMask(d, hn::Lt(slots, end)));
            const auto keep_index = hn::RebindMask(di, keep);
            const Compressor<D> compress(d, keep);
            hn::StoreU(compress(slots), di, list.slot + size);
            if constexpr (kListed) {
                hn::StoreU(compress(x), d, list.x + size);
                hn::StoreU(compress(y), d, list.y + size);
                hn::StoreU(compress(z), d, list.z + size);
            }
            size += hn::CountTrue(di, keep_index);
        };
        const auto list_segment = [&](std::uint32_t begin, std::uint32_t end) HWY_ATTR {
            const auto end_slot = hn::Set(di, static_cast<TI>(end));
            auto slots = hn::Add(hn::Set(di, static_cast<TI>(begin)), lane_index);
            list_vector(begin, slots, end_slot);
            std::uint32_t k = begin + static_cast<std::uint32_t>(lanes);
            if constexpr (kSecondVector) {
                slots = hn::Add(slots, step);
                list_vector(k, slots, end_slot);
                k += static_cast<std::uint32_t>(lanes);
            }
            for (; k < end; k += static_cast<std::uint32_t>(lanes)) {
                slots = hn::Add(slots, step);
                list_vector(k, slots, end_slot);
            }
        };
        if (r == tile.own) {
            // The run of the tile's own line: its own agents are listed whole, between the others.
            list_segment(run.begin, own);
            flush_if_full();
            hn::StoreU(a.slot, di, list.slot + size);
            if constexpr (kListed) {
                hn::StoreU(a.x, d, list.x + size);
                hn::StoreU(a.y, d, list.y + size);
                hn::StoreU(a.z, d, list.z + size);
            }
            own_begin = size;
            size += own_count;
            own_end = size;
            list_segment(own + static_cast<std::uint32_t>(own_count), run.end);
        } else {
            list_segment(run.begin, run.end);
        }
    }
    list.size = size;
    add_listed<kView, k3D>(d, f, kListed, list, own_begin, own_end, a, sums);
}

/// list_runs_and_add for a tile across a wrap seam or not.
template <bool kWrap, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void list_and_add(D d, const FlockInCellOrder<Real>& f, const CandidateRun<Real>* runs,
                             TileRuns tile, std::uint32_t own, std::size_t own_count, const Lanes<D>& a,
                             NeighbourSums<D>& sums) {
    if constexpr (kWrap) {
        if (tile.seam) {
            list_runs_and_add<true, kView, k3D>(d, f, runs, tile, own, own_count, a, sums);
            return;
        }
    }
    list_runs_and_add<false, kView, k3D>(d, f, runs, tile, own, own_count, a, sums);
}

/// Adds the candidates of `count` runs to the lanes' sums, each run with the loop its shift and place need.
template <bool kWrap, bool kGeneral, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_runs(D d, const FlockInCellOrder<Real>& f, const CandidateRun<Real>* runs, int count,
                         const Lanes<D>& a, NeighbourSums<D>& s) {
    for (int k = 0; k < count; ++k) {
        const CandidateRun<Real>& run = runs[k];
        if (run.begin == run.end) {
            continue;
        }
        if (kWrap && run.shift.any()) {
            add_candidates<true, kGeneral, kView, k3D>(d, f, run.begin, run.end, run.shift, a, s);
        } else {
            add_candidates<false, kGeneral, kView, k3D>(d, f, run.begin, run.end, run.shift, a, s);
        }
    }
}

/// The candidates of a tile in line (layer, row), visited in the plain path's order. `general`: the
/// candidate test of add_candidate's kGeneral (a runtime flag here, so that the rest of the kernel is
/// compiled once for both tests).
template <bool kWrap, unsigned kView, bool k3D, class D, class Real>
HWY_INLINE void add_tile_candidates(D d, const FlockInCellOrder<Real>& f, bool general, int layer, int row,
                                    int col0, int col1, std::uint32_t slot0, std::size_t agents,
                                    const Lanes<D>& a, NeighbourSums<D>& s) {
    CandidateRun<Real> runs[max_tile_runs];
    const TileRuns tile = tile_runs<kWrap, k3D>(f, layer, row, col0, col1, runs);
    if (general) {
        add_runs<kWrap, true, kView, k3D>(d, f, runs, tile.count, a, s);
    } else if constexpr (k3D) {
        // 3D tiles gather their culled candidates in a list and run one neighbour loop over it; 2D tiles
        // run the loop over each run of candidates directly (culling and listing measured slower there).
        list_and_add<kWrap, kView, k3D>(d, f, runs, tile, slot0, agents, a, s);
    } else {
        add_runs<kWrap, false, kView, k3D>(d, f, runs, tile.count, a, s);
    }
}

/// classic::nearest_image on every lane: the image of a point at `x` nearest to the agents at `a`.
template <class D>
HWY_INLINE hn::Vec<D> nearest_image(D d, hn::Vec<D> a, hn::Vec<D> x, hn::TFromD<D> length,
                                    hn::TFromD<D> half) {
    const auto len = hn::Set(d, length);
    const auto h = hn::Set(d, half);
    const auto diff = hn::Sub(a, x);
    return hn::IfThenElse(hn::Gt(diff, h), hn::Add(x, len),
                          hn::IfThenElse(hn::Lt(diff, hn::Neg(h)), hn::Sub(x, len), x));
}

/// The lanes inside one of `count` reach boxes, a lane's point taken as (x_up, y_up, z_up) against the
/// boxes' lower bounds and as (x_down, y_down, z_down) against their upper bounds (the point moved by a
/// slack toward the box, or the point itself twice).
template <bool k3D, class D, class Real>
HWY_INLINE hn::Mask<D> in_reach_boxes(D d, const boids::ReachBox<Real>* boxes, std::size_t count,
                                      hn::Vec<D> x_up, hn::Vec<D> x_down, hn::Vec<D> y_up, hn::Vec<D> y_down,
                                      hn::Vec<D> z_up, hn::Vec<D> z_down) {
    auto in_some = hn::FirstN(d, 0);
    for (std::size_t k = 0; k < count; ++k) {
        const boids::ReachBox<Real>& box = boxes[k];
        auto in = hn::And(hn::And(hn::Ge(x_up, hn::Set(d, box.lo_x)), hn::Le(x_down, hn::Set(d, box.hi_x))),
                          hn::And(hn::Ge(y_up, hn::Set(d, box.lo_y)), hn::Le(y_down, hn::Set(d, box.hi_y))));
        if constexpr (k3D) {
            in = hn::And(in,
                         hn::And(hn::Ge(z_up, hn::Set(d, box.lo_z)), hn::Le(z_down, hn::Set(d, box.hi_z))));
        }
        in_some = hn::Or(in_some, in);
    }
    return in_some;
}

/// The lanes at (x, y, z) that some obstacle's reach box holds once moved toward it by the slack of
/// obstacle_reach_slack_per_unit: the only ones that steer_around_obstacles or keep_out_of_obstacles may
/// change.
template <bool k3D, class D, class Real>
HWY_INLINE hn::Mask<D> near_obstacles(D d, const FlockInCellOrder<Real>& f, hn::Vec<D> x, hn::Vec<D> y,
                                      hn::Vec<D> z) {
    auto largest = hn::Max(hn::Set(d, Real(1)), hn::Max(hn::Abs(x), hn::Abs(y)));
    if constexpr (k3D) {
        largest = hn::Max(largest, hn::Abs(z));
    }
    const auto slack = hn::Mul(largest, hn::Set(d, static_cast<Real>(obstacle_reach_slack_per_unit)));
    return in_reach_boxes<k3D>(d, f.obstacle_reach, f.obstacles, hn::Add(x, slack), hn::Sub(x, slack),
                               hn::Add(y, slack), hn::Sub(y, slack), hn::Add(z, slack), hn::Sub(z, slack));
}

/// Runs `rule(lane, x, y, z, vx, vy, vz)`, one of the plain path's own per-agent functions, for the lanes
/// in `which` (of the first `count`), their velocities in and out.
template <class D, class Rule>
HWY_NOINLINE void rule_by_lane(D d, hn::Mask<D> which, std::size_t count, hn::Vec<D> x, hn::Vec<D> y,
                               hn::Vec<D> z, hn::Vec<D>& vx, hn::Vec<D>& vy, hn::Vec<D>& vz,
                               const Rule& rule) {
    using Real = hn::TFromD<D>;
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    HWY_ALIGN Real lanes[7][max_lanes] = {}; // (zeroed: GCC cannot see that count <= the lanes)
    hn::Store(x, d, lanes[0]);
    hn::Store(y, d, lanes[1]);
    hn::Store(z, d, lanes[2]);
    hn::Store(vx, d, lanes[3]);
    hn::Store(vy, d, lanes[4]);
    hn::Store(vz, d, lanes[5]);
    hn::Store(hn::VecFromMask(d, which), d, lanes[6]);
    for (std::size_t l = 0; l < count; ++l) {
        if (lanes[6][l] != Real(0)) { // all bits set
            rule(l, lanes[0][l], lanes[1][l], lanes[2][l], lanes[3][l], lanes[4][l], lanes[5][l]);
        }
    }
    vx = hn::Load(d, lanes[3]);
    vy = hn::Load(d, lanes[4]);
    vz = hn::Load(d, lanes[5]);
}

/// The predators a vector of agents scans in step 5: every one (index nullptr), or those at `index`, in
/// world order (lane_predators).
struct PredatorSubset {
    const std::uint32_t* index = nullptr;
    std::size_t count = 0;
};

/// With more predators than this, each vector of agents scans only the predators that may be within reach
/// of its lanes (line_predators, lane_predators); with as few, scanning each is a handful of vector
/// operations, less than choosing them.
inline constexpr std::size_t predators_scanned_whole = 8;

/// Where some agents lie along one axis: their least and greatest coordinate.
struct AxisExtent {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
};

/// How far from some agents' extent a predator may lie and still be within `range` of one of them as the
/// lanes compute it: their difference in Real rounds to at least range unless the exact one is below
/// range (1 + 2^-20), so the test reaches that far.
inline double predator_reach(double range) {
    return range * (1.0 + 0x1p-20);
}

/// Whether a predator at `p` on an axis of the given length (a torus's, with kWrap) may lie within `range` of
/// an agent in `e` along it, as finish_agents' step 5 sees it: at p, or at the image nearest_image moves it
/// to, p + length or p - length (computed in Real, as the lanes compute them). It keeps every predator some
/// lane can see; the lanes' own test decides.
template <bool kWrap, class Real>
bool may_reach(Real p, Real length, const AxisExtent& e, double range) {
    const double reach = predator_reach(range);
    const auto within = [&](Real v) {
        const double u = static_cast<double>(v);
        return u > e.lo - reach && u < e.hi + reach;
    };
    if constexpr (kWrap) {
        return within(p) || within(static_cast<Real>(p + length)) || within(static_cast<Real>(p - length));
    } else {
        return within(p);
    }
}

/// A predator, or on a torus one of its images, at `x` along the x axis.
struct PredatorAlongX {
    double x;
    std::uint32_t index;
};

/// The predators of a line of agents: those that may lie within the predator range of the line's extent
/// across it (along y, and z in 3D), each at x and on a torus also at its images, sorted by x. Leaving out
/// a predator out of every lane's reach changes no sum: it would add nothing.
template <bool kWrap, bool k3D, class Real>
void line_predators(const FlockInCellOrder<Real>& f, const AxisExtent& along_y, const AxisExtent& along_z,
                    std::vector<PredatorAlongX>& along) {
    const auto& c = f.c;
    const auto range = static_cast<double>(c.predator_range);
    along.clear();
    for (std::size_t k = 0; k < f.predators; ++k) {
        if (!may_reach<kWrap>(f.predator_y[k], c.height, along_y, range) ||
            (k3D && !may_reach<kWrap>(f.predator_z[k], c.depth, along_z, range))) {
            continue;
        }
        const Real x = f.predator_x[k];
        const auto p = static_cast<std::uint32_t>(k);
        along.push_back({static_cast<double>(x), p});
        if constexpr (kWrap) {
            along.push_back({static_cast<double>(static_cast<Real>(x + c.width)), p});
            along.push_back({static_cast<double>(static_cast<Real>(x - c.width)), p});
        }
    }
    std::sort(along.begin(), along.end(),
              [](const PredatorAlongX& l, const PredatorAlongX& r) { return l.x < r.x; });
}

/// The predators of a line (line_predators) that may lie within the predator range of a vector's lanes,
/// whose extents are given, written to `to` in world order (the order every path sums them in); their
/// count. Those within reach along x are a run of the line's, found by bisection.
template <bool kWrap, bool k3D, class Real>
std::size_t lane_predators(const FlockInCellOrder<Real>& f, const std::vector<PredatorAlongX>& along,
                           const AxisExtent& along_x, const AxisExtent& along_y, const AxisExtent& along_z,
                           std::uint32_t* to) {
    const auto& c = f.c;
    const auto range = static_cast<double>(c.predator_range);
    const double reach = predator_reach(range);
    const double lo = along_x.lo - reach, hi = along_x.hi + reach;
    auto it = std::upper_bound(along.begin(), along.end(), lo,
                               [](double v, const PredatorAlongX& e) { return v < e.x; });
    std::size_t kept = 0;
    for (; it != along.end() && it->x < hi; ++it) {
        const std::uint32_t p = it->index;
        if (may_reach<kWrap>(f.predator_y[p], c.height, along_y, range) &&
            (!k3D || may_reach<kWrap>(f.predator_z[p], c.depth, along_z, range))) {
            to[kept++] = p;
        }
    }
    std::sort(to, to + kept);
    return static_cast<std::size_t>(std::unique(to, to + kept) - to); // images of one predator
}

/// docs/MODEL.md §2.3-2.9 for `count` agents in lanes, from their neighbour sums; the new state may be
/// stored up to slot `writable_end` (the end of the row). Out of line: it runs once per vector of agents
/// (against ~6 candidates per agent), and one copy serves the kernel's variants of the candidate test.
/// `sight`: the lanes' neighbours dead ahead, with a line of sight (nullptr otherwise). `near`: the predators
/// step 5 scans.
template <bool kWrap, bool k3D, class D, class Real>
HWY_INLINE void finish_agents(D d, const FlockInCellOrder<Real>& f, std::uint32_t slot0, std::size_t count,
                              std::size_t writable_end, const Lanes<D>& a, const NeighbourSums<D>& s,
                              const Sight<D>* sight, PredatorSubset near) {
    const auto& c = f.c;
    const auto zero = hn::Zero(d);
    const auto x = a.x, y = a.y, z = a.z;
    auto vx = hn::LoadU(d, f.vx + slot0);
    auto vy = hn::LoadU(d, f.vy + slot0);
    auto vz = zero;
    if constexpr (k3D) {
        vz = hn::LoadU(d, f.vz + slot0);
    }
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    // Perching: the lanes resting sit still (their rules' result is replaced below, their bias kept).
    HWY_ALIGN Real lane_rest[max_lanes] = {}; // whole numbers up to perch_rest_max: exact
    auto resting = hn::FirstN(d, 0);
    if (f.ledge != nullptr) {
        for (std::size_t l = 0; l < count; ++l) {
            lane_rest[l] = static_cast<Real>(f.rest[slot0 + l]);
        }
        resting = hn::Gt(hn::Load(d, lane_rest), zero);
    }

    // Step 5: flee the predators in range (sum of offsets, then a fixed kick by sign). After the edges
    // (Adams' VGA predator page's order), or first of all (the ECE 4760 lab page's: step 2 then reads the
    // kicked velocity).
    const auto flee_predators = [&]() HWY_ATTR {
        const std::size_t scanned = near.index != nullptr ? near.count : f.predators;
        if (scanned == 0) {
            return;
        }
        auto pdx = zero, pdy = zero, pdz = zero;
        const auto range = hn::Set(d, c.predator_range);
        const auto range2 = hn::Set(d, c.predator_range2);
        for (std::size_t k = 0; k < scanned; ++k) { // world order, as every path sums them
            const std::size_t p = near.index != nullptr ? near.index[k] : k;
            auto px = hn::Set(d, f.predator_x[p]), py = hn::Set(d, f.predator_y[p]);
            if constexpr (kWrap) {
                px = nearest_image(d, x, px, c.width, c.half_width);
                py = nearest_image(d, y, py, c.height, c.half_height);
            }
            const auto dx = hn::Sub(x, px), dy = hn::Sub(y, py);
            auto in_box = hn::And(hn::Lt(hn::Abs(dx), range), hn::Lt(hn::Abs(dy), range));
            auto d2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
            auto dz = zero;
            if constexpr (k3D) {
                auto pz = hn::Set(d, f.predator_z[p]);
                if constexpr (kWrap) {
                    pz = nearest_image(d, z, pz, c.depth, c.half_depth);
                }
                dz = hn::Sub(z, pz);
                in_box = hn::And(in_box, hn::Lt(hn::Abs(dz), range));
                d2 = hn::Add(d2, hn::Mul(dz, dz));
            }
            const auto in_range = hn::And(in_box, hn::Lt(d2, range2));
            pdx = hn::IfThenElse(in_range, hn::Add(pdx, dx), pdx);
            pdy = hn::IfThenElse(in_range, hn::Add(pdy, dy), pdy);
            if constexpr (k3D) {
                pdz = hn::IfThenElse(in_range, hn::Add(pdz, dz), pdz);
            }
        }
        const auto kick = hn::Set(d, c.predator_turn);
        if constexpr (k3D) {
            vz = hn::IfThenElse(hn::Gt(pdz, zero), hn::Add(vz, kick), vz);
            vz = hn::IfThenElse(hn::Lt(pdz, zero), hn::Sub(vz, kick), vz);
        }
        vy = hn::IfThenElse(hn::Gt(pdy, zero), hn::Add(vy, kick), vy);
        vy = hn::IfThenElse(hn::Lt(pdy, zero), hn::Sub(vy, kick), vy);
        vx = hn::IfThenElse(hn::Gt(pdx, zero), hn::Add(vx, kick), vx);
        vx = hn::IfThenElse(hn::Lt(pdx, zero), hn::Sub(vx, kick), vx);
    };
    if (c.predators_first) {
        flee_predators();
    }

    // Step 2: cohesion and alignment (agents with no neighbour keep their velocity).
    const auto n = counted(d, s.count);
    const auto has_neighbours = hn::Gt(n, zero);
    const auto xavg = hn::Div(s.xsum, n), yavg = hn::Div(s.ysum, n);
    const auto vxavg = hn::Div(s.vxsum, n), vyavg = hn::Div(s.vysum, n);
    const auto centering = hn::Set(d, c.centering), matching = hn::Set(d, c.matching);
    const auto vx_flock =
        hn::Add(hn::Add(vx, hn::Mul(hn::Sub(xavg, x), centering)), hn::Mul(hn::Sub(vxavg, vx), matching));
    const auto vy_flock =
        hn::Add(hn::Add(vy, hn::Mul(hn::Sub(yavg, y), centering)), hn::Mul(hn::Sub(vyavg, vy), matching));
    vx = hn::IfThenElse(has_neighbours, vx_flock, vx);
    vy = hn::IfThenElse(has_neighbours, vy_flock, vy);
    if constexpr (k3D) {
        const auto zavg = hn::Div(s.zsum, n), vzavg = hn::Div(s.vzsum, n);
        const auto vz_flock =
            hn::Add(hn::Add(vz, hn::Mul(hn::Sub(zavg, z), centering)), hn::Mul(hn::Sub(vzavg, vz), matching));
        vz = hn::IfThenElse(has_neighbours, vz_flock, vz);
    }

    // Step 3: separation.
    const auto avoid = hn::Set(d, c.avoid);
    vx = hn::Add(vx, hn::Mul(s.close_dx, avoid));
    vy = hn::Add(vy, hn::Mul(s.close_dy, avoid));
    if constexpr (k3D) {
        vz = hn::Add(vz, hn::Mul(s.close_dz, avoid));
    }

    // Step 4: edges, in the order of docs/MODEL.md §2.5.
    if constexpr (!kWrap) {
        const auto turn = hn::Set(d, c.turn);
        vy = hn::IfThenElse(hn::Lt(y, hn::Set(d, c.top_edge)), hn::Add(vy, turn), vy);
        vx = hn::IfThenElse(hn::Gt(x, hn::Set(d, c.right_edge)), hn::Sub(vx, turn), vx);
        vx = hn::IfThenElse(hn::Lt(x, hn::Set(d, c.left_edge)), hn::Add(vx, turn), vx);
        vy = hn::IfThenElse(hn::Gt(y, hn::Set(d, c.bottom_edge)), hn::Sub(vy, turn), vy);
        if constexpr (k3D) {
            vz = hn::IfThenElse(hn::Lt(z, hn::Set(d, c.front_edge)), hn::Add(vz, turn), vz);
            vz = hn::IfThenElse(hn::Gt(z, hn::Set(d, c.back_edge)), hn::Sub(vz, turn), vz);
        }
    }

    if (!c.predators_first) {
        flee_predators();
    }

    // Steps 6-7: scouts' dynamic bias and pull toward their side.
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

    // Flake's sidestep, for the lanes that saw a neighbour dead ahead (classic::sidestep, in double).
    if (sight != nullptr) {
        sidestep_lanes(d, *sight, c.line_of_sight_factor, vx, vy);
    }

    // Obstacles near a lane, then food sources in reach: the plain path's push and pull, lane by lane.
    if (f.obstacles > 0) {
        const auto near = hn::And(near_obstacles<k3D>(d, f, x, y, z), hn::FirstN(d, count));
        if (HWY_UNLIKELY(!hn::AllFalse(d, near))) {
            rule_by_lane(d, near, count, x, y, z, vx, vy, vz,
                         [&](std::size_t, Real px, Real py, Real pz, Real& pvx, Real& pvy, Real& pvz) {
                             steer_around_obstacles(*f.params, k3D, px, py, pz, pvx, pvy, pvz);
                         });
        }
    }
    if (f.food_sources > 0) {
        const auto near = hn::And(in_reach_boxes<k3D>(d, f.food_reach, f.food_sources, x, x, y, y, z, z),
                                  hn::FirstN(d, count));
        if (HWY_UNLIKELY(!hn::AllFalse(d, near))) {
            rule_by_lane(d, near, count, x, y, z, vx, vy, vz,
                         [&](std::size_t, Real px, Real py, Real pz, Real& pvx, Real& pvy, Real& pvz) {
                             seek_food(*f.params, k3D, f.step, px, py, pz, pvx, pvy, pvz);
                         });
        }
    }

    // Gravity (docs/MODEL.md §3), before the limits.
    if (c.falls) {
        vy = hn::Add(vy, hn::Set(d, c.gravity));
    }

    // Step 8: speed limits (every component by one factor; zero velocity becomes (min_speed, 0, 0)); with
    // a dive speed, the upper limit of a lane descending (vy > 0) after the lower limit is max_dive_speed.
    const auto min_speed = hn::Set(d, c.min_speed), max_speed = hn::Set(d, c.max_speed);
    const auto upper_limit = [&](hn::Vec<D> v) HWY_ATTR {
        return c.dives ? hn::IfThenElse(hn::Gt(v, zero), hn::Set(d, c.max_dive_speed), max_speed) : max_speed;
    };
    // The speed, or the lab's alpha-max-beta-min estimate of it from vx and vy (speed_estimate).
    hn::Vec<D> speed;
    if (c.exact_speed) {
        auto speed2 = hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy));
        if constexpr (k3D) {
            speed2 = hn::Add(speed2, hn::Mul(vz, vz));
        }
        speed = hn::Sqrt(speed2);
    } else {
        const auto ax = hn::Abs(vx), ay = hn::Abs(vy);
        speed = hn::Add(hn::Mul(hn::Set(d, c.alpha), hn::Max(ax, ay)),
                        hn::Mul(hn::Set(d, c.beta), hn::Min(ax, ay)));
    }
    const auto slow = hn::Lt(speed, min_speed);
    if (c.min_speed <= c.max_speed && (!c.dives || c.min_speed <= c.max_dive_speed)) {
        // A lane is slow or fast, not both: one division per component serves both limits. (A slow lane is
        // below every upper limit, so its upper limit, chosen by the vy it has before the lower limit
        // rather than after, is never used.)
        const auto upper = upper_limit(vy);
        const auto fast = hn::Gt(speed, upper);
        const auto limit = hn::IfThenElse(slow, min_speed, upper);
        const auto limited = hn::Or(slow, fast);
        vx = hn::IfThenElse(limited, hn::Mul(hn::Div(vx, speed), limit), vx);
        vy = hn::IfThenElse(limited, hn::Mul(hn::Div(vy, speed), limit), vy);
        if constexpr (k3D) {
            vz = hn::IfThenElse(limited, hn::Mul(hn::Div(vz, speed), limit), vz);
        }
    } else { // docs/MODEL.md §2.8: the max limit applies to the velocity the min limit produced
        vx = hn::IfThenElse(slow, hn::Mul(hn::Div(vx, speed), min_speed), vx);
        vy = hn::IfThenElse(slow, hn::Mul(hn::Div(vy, speed), min_speed), vy);
        if constexpr (k3D) {
            vz = hn::IfThenElse(slow, hn::Mul(hn::Div(vz, speed), min_speed), vz);
        }
        const auto upper = upper_limit(vy);
        const auto fast = hn::Gt(speed, upper);
        vx = hn::IfThenElse(fast, hn::Mul(hn::Div(vx, speed), upper), vx);
        vy = hn::IfThenElse(fast, hn::Mul(hn::Div(vy, speed), upper), vy);
        if constexpr (k3D) {
            vz = hn::IfThenElse(fast, hn::Mul(hn::Div(vz, speed), upper), vz);
        }
    }
    const auto stopped = hn::Eq(speed, zero);
    vx = hn::IfThenElse(stopped, min_speed, vx);
    vy = hn::IfThenElse(stopped, zero, vy);
    vz = hn::IfThenElse(stopped, zero, vz);

    // Perching: landing on the ledge from above (lane by lane where a lane not resting may reach it this
    // step: over its span, below it by at most twice its vertical speed), then the resting lanes' step.
    HWY_ALIGN std::int32_t lane_new_rest[max_lanes] = {};
    if (f.ledge != nullptr) {
        const Ledge& ledge = *f.ledge;
        for (std::size_t l = 0; l < count; ++l) {
            lane_new_rest[l] = f.rest[slot0 + l];
        }
        const auto may_land = hn::AndNot(
            resting,
            hn::And(hn::And(hn::FirstN(d, count), hn::And(hn::Ge(x, hn::Set(d, f.ledge_reach.lo_x)),
                                                          hn::Le(x, hn::Set(d, f.ledge_reach.hi_x)))),
                    hn::And(hn::Le(y, hn::Set(d, f.ledge_reach.hi_y)),
                            hn::Ge(hn::Add(y, hn::Add(hn::Abs(vy), hn::Abs(vy))),
                                   hn::Set(d, f.ledge_reach.lo_y)))));
        if (HWY_UNLIKELY(!hn::AllFalse(d, may_land))) {
            rule_by_lane(d, may_land, count, x, y, z, vx, vy, vz,
                         [&](std::size_t l, Real px, Real py, Real, Real& pvx, Real& pvy, Real& pvz) {
                             if (ledge.land(px, py, pvx, pvy, pvz)) {
                                 const std::uint32_t agent = f.agent[slot0 + l];
                                 lane_new_rest[l] =
                                     ledge.rest_time(f.ids != nullptr ? f.ids[agent] : agent, f.step);
                             }
                         });
        }
        if (HWY_UNLIKELY(!hn::AllFalse(d, resting))) {
            const auto last = hn::Eq(hn::Load(d, lane_rest), hn::Set(d, Real(1)));
            const auto takeoff = hn::Set(d, ScalarTraits<Real>::from_double(ledge.takeoff_vy));
            vx = hn::IfThenElse(resting, zero, vx);
            vy = hn::IfThenElse(resting, hn::IfThenElseZero(last, takeoff), vy);
            vz = hn::IfThenElse(resting, zero, vz);
            for (std::size_t l = 0; l < count; ++l) {
                if (lane_rest[l] > Real(0)) {
                    --lane_new_rest[l];
                }
            }
        }
    }

    // Step 9: move; the new state in slot order. The whole vector is stored when its lanes past `count`
    // fall on slots of this row (later tiles of the row, which this thread writes afterwards); otherwise
    // (the row's last vector: the next slots may be another thread's row) it is written lane by lane, as
    // is a vector with an agent to wrap.
    const auto moved_x = hn::Add(x, vx), moved_y = hn::Add(y, vy);
    const auto moved_z = hn::Add(z, vz); // unused in 2D
    bool whole_vector = slot0 + hn::Lanes(d) <= writable_end;
    const auto agents = hn::FirstN(d, count);
    auto outside = hn::FirstN(d, 0); // lanes to wrap
    if constexpr (kWrap) {
        const auto inside_x = hn::And(hn::Ge(moved_x, zero), hn::Lt(moved_x, hn::Set(d, c.width)));
        const auto inside_y = hn::And(hn::Ge(moved_y, zero), hn::Lt(moved_y, hn::Set(d, c.height)));
        auto inside = hn::And(inside_x, inside_y);
        if constexpr (k3D) {
            inside = hn::And(inside, hn::And(hn::Ge(moved_z, zero), hn::Lt(moved_z, hn::Set(d, c.depth))));
        }
        outside = hn::AndNot(inside, agents);
        whole_vector = whole_vector && hn::AllFalse(d, outside);
    }
    // Keep out of the obstacles, after the wrap, lane by lane where a lane may be near one (a lane to wrap
    // may land anywhere, so it is near).
    bool keep_out = false;
    if (f.obstacles > 0) {
        const auto near =
            hn::And(hn::Or(near_obstacles<k3D>(d, f, moved_x, moved_y, moved_z), outside), agents);
        keep_out = !hn::AllFalse(d, near);
        whole_vector = whole_vector && !keep_out;
    }
    if (whole_vector) {
        hn::StoreU(moved_x, d, f.new_x + slot0);
        hn::StoreU(moved_y, d, f.new_y + slot0);
        hn::StoreU(vx, d, f.new_vx + slot0);
        hn::StoreU(vy, d, f.new_vy + slot0);
        if constexpr (k3D) {
            hn::StoreU(moved_z, d, f.new_z + slot0);
            hn::StoreU(vz, d, f.new_vz + slot0);
        }
    } else {
        HWY_ALIGN Real lanes[6][max_lanes] = {}; // (zeroed: GCC cannot see that count <= the lanes)
        hn::Store(moved_x, d, lanes[0]);
        hn::Store(moved_y, d, lanes[1]);
        hn::Store(vx, d, lanes[2]);
        hn::Store(vy, d, lanes[3]);
        hn::Store(moved_z, d, lanes[4]);
        hn::Store(vz, d, lanes[5]);
        for (std::size_t l = 0; l < count; ++l) {
            Real px = lanes[0][l], py = lanes[1][l], pz = k3D ? lanes[4][l] : Real(0);
            Real lane_vx = lanes[2][l], lane_vy = lanes[3][l], lane_vz = k3D ? lanes[5][l] : Real(0);
            if constexpr (kWrap) {
                px = classic::wrap_position(px, c.width);
                py = classic::wrap_position(py, c.height);
                if constexpr (k3D) {
                    pz = classic::wrap_position(pz, c.depth);
                }
            }
            if (keep_out) {
                keep_out_of_obstacles(f.params->obstacles, k3D ? f.params->depth : 0.0, px, py, pz, lane_vx,
                                      lane_vy, lane_vz);
            }
            f.new_x[slot0 + l] = px;
            f.new_y[slot0 + l] = py;
            f.new_vx[slot0 + l] = lane_vx;
            f.new_vy[slot0 + l] = lane_vy;
            if constexpr (k3D) {
                f.new_z[slot0 + l] = pz;
                f.new_vz[slot0 + l] = lane_vz;
            }
        }
    }
    if (f.has_scouts) {
        for (std::size_t l = 0; l < count; ++l) { // a resting scout keeps its bias
            f.new_bias[slot0 + l] = lane_rest[l] > Real(0) ? f.bias[slot0 + l] : lane_bias[l];
        }
    }
    if (f.ledge != nullptr) {
        std::copy_n(lane_new_rest, count, f.new_rest + slot0);
    }
}

/// Cell indices, a vector of doubles at a time (the divisions dominate the scalar loop). `zs` is
/// nullptr for a planar grid.
template <class Real>
void cells_impl(const Real* xs, const Real* ys, const Real* zs, std::size_t count, const CellGeometry& g,
                std::uint32_t* out) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<Real, decltype(dd)> dr;
    const hn::Rebind<std::int32_t, decltype(dd)> di;
    const std::size_t lanes = hn::Lanes(dd);
    const double last_col = g.nx - 1.0, last_row = g.ny - 1.0, last_layer = g.nz - 1.0;
    const auto load = [&](const Real* p) {
        if constexpr (std::is_same_v<Real, double>) {
            return hn::LoadU(dd, p);
        } else {
            return hn::PromoteTo(dd, hn::LoadU(dr, p));
        }
    };
    const auto ox = hn::Set(dd, g.origin_x), oy = hn::Set(dd, g.origin_y), oz = hn::Set(dd, g.origin_z);
    const auto cw = hn::Set(dd, g.cell_w), ch = hn::Set(dd, g.cell_h), cd = hn::Set(dd, g.cell_d);
    const auto lc = hn::Set(dd, last_col), lr = hn::Set(dd, last_row), ll = hn::Set(dd, last_layer);
    const auto nx = hn::Set(dd, static_cast<double>(g.nx)), ny = hn::Set(dd, static_cast<double>(g.ny));
    std::size_t i = 0;
    for (; i + lanes <= count; i += lanes) {
        // Positions are >= the origin, so the floor of the clamped quotient is SpatialGrid's line. The
        // products and sums are whole numbers below 2^32: exact in double.
        const auto col = hn::Floor(hn::Min(hn::Div(hn::Sub(load(xs + i), ox), cw), lc));
        auto line = hn::Floor(hn::Min(hn::Div(hn::Sub(load(ys + i), oy), ch), lr));
        if (zs != nullptr) {
            const auto layer = hn::Floor(hn::Min(hn::Div(hn::Sub(load(zs + i), oz), cd), ll));
            line = hn::Add(hn::Mul(layer, ny), line);
        }
        hn::StoreU(hn::DemoteTo(di, hn::Add(hn::Mul(line, nx), col)), di,
                   reinterpret_cast<std::int32_t*>(out + i));
    }
    for (; i < count; ++i) {
        const double col = std::min((static_cast<double>(xs[i]) - g.origin_x) / g.cell_w, last_col);
        const double row = std::min((static_cast<double>(ys[i]) - g.origin_y) / g.cell_h, last_row);
        std::size_t line = static_cast<std::size_t>(row);
        if (zs != nullptr) {
            const double layer = std::min((static_cast<double>(zs[i]) - g.origin_z) / g.cell_d, last_layer);
            line += static_cast<std::size_t>(layer) * static_cast<std::size_t>(g.ny);
        }
        out[i] =
            static_cast<std::uint32_t>(line * static_cast<std::size_t>(g.nx) + static_cast<std::size_t>(col));
    }
}

/// The cells of a line's new positions, with moved_cell_flag added where an agent left its cell, by
/// comparisons against the line bound tables (FlockInCellOrder::col_bound): the agents of the line sat in
/// cells first_cell + col, col = 0 .. nx - 1 (the slots [start[col], start[col + 1])). A vector of slots
/// at a time, each lane's old column counted from the cell starts inside the vector (W20: 2-3 of them);
/// its new column, row and layer is one of the old one's neighbours unless it crossed a seam or moved more
/// than a cell; such a lane (rare), and a vector whose old columns span more than a vector of bounds, is
/// binned by division (cells_impl), which the tables reproduce to the bit (dividing every position was
/// ~9% of the 2D neighbour pass). Nothing is read or stored past the line's last slot: the next line may
/// be another thread's.
template <bool k3D, class Real>
HWY_INLINE void bin_line(const FlockInCellOrder<Real>& f, const std::uint32_t* start, int layer, int row) {
    using D = hn::ScalableTag<Real>;
    const D d;
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    constexpr std::size_t max_lanes = HWY_MAX_BYTES / sizeof(Real);
    const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
    const int nx = f.nx;
    const std::uint32_t line_begin = start[0], line_end = start[nx];
    const auto first_cell = static_cast<TI>(
        (static_cast<std::size_t>(layer) * static_cast<std::size_t>(f.ny) + static_cast<std::size_t>(row)) *
        static_cast<std::size_t>(nx));
    const auto one = hn::Set(di, TI{1});
    const auto lane = hn::Iota(di, 0);
    const auto flag = hn::Set(di, static_cast<TI>(moved_cell_flag));
    // The row's and the layer's bounds (entries row .. row + 3: rows row - 1 .. row + 2) hold for the line.
    const Real* rb = f.row_bound + row;
    const auto y_prev = hn::Set(d, rb[0]), y_cur = hn::Set(d, rb[1]), y_next = hn::Set(d, rb[2]);
    const auto y_after = hn::Set(d, rb[3]);
    const Real* lb = k3D ? f.layer_bound + layer : rb;
    const auto z_prev = hn::Set(d, lb[0]), z_cur = hn::Set(d, lb[1]), z_next = hn::Set(d, lb[2]);
    const auto z_after = hn::Set(d, lb[3]);
    // Division for the `count` slots from k (old cells in old_cell).
    const auto by_division = [&](std::uint32_t k, std::size_t count,
                                 hn::Vec<decltype(di)> old_cell) HWY_ATTR {
        HWY_ALIGN TI old[max_lanes] = {}; // (zeroed: GCC cannot see that count <= the lanes)
        hn::Store(old_cell, di, old);
        cells_impl(f.new_x + k, f.new_y + k, k3D ? f.new_z + k : nullptr, count, f.next_grid, f.new_cell + k);
        for (std::size_t l = 0; l < count; ++l) {
            if (f.new_cell[k + l] != static_cast<std::uint32_t>(old[l])) {
                f.new_cell[k + l] |= moved_cell_flag;
            }
        }
    };
    // The new positions of slots [k, k + count): a vector load inside the line; for the line's last vector
    // only its own slots are read (the next slots may be another thread's line, being written now) and the
    // lanes past them are zero, dropped below like the rest of those lanes.
    const auto load_own = [&](const Real* p, std::uint32_t k, std::size_t count) HWY_ATTR {
        if (k + lanes <= line_end) {
            return hn::LoadU(d, p + k);
        }
        HWY_ALIGN Real own[max_lanes] = {};
        std::copy_n(p + k, count, own);
        return hn::Load(d, own);
    };
    int col = 0; // the old column of slot k
    for (std::uint32_t k = line_begin; k < line_end; k += lanes) {
        while (start[col + 1] <= k) {
            ++col;
        }
        auto old_col = hn::Set(di, static_cast<TI>(col));
        int last = col;
        for (int c = col + 1; c < nx && start[c] < k + lanes; ++c) {
            const auto past = hn::Gt(lane, hn::Set(di, static_cast<TI>(start[c] - k) - 1));
            old_col = hn::Add(old_col, hn::IfThenElseZero(past, one));
            last = c;
        }
        const std::size_t count = std::min<std::size_t>(lanes, line_end - k);
        const auto old_cell = hn::Add(hn::Set(di, first_cell), old_col);
        if (last - col >= static_cast<int>(lanes)) { // sparse line: more columns than a vector of bounds
            by_division(k, count, old_cell);
            continue;
        }
        // Bounds of columns col - 1 + i (i = 0 .. 3) for each lane: a vector of the table from entry col
        // (column col - 1), looked up at the lane's offset old_col - col.
        const Real* t = f.col_bound + col;
        const auto at = hn::IndicesFromVec(d, hn::Sub(old_col, hn::Set(di, static_cast<TI>(col))));
        const auto x_prev = hn::TableLookupLanes(hn::LoadU(d, t), at);
        const auto x_cur = hn::TableLookupLanes(hn::LoadU(d, t + 1), at);
        const auto x_next = hn::TableLookupLanes(hn::LoadU(d, t + 2), at);
        const auto x_after = hn::TableLookupLanes(hn::LoadU(d, t + 3), at);
        const auto x = load_own(f.new_x, k, count), y = load_own(f.new_y, k, count);
        // The new cell as the old one plus a step of -1, 0 or +1 along each axis (no multiplication: Highway
        // has none for 64-bit lanes on every target).
        const auto step = [&](hn::Vec<D> v, hn::Vec<D> cur, hn::Vec<D> next, TI stride) HWY_ATTR {
            return hn::Add(
                hn::IfThenElseZero(hn::RebindMask(di, hn::Lt(v, cur)), hn::Set(di, static_cast<TI>(-stride))),
                hn::IfThenElseZero(hn::RebindMask(di, hn::Ge(v, next)), hn::Set(di, stride)));
        };
        auto cell = hn::Add(old_cell,
                            hn::Add(step(x, x_cur, x_next, 1), step(y, y_cur, y_next, static_cast<TI>(nx))));
        auto near = hn::And(hn::And(hn::Ge(x, x_prev), hn::Lt(x, x_after)),
                            hn::And(hn::Ge(y, y_prev), hn::Lt(y, y_after)));
        if constexpr (k3D) {
            const auto z = load_own(f.new_z, k, count);
            cell =
                hn::Add(cell, step(z, z_cur, z_next, static_cast<TI>(static_cast<std::size_t>(nx) * f.ny)));
            near = hn::And(near, hn::And(hn::Ge(z, z_prev), hn::Lt(z, z_after)));
        } else {
            (void)z_prev, (void)z_cur, (void)z_next, (void)z_after;
        }
        if (HWY_UNLIKELY(!hn::AllTrue(d, hn::Or(near, hn::Not(hn::FirstN(d, count)))))) {
            by_division(k, count, old_cell); // a seam crossed, or a jump of more than a cell
            continue;
        }
#ifndef NDEBUG
        { // the division's cells, lane by lane (assertion builds only)
            HWY_ALIGN TI lane_cell[max_lanes];
            std::uint32_t divided[max_lanes];
            hn::Store(cell, di, lane_cell);
            cells_impl(f.new_x + k, f.new_y + k, k3D ? f.new_z + k : nullptr, count, f.next_grid, divided);
            for (std::size_t l = 0; l < count; ++l) {
                assert(static_cast<std::uint32_t>(lane_cell[l]) == divided[l]);
            }
        }
#endif
        const auto marked = hn::IfThenElse(hn::Eq(cell, old_cell), cell, hn::Or(cell, flag));
        if (sizeof(TI) == sizeof(std::uint32_t) && k + lanes <= line_end) {
            hn::StoreU(marked, di, reinterpret_cast<TI*>(f.new_cell + k));
        } else { // the line's last vector (the next slots may be another thread's line), or 64-bit lanes
            HWY_ALIGN TI lane_cell[max_lanes];
            hn::Store(marked, di, lane_cell);
            for (std::size_t l = 0; l < count; ++l) {
                f.new_cell[k + l] = static_cast<std::uint32_t>(lane_cell[l]);
            }
        }
    }
}

/// One line of cells (a row of one layer) at a time, a tile of consecutive slots at a time (see the tiles
/// below).
template <bool kWrap, unsigned kView, bool k3D, class Real>
void lines_impl(const FlockInCellOrder<Real>& f, bool general, int line_begin, int line_end) {
    using D = hn::ScalableTag<Real>;
    const D d;
    const hn::RebindToSigned<D> di;
    using TI = hn::TFromD<decltype(di)>;
    const std::size_t lanes = hn::Lanes(d);
    // A tile never reaches around the torus to its own columns (each candidate column once), and stays
    // short enough that its candidate block is not mostly wasted on sparse rows.
    const int max_tile = kWrap ? std::min(4, f.nx - 2) : 4;
    const auto lane_index = hn::Iota(di, 0); // once: Highway's Iota goes through memory
    Sight<D> sight;                          // line of sight only
    // Many predators: each line keeps those within reach of its agents across the line (along y, and z),
    // and each vector of agents those of the line's within reach of its lanes.
    const bool choose_predators = f.predators > predators_scanned_whole;
    // A vector lists a predator once per image within its reach (up to three on a torus narrower than
    // twice the predator range), before keeping one.
    const std::size_t images = kWrap ? 3 : 1;
    std::vector<PredatorAlongX> line_along;
    std::vector<std::uint32_t> near_lanes(choose_predators ? images * f.predators : 0);
    line_along.reserve(choose_predators ? images * f.predators : 0);
    for (int line = line_begin; line < line_end; ++line) {
        const int layer = line / f.ny, row = line % f.ny;
        const std::uint32_t* start =
            f.cell_start + static_cast<std::size_t>(line) * static_cast<std::size_t>(f.nx);
        if (choose_predators && start[0] < start[f.nx]) {
            AxisExtent along_y, along_z;
            for (std::uint32_t slot = start[0]; slot < start[f.nx]; ++slot) {
                along_y.add(static_cast<double>(f.y[slot]));
                if constexpr (k3D) {
                    along_z.add(static_cast<double>(f.z[slot]));
                }
            }
            line_predators<kWrap, k3D>(f, along_y, along_z, line_along);
        }
        // Tiles: a vector of consecutive slots, cutting cells where they fall, not whole cells: a cell of
        // W20 holds 6.4 agents in 2D and 4.8 in 3D on average, and tiles of whole cells filled 72% and 74%
        // of an 8-lane vector (Poisson-filled cells). A tile's candidates are the runs of the cells it spans
        // (col0 .. col1) and their neighbours, visited in the plain path's order; each lane's own block is
        // part of them, in that order, and the rest is beyond its visual range (cells are at least that
        // wide).
        int col0 = 0;
        for (std::uint32_t slot = start[0]; slot < start[f.nx];) {
            while (start[col0 + 1] <= slot) {
                ++col0;
            }
            const std::uint32_t end = std::min<std::uint32_t>(slot + static_cast<std::uint32_t>(lanes),
                                                              start[std::min(col0 + max_tile, f.nx)]);
            int col1 = col0;
            while (start[col1 + 1] < end) {
                ++col1;
            }
            const std::size_t count = end - slot;
            // Member by member: an aggregate initialisation would zero the whole struct first (GCC
            // emitted a 704-byte `rep stos` per tile, 12% of this function's samples on AMD Zen 4).
            Lanes<D> a;
            a.x = hn::LoadU(d, f.x + slot);
            a.y = hn::LoadU(d, f.y + slot);
            a.z = k3D ? hn::LoadU(d, f.z + slot) : hn::Zero(d);
            a.slot = hn::Add(hn::Set(di, static_cast<TI>(slot)), lane_index);
            if (k3D && !general) {
                bound_lanes<k3D>(d, count, f.c.visual, a);
            }
            if constexpr (kView != 0) {
                view_lanes<k3D>(d, f, slot, count, a);
            }
            NeighbourSums<D> s(d);
            if constexpr ((kView & view_sight) != 0) {
                for (std::size_t l = 0; l < lanes; ++l) {
                    const classic::LookAhead none;
                    sight.ahead_d2[l] = none.d2;
                    sight.ahead_index[l] = none.index;
                    sight.ahead_cross[l] = none.cross;
                }
                hn::Store(a.x, d, sight.x);
                hn::Store(a.y, d, sight.y);
                hn::Store(a.vx, d, sight.vx);
                hn::Store(a.vy, d, sight.vy);
                a.sight = &sight;
            }
            add_tile_candidates<kWrap, kView, k3D>(d, f, general, layer, row, col0, col1, slot, count, a, s);
            if constexpr ((kView & view_sight) != 0) {
                sight_settle(d, f, sight);
            }
            PredatorSubset near;
            if (choose_predators) {
                AxisExtent along[3];
                for (std::size_t l = 0; l < count; ++l) {
                    along[0].add(static_cast<double>(f.x[slot + l]));
                    along[1].add(static_cast<double>(f.y[slot + l]));
                    if constexpr (k3D) {
                        along[2].add(static_cast<double>(f.z[slot + l]));
                    }
                }
                near.index = near_lanes.data();
                near.count = lane_predators<kWrap, k3D>(f, line_along, along[0], along[1], along[2],
                                                        near_lanes.data());
            }
            finish_agents<kWrap, k3D>(d, f, slot, count, start[f.nx], a, s,
                                      (kView & view_sight) != 0 ? &sight : nullptr, near);
            slot = end;
        }
        if (f.new_cell != nullptr) {
            bin_line<k3D>(f, start, layer, row);
        }
    }
}

/// The kernel for the world's dimensions.
template <bool kWrap, unsigned kView, class Real>
void lines_with(const FlockInCellOrder<Real>& f, bool general, int line_begin, int line_end) {
    if constexpr ((kView & view_sight) != 0) { // planar only
        lines_impl<kWrap, kView, false>(f, general, line_begin, line_end);
    } else {
        f.c.three_d ? lines_impl<kWrap, kView, true>(f, general, line_begin, line_end)
                    : lines_impl<kWrap, kView, false>(f, general, line_begin, line_end);
    }
}

/// The kernel for the world's view (field of view, line of sight) and dimensions, on a torus or not.
template <bool kWrap, class Real>
void lines(const FlockInCellOrder<Real>& f, int line_begin, int line_end) {
    // The general candidate test is needed only when the protected range exceeds the visual range, or
    // is zero (then the agent's own pair must be excluded explicitly).
    const bool general = !(f.c.protected2 <= f.c.visual2) || !(f.c.protected2 > Real(0));
    const bool sight = f.c.line_of_sight && !f.c.three_d; // (validation keeps it planar)
    if (f.c.fov_limited) {
        sight ? lines_with<kWrap, view_fov | view_sight>(f, general, line_begin, line_end)
              : lines_with<kWrap, view_fov>(f, general, line_begin, line_end);
    } else {
        sight ? lines_with<kWrap, view_sight>(f, general, line_begin, line_end)
              : lines_with<kWrap, 0>(f, general, line_begin, line_end);
    }
}

} // namespace HWY_NAMESPACE
} // namespace boids::fast
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
