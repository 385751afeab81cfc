#include "boids/metrics.hpp"

#include "boids/fix15.hpp"

#include "boids/error.hpp"
#include "boids/spatial_grid.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <omp.h>
#include <vector>

namespace boids {

namespace {

constexpr double pi = 3.14159265358979323846;

/// Disjoint sets over agent slots, for counting groups. The number of sets does not depend on the order
/// in which links are added, so the count is deterministic whatever the threads found first.
class UnionFind {
public:
    explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }

    std::uint32_t find(std::uint32_t a) {
        while (parent_[a] != a) {
            parent_[a] = parent_[parent_[a]]; // path halving
            a = parent_[a];
        }
        return a;
    }

    void unite(std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) {
            parent_[std::max(a, b)] = std::min(a, b);
        }
    }

    [[nodiscard]] long long roots() {
        long long count = 0;
        for (std::uint32_t i = 0; i < parent_.size(); ++i) {
            count += find(i) == i ? 1 : 0;
        }
        return count;
    }

private:
    std::vector<std::uint32_t> parent_;
};

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

template <class Real>
Metrics compute_metrics(const World<Real>& world, const Params& params, int threads) {
    Metrics m;
    const int nthreads = threads > 0 ? threads : omp_get_max_threads();
    const bool wrap = params.boundary == Boundary::Wrap;

    // O(N) sums, serial and in world order so that they are the same bits for any thread count.
    // In 3D (the world has z) every vector gains its z component; in 2D the planar formulas run unchanged.
    const bool solid = world.has_depth();
    const auto z_of = [&](std::size_t i) { return solid ? static_cast<double>(world.z[i]) : 0.0; };
    const auto vz_of = [&](std::size_t i) { return solid ? static_cast<double>(world.vz[i]) : 0.0; };
    double cx = 0.0, cy = 0.0, cz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, speed_sum = 0.0, speed_sq = 0.0;
    long long count = 0, boids = 0, right = 0, left = 0, any_right = 0, any_left = 0, side = 0, any_side = 0;
    const double middle = 0.5 * params.width;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        const double vz = vz_of(i);
        const double speed = norm(vx, vy, vz, solid);
        cx += static_cast<double>(world.x[i]);
        cy += static_cast<double>(world.y[i]);
        cz += z_of(i);
        speed_sum += speed;
        speed_sq += speed * speed;
        if (speed > 0.0) {
            ux += vx / speed;
            uy += vy / speed;
            uz += vz / speed;
        }
        any_right += vx > 0.0 ? 1 : 0;
        any_left += vx < 0.0 ? 1 : 0;
        const bool on_right = static_cast<double>(world.x[i]) > middle;
        any_side += on_right ? 1 : 0;
        if (world.kind[i] == Kind::Boid) {
            ++boids;
            side += on_right ? 1 : 0;
            right += vx > 0.0 ? 1 : 0;
            left += vx < 0.0 ? 1 : 0;
        }
        ++count;
    }
    if (count == 0) {
        return m;
    }
    const double n = static_cast<double>(count);
    cx /= n;
    cy /= n;
    cz /= n;
    m.polarization = norm(ux, uy, uz, solid) / n;
    m.speed_mean = speed_sum / n;
    m.speed_std = std::sqrt(std::max(0.0, speed_sq / n - m.speed_mean * m.speed_mean));
    // The scouts' decision (Adams' VGA scouts page, after Couzin et al.): where the uninformed majority
    // goes. Without plain boids, everyone counts.
    const double deciders = static_cast<double>(boids > 0 ? boids : count);
    m.frac_right = static_cast<double>(boids > 0 ? right : any_right) / deciders;
    m.frac_left = static_cast<double>(boids > 0 ? left : any_left) / deciders;
    m.side_right = static_cast<double>(boids > 0 ? side : any_side) / deciders;
    m.accuracy = (ux == 0.0 && uy == 0.0 && uz == 0.0) ? 0.5
                 : solid ? 1.0 - std::atan2(std::hypot(uy, uz), ux) / pi // the angle to +x in space
                         : 1.0 - std::abs(std::atan2(uy, ux)) / pi;

    // Milling: the mean angular momentum of unit vectors about the centroid (in 3D the norm of the mean
    // vector r_hat x u_hat; in 2D only its z component exists).
    double mill = 0.0, mill_x = 0.0, mill_y = 0.0;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (!is_flocking(world.kind[i])) {
            continue;
        }
        const double rx = static_cast<double>(world.x[i]) - cx, ry = static_cast<double>(world.y[i]) - cy;
        const double rz = z_of(i) - cz;
        const double vx = static_cast<double>(world.vx[i]), vy = static_cast<double>(world.vy[i]);
        const double vz = vz_of(i);
        const double r = norm(rx, ry, rz, solid), v = norm(vx, vy, vz, solid);
        if (r > 0.0 && v > 0.0) {
            mill += (rx * vy - ry * vx) / (r * v);
            mill_x += (ry * vz - rz * vy) / (r * v);
            mill_y += (rz * vx - rx * vz) / (r * v);
        }
    }
    m.milling = (solid ? std::sqrt(mill * mill + mill_x * mill_x + mill_y * mill_y) : std::abs(mill)) / n;

    // Nearest neighbours and groups from one grid. Its range is the link range, widened to twice the mean
    // spacing so that nearly every agent finds its nearest neighbour in the 3 x 3 cells; the few that do
    // not (isolated agents) are searched by brute force, which is exact.
    const double link = link_range(params);
    double area = params.width * params.height;
    if (!wrap) {
        double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
        for (std::size_t i = 0; i < world.size(); ++i) {
            if (is_flocking(world.kind[i])) {
                x0 = std::min(x0, static_cast<double>(world.x[i]));
                x1 = std::max(x1, static_cast<double>(world.x[i]));
                y0 = std::min(y0, static_cast<double>(world.y[i]));
                y1 = std::max(y1, static_cast<double>(world.y[i]));
            }
        }
        area = (x1 - x0) * (y1 - y0);
    }
    double spacing = std::sqrt(area / n);
    if (solid) { // the mean spacing in a volume: the world's, or the flock's bounding box
        double z0 = 0.0, z1 = params.depth;
        if (!wrap) {
            z0 = std::numeric_limits<double>::max();
            z1 = -z0;
            for (std::size_t i = 0; i < world.size(); ++i) {
                if (is_flocking(world.kind[i])) {
                    z0 = std::min(z0, z_of(i));
                    z1 = std::max(z1, z_of(i));
                }
            }
        }
        spacing = std::cbrt(area * (z1 - z0) / n);
    }
    const double range = std::max({link, 2.0 * spacing, 1e-9});
    SpatialGrid<Real> grid;
    grid.build(world, GridMembers::Flocking, range, wrap, params.width, params.height,
               solid ? params.depth : 0.0, nthreads);
    const std::size_t slots = grid.size();
    const double link2 = link * link, range2 = range * range;
    const auto separation2 = [&](std::uint32_t sa, std::uint32_t sb) {
        double dx = static_cast<double>(grid.x(sb)) - static_cast<double>(grid.x(sa));
        double dy = static_cast<double>(grid.y(sb)) - static_cast<double>(grid.y(sa));
        double dz = static_cast<double>(grid.z(sb)) - static_cast<double>(grid.z(sa));
        if (wrap) {
            dx = min_image(dx, params.width);
            dy = min_image(dy, params.height);
            if (solid) {
                dz = min_image(dz, params.depth);
            }
        }
        return solid ? dx * dx + dy * dy + dz * dz : dx * dx + dy * dy;
    };

    std::vector<double> nearest2(slots, std::numeric_limits<double>::infinity());
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> links(
        static_cast<std::size_t>(nthreads));
#pragma omp parallel num_threads(nthreads)
    {
        auto& mine = links[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 256)
        for (std::size_t a = 0; a < slots; ++a) {
            const auto sa = static_cast<std::uint32_t>(a);
            double best = std::numeric_limits<double>::infinity();
            grid.for_each_candidate(grid.x(sa), grid.y(sa), grid.z(sa), [&](std::uint32_t s) {
                if (s == sa) {
                    return;
                }
                const double d2 = separation2(sa, s);
                best = std::min(best, d2);
                if (s > sa && d2 < link2) {
                    mine.emplace_back(sa, s);
                }
            });
            if (!(best < range2)) { // nothing within the grid's range: the 3 x 3 cells may miss the nearest
                for (std::uint32_t s = 0; s < slots; ++s) {
                    if (s != sa) {
                        best = std::min(best, separation2(sa, s));
                    }
                }
            }
            nearest2[a] = best;
        }
    }
    double nnd_sum = 0.0;
    for (double d2 : nearest2) {
        nnd_sum += std::isfinite(d2) ? std::sqrt(d2) : 0.0;
    }
    m.nnd_mean = slots > 1 ? nnd_sum / static_cast<double>(slots) : 0.0;
    UnionFind sets(slots);
    for (const auto& list : links) {
        for (const auto& [a, b] : list) {
            sets.unite(a, b);
        }
    }
    m.groups = sets.roots();
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
