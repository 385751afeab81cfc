#include "mpi/distributed_simulation.hpp"

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/simulation.hpp"
#include "classic_rules.hpp"
#include "models/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <utility>

namespace boids::mpi {

namespace {

/// Every column of `w` (z and vz only in 3D) at `n` rows.
template <class Real>
void resize_columns(World<Real>& w, std::size_t n, bool three_d) {
    w.kind.resize(n);
    for (auto* column : {&w.x, &w.y, &w.vx, &w.vy, &w.bias}) {
        column->resize(n);
    }
    if (three_d) {
        w.z.resize(n);
        w.vz.resize(n);
    }
    w.target.resize(n);
    w.rest.resize(n);
}

/// An agent as bytes between ranks: its global index, state and extension state, every value as its bits.
template <class Real>
struct Codec {
    bool three_d = false;

    [[nodiscard]] std::size_t record_size() const {
        return sizeof(std::uint64_t) + 2 * sizeof(std::int32_t) + sizeof(std::uint8_t) +
               (three_d ? 7 : 5) * sizeof(Real);
    }

    void write(std::vector<std::byte>& out, const World<Real>& w, std::size_t i, std::uint64_t id) const {
        put(out, id);
        put(out, w.target[i]);
        put(out, w.rest[i]);
        put(out, static_cast<std::uint8_t>(w.kind[i]));
        for (const auto* column : {&w.x, &w.y, &w.vx, &w.vy, &w.bias}) {
            put(out, (*column)[i]);
        }
        if (three_d) {
            put(out, w.z[i]);
            put(out, w.vz[i]);
        }
    }

    /// Appends every record of `bytes` to (w, ids).
    void read(const std::vector<std::byte>& bytes, World<Real>& w, std::vector<std::uint64_t>& ids) const {
        const std::size_t records = bytes.size() / record_size();
        const std::size_t first = w.size();
        resize_columns(w, first + records, three_d);
        ids.resize(first + records);
        const std::byte* p = bytes.data();
        const auto take = [&p](auto& value) {
            std::memcpy(&value, p, sizeof value);
            p += sizeof value;
        };
        for (std::size_t i = first; i < first + records; ++i) {
            std::uint8_t kind = 0;
            take(ids[i]);
            take(w.target[i]);
            take(w.rest[i]);
            take(kind);
            w.kind[i] = static_cast<Kind>(kind);
            for (auto* column : {&w.x, &w.y, &w.vx, &w.vy, &w.bias}) {
                take((*column)[i]);
            }
            if (three_d) {
                take(w.z[i]);
                take(w.vz[i]);
            }
        }
    }
};

/// Rows `rows` of `w`, in that order (a column at a time).
template <class Real>
World<Real> pick(const World<Real>& w, const std::vector<std::size_t>& rows) {
    World<Real> out;
    const auto gather = [&rows](const auto& from, auto& to) {
        to.resize(rows.size());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            to[k] = from[rows[k]];
        }
    };
    gather(w.kind, out.kind);
    gather(w.x, out.x);
    gather(w.y, out.y);
    gather(w.vx, out.vx);
    gather(w.vy, out.vy);
    gather(w.bias, out.bias);
    if (w.has_depth()) {
        gather(w.z, out.z);
        gather(w.vz, out.vz);
    }
    gather(w.target, out.target);
    gather(w.rest, out.rest);
    return out;
}

/// Puts (w, ids) in ascending global order. The rows arrive as a few ascending runs (the agents kept,
/// then what each other rank sent, each in its own global order), so merging the runs sorts them.
template <class Real>
void sort_by_id(World<Real>& w, std::vector<std::uint64_t>& ids) {
    if (std::is_sorted(ids.begin(), ids.end())) {
        return;
    }
    std::vector<std::size_t> order(ids.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto by_id = [&ids](std::size_t a, std::size_t b) { return ids[a] < ids[b]; };
    for (std::size_t run_end = 1, run_begin = 0; run_end <= ids.size(); ++run_end) {
        if (run_end == ids.size() || ids[run_end] < ids[run_end - 1]) {
            // order[0, run_begin) is sorted; merge the run [run_begin, run_end) into it.
            std::inplace_merge(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(run_begin),
                               order.begin() + static_cast<std::ptrdiff_t>(run_end), by_id);
            run_begin = run_end;
        }
    }
    w = pick(w, order);
    std::vector<std::uint64_t> sorted(ids.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        sorted[k] = ids[order[k]];
    }
    ids = std::move(sorted);
}

/// The longest distance at which one agent affects another in a step: beyond it nothing is summed.
double interaction_reach(const Params& p, bool predators) {
    // The model's grid range bounds its neighbours (the classic model's is the visual range, which holds
    // the protected range); predators see and are seen farther.
    const double longest =
        std::max(grid_range(p), predators ? std::max(p.predator_range, p.predator_vision) : 0.0);
    return longest * (1 + 1e-6) + 1e-6; // no rounding in a distance may reach past the halo
}

std::string format_number(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace

void check_distributable(const Params& p, int ranks, bool predators) {
    const auto refuse = [&](const std::string& why) {
        throw InputError("mpirun -np " + std::to_string(ranks) + ": " + why);
    };
    const bool k_nearest = models::with_model(p.model, [&]<class M>() {
        using Policy =
            decltype(M::template policy<double>(p, std::declval<const classic::Constants<double>&>(), 0));
        return Policy::query == NeighbourQuery::KNearest;
    });
    if (k_nearest) {
        refuse(
            "model = " + std::string(model_name(p.model)) +
            " takes the k nearest neighbours, which no fixed halo bounds; a run across ranks needs a model "
            "whose neighbours lie within a range (classic, weighted, vicsek, couzin)");
    }
    if (p.update == UpdateOrder::Sequential) {
        refuse("update = sequential moves one agent after another; a run across ranks needs update = "
               "synchronous");
    }
    // Each rank's sub-domain must be at least one interaction range across: count the range-sized cells.
    const double reach = interaction_reach(p, predators);
    const std::array<double, 3> size{p.width, p.height, p.dimensions == 3 ? p.depth : reach};
    double cells = 1;
    std::string shape;
    for (int a = 0; a < p.dimensions; ++a) {
        const double along = std::max(1.0, std::floor(size[static_cast<std::size_t>(a)] / reach));
        cells *= along;
        shape += (a == 0 ? "" : " x ") + format_number(along);
    }
    if (static_cast<double>(ranks) > cells) {
        refuse(std::to_string(ranks) + " ranks cannot split a " + format_number(p.width) + " x " +
               format_number(p.height) + (p.dimensions == 3 ? " x " + format_number(p.depth) : "") +
               " world whose interaction range is " + format_number(reach) + " (" + shape +
               " cells of that size); use at most " + format_number(cells) + " ranks");
    }
}

template <class Real>
DistributedSimulation<Real>::DistributedSimulation(const Communicator& comm, const Params& params,
                                                   World<Real> world, long long first_step, int threads,
                                                   double rebalance_at)
    : comm_(comm), params_(params), threads_(threads), rebalance_at_(rebalance_at), step_(first_step) {
    // The members of the flocking agents' and the predators' grids: kinds never change, so neither do they.
    std::vector<std::uint64_t> members(2, 0);
    if (comm_.root()) {
        members[1] = static_cast<std::uint64_t>(world.counts().predators);
        members[0] = world.size() - members[1];
    }
    comm_.broadcast_values(members);
    members_ = {members[0], members[1]};
    check_distributable(params_, comm_.size(), members_[1] > 0);
    space_.size = {params_.width, params_.height, params_.dimensions == 3 ? params_.depth : 0.0};
    space_.dimensions = params_.dimensions;
    space_.wrap = params_.boundary == Boundary::Wrap;
    reach_ = interaction_reach(params_, members_[1] > 0);
    // Root cuts the world by the initial positions and deals the agents out.
    std::vector<std::byte> tree;
    if (comm_.root()) {
        if (params_.dimensions == 3) {
            const Real middle = ScalarTraits<Real>::from_double(params_.depth / 2);
            world.z.resize(world.size(), middle); // as Simulation conforms a planar state to 3D
            world.vz.resize(world.size(), Real(0));
        } else {
            world.drop_depth();
        }
        mine_ = std::move(world);
        ids_.resize(mine_.size());
        std::iota(ids_.begin(), ids_.end(), std::uint64_t{0});
        std::vector<std::array<double, 3>> points(mine_.size());
        for (std::size_t i = 0; i < mine_.size(); ++i) {
            points[i] = position(i);
        }
        tree = Decomposition::balanced(space_, comm_.size(), std::move(points)).bytes();
    }
    comm_.broadcast(tree);
    decomposition_ = Decomposition::from_bytes(space_, tree);
    migrate();
    stats_ = {}; // the figures are the steps'; the first deal is not one
}

template <class Real>
std::array<double, 3> DistributedSimulation<Real>::position(std::size_t i) const {
    std::array<double, 3> p{static_cast<double>(mine_.x[i]), static_cast<double>(mine_.y[i]),
                            mine_.has_depth() ? static_cast<double>(mine_.z[i]) : 0.0};
    if (space_.wrap) { // the position the step's grid will see
        for (int a = 0; a < space_.dimensions; ++a) {
            const auto ua = static_cast<std::size_t>(a);
            const Real length = ScalarTraits<Real>::from_double(space_.size[ua]);
            p[ua] =
                static_cast<double>(classic::wrap_position(ScalarTraits<Real>::from_double(p[ua]), length));
        }
    }
    return p;
}

template <class Real>
void DistributedSimulation<Real>::wrap_positions() {
    if (!space_.wrap) {
        return;
    }
    const classic::Constants<Real> c(params_);
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        mine_.x[i] = classic::wrap_position(mine_.x[i], c.width);
        mine_.y[i] = classic::wrap_position(mine_.y[i], c.height);
        if (c.three_d) {
            mine_.z[i] = classic::wrap_position(mine_.z[i], c.depth);
        }
    }
}

template <class Real>
void DistributedSimulation<Real>::migrate() {
    const Codec<Real> codec{params_.dimensions == 3};
    std::vector<std::vector<std::byte>> outbox(static_cast<std::size_t>(comm_.size()));
    std::vector<std::size_t> keep;
    std::vector<std::uint64_t> kept_ids;
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        const int owner = decomposition_.owner(position(i));
        if (owner == comm_.rank()) {
            keep.push_back(i);
            kept_ids.push_back(ids_[i]);
        } else {
            codec.write(outbox[static_cast<std::size_t>(owner)], mine_, i, ids_[i]);
            stats_.bytes_sent += static_cast<double>(codec.record_size());
            ++stats_.handed_over;
        }
    }
    const std::vector<std::byte> arrived = comm_.exchange(outbox);
    World<Real> next = pick(mine_, keep);
    codec.read(arrived, next, kept_ids);
    sort_by_id(next, kept_ids);
    mine_ = std::move(next);
    ids_ = std::move(kept_ids);
}

template <class Real>
void DistributedSimulation<Real>::rebalance() {
    std::vector<std::byte> mine;
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        put(mine, position(i));
    }
    const std::vector<std::byte> all = comm_.gather(mine);
    std::vector<std::byte> tree;
    if (comm_.root()) {
        std::vector<std::array<double, 3>> points(all.size() / sizeof(std::array<double, 3>));
        std::memcpy(points.data(), all.data(), points.size() * sizeof(std::array<double, 3>));
        tree = Decomposition::balanced(space_, comm_.size(), std::move(points)).bytes();
    }
    comm_.broadcast(tree);
    decomposition_ = Decomposition::from_bytes(space_, tree);
    migrate();
    ++stats_.rebalances;
}

template <class Real>
void DistributedSimulation<Real>::step(long long steps) {
    for (long long s = 0; s < steps; ++s) {
        step_once();
    }
}

template <class Real>
void DistributedSimulation<Real>::step_once() {
    const double t0 = Communicator::now();
    wrap_positions(); // what the step's first phase does; positions are then final for this step
    const Codec<Real> codec{params_.dimensions == 3};

    // One reduction per step gives every rank the same view: the largest share of agents (whether to cut
    // the sub-domains anew) and, in margin mode, the bounding box of each grid's members in the whole
    // flock. Everything is a maximum (a count as a double is exact below 2^53; lower bounds negated), so
    // every rank takes the same decision from the same numbers.
    enum : std::size_t { largest_share, box }; // box: 2 grids x (lo, hi) x 3 axes
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<double> view(box + 12, -inf);
    view[largest_share] = static_cast<double>(ids_.size());
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        const std::size_t g = mine_.kind[i] == Kind::Predator ? 1 : 0;
        const std::array<double, 3> p{static_cast<double>(mine_.x[i]), static_cast<double>(mine_.y[i]),
                                      mine_.has_depth() ? static_cast<double>(mine_.z[i]) : 0.0};
        for (std::size_t a = 0; a < 3; ++a) {
            view[box + 6 * g + a] = std::max(view[box + 6 * g + a], -p[a]);
            view[box + 6 * g + 3 + a] = std::max(view[box + 6 * g + 3 + a], p[a]);
        }
    }
    comm_.max(view);
    const double agents = static_cast<double>(members_[0] + members_[1]);
    const double imbalance =
        agents > 0 ? view[largest_share] * static_cast<double>(comm_.size()) / agents : 1.0;
    stats_.imbalance_sum += imbalance;
    double rebalance_s = 0;
    if (imbalance > rebalance_at_) {
        const double cut_at = Communicator::now();
        rebalance(); // positions, hence the extents, stay as they are
        rebalance_s = Communicator::now() - cut_at;
    }
    std::array<detail::GridExtent, 2> extents;
    for (std::size_t g = 0; g < 2; ++g) {
        extents[g].members = members_[g];
        if (!space_.wrap && extents[g].members > 0) { // a torus grid, or one without members, has no box
            for (std::size_t a = 0; a < 3; ++a) {
                extents[g].box.lo[a] = -view[box + 6 * g + a];
                extents[g].box.hi[a] = view[box + 6 * g + 3 + a];
            }
        }
    }
    // The halo: each agent to every other rank whose sub-domain it is within reach of.
    std::vector<std::vector<std::byte>> outbox(static_cast<std::size_t>(comm_.size()));
    const Decomposition::Box interior = decomposition_.interior(comm_.rank(), reach_);
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        const std::array<double, 3> p = position(i);
        if (interior.contains(p)) {
            continue; // deep inside the sub-domain: no other rank needs it
        }
        decomposition_.ranks_near(p, reach_, comm_.rank(), [&](int r) {
            codec.write(outbox[static_cast<std::size_t>(r)], mine_, i, ids_[i]);
            stats_.bytes_sent += static_cast<double>(codec.record_size());
        });
    }
    World<Real> local = mine_;
    std::vector<std::uint64_t> local_ids = ids_;
    const std::vector<std::byte> halo = comm_.exchange(outbox);
    codec.read(halo, local, local_ids);
    stats_.halo_agents += static_cast<double>(local_ids.size() - ids_.size());
    sort_by_id(local, local_ids);
    const double t1 = Communicator::now();

    // Owned and halo agents in global order; locks name local rows (a prey outside the halo is out of
    // sight, which is what an unknown lock means too).
    std::vector<std::size_t> owned_rows;
    owned_rows.reserve(ids_.size());
    for (std::size_t k = 0, i = 0; k < local_ids.size() && i < ids_.size(); ++k) {
        if (local_ids[k] == ids_[i]) {
            owned_rows.push_back(k);
            ++i;
        }
    }
    for (std::int32_t& t : local.target) {
        if (t >= 0) {
            const auto at =
                std::lower_bound(local_ids.begin(), local_ids.end(), static_cast<std::uint64_t>(t));
            t = at != local_ids.end() && *at == static_cast<std::uint64_t>(t)
                    ? static_cast<std::int32_t>(at - local_ids.begin())
                    : -1;
        }
    }
    Simulation<Real> sim(params_, std::move(local));
    sim.set_steps_taken(step_);
    sim.set_threads(threads_);
    sim.set_whole_flock_grids(extents);
    sim.set_agent_ids(std::vector<std::uint32_t>(local_ids.begin(), local_ids.end()));
    sim.step(1);
    stats_.fast_steps += sim.last_step_fast() ? 1 : 0;
    const World<Real>& after = sim.world();
    for (std::size_t i = 0; i < ids_.size(); ++i) {
        const std::size_t k = owned_rows[i];
        mine_.x[i] = after.x[k];
        mine_.y[i] = after.y[k];
        mine_.vx[i] = after.vx[k];
        mine_.vy[i] = after.vy[k];
        mine_.bias[i] = after.bias[k];
        mine_.rest[i] = after.rest[k];
        const std::int32_t t = after.target[k];
        mine_.target[i] = t >= 0 ? static_cast<std::int32_t>(local_ids[static_cast<std::size_t>(t)]) : -1;
        if (mine_.has_depth()) {
            mine_.z[i] = after.z[k];
            mine_.vz[i] = after.vz[k];
        }
    }
    ++step_;
    const double t2 = Communicator::now();

    migrate();
    const double t3 = Communicator::now();
    stats_.halo_s += t1 - t0 - rebalance_s;
    stats_.compute_s += t2 - t1;
    stats_.migrate_s += t3 - t2 + rebalance_s;
    ++stats_.steps;
}

template <class Real>
World<Real> DistributedSimulation<Real>::gather() const {
    const Codec<Real> codec{params_.dimensions == 3};
    std::vector<std::byte> bytes;
    for (std::size_t i = 0; i < mine_.size(); ++i) {
        codec.write(bytes, mine_, i, ids_[i]);
    }
    const std::vector<std::byte> all = comm_.gather(bytes);
    World<Real> world;
    std::vector<std::uint64_t> ids;
    if (comm_.root()) {
        codec.read(all, world, ids);
        sort_by_id(world, ids); // global index i is row i, so locks are world indices again
    }
    return world;
}

template class DistributedSimulation<float>;
template class DistributedSimulation<double>;
template class DistributedSimulation<Fix15>;

} // namespace boids::mpi
