#include "mpi/decomposition.hpp"

#include "mpi/communicator.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace boids::mpi {

Decomposition Decomposition::balanced(const Space& space, int ranks,
                                      std::vector<std::array<double, 3>> points) {
    Decomposition d;
    d.space_ = space;
    // Recursion over (points[begin, end), ranks [first, first + count), the box lo..hi).
    const std::function<std::int32_t(std::size_t, std::size_t, int, int, std::array<double, 3>,
                                     std::array<double, 3>)>
        split = [&](std::size_t begin, std::size_t end, int first, int count, std::array<double, 3> lo,
                    std::array<double, 3> hi) -> std::int32_t {
        const auto at = static_cast<std::int32_t>(d.nodes_.size());
        d.nodes_.push_back({});
        if (count == 1) {
            d.nodes_[static_cast<std::size_t>(at)].rank = first;
            return at;
        }
        int axis = 0;
        for (int a = 1; a < space.dimensions; ++a) {
            const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(axis);
            axis = hi[ua] - lo[ua] > hi[ub] - lo[ub] ? a : axis;
        }
        const auto ax = static_cast<std::size_t>(axis);
        const int lower_ranks = count / 2;
        const std::size_t n = end - begin;
        const std::size_t share = n * static_cast<std::size_t>(lower_ranks) / static_cast<std::size_t>(count);
        double cut = (lo[ax] + hi[ax]) / 2;
        std::size_t middle = begin + share;
        if (n > 0 && share > 0 && share < n) {
            const auto by_axis = [ax](const auto& a, const auto& b) { return a[ax] < b[ax]; };
            std::nth_element(points.begin() + static_cast<std::ptrdiff_t>(begin),
                             points.begin() + static_cast<std::ptrdiff_t>(middle),
                             points.begin() + static_cast<std::ptrdiff_t>(end), by_axis);
            cut = points[middle][ax];
        }
        // Points below the cut go to the lower side, the rest (ties included) to the upper.
        middle = static_cast<std::size_t>(std::partition(points.begin() + static_cast<std::ptrdiff_t>(begin),
                                                         points.begin() + static_cast<std::ptrdiff_t>(end),
                                                         [&](const auto& p) { return p[ax] < cut; }) -
                                          points.begin());
        std::array<double, 3> lower_hi = hi, upper_lo = lo;
        lower_hi[ax] = std::clamp(cut, lo[ax], hi[ax]);
        upper_lo[ax] = lower_hi[ax];
        const std::int32_t lower = split(begin, middle, first, lower_ranks, lo, lower_hi);
        const std::int32_t upper = split(middle, end, first + lower_ranks, count - lower_ranks, upper_lo, hi);
        Node& node = d.nodes_[static_cast<std::size_t>(at)];
        node.axis = axis;
        node.cut = cut;
        node.lower = lower;
        node.upper = upper;
        return at;
    };
    split(0, points.size(), 0, ranks, {0, 0, 0}, space.size);
    return d;
}

int Decomposition::owner(const std::array<double, 3>& p) const {
    std::int32_t at = 0;
    while (nodes_[static_cast<std::size_t>(at)].axis >= 0) {
        const Node& node = nodes_[static_cast<std::size_t>(at)];
        at = p[static_cast<std::size_t>(node.axis)] < node.cut ? node.lower : node.upper;
    }
    return nodes_[static_cast<std::size_t>(at)].rank;
}

void Decomposition::collect_near(std::int32_t at, const std::array<double, 3>& p, double reach,
                                 std::vector<int>& out) const {
    const Node& node = nodes_[static_cast<std::size_t>(at)];
    if (node.axis < 0) {
        out.push_back(node.rank);
        return;
    }
    const double x = p[static_cast<std::size_t>(node.axis)];
    if (x - reach < node.cut) {
        collect_near(node.lower, p, reach, out);
    }
    if (x + reach >= node.cut) {
        collect_near(node.upper, p, reach, out);
    }
}

Decomposition::Box Decomposition::interior(int rank, double reach) const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // The rank's sub-domain: the cuts on the path from the root to its leaf.
    std::array<double, 3> lo{-inf, -inf, -inf}, hi{inf, inf, inf};
    const std::function<bool(std::int32_t)> find = [&](std::int32_t at) {
        const Node& node = nodes_[static_cast<std::size_t>(at)];
        if (node.axis < 0) {
            return node.rank == rank;
        }
        const auto a = static_cast<std::size_t>(node.axis);
        const double old_lo = lo[a], old_hi = hi[a];
        hi[a] = std::min(old_hi, node.cut);
        if (find(node.lower)) {
            return true;
        }
        hi[a] = old_hi;
        lo[a] = std::max(old_lo, node.cut);
        if (find(node.upper)) {
            return true;
        }
        lo[a] = old_lo;
        return false;
    };
    Box box{{inf, inf, inf}, {-inf, -inf, -inf}}; // empty: a rank outside the tree
    if (nodes_.empty() || !find(0)) {
        return box;
    }
    const double margin = reach * 1e-6 + 1e-9;
    for (std::size_t a = 0; a < 3; ++a) {
        const bool cut = lo[a] > -inf || hi[a] < inf;
        box.lo[a] = lo[a] > -inf ? lo[a] + reach + margin * (1 + std::abs(lo[a])) : -inf;
        box.hi[a] = hi[a] < inf ? hi[a] - reach - margin * (1 + std::abs(hi[a])) : inf;
        if (space_.wrap && cut && a < static_cast<std::size_t>(space_.dimensions)) {
            // Across the seam the other side of the torus is another rank's: keep `reach` from the world's
            // faces too (a sub-domain spanning the whole axis has no cut along it and no such neighbour).
            box.lo[a] = std::max(box.lo[a], reach + margin);
            box.hi[a] = std::min(box.hi[a], space_.size[a] - reach - margin * (1 + space_.size[a]));
        }
    }
    return box;
}

std::vector<std::byte> Decomposition::bytes() const {
    std::vector<std::byte> out;
    for (const Node& node : nodes_) {
        put(out, node);
    }
    return out;
}

Decomposition Decomposition::from_bytes(const Space& space, const std::vector<std::byte>& bytes) {
    Decomposition d;
    d.space_ = space;
    d.nodes_.resize(bytes.size() / sizeof(Node));
    std::memcpy(d.nodes_.data(), bytes.data(), d.nodes_.size() * sizeof(Node));
    return d;
}

} // namespace boids::mpi
