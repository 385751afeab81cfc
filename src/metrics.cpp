#include "boids/metrics.hpp"

#include "boids/fix15.hpp"

#include "boids/detail/spatial_grid.hpp"
#include "boids/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <omp.h>
#include <utility>
#include <vector>

namespace boids {

namespace {

constexpr double pi = 3.14159265358979323846;

/// Disjoint sets over agent slots, for counting groups, that threads link concurrently: one 32-bit parent
/// per slot (O(N) memory, whatever the number of linked pairs). A root is only ever linked under a smaller
/// index (compare-and-swap, so only while it is still a root) and path halving only moves a parent to an
/// ancestor, so parent[i] <= i always holds and no cycle can form. The number of sets is the number of
/// connected components of the links, whatever order the threads add them in: the count is deterministic.
class ConcurrentUnionFind {
public:
    ConcurrentUnionFind(std::size_t n, int threads)
        : parent_(std::make_unique<std::atomic<std::uint32_t>[]>(n)), size_(n) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::size_t i = 0; i < n; ++i) {
            parent_[i].store(static_cast<std::uint32_t>(i), std::memory_order_relaxed);
        }
    }

    std::uint32_t find(std::uint32_t a) {
        for (;;) {
            std::uint32_t p = parent_[a].load(std::memory_order_relaxed);
            if (p == a) {
                return a;
            }
            const std::uint32_t grand = parent_[p].load(std::memory_order_relaxed);
            if (grand != p) { // path halving; losing the race to another thread is harmless
                parent_[a].compare_exchange_weak(p, grand, std::memory_order_relaxed);
            }
            a = grand;
        }
    }

    void unite(std::uint32_t a, std::uint32_t b) {
        for (;;) {
            a = find(a);
            b = find(b);
            if (a == b) {
                return;
            }
            if (a < b) {
                std::swap(a, b);
            }
            std::uint32_t expected = a; // link the larger root under the smaller one if it is still a root
            if (parent_[a].compare_exchange_strong(expected, b, std::memory_order_relaxed)) {
                return;
            }
        }
    }

    /// The number of sets. Call after every unite has finished (outside the parallel region).
    [[nodiscard]] long long roots(int threads) const {
        long long count = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : count)
        for (std::size_t i = 0; i < size_; ++i) {
            count += parent_[i].load(std::memory_order_relaxed) == i ? 1 : 0;
        }
        return count;
    }

private:
    std::unique_ptr<std::atomic<std::uint32_t>[]> parent_;
    std::size_t size_;
};

/// Agents per block of the parallel sums. The blocks depend on the agent count only, and their partial
/// sums are added in block order, so every sum is the same bits for any thread count.
constexpr std::size_t sum_block = 8192;

/// Sums `count` terms in fixed blocks on `threads` threads: `add(i, partial)` adds term i into a block's
/// partial (a default-constructed Partial), `merge(total, partial)` adds the partials in block order.
template <class Partial, class Add, class Merge>
Partial block_sum(std::size_t count, int threads, Add&& add, Merge&& merge) {
    const std::size_t blocks = (count + sum_block - 1) / sum_block;
    std::vector<Partial> partials(blocks);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t end = std::min(count, (b + 1) * sum_block);
        for (std::size_t i = b * sum_block; i < end; ++i) {
            add(i, partials[b]);
        }
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

/// A vector's length: the planar hypot in 2D (the bits the planar metrics always had), else the 3D norm.
double norm(double x, double y, double z, bool solid) {
    return solid ? std::sqrt(x * x + y * y + z * z) : std::hypot(x, y);
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

} // namespace

template <class Real>
Metrics compute_metrics(const World<Real>& world, const Params& params, int threads) {
    Metrics m;
    const int nthreads = threads > 0 ? threads : omp_get_max_threads();
    const bool wrap = params.boundary == Boundary::Wrap;

    // O(N) sums in fixed blocks of world order (block_sum), so that they are the same bits for any thread
    // count. In 3D (the world has z) every vector gains its z component; in 2D the planar formulas run
    // unchanged.
    const bool solid = world.has_depth();
    const auto z_of = [&](std::size_t i) { return solid ? static_cast<double>(world.z[i]) : 0.0; };
    const auto vz_of = [&](std::size_t i) { return solid ? static_cast<double>(world.vz[i]) : 0.0; };
    const double middle = 0.5 * params.width;
    struct Sums {
        double cx = 0.0, cy = 0.0, cz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, speed_sum = 0.0, speed_sq = 0.0;
        long long count = 0, boids = 0, right = 0, left = 0, any_right = 0, any_left = 0, side = 0,
                  any_side = 0;
    };
    const Sums sums = block_sum<Sums>(
        world.size(), nthreads,
        [&](std::size_t i, Sums& s) {
            if (!is_flocking(world.kind[i])) {
                return;
            }
            const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
            const double vz = vz_of(i);
            const double speed = norm(vx, vy, vz, solid);
            s.cx += static_cast<double>(world.x[i]);
            s.cy += static_cast<double>(world.y[i]);
            s.cz += z_of(i);
            s.speed_sum += speed;
            s.speed_sq += speed * speed;
            if (speed > 0.0) {
                s.ux += vx / speed;
                s.uy += vy / speed;
                s.uz += vz / speed;
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
    m.polarization = norm(ux, uy, uz, solid) / n;
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
    using Mill = std::array<double, 3>;
    const Mill mill = block_sum<Mill>(
        world.size(), nthreads,
        [&](std::size_t i, Mill& s) {
            if (!is_flocking(world.kind[i])) {
                return;
            }
            const double rx = static_cast<double>(world.x[i]) - cx, ry = static_cast<double>(world.y[i]) - cy;
            const double rz = z_of(i) - cz;
            const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
            const double vz = vz_of(i);
            const double r = norm(rx, ry, rz, solid), v = norm(vx, vy, vz, solid);
            if (r > 0.0 && v > 0.0) {
                s[0] += (rx * vy - ry * vx) / (r * v);
                s[1] += (ry * vz - rz * vy) / (r * v);
                s[2] += (rz * vx - rx * vz) / (r * v);
            }
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
                z0 = std::min(z0, z_of(i));
                z1 = std::max(z1, z_of(i));
            }
        }
        area = (x1 - x0) * (y1 - y0);
    }
    // The mean spacing: in a plane, or in a volume (the world's, or the flock's bounding box).
    const double spacing = solid ? std::cbrt(area * (z1 - z0) / n) : std::sqrt(area / n);
    const double range = std::max({link, 2.0 * spacing, 1e-9});
    SpatialGrid<Real> grid;
    grid.build(world, GridMembers::Flocking, range, wrap, params.width, params.height,
               solid ? params.depth : 0.0, nthreads);
    const std::size_t slots = grid.size();
    const double link2 = link * link, range2 = range * range;
    const Geometry geometry{params.width, params.height, params.depth};

    // Groups: every pair closer than the link range is united as it is found (from its smaller slot), in
    // a union-find over the grid's slots: O(N) memory, where a list of the pairs grows with N times the
    // neighbours (gigabytes for a dense flock). Slots are in cell order, so the sets a thread touches are
    // mostly close in memory.
    std::vector<double> nearest(slots, 0.0);
    ConcurrentUnionFind sets(slots, nthreads);
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
            nearest[a] = std::isfinite(best) ? std::sqrt(best) : 0.0;
        }
    };
    if (wrap) {
        solid ? scan.template operator()<true, true>() : scan.template operator()<true, false>();
    } else {
        solid ? scan.template operator()<false, true>() : scan.template operator()<false, false>();
    }
    const double nnd_sum = block_sum<double>(
        slots, nthreads, [&](std::size_t a, double& s) { s += nearest[a]; },
        [](double& t, double s) { t += s; });
    m.nnd_mean = slots > 1 ? nnd_sum / static_cast<double>(slots) : 0.0;
    m.groups = sets.roots(nthreads);
    return m;
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

} // namespace boids
