// The fast classic step: the flock kept in cell order between steps, and the phases around the SIMD
// kernel of fast_classic_kernel-inl.h.
//
// 1. Grid build. A parallel counting sort of the slots by cell: each thread bins a contiguous chunk of
//    slots into its own histogram; a prefix sum over (cell, thread) gives every thread its cursors, so the
//    scatter needs no atomics. Agents move less than a cell per step, so the scatter writes almost
//    sequentially. Within a cell the agents are then put back in world order (an insertion sort over ~6
//    nearly sorted agents): the order is (cell, world index) whatever the history or thread count, which
//    is the order SpatialGrid gives the plain path.
// 2. Neighbour pass (kernel), rows of cells spread over the threads, from the sorted slots into new slot
//    columns (the update is synchronous), positions moved and wrapped.
// 3. Predators, directly in the world: what a hunting one sees of the flock (the plain path's grid search
//    over the sorted slots, in its order), its steering (predators::Behavior, the plain path's), its move.
//
// The world's flocking rows are written back only by sync(), which Simulation calls when the world is
// looked at; repeated steps never permute the flock back to world order. A step that follows a look writes
// the rows back as it ends (the next look will likely come after it), and sync() skips rows already current,
// so a program that reads the world after every step pays the scatter inside the step, once.
//
// Bits: the geometry is SpatialGrid::build's and the kernel sums in the plain path's order (the predators
// in range in world order, as every path sums them), so the result is the plain path's to the bit.

#include "fast_classic_step.hpp"

#include "step_threads.hpp"

#include "boids/detail/cell_bounds.hpp"
#include "boids/fast_path.hpp"
#include "cell_cursors.hpp"
#include "classic_rules.hpp"
#include "fast_classic_kernel.hpp"
#include "models/key_table.hpp"
#include "neighbour_pass.hpp"
#include "obstacle_rules.hpp"
#include "predator_behavior.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <omp.h>
#include <utility>

namespace boids {

// The kernel's field-of-view test holds for every visual and protected range the parameters allow.
static_assert(models::range_max <= fast::fast_path_view_range);

const char* fast_path_isa() {
    apply_fast_path_target_environment();
    return fast::simd_target_name();
}

std::size_t fast_path_lanes(bool double_precision) {
    apply_fast_path_target_environment();
    return double_precision ? fast::simd_lanes_f64() : fast::simd_lanes_f32();
}

namespace detail {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <class Real>
std::size_t simd_lanes() {
    return fast_path_lanes(sizeof(Real) == sizeof(double));
}

/// Slots past the last agent that the kernel may load (see FlockInCellOrder): the 3D listing reads two
/// vectors from the start of a run, which may be the last slot.
template <class Real>
std::size_t slot_padding() {
    return 2 * simd_lanes<Real>();
}

/// Lines handed to a thread at a time in the neighbour pass: about 64 chunks per thread, so that the
/// threads still balance a clumped flock, but neighbouring lines mostly go to the same thread. (Two
/// threads writing neighbouring lines share the cache lines where one line's slots end and the next
/// begin, in each output column (seven in 3D); one line at a time made every line boundary such a shared
/// line: at 1M boids in 3D, 3,481 lines, the neighbour pass took 10-13% longer.)
int lines_per_chunk(int lines, int threads) {
    constexpr int chunks_per_thread = 64;
    return std::max(1, lines / (std::max(threads, 1) * chunks_per_thread));
}

/// [begin, end) of thread t's contiguous share of n items.
struct Chunk {
    std::size_t begin, end;
};
Chunk chunk_of(std::size_t n) {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto nt = static_cast<std::size_t>(omp_get_num_threads());
    return {n * t / nt, n * (t + 1) / nt};
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// FastStepScratch

template <class Real>
FastStepScratch<Real>::FastStepScratch() = default;
template <class Real>
FastStepScratch<Real>::FastStepScratch(const FastStepScratch& other)
    : impl_(other.impl_ ? std::make_unique<FastClassicStep<Real>>(*other.impl_) : nullptr) {}
template <class Real>
FastStepScratch<Real>& FastStepScratch<Real>::operator=(const FastStepScratch& other) {
    if (this != &other) {
        impl_ = other.impl_ ? std::make_unique<FastClassicStep<Real>>(*other.impl_) : nullptr;
    }
    return *this;
}
template <class Real>
FastStepScratch<Real>::FastStepScratch(FastStepScratch&&) noexcept = default;
template <class Real>
FastStepScratch<Real>& FastStepScratch<Real>::operator=(FastStepScratch&&) noexcept = default;
template <class Real>
FastStepScratch<Real>::~FastStepScratch() = default;
template <class Real>
FastClassicStep<Real>& FastStepScratch<Real>::get() {
    if (!impl_) {
        impl_ = std::make_unique<FastClassicStep<Real>>();
    }
    return *impl_;
}
template <class Real>
void FastStepScratch<Real>::sync(World<Real>& world, bool release, int threads) {
    if (impl_) {
        impl_->sync(world, release, threads);
    }
}

// ---------------------------------------------------------------------------------------------------------
// FastClassicStep

template <class Real>
void SlotColumns<Real>::resize(std::size_t count, std::size_t padding, bool scouts, bool three_d,
                               bool perching) {
    agent.resize(count);
    for (auto* column : {&x, &y, &vx, &vy}) {
        column->resize(count + padding);
    }
    kind.resize(scouts ? count : 0);
    bias.resize(scouts ? count + padding : 0);
    z.resize(three_d ? count + padding : 0);
    vz.resize(three_d ? count + padding : 0);
    rest.resize(perching ? count : 0);
}

template <class Real>
void FastClassicStep<Real>::sync(World<Real>& world, bool release, int threads) {
    looked_at_ = true;
    if (loaded_ && !world_current_) {
        write_back(world, threads);
    }
    // Without `release` the slots stay the current state and the world a faithful copy of it; the next
    // step continues from the slots.
    if (release) {
        loaded_ = false;
    }
}

template <class Real>
void FastClassicStep<Real>::write_back(World<Real>& world, int threads) {
    std::array<std::pair<const Real*, Real*>, 7> columns{};
    std::size_t count = 0;
    const auto add = [&](const auto& from, std::vector<Real>& to) {
        columns[count++] = {from.data(), to.data()};
    };
    add(cur_.x, world.x);
    add(cur_.y, world.y);
    add(cur_.vx, world.vx);
    add(cur_.vy, world.vy);
    if (has_scouts_) {
        add(cur_.bias, world.bias);
    }
    if (three_d_) {
        add(cur_.z, world.z);
        add(cur_.vz, world.vz);
    }
    const std::uint32_t* const agent = cur_.agent.data();
    const std::size_t m = cur_.agent.size();
    if (perching_) {
        const std::int32_t* const from = cur_.rest.data();
        std::int32_t* const to = world.rest.data();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::size_t s = 0; s < m; ++s) {
            to[agent[s]] = from[s];
        }
    }
    // A column at a time: the scattered stores of one pass land in one world column (4 MB at 1M float
    // agents), which the caches hold better than four or six columns written at once.
#pragma omp parallel num_threads(threads)
    for (std::size_t c = 0; c < count; ++c) {
        const Real* const from = columns[c].first;
        Real* const to = columns[c].second;
#pragma omp for schedule(static)
        for (std::size_t s = 0; s < m; ++s) {
            to[agent[s]] = from[s];
        }
    }
    world_current_ = true;
}

template <class Real>
void FastClassicStep<Real>::load(const World<Real>& world, const Params& params, int threads) {
    const bool wrap = params.boundary == Boundary::Wrap;
    const Real width = ScalarTraits<Real>::from_double(params.width);
    const Real height = ScalarTraits<Real>::from_double(params.height);
    const Real depth = ScalarTraits<Real>::from_double(params.depth);
    const std::size_t n = world.size();
    three_d_ = params.dimensions == 3;
    world_size_ = n;
    predators_.clear();
    std::size_t scouts = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Kind k = world.kind[i];
        if (k == Kind::Predator) {
            predators_.push_back(static_cast<std::uint32_t>(i));
        }
        scouts += k == Kind::Scout1 || k == Kind::Scout2;
    }
    has_scouts_ = scouts > 0;
    perching_ = params.perch_rest_max > 0;
    const std::size_t m = n - predators_.size();
    cur_.resize(m, slot_padding<Real>(), has_scouts_, three_d_, perching_);
    // Compact the flocking agents in world order (sequential reads and writes).
    std::size_t s = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (world.kind[i] == Kind::Predator) {
            continue;
        }
        cur_.agent[s] = static_cast<std::uint32_t>(i);
        cur_.x[s] = wrap ? classic::wrap_position(world.x[i], width) : world.x[i];
        cur_.y[s] = wrap ? classic::wrap_position(world.y[i], height) : world.y[i];
        cur_.vx[s] = world.vx[i];
        cur_.vy[s] = world.vy[i];
        if (has_scouts_) {
            cur_.kind[s] = world.kind[i];
            cur_.bias[s] = world.bias[i];
        }
        if (three_d_) {
            cur_.z[s] = wrap ? classic::wrap_position(world.z[i], depth) : world.z[i];
            cur_.vz[s] = world.vz[i];
        }
        if (perching_) {
            cur_.rest[s] = world.rest[i];
        }
        ++s;
    }
    (void)threads;
    loaded_ = true;
    world_current_ = true;
    cells_valid_ = false;
}

template <class Real>
bool FastClassicStep<Real>::compute_geometry(const Params& params, int threads, const GridExtent* whole) {
    const bool wrap = params.boundary == Boundary::Wrap;
    const std::size_t m = cur_.agent.size();
    // Margin mode covers the flock's bounding box (min and max are exact, so the reduction order is free),
    // or the larger flock's this world is part of.
    double min_x = 0.0, max_x = 0.0, min_y = 0.0, max_y = 0.0, min_z = 0.0, max_z = 0.0;
    if (!wrap && m > 0 && whole == nullptr) {
        min_x = max_x = static_cast<double>(cur_.x[0]);
        min_y = max_y = static_cast<double>(cur_.y[0]);
        if (three_d_) {
            min_z = max_z = static_cast<double>(cur_.z[0]);
        }
        const bool three_d = three_d_;
#pragma omp parallel num_threads(threads) reduction(min                                                      \
                                                    : min_x, min_y, min_z) reduction(max                     \
                                                                                     : max_x, max_y, max_z)
        {
            const Chunk c = chunk_of(m);
            for (std::size_t s = c.begin; s < c.end; ++s) {
                min_x = std::min(min_x, static_cast<double>(cur_.x[s]));
                max_x = std::max(max_x, static_cast<double>(cur_.x[s]));
                min_y = std::min(min_y, static_cast<double>(cur_.y[s]));
                max_y = std::max(max_y, static_cast<double>(cur_.y[s]));
            }
            if (three_d) {
                for (std::size_t s = c.begin; s < c.end; ++s) {
                    min_z = std::min(min_z, static_cast<double>(cur_.z[s]));
                    max_z = std::max(max_z, static_cast<double>(cur_.z[s]));
                }
            }
        }
    }
    const detail::MemberBox box =
        whole != nullptr ? whole->box : detail::MemberBox{{min_x, min_y, min_z}, {max_x, max_y, max_z}};
    grid_ = detail::grid_geometry(params.visual_range, whole != nullptr ? whole->members : m, wrap,
                                  params.width, params.height, three_d_ ? params.depth : 0.0, box);
    // The kernel's 3 x 3 (x 3) block of lines must not meet itself across the torus.
    return !wrap || (grid_.nx >= 3 && grid_.ny >= 3 && (!three_d_ || grid_.nz >= 3));
}

template <class Real>
void FastClassicStep<Real>::sort_by_cell(bool cells_known) {
    const std::size_t m = cur_.agent.size();
    const std::size_t cells = cell_count();
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto nt = static_cast<std::size_t>(omp_get_num_threads());
    const Chunk chunk = chunk_of(m);
    const Chunk my_cells = chunk_of(cells);
    assert(histograms_.size() >= 2 * nt * cells); // sized for the threads asked for, the most a team has
    // Two counters per cell and thread: the agents that stay in the cell, then the ones that move into it
    // (flagged by the kernel; without flags every agent counts as staying). They become scatter cursors.
    std::uint32_t* const counters = histograms_.data() + 2 * t * cells;
    std::memset(counters, 0, 2 * cells * sizeof(std::uint32_t));

    // Bin this thread's slots (positions are >= the grid origin: wrapped into the torus, or inside the
    // bounding box), unless the previous step's kernel already did.
    std::uint32_t* const cell_of = slot_cell_.data();
    if (!cells_known) {
        fast::cells_of(cur_.x.data() + chunk.begin, cur_.y.data() + chunk.begin,
                       three_d_ ? cur_.z.data() + chunk.begin : nullptr, chunk.end - chunk.begin, grid_,
                       cell_of + chunk.begin);
    }
    // The counter of an agent: its cell, plus `cells` when it moved in. One increment per agent: a chain
    // through memory along a run of one cell, but no branch (counting whole runs in a register mispredicts
    // the end of every run, and measured 4-5x slower).
    constexpr std::uint32_t cell_mask = ~fast::moved_cell_flag;
    const auto counter_of = [cells](std::uint32_t c) {
        return static_cast<std::size_t>(c & cell_mask) + static_cast<std::size_t>(c >> 31) * cells;
    };
    for (std::size_t s = chunk.begin; s < chunk.end; ++s) {
        ++counters[counter_of(cell_of[s])];
    }
#pragma omp barrier
    // Exclusive prefix sum in the order (cell; the stayers of every thread, then the newcomers of every
    // thread): counter k < nt of a cell is thread k's stayers', counter nt + u thread u's newcomers'.
    std::uint32_t* const first = cell_start_.data();
    std::uint32_t* const newcomers_at = newcomers_at_.data();
    std::uint32_t* const hist = histograms_.data();
    detail::prefix_cursors(
        cells, 2 * nt, first, chunk_total_.data(),
        [&](std::size_t cell, std::size_t k) -> std::uint32_t& {
            return hist[(k < nt ? 2 * k : 2 * (k - nt) + 1) * cells + cell];
        },
        [&](std::size_t cell, std::size_t k, std::uint32_t base) {
            if (k == nt) {
                newcomers_at[cell] = base;
            }
        });
    // Scatter, an agent at a time (branch-free, as the histogram): stayers keep their order, so each cell
    // starts with its stayers in world order; newcomers follow. Without the kernel's flags (first step,
    // margin mode) each slot also records its cell, for the general fix-up below. Two passes: every
    // slot's place first (its cell's cursor, the chain of increments alone), written over its cell, then
    // the moves, whose stores then know their addresses as soon as they issue.
    const bool scouts = has_scouts_;
    const bool three_d = three_d_;
    const bool perching = perching_;
    {
        const std::uint32_t* const agent = cur_.agent.data();
        const Real *const x = cur_.x.data(), *const y = cur_.y.data();
        const Real *const vx = cur_.vx.data(), *const vy = cur_.vy.data();
        const Kind* const kind = cur_.kind.data();
        const Real* const bias = cur_.bias.data();
        const Real *const z = cur_.z.data(), *const vz = cur_.vz.data();
        const std::int32_t* const rest = cur_.rest.data();
        std::uint32_t* const to_agent = next_.agent.data();
        std::uint32_t* const to_cell = sorted_cell_.data();
        Real *const to_x = next_.x.data(), *const to_y = next_.y.data();
        Real *const to_vx = next_.vx.data(), *const to_vy = next_.vy.data();
        Kind* const to_kind = next_.kind.data();
        Real* const to_bias = next_.bias.data();
        Real *const to_z = next_.z.data(), *const to_vz = next_.vz.data();
        std::int32_t* const to_rest = next_.rest.data();
        const auto scatter = [&](auto record_cell) {
            for (std::size_t s = chunk.begin; s < chunk.end; ++s) {
                const std::uint32_t c = cell_of[s];
                const std::uint32_t to = counters[counter_of(c)]++;
                if constexpr (decltype(record_cell)::value) {
                    to_cell[to] = c;
                }
                cell_of[s] = to;
            }
            // The moves, compiled for the columns that travel: with a test per agent and column the
            // loop kept every column's pointers live and reloaded some from the stack for each agent.
            const auto move = [&](auto with_scouts, auto with_depth, auto with_rest) {
                for (std::size_t s = chunk.begin; s < chunk.end; ++s) {
                    const std::uint32_t to = cell_of[s];
                    to_agent[to] = agent[s];
                    to_x[to] = x[s];
                    to_y[to] = y[s];
                    to_vx[to] = vx[s];
                    to_vy[to] = vy[s];
                    if constexpr (decltype(with_scouts)::value) { // kinds and biases vary only with scouts
                        to_kind[to] = kind[s];
                        to_bias[to] = bias[s];
                    }
                    if constexpr (decltype(with_depth)::value) {
                        to_z[to] = z[s];
                        to_vz[to] = vz[s];
                    }
                    if constexpr (decltype(with_rest)::value) {
                        to_rest[to] = rest[s];
                    }
                }
            };
            const auto flag = [](bool b, auto then) {
                return b ? then(std::true_type{}) : then(std::false_type{});
            };
            flag(scouts, [&](auto with_scouts) {
                flag(three_d, [&](auto with_depth) {
                    flag(perching, [&](auto with_rest) { move(with_scouts, with_depth, with_rest); });
                });
            });
        };
        if (cells_known) {
            scatter(std::false_type{});
        } else {
            scatter(std::true_type{});
        }
    }
#pragma omp barrier
    // World order within each cell, over this thread's share of the cells: agents out of order are moved
    // back by insertion. With the kernel's flags only the newcomers of a cell can be (~8% of the agents at
    // W20; the stayers before them are in order); otherwise one linear pass compares the (cell, agent) keys
    // of neighbouring slots, a branch rarely taken.
    {
        std::uint32_t* const agent = next_.agent.data();
        Real *const x = next_.x.data(), *const y = next_.y.data();
        Real *const vx = next_.vx.data(), *const vy = next_.vy.data();
        Kind* const kind = next_.kind.data();
        Real* const bias = next_.bias.data();
        Real *const z = next_.z.data(), *const vz = next_.vz.data();
        std::int32_t* const rest = next_.rest.data();
        // Moves the agent at slot k down to its place in [begin, k].
        const auto insert = [&](std::uint32_t begin, std::uint32_t k) {
            const std::uint32_t a = agent[k];
            const Real ax = x[k], ay = y[k], avx = vx[k], avy = vy[k];
            const Kind akind = scouts ? kind[k] : Kind::Boid;
            const Real abias = scouts ? bias[k] : Real(0);
            const Real az = three_d ? z[k] : Real(0), avz = three_d ? vz[k] : Real(0);
            const std::int32_t arest = perching ? rest[k] : 0;
            std::uint32_t j = k;
            for (; j > begin && agent[j - 1] > a; --j) {
                agent[j] = agent[j - 1];
                x[j] = x[j - 1];
                y[j] = y[j - 1];
                vx[j] = vx[j - 1];
                vy[j] = vy[j - 1];
                if (scouts) {
                    kind[j] = kind[j - 1];
                    bias[j] = bias[j - 1];
                }
                if (three_d) {
                    z[j] = z[j - 1];
                    vz[j] = vz[j - 1];
                }
                if (perching) {
                    rest[j] = rest[j - 1];
                }
            }
            agent[j] = a;
            x[j] = ax;
            y[j] = ay;
            vx[j] = avx;
            vy[j] = avy;
            if (scouts) {
                kind[j] = akind;
                bias[j] = abias;
            }
            if (three_d) {
                z[j] = az;
                vz[j] = avz;
            }
            if (perching) {
                rest[j] = arest;
            }
        };
        if (cells_known) {
            for (std::size_t cell = my_cells.begin; cell < my_cells.end; ++cell) {
                const std::uint32_t begin = first[cell];
                for (std::uint32_t k = newcomers_at[cell]; k < first[cell + 1]; ++k) {
                    insert(begin, k);
                }
            }
        } else {
            const std::uint32_t* const cell_of_slot = sorted_cell_.data();
            const std::uint32_t lo = first[my_cells.begin], hi = first[my_cells.end];
            // Slots are in cell order, so (cell, agent) pairs out of order are agents out of order in a
            // cell: one comparison, rarely true.
            const auto key = [&](std::uint32_t k) {
                return (static_cast<std::uint64_t>(cell_of_slot[k]) << 32) | agent[k];
            };
            for (std::uint32_t k = lo + 1; k < hi; ++k) {
                if (key(k - 1) > key(k)) {
                    insert(first[cell_of_slot[k]], k);
                }
            }
        }
    }
#pragma omp barrier
}

template <class Real>
void FastClassicStep<Real>::move_predators(World<Real>& world, const Params& params,
                                           const classic::Constants<Real>& c) const {
    const predators::Behavior<Real> hunter(params, c);
    const Geometry<Real> geo{c.wrap,        c.width,   c.height, c.half_width,
                             c.half_height, c.three_d, c.depth,  c.half_depth};
    const bool look = hunter.hunts() && !cur_.agent.empty();
    // The flock as it was (next_, in this step's cell order; cur_.agent names the agents of its slots).
    const std::uint32_t* const agent = cur_.agent.data();
    const Real *const x = next_.x.data(), *const y = next_.y.data();
    const Real *const vx = next_.vx.data(), *const vy = next_.vy.data();
    const Real *const z = next_.z.data(), *const vz = next_.vz.data();
    const std::uint32_t* const first = cell_start_.data();
    for (const std::uint32_t i : predators_) {
        Agent<Real> a = agent_at(world, i, three_d_);
        typename predators::Behavior<Real>::Sight sight;
        if (look) {
            // The plain path's search (SpatialGrid::for_each_within) on the same grid: the same cells in
            // the same order, and world order within a cell, so the sight's sums in double get its bits.
            detail::for_each_cell_within(
                grid_, c.wrap, three_d_, static_cast<double>(a.x), static_cast<double>(a.y),
                static_cast<double>(a.z), params.predator_vision, [&](std::size_t cell) {
                    for (std::uint32_t s = first[cell]; s < first[cell + 1]; ++s) {
                        hunter.see(sight, a,
                                   geo.neighbour(a, x[s], y[s], three_d_ ? z[s] : Real(0), vx[s], vy[s],
                                                 three_d_ ? vz[s] : Real(0), agent[s]));
                    }
                });
        }
        hunter.steer(sight, a);
        // Moved as the plain path's integrate phase moves every agent: wrapped, then kept out of obstacles
        // (which may also take the inward part of its velocity).
        Real px = a.x + a.vx, py = a.y + a.vy;
        Real pz = three_d_ ? a.z + a.vz : Real(0);
        if (c.wrap) {
            px = classic::wrap_position(px, c.width);
            py = classic::wrap_position(py, c.height);
            pz = three_d_ ? classic::wrap_position(pz, c.depth) : pz;
        }
        if (!params.obstacles.empty()) {
            keep_out_of_obstacles(params.obstacles, three_d_ ? params.depth : 0.0, px, py, pz, a.vx, a.vy,
                                  a.vz);
        }
        world.x[i] = px;
        world.y[i] = py;
        world.vx[i] = a.vx;
        world.vy[i] = a.vy;
        world.target[i] = a.target;
        if (three_d_) {
            world.z[i] = pz;
            world.vz[i] = a.vz;
        }
    }
}

template <class Real>
bool FastClassicStep<Real>::try_step(World<Real>& world, const Params& params, long long step, int threads,
                                     StepProfile& profile, const GridExtent* whole,
                                     const std::uint32_t* ids) {
    using clock = std::chrono::steady_clock;
    const auto t_start = clock::now();
    threads = step_threads(world.size(), threads);
    apply_fast_path_target_environment(); // before the lane count or a kernel is dispatched
    if (!(params.visual_range > 0.0)) {
        return false;
    }
    // On a torus, an obstacle whose keep-out may push an agent across the world's edge takes the plain path.
    if (params.boundary == Boundary::Wrap &&
        !obstacles_keep_points_in_world(params, params.dimensions == 3)) {
        sync(world, true, threads);
        return false;
    }
    if (loaded_ && world.size() != world_size_) {
        loaded_ = false; // the world changed shape behind our back: it is the only copy
    }
    if (!loaded_) {
        load(world, params, threads);
    }
    if (!compute_geometry(params, threads, whole)) {
        sync(world, true, threads); // give the world back to the plain path
        return false;
    }

    // Phase 1: sort the flock into cell order; wrap and note the predators' old positions.
    const bool wrap = params.boundary == Boundary::Wrap;
    const classic::Constants<Real> c(params);
    const std::size_t m = cur_.agent.size();
    const std::size_t cells = cell_count();
    const bool cells_known = cells_valid_ && grid_ == cells_grid_;
    slot_cell_.resize(m + slot_padding<Real>()); // the kernel reads a vector past a line's last cell
    sorted_cell_.resize(cells_known ? 0 : m);    // only the general fix-up needs each slot's cell
    cell_start_.resize(cells + 1);
    newcomers_at_.resize(cells);
    histograms_.resize(2 * static_cast<std::size_t>(threads) * cells); // two counters per cell and thread
    chunk_total_.resize(static_cast<std::size_t>(threads));
    next_.resize(m, slot_padding<Real>(), has_scouts_, three_d_, perching_);
    predator_x_.resize(predators_.size());
    predator_y_.resize(predators_.size());
    predator_z_.resize(three_d_ ? predators_.size() : 0);
    for (std::size_t p = 0; p < predators_.size(); ++p) {
        const std::uint32_t i = predators_[p];
        if (wrap) {
            world.x[i] = classic::wrap_position(world.x[i], c.width);
            world.y[i] = classic::wrap_position(world.y[i], c.height);
            if (three_d_) {
                world.z[i] = classic::wrap_position(world.z[i], c.depth);
            }
        }
        predator_x_[p] = world.x[i];
        predator_y_[p] = world.y[i];
        if (three_d_) {
            predator_z_[p] = world.z[i];
        }
    }

    // Phase 2: neighbour pass, a line of cells at a time, from next_ (sorted, old) into cur_ (new). In wrap
    // mode the grid is the same next step, so the kernel also bins the new positions for its sort.
    fast::FlockInCellOrder<Real> flock{c};
    flock.nx = grid_.nx;
    flock.ny = grid_.ny;
    flock.nz = grid_.nz;
    flock.cell_start = cell_start_.data();
    flock.x = next_.x.data();
    flock.y = next_.y.data();
    flock.vx = next_.vx.data();
    flock.vy = next_.vy.data();
    flock.z = next_.z.data();
    flock.vz = next_.vz.data();
    flock.agent = next_.agent.data();
    flock.predator_x = predator_x_.data();
    flock.predator_y = predator_y_.data();
    flock.predator_z = predator_z_.data();
    flock.predators = predators_.size();
    flock.kind = next_.kind.data();
    flock.bias = next_.bias.data();
    flock.has_scouts = has_scouts_;
    flock.new_x = cur_.x.data();
    flock.new_y = cur_.y.data();
    flock.new_vx = cur_.vx.data();
    flock.new_vy = cur_.vy.data();
    flock.new_z = cur_.z.data();
    flock.new_vz = cur_.vz.data();
    flock.new_bias = cur_.bias.data();
    obstacle_reach_ = obstacle_reach_boxes<Real>(params, three_d_);
    flock.obstacle_reach = obstacle_reach_.data();
    flock.obstacles = obstacle_reach_.size();
    flock.params = &params;
    food_reach_ = food_reach_boxes<Real>(params, three_d_, step);
    flock.food_reach = food_reach_.data();
    flock.food_sources = food_reach_.size();
    flock.step = step;
    const Ledge ledge(params);
    if (perching_) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        const double lo[3] = {ledge.x0, ledge.y - 1e-5 * std::max(1.0, std::abs(ledge.y)), -inf};
        const double hi[3] = {ledge.x1, ledge.y, inf};
        flock.ledge = &ledge;
        flock.ledge_reach = grown_reach_box<Real>(lo, hi, 0.0);
        flock.rest = next_.rest.data();
        flock.new_rest = cur_.rest.data();
        flock.ids = ids;
    }
    const bool bin_in_kernel = wrap && cells < fast::moved_cell_flag;
    if (bin_in_kernel) {
        flock.new_cell = slot_cell_.data();
        flock.next_grid = grid_;
        if (!(bounds_grid_ == grid_)) {
            const std::size_t padding = slot_padding<Real>();
            col_bound_ = detail::line_bound_table<Real>(grid_.origin_x, grid_.cell_w, grid_.nx, padding);
            row_bound_ = detail::line_bound_table<Real>(grid_.origin_y, grid_.cell_h, grid_.ny, padding);
            layer_bound_ = detail::line_bound_table<Real>(grid_.origin_z, grid_.cell_d, grid_.nz, padding);
            bounds_grid_ = grid_;
        }
        flock.col_bound = col_bound_.data();
        flock.row_bound = row_bound_.data();
        flock.layer_bound = layer_bound_.data();
    }
    // One team for the whole step: the sort's phases and the lines, with no thread start-up in between.
    auto t_neighbours = t_start;
    const int lines = grid_.ny * grid_.nz;
    const int chunk = lines_per_chunk(lines, threads);
#pragma omp parallel num_threads(threads)
    {
        sort_by_cell(cells_known);
#pragma omp master
        t_neighbours = clock::now();
        if (m > 0) {
#pragma omp for schedule(dynamic, chunk) nowait
            for (int line = 0; line < lines; ++line) {
                fast::neighbour_lines(flock, line, line + 1);
            }
        }
    }
    cells_valid_ = bin_in_kernel;
    cells_grid_ = grid_;
    profile.grid_build_ms = std::chrono::duration<double, std::milli>(t_neighbours - t_start).count();
    // The new state is in slot order of next_: its agent and kind columns go with it.
    cur_.agent.swap(next_.agent);
    cur_.kind.swap(next_.kind);
    profile.neighbours_ms = ms_since(t_neighbours);

    // Phase 3: predators: what they see of the flock before it moved, their steering, then their move.
    const auto t_integrate = clock::now();
    move_predators(world, params, c);
    // A world looked at since the last step will likely be looked at after this one: its rows are brought
    // up to date now, so that the first look costs a copy, not a scatter of the flock.
    world_current_ = false;
    if (looked_at_) {
        write_back(world, threads);
        looked_at_ = false;
    }
    profile.integrate_ms = ms_since(t_integrate);
    profile.total_ms = ms_since(t_start);
    return true;
}

template struct SlotColumns<float>;
template struct SlotColumns<double>;
template class FastStepScratch<float>;
template class FastStepScratch<double>;
template class FastClassicStep<float>;
template class FastClassicStep<double>;

} // namespace detail
} // namespace boids
