#include "boids/detail/spatial_grid.hpp"

#include "boids/detail/cell_bounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace boids {
namespace {

World<double> scattered(int n, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    World<double> w;
    for (int i = 0; i < n; ++i) {
        w.add(i % 10 == 0 ? Kind::Predator : Kind::Boid, u(rng), u(rng), 1.0, 0.0, 0.0);
    }
    return w;
}

/// Every agent within `range` of agent i (brute force), by world index.
std::set<std::uint32_t> truth(const World<double>& w, std::size_t i, double range, bool wrap, double side,
                              bool predators) {
    std::set<std::uint32_t> out;
    for (std::size_t j = 0; j < w.size(); ++j) {
        if ((w.kind[j] == Kind::Predator) != predators) {
            continue;
        }
        double dx = std::abs(w.x[i] - w.x[j]), dy = std::abs(w.y[i] - w.y[j]);
        if (wrap) {
            dx = std::min(dx, side - dx);
            dy = std::min(dy, side - dy);
        }
        if (dx < range && dy < range) {
            out.insert(static_cast<std::uint32_t>(j));
        }
    }
    return out;
}

void expect_queries_cover_range(const World<double>& w, double range, bool wrap, double side) {
    for (const bool predators : {false, true}) {
        SpatialGrid<double> grid;
        grid.build(w, predators ? GridMembers::Predators : GridMembers::Flocking, range, wrap, side, side, 2);
        for (std::size_t i = 0; i < w.size(); ++i) {
            std::set<std::uint32_t> seen;
            std::vector<std::uint32_t> order;
            grid.for_each_candidate(w.x[i], w.y[i], [&](std::uint32_t s) {
                EXPECT_TRUE(seen.insert(grid.agent(s)).second) << "slot visited twice";
                order.push_back(grid.agent(s));
                EXPECT_EQ(grid.x(s), w.x[grid.agent(s)]);
            });
            for (std::uint32_t j : truth(w, i, range, wrap, side, predators)) {
                ASSERT_TRUE(seen.count(j)) << "agent " << j << " within range of " << i << " not visited";
            }
        }
    }
}

TEST(SpatialGrid, QueriesFindEveryAgentWithinRange) {
    expect_queries_cover_range(scattered(600, 0, 500, 1), 40, false, 500);
}

TEST(SpatialGrid, WrapQueriesFindNeighboursAcrossTheSeam) {
    expect_queries_cover_range(scattered(600, 0, 500, 2), 40, true, 500);
    // Fewer than three cells per line: every line is visited once.
    expect_queries_cover_range(scattered(50, 0, 100, 3), 40, true, 100);
    expect_queries_cover_range(scattered(50, 0, 100, 4), 60, true, 100);
}

TEST(SpatialGrid, FarOutliersDoNotBreakTheGridOrItsMemory) {
    World<double> w = scattered(400, 0, 500, 5);
    w.add(Kind::Boid, -1e7, 3e6, 0, 0, 0);
    w.add(Kind::Boid, -1e7 + 10, 3e6 + 5, 0, 0, 0); // a far pair still sees each other
    w.add(Kind::Boid, 2e7, -4e7, 0, 0, 0);
    expect_queries_cover_range(w, 40, false, 500);
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 40, false, 500, 500, 1);
    EXPECT_LE(static_cast<double>(grid.columns()) * grid.rows(), 2.0 * 4.0 * w.size() + 64)
        << "cell count must stay proportional to the agent count";
    EXPECT_GE(grid.cell_width(), 40.0);
}

TEST(SpatialGrid, CellsKeepWorldOrder) {
    World<double> w;
    for (int i = 0; i < 10; ++i) {
        w.add(Kind::Boid, 5.0, 5.0, 0, 0, 0); // all in one cell
    }
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 10, false, 100, 100, 2);
    std::vector<std::uint32_t> order;
    grid.for_each_candidate(5.0, 5.0, [&](std::uint32_t s) { order.push_back(grid.agent(s)); });
    EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
    EXPECT_EQ(order.size(), 10u);
}

// A grid of few members (the predators' grid, built from a list of its members) is the grid the same
// members make as a world of their own (built by the parallel sort over every agent): the same cells, the
// same slots in the same order, the same copies of their state; in 2D and 3D, margin and wrap, any threads.
TEST(SpatialGrid, FewMembersMakeTheGridTheyMakeAlone) {
    for (const bool three_d : {false, true}) {
        for (const bool wrap : {false, true}) {
            for (const std::size_t predators : {std::size_t{0}, std::size_t{1}, std::size_t{37}}) {
                std::mt19937 rng(
                    static_cast<unsigned>(11 + predators + (wrap ? 100 : 0) + (three_d ? 200 : 0)));
                std::uniform_real_distribution<double> u(0.0, 400.0), v(-3.0, 3.0);
                World<double> world, alone;
                std::vector<std::uint32_t> member;
                for (std::size_t i = 0; i < 2000; ++i) {
                    const bool predator = i % 53 == 7 && member.size() < predators;
                    const Kind kind = predator ? Kind::Predator : Kind::Boid;
                    const double x = u(rng), y = u(rng), z = u(rng), vx = v(rng), vy = v(rng), vz = v(rng);
                    if (three_d) {
                        world.add_3d(kind, x, y, z, vx, vy, vz, 0.0);
                    } else {
                        world.add(kind, x, y, vx, vy, 0.0);
                    }
                    if (predator) {
                        member.push_back(static_cast<std::uint32_t>(i));
                        if (three_d) {
                            alone.add_3d(Kind::Boid, x, y, z, vx, vy, vz, 0.0);
                        } else {
                            alone.add(Kind::Boid, x, y, vx, vy, 0.0);
                        }
                    }
                }
                ASSERT_EQ(member.size(), predators);
                const double depth = three_d ? 400.0 : 0.0;
                for (const int threads : {1, 2}) {
                    SpatialGrid<double> few, reference;
                    few.build(world, GridMembers::Predators, 60, wrap, 400, 400, depth, threads);
                    reference.build(alone, GridMembers::Flocking, 60, wrap, 400, 400, depth, threads);
                    ASSERT_EQ(few.size(), predators);
                    ASSERT_EQ(few.columns(), reference.columns());
                    ASSERT_EQ(few.rows(), reference.rows());
                    const auto starts = few.cell_starts(), expected = reference.cell_starts();
                    ASSERT_TRUE(std::equal(starts.begin(), starts.end(), expected.begin(), expected.end()));
                    for (std::uint32_t s = 0; s < few.size(); ++s) {
                        EXPECT_EQ(few.agent(s), member[reference.agent(s)]) << "slot " << s;
                        EXPECT_EQ(few.x(s), reference.x(s));
                        EXPECT_EQ(few.y(s), reference.y(s));
                        EXPECT_EQ(few.z(s), reference.z(s));
                        EXPECT_EQ(few.vx(s), reference.vx(s));
                        EXPECT_EQ(few.vy(s), reference.vy(s));
                        EXPECT_EQ(few.vz(s), reference.vz(s));
                    }
                }
            }
        }
    }
}

// The cells follow the member count, never the space the agents span: agents strung out along one axis
// far apart (which a state file can ask for) once made a grid of millions of cells, then gigabytes.
TEST(SpatialGrid, CellsStayNearTheMemberCountHoweverFarAgentsSpread) {
    for (const double spread : {1e6, 1e16, 1e30}) {
        World<double> w;
        w.add(Kind::Boid, -spread, 240.0, 1.0, 0.0, 0.0);
        w.add(Kind::Boid, spread, 240.0, 1.0, 0.0, 0.0);
        w.add(Kind::Boid, 0.0, 240.0, 1.0, 0.0, 0.0);
        SpatialGrid<double> grid;
        grid.build(w, GridMembers::Flocking, 40.0, false, 640.0, 480.0, 0.0, 1);
        EXPECT_LE(static_cast<double>(grid.columns()) * grid.rows(), 8.0 * 16) << spread;
        std::size_t found = 0;
        grid.for_each_candidate(0.0, 240.0, [&](std::uint32_t) { ++found; });
        EXPECT_GE(found, 1u) << spread;
        // The same in 3D and on a torus much longer than wide.
        w.z.assign(3, 100.0);
        w.vz.assign(3, 0.0);
        grid.build(w, GridMembers::Flocking, 40.0, false, 640.0, 480.0, 480.0, 1);
        EXPECT_LE(static_cast<double>(grid.columns()) * grid.rows() * grid.layers(), 8.0 * 16) << spread;
    }
    World<double> w;
    w.add(Kind::Boid, 1.0, 1.0, 1.0, 0.0, 0.0);
    SpatialGrid<double> grid;
    grid.build(w, GridMembers::Flocking, 1e-3, true, 1e7, 1.0, 0.0, 1);
    EXPECT_LE(static_cast<double>(grid.columns()) * grid.rows(), 8.0 * 16);
}

// A grid without a range (the topological model's) on an open plane has about one member per cell, as on a
// torus: its cell once started at the smallest double, the count of such cells overflowed to infinity, and
// the grid came out as one cell, so that every k-nearest query read the whole flock.
TEST(SpatialGrid, AGridWithoutARangeHasAboutOneMemberPerCellOnAnOpenPlane) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, 1000.0);
    World<float> w;
    for (int i = 0; i < 3000; ++i) {
        w.add(Kind::Boid, static_cast<float>(u(rng)), static_cast<float>(u(rng)), 1, 0, 0);
    }
    for (const bool wrap : {false, true}) {
        SpatialGrid<float> grid;
        grid.build(w, GridMembers::Flocking, 0.0, wrap, 1000.0, 1000.0, 1);
        const double cells = static_cast<double>(grid.columns()) * grid.rows();
        EXPECT_GE(cells, 3000.0 / 2) << wrap;
        EXPECT_LE(cells, 3000.0 * 1.2) << wrap;
    }
    World<float> line; // all on one line: one axis has no span
    for (int i = 0; i < 1000; ++i) {
        line.add(Kind::Boid, static_cast<float>(i), 5.0f, 1, 0, 0);
    }
    SpatialGrid<float> grid;
    grid.build(line, GridMembers::Flocking, 0.0, false, 1000.0, 1000.0, 1);
    EXPECT_GE(grid.columns(), 500);
    EXPECT_EQ(grid.rows(), 1);
    // 3D too.
    w.z.resize(w.size());
    w.vz.assign(w.size(), 0.0f);
    for (float& z : w.z) {
        z = static_cast<float>(u(rng));
    }
    grid.build(w, GridMembers::Flocking, 0.0, false, 1000.0, 1000.0, 1000.0, 1);
    const double boxes = static_cast<double>(grid.columns()) * grid.rows() * grid.layers();
    EXPECT_GE(boxes, 3000.0 / 3);
    EXPECT_LE(boxes, 3000.0 * 1.2);
}

/// Every slot of a grid lies in the cell SpatialGrid's formula gives its position (unclamped_line, clamped),
/// with agents placed on every boundary between two lines and one unit in the last place below it, where
/// binning by a guess and a table of boundaries could go wrong by a line.
template <class Real>
void expect_cells_by_the_formula(bool wrap) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 500.0);
    World<Real> w;
    for (int i = 0; i < 3000; ++i) {
        w.add(Kind::Boid, static_cast<Real>(u(rng)), static_cast<Real>(u(rng)), 1, 0, 0);
    }
    w.add(Kind::Boid, 0, 0, 1, 0, 0); // the box's corner: margin mode's origin is 0 too
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, 40, wrap, 500, 500, 2);
    const double cell_w = grid.cell_width(), cell_h = grid.cell_height();
    for (int c = 1; c < grid.columns(); ++c) {
        const Real x = detail::line_lower_bound<Real>(0.0, cell_w, c);
        w.add(Kind::Boid, x, static_cast<Real>(u(rng)), 1, 0, 0);
        w.add(Kind::Boid, std::nextafter(x, Real(-1)), static_cast<Real>(u(rng)), 1, 0, 0);
    }
    for (int r = 1; r < grid.rows(); ++r) {
        const Real y = detail::line_lower_bound<Real>(0.0, cell_h, r);
        w.add(Kind::Boid, static_cast<Real>(u(rng)), y, 1, 0, 0);
        w.add(Kind::Boid, static_cast<Real>(u(rng)), std::nextafter(y, Real(-1)), 1, 0, 0);
    }
    const int columns = grid.columns(), rows = grid.rows();
    grid.build(w, GridMembers::Flocking, 40, wrap, 500, 500, 2);
    ASSERT_EQ(grid.columns(), columns);
    ASSERT_EQ(grid.rows(), rows);
    ASSERT_EQ(grid.cell_width(), cell_w);
    const auto line = [](double p, double cell, int n) {
        return static_cast<int>(std::clamp(detail::unclamped_line(p, 0.0, cell), 0.0, n - 1.0));
    };
    const std::span<const std::uint32_t> start = grid.cell_starts();
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            const std::size_t cell =
                static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c);
            for (std::uint32_t s = start[cell]; s < start[cell + 1]; ++s) {
                ASSERT_EQ(line(static_cast<double>(grid.x(s)), cell_w, columns), c) << grid.x(s);
                ASSERT_EQ(line(static_cast<double>(grid.y(s)), cell_h, rows), r) << grid.y(s);
            }
        }
    }
    EXPECT_EQ(grid.size(), w.size());
}

TEST(SpatialGrid, AgentsOnACellBoundaryGoWhereTheFormulaPutsThem) {
    expect_cells_by_the_formula<float>(true);
    expect_cells_by_the_formula<float>(false);
    expect_cells_by_the_formula<double>(true);
    expect_cells_by_the_formula<double>(false);
}

// lines_box answers by comparisons what query_key computes: a position lies in the box of lines (c, r)
// exactly when its key is (c, r). Probed at every line's edge (the positions just below and at it) and at
// random, on a torus (where a position just below the side may reach the line past the last) and on an
// open plane (whose grid covers the flock's box).
template <class Real>
void expect_lines_held_as_keyed(bool wrap) {
    const double side = 100.0;
    World<Real> w;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, side);
    for (int i = 0; i < 500; ++i) {
        w.add(Kind::Boid, Real(u(rng)), Real(u(rng)), Real(1), Real(0), Real(0));
    }
    w.add(Kind::Boid, std::nextafter(Real(side), Real(0)), std::nextafter(Real(side), Real(0)), Real(1),
          Real(0), Real(0));
    SpatialGrid<Real> grid;
    grid.build(w, GridMembers::Flocking, 3.0, wrap, side, side, 1);
    std::vector<Real> probes;
    const double cell_w = grid.cell_width();
    for (int c = 0; c <= grid.columns(); ++c) {
        const auto at = Real(grid.geometry().origin_x + c * cell_w);
        for (Real p : {std::nextafter(at, Real(-1e30)), at, std::nextafter(at, Real(1e30))}) {
            probes.push_back(p);
            probes.push_back(std::nextafter(p, Real(-1e30)));
        }
    }
    for (int i = 0; i < 200; ++i) {
        probes.push_back(Real(u(rng)));
    }
    int held = 0;
    for (const Real x : probes) {
        for (const Real y : {probes[static_cast<std::size_t>(held) % probes.size()], Real(u(rng))}) {
            const std::array<double, 3> key = grid.query_key(x, y, Real(0));
            for (int dc = -1; dc <= 1; ++dc) {
                for (int dr = -1; dr <= 1; ++dr) {
                    const int c = static_cast<int>(key[0]) + dc, r = static_cast<int>(key[1]) + dr;
                    if (c < 0 || r < 0 || c >= grid.columns() || r >= grid.rows()) {
                        continue;
                    }
                    const bool keyed = key[0] == c && key[1] == r;
                    const auto box = grid.lines_box(c, r);
                    ASSERT_EQ(box.known && box.holds(x, y), keyed)
                        << x << ", " << y << " on " << c << ", " << r;
                    held += keyed ? 1 : 0;
                }
            }
        }
    }
    EXPECT_GT(held, 100);
}

TEST(SpatialGrid, HeldLinesAreTheQueryKeys) {
    expect_lines_held_as_keyed<float>(true);
    expect_lines_held_as_keyed<float>(false);
    expect_lines_held_as_keyed<double>(true);
    expect_lines_held_as_keyed<double>(false);
}

// The ring search visits each cell exactly `ring` cells away (Chebyshev, wrapped on a torus) once, in the
// documented order: layers, rows, then columns, each by ascending offset (ascending line where the ring
// wraps onto itself). Other searches sum in this order, so it must not change when the search skips the
// cells inside a ring.
TEST(SpatialGrid, RingsVisitEachCellOnceInTheirOrder) {
    for (const bool three_d : {false, true}) {
        for (const bool wrap : {false, true}) {
            for (const int n : {1, 2, 3, 4, 5, 7, 10}) {
                const detail::GridGeometry g{0.0, 0.0, 1.0, 1.0, n, n + 1, 0.0, 1.0, three_d ? n : 1};
                const int nz = three_d ? n : 1;
                // Every line of `count` within `ring` of `c` with its distance, as for_lines_within lists
                // them, written out from its contract.
                const auto lines = [&](int c, int ring, int count) {
                    std::vector<std::pair<int, int>> out;
                    if (wrap && 2 * ring + 1 >= count) {
                        for (int line = 0; line < count; ++line) {
                            const int d = std::abs(line - c);
                            out.emplace_back(line, std::min(d, count - d));
                        }
                        return out;
                    }
                    for (int offset = -ring; offset <= ring; ++offset) {
                        const int line = wrap ? (c + offset + count) % count : c + offset;
                        if (line >= 0 && line < count) {
                            out.emplace_back(line, std::abs(offset));
                        }
                    }
                    return out;
                };
                for (const double px : {0.5, 1.5, n - 0.5}) {
                    for (const int ring : {0, 1, 2, 3, 6}) {
                        std::vector<std::size_t> expected;
                        const int line = static_cast<int>(px); // clamped to each axis's lines
                        const int cx = std::min(line, n - 1), cy = std::min(line, n);
                        const int cz = three_d ? std::min(line, nz - 1) : 0;
                        for (const auto& [layer, dl] : lines(cz, three_d ? ring : 0, nz)) {
                            for (const auto& [row, dr] : lines(cy, ring, n + 1)) {
                                for (const auto& [col, dc] : lines(cx, ring, n)) {
                                    if (std::max({dc, dr, three_d ? dl : 0}) == ring) {
                                        expected.push_back(
                                            (static_cast<std::size_t>(layer) * (n + 1) + row) * n + col);
                                    }
                                }
                            }
                        }
                        std::vector<std::size_t> visited;
                        const bool any =
                            detail::for_each_cell_in_ring(g, wrap, three_d, px, px, three_d ? px : 0.0, ring,
                                                          [&](std::size_t cell) { visited.push_back(cell); });
                        EXPECT_EQ(visited, expected) << "n " << n << " wrap " << wrap << " 3D " << three_d
                                                     << " ring " << ring << " at " << px;
                        EXPECT_EQ(any, !expected.empty());
                    }
                }
            }
        }
    }
}

TEST(SpatialGrid, RingRunsHoldTheRingsSlotsInOrder) {
    // for_each_run_in_ring (the k-nearest search's) gives the slots of for_each_in_ring, in its order, as
    // non-empty runs that merge the cells whose slots follow one another.
    for (const bool wrap : {false, true}) {
        const World<double> w = scattered(400, 0.0, 20.0, wrap ? 5u : 6u);
        SpatialGrid<double> grid;
        grid.build(w, GridMembers::Flocking, 0.0, wrap, 20.0, 20.0, 2); // about one agent per cell
        for (std::size_t i = 0; i < w.size(); i += 7) {
            for (int ring = 0; ring < 30; ++ring) {
                std::vector<std::uint32_t> slots, from_runs;
                std::size_t runs = 0, cells = 0;
                const bool any = grid.for_each_in_ring(w.x[i], w.y[i], 0.0, ring,
                                                       [&](std::uint32_t s) { slots.push_back(s); });
                detail::for_each_cell_in_ring(grid.geometry(), wrap, false, w.x[i], w.y[i], 0.0, ring,
                                              [&](std::size_t) { ++cells; });
                const bool any_run = grid.for_each_run_in_ring(w.x[i], w.y[i], 0.0, ring,
                                                               [&](std::uint32_t b, std::uint32_t e) {
                                                                   ASSERT_LT(b, e);
                                                                   ++runs;
                                                                   for (std::uint32_t s = b; s < e; ++s) {
                                                                       from_runs.push_back(s);
                                                                   }
                                                               });
                EXPECT_EQ(any_run, any);
                EXPECT_EQ(from_runs, slots) << "agent " << i << " ring " << ring << " wrap " << wrap;
                EXPECT_LE(runs, std::max<std::size_t>(cells, 1));
                if (!any) {
                    break;
                }
            }
        }
    }
}

} // namespace
} // namespace boids
