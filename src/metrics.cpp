#include "boids/metrics.hpp"

#include "boids/fix15.hpp"

#include "boids/detail/spatial_grid.hpp"
#include "boids/error.hpp"
#include "concurrent_union_find.hpp"
#include "metrics_kernel.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <omp.h>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace boids {

namespace {

constexpr double pi = 3.14159265358979323846;

/// Agents per block of the parallel sums. The blocks depend on the agent count only, and their partial
/// sums are added in block order, so every sum is the same bits for any thread count (and whichever thread
/// takes a block: they are handed out as threads come free, so that a thread the system holds up does not
/// hold the others up).
constexpr std::size_t sum_block = 8192;

/// Sums `count` terms in fixed blocks on `threads` threads: `add(begin, end, partial)` adds the terms
/// [begin, end) of a block, in order, into its partial (a default-constructed Partial), `merge(total,
/// partial)` adds the partials in block order.
template <class Partial, class Add, class Merge>
Partial block_sum(std::size_t count, int threads, Add&& add, Merge&& merge) {
    const std::size_t blocks = (count + sum_block - 1) / sum_block;
    std::vector<Partial> partials(blocks);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::size_t b = 0; b < blocks; ++b) {
        // Summed on this thread's stack, then stored: neighbouring partials share cache lines, which two
        // threads adding into them at once would pass back and forth at every term.
        Partial partial{};
        add(b * sum_block, std::min(count, (b + 1) * sum_block), partial);
        partials[b] = partial;
    }
    Partial total{};
    for (const Partial& p : partials) {
        merge(total, p);
    }
    return total;
}

double min_image(double d, double length) {
    if (d > 0.5 * length) {
        return d - length;
    }
    if (d < -0.5 * length) {
        return d + length;
    }
    return d;
}

const std::array<std::string_view, 10> names{"polarization", "milling",   "nnd_mean",   "groups",
                                             "speed_mean",   "speed_std", "frac_right", "frac_left",
                                             "accuracy",     "side_right"};

} // namespace

namespace {

/// A vector's length in the run summary: the planar hypot in 2D (the bits the summary always had), else
/// the 3D norm.
double norm(double x, double y, double z, bool solid) {
    return solid ? std::sqrt(x * x + y * y + z * z) : std::hypot(x, y);
}

/// A vector's length in the metrics, sqrt(x^2 + y^2 + z^2) (z is 0 in a plane). Not std::hypot: the
/// coordinates are far from overflowing a double's squares, and at 1M agents hypot's care cost more than
/// the rest of the O(N) sums.
double length(double x, double y, double z) {
    return std::sqrt(x * x + y * y + z * z);
}

} // namespace

template <class Real>
FlockSummary summarize(const World<Real>& world) {
    FlockSummary summary;
    double speed_sum = 0.0, ux = 0.0, uy = 0.0, uz = 0.0;
    long long count = 0;
    const bool solid = world.has_depth();
    for (std::size_t i = 0; i < world.size(); ++i) {
        const double x = static_cast<double>(world.x[i]), y = static_cast<double>(world.y[i]);
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        const double z = solid ? static_cast<double>(world.z[i]) : 0.0;
        const double vz = solid ? static_cast<double>(world.vz[i]) : 0.0;
        if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(vx) || !std::isfinite(vy) ||
            !std::isfinite(z) || !std::isfinite(vz) || !std::isfinite(static_cast<double>(world.bias[i]))) {
            summary.finite = false;
        }
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double speed = norm(vx, vy, vz, solid);
        speed_sum += speed;
        if (speed > 0.0) {
            ux += vx / speed;
            uy += vy / speed;
            uz += vz / speed;
        }
        ++count;
    }
    if (count > 0) {
        summary.mean_speed = speed_sum / static_cast<double>(count);
        summary.polarization = norm(ux, uy, uz, solid) / static_cast<double>(count);
    }
    return summary;
}

namespace {

/// The world's extent, for minimum-image distances on a torus.
struct Geometry {
    double width, height, depth;
};

/// The squared distance between two grid slots (minimum image when `Wrap`; z only when `Solid`).
template <bool Wrap, bool Solid, class Real>
double separation2(const SpatialGrid<Real>& grid, const Geometry& g, std::uint32_t sa, std::uint32_t sb) {
    double dx = static_cast<double>(grid.x(sb)) - static_cast<double>(grid.x(sa));
    double dy = static_cast<double>(grid.y(sb)) - static_cast<double>(grid.y(sa));
    double dz = Solid ? static_cast<double>(grid.z(sb)) - static_cast<double>(grid.z(sa)) : 0.0;
    if constexpr (Wrap) {
        dx = min_image(dx, g.width);
        dy = min_image(dy, g.height);
        if constexpr (Solid) {
            dz = min_image(dz, g.depth);
        }
    }
    return Solid ? dx * dx + dy * dy + dz * dz : dx * dx + dy * dy;
}

/// The squared distance from slot `sa` to its nearest other slot in the 3 x 3 (x 3) cells around it
/// (infinity if none); unites `sa` with every later slot closer than the link range on the way.
template <bool Wrap, bool Solid, class Real, class Sets>
double nearest_candidate(const SpatialGrid<Real>& grid, const Geometry& g, std::uint32_t sa, double link2,
                         Sets& sets) {
    double best = std::numeric_limits<double>::infinity();
    grid.for_each_candidate(grid.x(sa), grid.y(sa), grid.z(sa), [&](std::uint32_t s) {
        const double d2 = separation2<Wrap, Solid>(grid, g, sa, s);
        if (s != sa) {
            best = std::min(best, d2);
        }
        if (s > sa && d2 < link2) {
            sets.unite(sa, s);
        }
    });
    return best;
}

/// The O(N) sums of the metrics over a block of agents.
struct Sums {
    double cx = 0.0, cy = 0.0, cz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, speed_sum = 0.0, speed_sq = 0.0;
    long long count = 0, boids = 0, right = 0, left = 0, any_right = 0, any_left = 0, side = 0, any_side = 0;
};

/// Adds the agents [begin, end) into the sums: positions, unit velocities, speeds, and the counts behind
/// the scouts' decision (those moving right or left, those on the right half). In a plane (Solid false) the
/// z sums are left at +0.0, which is what adding each agent's z = 0 and 0 / speed would leave them at.
template <bool Solid, class Real>
void add_sums(const World<Real>& world, std::size_t begin, std::size_t end, double middle, Sums& s) {
    for (std::size_t i = begin; i < end; ++i) {
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        const double vz = Solid ? static_cast<double>(world.vz[i]) : 0.0;
        const double speed = length(vx, vy, vz);
        s.cx += static_cast<double>(world.x[i]);
        s.cy += static_cast<double>(world.y[i]);
        if constexpr (Solid) {
            s.cz += static_cast<double>(world.z[i]);
        }
        s.speed_sum += speed;
        s.speed_sq += speed * speed;
        if (speed > 0.0) {
            s.ux += vx / speed;
            s.uy += vy / speed;
            if constexpr (Solid) {
                s.uz += vz / speed;
            }
        }
        s.any_right += vx > 0.0 ? 1 : 0;
        s.any_left += vx < 0.0 ? 1 : 0;
        const bool on_right = static_cast<double>(world.x[i]) > middle;
        s.any_side += on_right ? 1 : 0;
        if (world.kind[i] == Kind::Boid) {
            ++s.boids;
            s.side += on_right ? 1 : 0;
            s.right += vx > 0.0 ? 1 : 0;
            s.left += vx < 0.0 ? 1 : 0;
        }
        ++s.count;
    }
}

/// The milling sums: the angular momentum of unit vectors about the centroid (cx, cy, cz), r_hat x u_hat.
using Mill = std::array<double, 3>;

/// Adds the agents [begin, end) into the milling sums. In a plane only the z component, s[0], is summed:
/// the others' terms there are +0.0 or -0.0, which leave a sum at +0.0 where it starts.
template <bool Solid, class Real>
void add_mill(const World<Real>& world, std::size_t begin, std::size_t end, double cx, double cy, double cz,
              Mill& s) {
    for (std::size_t i = begin; i < end; ++i) {
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double rx = static_cast<double>(world.x[i]) - cx, ry = static_cast<double>(world.y[i]) - cy;
        const double rz = Solid ? static_cast<double>(world.z[i]) - cz : 0.0;
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        const double vz = Solid ? static_cast<double>(world.vz[i]) : 0.0;
        const double r = length(rx, ry, rz), v = length(vx, vy, vz);
        if (r > 0.0 && v > 0.0) {
            s[0] += (rx * vy - ry * vx) / (r * v);
            if constexpr (Solid) {
                s[1] += (ry * vz - rz * vy) / (r * v);
                s[2] += (rz * vx - rx * vz) / (r * v);
            }
        }
    }
}

/// How the neighbour part of the metrics is computed: the SIMD kernel (metrics_kernel.cpp) or the plain
/// scan below, the readable reference it is tested against.
enum class NeighbourScan { Simd, Plain };

template <class Real>
Metrics metrics_of(const World<Real>& world, const Params& params, int threads, NeighbourScan how) {
    Metrics m;
    const int nthreads = threads > 0 ? threads : omp_get_max_threads();
    const bool wrap = params.boundary == Boundary::Wrap;

    // O(N) sums in fixed blocks of world order (block_sum), so that they are the same bits for any thread
    // count. In 3D (the world has z) every vector gains its z component; in 2D the planar formulas run
    // unchanged.
    const bool solid = world.has_depth();
    const double middle = 0.5 * params.width;
    const Sums sums = block_sum<Sums>(
        world.size(), nthreads,
        [&](std::size_t begin, std::size_t end, Sums& s) {
            solid ? add_sums<true>(world, begin, end, middle, s)
                  : add_sums<false>(world, begin, end, middle, s);
        },
        [](Sums& t, const Sums& s) {
            t.cx += s.cx, t.cy += s.cy, t.cz += s.cz, t.ux += s.ux, t.uy += s.uy, t.uz += s.uz;
            t.speed_sum += s.speed_sum, t.speed_sq += s.speed_sq;
            t.count += s.count, t.boids += s.boids, t.right += s.right, t.left += s.left;
            t.any_right += s.any_right, t.any_left += s.any_left, t.side += s.side, t.any_side += s.any_side;
        });
    if (sums.count == 0) {
        return m;
    }
    const double n = static_cast<double>(sums.count);
    const double cx = sums.cx / n, cy = sums.cy / n, cz = sums.cz / n;
    const double ux = sums.ux, uy = sums.uy, uz = sums.uz;
    m.polarization = length(ux, uy, uz) / n;
    m.speed_mean = sums.speed_sum / n;
    m.speed_std = std::sqrt(std::max(0.0, sums.speed_sq / n - m.speed_mean * m.speed_mean));
    // The scouts' decision (Adams' VGA scouts page, after Couzin et al.): where the uninformed majority
    // goes. Without plain boids, everyone counts.
    const bool has_boids = sums.boids > 0;
    const double deciders = static_cast<double>(has_boids ? sums.boids : sums.count);
    m.frac_right = static_cast<double>(has_boids ? sums.right : sums.any_right) / deciders;
    m.frac_left = static_cast<double>(has_boids ? sums.left : sums.any_left) / deciders;
    m.side_right = static_cast<double>(has_boids ? sums.side : sums.any_side) / deciders;
    m.accuracy = (ux == 0.0 && uy == 0.0 && uz == 0.0) ? 0.5
                 : solid ? 1.0 - std::atan2(std::hypot(uy, uz), ux) / pi // the angle to +x in space
                         : 1.0 - std::abs(std::atan2(uy, ux)) / pi;

    // Milling: the mean angular momentum of unit vectors about the centroid (in 3D the norm of the mean
    // vector r_hat x u_hat; in 2D only its z component exists).
    const Mill mill = block_sum<Mill>(
        world.size(), nthreads,
        [&](std::size_t begin, std::size_t end, Mill& s) {
            solid ? add_mill<true>(world, begin, end, cx, cy, cz, s)
                  : add_mill<false>(world, begin, end, cx, cy, cz, s);
        },
        [](Mill& t, const Mill& s) { t[0] += s[0], t[1] += s[1], t[2] += s[2]; });
    m.milling =
        (solid ? std::sqrt(mill[0] * mill[0] + mill[1] * mill[1] + mill[2] * mill[2]) : std::abs(mill[0])) /
        n;

    // Nearest neighbours and groups from one grid. Its range is the link range, widened to twice the mean
    // spacing so that nearly every agent finds its nearest neighbour in the 3 x 3 cells; the few that do
    // not (isolated agents) are searched by brute force, which is exact.
    const double link = link_range(params);
    double area = params.width * params.height;
    double z0 = 0.0, z1 = params.depth;
    if (!wrap) { // the flock's bounding box (min and max are exact in any order)
        double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
        z0 = x0;
        z1 = -x0;
#pragma omp parallel for num_threads(nthreads) schedule(static) reduction(min                                \
                                                                          : x0, y0, z0)                      \
    reduction(max                                                                                            \
              : x1, y1, z1)
        for (std::size_t i = 0; i < world.size(); ++i) {
            if (is_flocking(world.kind[i])) {
                x0 = std::min(x0, static_cast<double>(world.x[i]));
                x1 = std::max(x1, static_cast<double>(world.x[i]));
                y0 = std::min(y0, static_cast<double>(world.y[i]));
                y1 = std::max(y1, static_cast<double>(world.y[i]));
                z0 = std::min(z0, solid ? static_cast<double>(world.z[i]) : 0.0);
                z1 = std::max(z1, solid ? static_cast<double>(world.z[i]) : 0.0);
            }
        }
        area = (x1 - x0) * (y1 - y0);
    }
    // The mean spacing: in a plane, or in a volume (the world's, or the flock's bounding box).
    const double spacing = solid ? std::cbrt(area * (z1 - z0) / n) : std::sqrt(area / n);
    const double range = std::max({link, 2.0 * spacing, 1e-9});
    SpatialGrid<Real> grid;
    grid.build(world, GridMembers::Flocking, range, wrap, params.width, params.height,
               solid ? params.depth : 0.0, nthreads, /*positions_only=*/true);
    const std::size_t slots = grid.size();
    const double link2 = link * link, range2 = range * range;
    const Geometry geometry{params.width, params.height, params.depth};

    // Groups: every pair closer than the link range is united as it is found, in a union-find over the
    // grid's slots: O(N) memory, where a list of the pairs grows with N times the neighbours (gigabytes for
    // a dense flock). Slots are in cell order, so the sets a thread touches are mostly close in memory.
    // nearest2[a] is the squared distance from slot a to its nearest other slot (infinity if none).
    const std::unique_ptr<double[]> nearest2(new double[slots]);
    detail::ConcurrentUnionFind sets(slots);
    constexpr std::size_t simd_from = 64; // slots: below, the kernel's vectors would be mostly masked off
    const bool simd = std::is_floating_point_v<Real> && how == NeighbourScan::Simd && slots >= simd_from;

    // One pass sets up every slot: its own set, no nearest distance yet, and (for the kernel on a torus)
    // whether it lies inside the torus.
    constexpr int wide = 6;
    const bool check_inside =
        simd && wrap && grid.columns() >= wide && grid.rows() >= wide && (!solid || grid.layers() >= wide);
    const Real *const xs = grid.xs().data(), *const ys = grid.ys().data();
    const Real* const zs = solid ? grid.zs().data() : nullptr;
    const auto inside = [](Real v, double length) {
        return static_cast<double>(v) >= 0.0 && static_cast<double>(v) < length;
    };
    bool all_inside = check_inside;
#pragma omp parallel for num_threads(nthreads) schedule(static) reduction(&& : all_inside)
    for (std::size_t s = 0; s < slots; ++s) {
        sets.make_set(static_cast<std::uint32_t>(s));
        nearest2[s] = std::numeric_limits<double>::infinity();
        if (check_inside) {
            all_inside = all_inside && inside(xs[s], params.width) && inside(ys[s], params.height) &&
                         (zs == nullptr || inside(zs[s], params.depth));
        }
    }

    // The kernel's flock, when it scans: then agents with nothing in the grid's range are searched as their
    // distances are summed.
    std::optional<fast::MetricsFlock<Real>> flock;
    if constexpr (std::is_floating_point_v<Real>) { // fix15 worlds take the plain scan
        if (simd) {
            fast::MetricsFlock<Real>& f = flock.emplace();
            f.x = xs;
            f.y = ys;
            f.z = zs;
            f.cell_start = grid.cell_starts().data();
            f.slots = slots;
            f.nx = grid.columns();
            f.ny = grid.rows();
            f.nz = grid.layers();
            f.wrap = wrap;
            f.width = params.width;
            f.height = params.height;
            f.depth = params.depth;
            f.inside = all_inside;
            f.link2 = link2;
            f.range2 = range2;
            // The kernel meets each pair from one end and writes both ends' nearest2: the lines of a plane
            // (a row, or in 3D a layer) write that plane and the next. Planes go in chunks of two or more
            // consecutive ones: first every chunk's planes but its last, then every chunk's last plane, so
            // that no two threads ever write the same plane at once. In the first phase a chunk's links
            // stay within the chunk, so its thread owns their sets (plain loads and stores, and links to
            // slots already in the agent's set left out a vector at a time); the last planes link chunks
            // together, with compare-and-swap. Long chunks keep most of the work in the first phase;
            // several chunks a thread share the work out when a thread is slowed.
            const int planes = solid ? f.nz : f.ny, lines_per_plane = solid ? f.ny : 1;
            const int chunk = std::max(2, planes / (8 * nthreads));
            const int chunks = std::max(1, planes / chunk);
            for (int phase = 0; phase < 2; ++phase) {
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
                for (int k = 0; k < chunks; ++k) {
                    const int last = (k + 1 == chunks ? planes : chunk * (k + 1)) - 1;
                    const int begin = phase == 0 ? chunk * k : last, end = phase == 0 ? last : last + 1;
                    fast::metrics_lines(f, begin * lines_per_plane, end * lines_per_plane, phase == 0, sets,
                                        nearest2.get());
                }
            }
        }
    }
    const auto scan = [&]<bool Wrap, bool Solid>() {
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 256)
        for (std::size_t a = 0; a < slots; ++a) {
            const auto sa = static_cast<std::uint32_t>(a);
            double best = nearest_candidate<Wrap, Solid>(grid, geometry, sa, link2, sets);
            if (!(best < range2)) { // nothing within the grid's range: the 3 x 3 cells may miss the nearest
                for (std::uint32_t s = 0; s < slots; ++s) {
                    if (s != sa) {
                        best = std::min(best, separation2<Wrap, Solid>(grid, geometry, sa, s));
                    }
                }
            }
            nearest2[a] = best;
        }
    };
    if (!flock) {
        if (wrap) {
            solid ? scan.template operator()<true, true>() : scan.template operator()<true, false>();
        } else {
            solid ? scan.template operator()<false, true>() : scan.template operator()<false, false>();
        }
    }
    // The nearest distances summed per slot, and the sets counted by their roots.
    struct Nearest {
        double sum = 0.0;
        long long roots = 0;
    };
    const Nearest nearest = block_sum<Nearest>(
        slots, nthreads,
        [&](std::size_t begin, std::size_t end, Nearest& s) {
            for (std::size_t a = begin; a < end; ++a) {
                if constexpr (std::is_floating_point_v<Real>) {
                    if (flock && !(nearest2[a] < range2)) {
                        fast::metrics_isolated(*flock, a, a + 1, nearest2.get());
                    }
                }
                const double best = nearest2[a];
                s.sum += std::isfinite(best) ? std::sqrt(best) : 0.0;
                s.roots += sets.is_root(static_cast<std::uint32_t>(a)) ? 1 : 0;
            }
        },
        [](Nearest& t, const Nearest& s) { t.sum += s.sum, t.roots += s.roots; });
    m.nnd_mean = slots > 1 ? nearest.sum / static_cast<double>(slots) : 0.0;
    m.groups = nearest.roots;
    return m;
}

} // namespace

template <class Real>
Metrics compute_metrics(const World<Real>& world, const Params& params, int threads) {
    return metrics_of(world, params, threads, NeighbourScan::Simd);
}

template <class Real>
Metrics reference_metrics(const World<Real>& world, const Params& params, int threads) {
    return metrics_of(world, params, threads, NeighbourScan::Plain);
}

std::span<const std::string_view> metric_names() {
    return names;
}

double metric_value(const Metrics& m, std::string_view name) {
    if (name == "polarization")
        return m.polarization;
    if (name == "milling")
        return m.milling;
    if (name == "nnd_mean")
        return m.nnd_mean;
    if (name == "groups")
        return static_cast<double>(m.groups);
    if (name == "speed_mean")
        return m.speed_mean;
    if (name == "speed_std")
        return m.speed_std;
    if (name == "frac_right")
        return m.frac_right;
    if (name == "frac_left")
        return m.frac_left;
    if (name == "accuracy")
        return m.accuracy;
    if (name == "side_right")
        return m.side_right;
    std::string allowed;
    for (std::string_view n : names) {
        if (!allowed.empty()) {
            allowed += " | ";
        }
        allowed += n;
    }
    throw InputError(
        invalid_value_message("metric", "'" + std::string(name) + "'", "allowed values are " + allowed));
}

std::string metrics_csv_header() {
    return "step,polarization,milling,nnd_mean,groups,speed_mean,speed_std,frac_right,frac_left";
}

std::string metrics_csv_row(const Metrics& m) {
    using text::shortest;
    return std::to_string(m.step) + "," + shortest(m.polarization) + "," + shortest(m.milling) + "," +
           shortest(m.nnd_mean) + "," + std::to_string(m.groups) + "," + shortest(m.speed_mean) + "," +
           shortest(m.speed_std) + "," + shortest(m.frac_right) + "," + shortest(m.frac_left);
}

template FlockSummary summarize(const World<float>&);
template FlockSummary summarize(const World<double>&);
template FlockSummary summarize(const World<Fix15>&);

template Metrics compute_metrics(const World<float>&, const Params&, int);
template Metrics compute_metrics(const World<double>&, const Params&, int);
template Metrics compute_metrics(const World<Fix15>&, const Params&, int);
template Metrics reference_metrics(const World<float>&, const Params&, int);
template Metrics reference_metrics(const World<double>&, const Params&, int);
template Metrics reference_metrics(const World<Fix15>&, const Params&, int);

} // namespace boids
