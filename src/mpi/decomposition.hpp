#pragma once
// How the world is split among ranks (internal): recursive coordinate bisection by agent count.
//
// The tree cuts space, not agents: every point of space has one owner (ranks at the edge own everything
// beyond it in margin mode, where agents may leave the world), so an agent's owner follows from its
// position alone, and the agents within a distance of a rank's sub-domain are found by descending the
// tree on both sides of every cut closer than that distance.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids::mpi {

/// The space the ranks split: the world's box, whether it wraps, and its dimension (2 or 3).
struct Space {
    std::array<double, 3> size{0, 0, 0}; ///< width, height, depth (depth unused in 2D)
    int dimensions = 2;
    bool wrap = false;
};

/// A binary space partition into `ranks` sub-domains.
class Decomposition {
public:
    Decomposition() = default;

    /// Cuts `space` among `ranks` ranks so that each gets about as many of `points` as the others: each
    /// cut halves the rank range (the lower half gets floor(R/2) ranks) across the longest side of the
    /// current box, at the point that gives each side its share of the agents.
    static Decomposition balanced(const Space& space, int ranks, std::vector<std::array<double, 3>> points);

    /// The rank owning point p.
    [[nodiscard]] int owner(const std::array<double, 3>& p) const;

    /// Calls `visit(rank)` once for every rank other than `self` whose sub-domain comes within `reach` of
    /// p along every axis (on the torus in wrap mode): the ranks that need p in their halo.
    template <class Visit>
    void ranks_near(const std::array<double, 3>& p, double reach, int self, Visit&& visit) const {
        std::vector<int>& seen = scratch_;
        seen.clear();
        const auto collect = [&](const std::array<double, 3>& q) { collect_near(0, q, reach, seen); };
        if (!space_.wrap) {
            collect(p);
        } else {
            // The periodic images of p that lie within `reach` of the box.
            std::array<std::array<double, 3>, 3> image{};
            std::array<int, 3> images{1, 1, 1};
            for (int a = 0; a < space_.dimensions; ++a) {
                const double length = space_.size[static_cast<std::size_t>(a)];
                const double x = p[static_cast<std::size_t>(a)];
                auto& list = image[static_cast<std::size_t>(a)];
                list[0] = x;
                if (x < reach) {
                    list[static_cast<std::size_t>(images[static_cast<std::size_t>(a)]++)] = x + length;
                }
                if (x > length - reach) {
                    list[static_cast<std::size_t>(images[static_cast<std::size_t>(a)]++)] = x - length;
                }
            }
            for (int i = 0; i < images[0]; ++i) {
                for (int j = 0; j < images[1]; ++j) {
                    for (int k = 0; k < (space_.dimensions == 3 ? images[2] : 1); ++k) {
                        collect({image[0][static_cast<std::size_t>(i)], image[1][static_cast<std::size_t>(j)],
                                 space_.dimensions == 3 ? image[2][static_cast<std::size_t>(k)] : 0.0});
                    }
                }
            }
        }
        for (std::size_t i = 0; i < seen.size(); ++i) {
            bool repeat = seen[i] == self;
            for (std::size_t j = 0; j < i && !repeat; ++j) {
                repeat = seen[j] == seen[i];
            }
            if (!repeat) {
                visit(seen[i]);
            }
        }
    }

    /// The box [lo, hi) inside which a point is within `reach` of no sub-domain but `rank`'s (on the torus
    /// too): ranks_near() would find no rank for it. Unbounded sides are +-infinity. A conservative margin
    /// keeps rounding on the safe side: points near the box's faces are left to ranks_near().
    struct Box {
        std::array<double, 3> lo, hi;
        [[nodiscard]] bool contains(const std::array<double, 3>& p) const {
            return p[0] >= lo[0] && p[0] < hi[0] && p[1] >= lo[1] && p[1] < hi[1] && p[2] >= lo[2] &&
                   p[2] < hi[2];
        }
    };
    [[nodiscard]] Box interior(int rank, double reach) const;

    /// The tree as bytes (sent from root to every rank), and back.
    [[nodiscard]] std::vector<std::byte> bytes() const;
    static Decomposition from_bytes(const Space& space, const std::vector<std::byte>& bytes);

private:
    struct Node {
        int axis = -1; ///< -1: a leaf owned by `rank`
        double cut = 0.0;
        std::int32_t lower = -1, upper = -1; ///< children: coordinates below the cut, and the rest
        std::int32_t rank = -1;
    };
    void collect_near(std::int32_t node, const std::array<double, 3>& p, double reach,
                      std::vector<int>& out) const;

    Space space_;
    std::vector<Node> nodes_;
    mutable std::vector<int> scratch_;
};

} // namespace boids::mpi
