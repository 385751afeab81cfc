#pragma once
// The neighbour sums of the Vicsek and Couzin fast passes with the agents in SIMD lanes, and Couzin's
// steering over a chunk of agents (its direction and turning limit, with couzin::Policy's arithmetic and
// its branches as selects) (internal). For the sums, a group of agents that share their candidates (the
// agents of a grid cell) takes one lane each, and every candidate is broadcast to all lanes in turn
// (lane_vectors-inl.h, on a lane_grid.hpp grid). Compiled once per instruction set by Highway and
// dispatched at run time, like the classic kernel.
//
// Each lane adds the terms the plain path adds, in its order (the candidates in the grid's order), with
// its arithmetic: the offset is heading::offset's (the neighbour's nearest image in the storage type,
// minus the agent, each widened to double), d2 = dx * dx + dy * dy without FMA, sqrt and division are
// IEEE's correctly rounded operations in lanes as in scalar code, and a lane a candidate does not reach
// keeps its sum as it was (not + 0, which would turn a -0 into +0). So each agent's sums are the plain
// path's to the bit.

#include "lane_grid.hpp"

#include <cstddef>
#include <cstdint>

namespace boids::fast {

/// How many agents the tiles of a lane-group pass hold (lane_group_pass.hpp) on the instruction set the
/// kernels dispatch to: two vectors' (16 on AVX-512, 8 on AVX2), 0 (a group per cell) below.
std::size_t tile_agents();

/// The agents in slots [first, first + count), all with the candidate runs `runs` (for a tile of several
/// cells' agents, the union of their runs, lane_group_pass.hpp).
struct LaneGroup {
    std::uint32_t first = 0, count = 0;
};

/// A group and its candidate runs as for_each_lane_group visits them, so that a chunk's groups can go to a
/// kernel in one call (which then makes its constants once for them all).
struct LaneGroupRuns {
    LaneGroup group;
    CandidateRuns runs;
};

/// Each of `count` velocities' unit heading as unit_heading (slot_order_pass.hpp) computes it: the speed
/// sqrt(vx^2 + vy^2), then vx / speed and vy / speed; (0, 0) where the speed is not above 0.
void unit_headings(const float* vx, const float* vy, std::uint32_t count, double* ux, double* uy);
void unit_headings(const double* vx, const double* vy, std::uint32_t count, double* ux, double* uy);

/// Vicsek's sums of unit headings, one entry per agent of a group: in, the agent's start (its own
/// heading); out, with the headings of its candidates in range (other than itself) added.
struct VicsekLaneSums {
    double *sx, *sy;
};

/// Adds to `sums` the unit headings (ux[c], uy[c]) of the candidates c of `runs` within grid.range2 of
/// each agent of `group` (vicsek::Policy::accumulate).
void vicsek_sums(const InRangeGrid<float>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums);
void vicsek_sums(const InRangeGrid<double>& grid, const double* ux, const double* uy, LaneGroup group,
                 const CandidateRuns& runs, const VicsekLaneSums& sums);

/// Couzin's zone sums (couzin::Policy::Sums), one entry per agent of a group; in, the agent's start; out,
/// with its candidates in range added. `repelled` is 0 or 1.
struct CouzinLaneSums {
    double *rx, *ry, *ax, *ay, *ox, *oy;
    std::uint8_t* repelled;
};

/// Adds each agent's candidates within grid.range2 (rho^2) to its zones as couzin::Policy::accumulate
/// does: on top (d2 = 0) skipped, within alpha2 repulsion, otherwise attraction and (when the neighbour
/// moves) its unit heading (ux[c], uy[c]).
void couzin_sums(const InRangeGrid<float>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums);
void couzin_sums(const InRangeGrid<double>& grid, double alpha2, const double* ux, const double* uy,
                 LaneGroup group, const CandidateRuns& runs, const CouzinLaneSums& sums);

/// What couzin::Policy::direction reads and writes for a chunk of agents, an entry each: the zones' sums,
/// whether repelled (1 or 0), the agent's heading and its preferred direction's x component (1, -1 or 0);
/// the unit direction it asks for (dx, dy, which may be the columns rx and ry: each entry is read before it
/// is written).
struct CouzinDirectionColumns {
    const double *rx, *ry, *ax, *ay, *ox, *oy, *repelled, *hx, *hy, *gx;
    double *dx, *dy;
};

/// couzin::Policy::direction for agents [0, n), with its arithmetic (its branches as selects).
void couzin_direction(const CouzinDirectionColumns& columns, double informed_weight, std::size_t n);

/// couzin::Policy::turned for agents [0, n): `turned[i]` from desired[i], current[i] and the sine and
/// cosine of desired - current.
void couzin_turned(const double* desired, const double* current, const double* sin, const double* cos,
                   double cos_turn, double turn_rate, std::size_t n, double* turned);

} // namespace boids::fast
