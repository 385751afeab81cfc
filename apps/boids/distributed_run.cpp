#include "distributed_run.hpp"

#include "boids/error.hpp"
#include "boids/metrics.hpp"
#include "boids/precision.hpp"
#include "boids/spawn.hpp"
#include "boids/state_io.hpp"
#include "boids/trajectory.hpp"
#include "mpi/communicator.hpp"
#include "mpi/distributed_simulation.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>

namespace boids::cli {

namespace {

template <class Real>
void run_ranks(const RunPlan& plan, const mpi::Communicator& ranks) {
    const Scenario& sc = plan.scenario;
    long long first_step = 0;
    World<Real> world;
    ranks.on_root([&] {
        world = plan.init_file ? read_state_csv<Real>(*plan.init_file, sc.params, &first_step)
                               : spawn_world<Real>(sc.params, sc.agents, sc.seed);
    });
    std::vector<std::uint64_t> saved_at{static_cast<std::uint64_t>(first_step)};
    ranks.broadcast_values(saved_at);
    first_step = static_cast<long long>(saved_at[0]);
    const std::size_t agents = world.size();
    mpi::DistributedSimulation<Real> sim(ranks, sc.params, std::move(world), first_step, plan.threads);

    // Outputs live on root; the others take part in gathering the flock when a frame is due.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> metrics_out(nullptr,
                                                                [](std::FILE* f) { return std::fclose(f); });
    std::optional<TrajectoryWriter<Real>> trajectory;
    ranks.on_root([&] {
        if (plan.metrics_file) {
            metrics_out.reset(open_metrics(*plan.metrics_file));
        }
        if (plan.trajectory_file) {
            trajectory.emplace(*plan.trajectory_file, agents, sc.params.dimensions);
        }
    });
    const auto observe = [&](long long t) {
        const bool metrics_due = plan.metrics_file && t % plan.metrics_every == 0;
        const bool frame_due = plan.trajectory_file && t % plan.trajectory_every == 0;
        if (!metrics_due && !frame_due) {
            return;
        }
        const World<Real> whole = sim.gather();
        ranks.on_root([&] {
            if (metrics_due) {
                Metrics m = compute_metrics(whole, sim.params(), plan.threads);
                m.step = t;
                if (std::fprintf(metrics_out.get(), "%s\n", metrics_csv_row(m).c_str()) < 0) {
                    throw IoError("metrics file " + *plan.metrics_file + ": cannot write it (" +
                                  std::strerror(errno) + ")");
                }
            }
            if (frame_due) {
                trajectory->write_frame(whole, t);
            }
        });
    };
    const auto start = std::chrono::steady_clock::now();
    observe(0);
    for (long long i = 1; i <= plan.steps; ++i) {
        sim.step(1);
        observe(i);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const World<Real> whole = sim.gather();
    const mpi::DistributedStats& s = sim.stats();
    // Over the job: agents handed over and bytes sent (counted after the first deal).
    std::vector<std::uint64_t> sent{static_cast<std::uint64_t>(s.handed_over),
                                    static_cast<std::uint64_t>(s.bytes_sent)};
    ranks.sum(sent);
    ranks.on_root([&] {
        if (trajectory) {
            trajectory->close();
        }
        if (metrics_out && (std::ferror(metrics_out.get()) != 0 || std::fflush(metrics_out.get()) != 0)) {
            throw IoError("metrics file " + *plan.metrics_file + ": cannot write it (" +
                          std::strerror(errno) + ")");
        }
        if (plan.dump_file) {
            write_state_csv(*plan.dump_file, whole, sim.steps_taken());
        }
        const double per = s.steps > 0 ? 1.0 / static_cast<double>(s.steps) : 0.0;
        char line[400];
        std::snprintf(
            line, sizeof line,
            "%.3f ms on rank 0: halo %.3f, step %.3f (fast path on %lld of %lld steps), migrate %.3f; "
            "imbalance %.2f; job: %.0f bytes sent, %.1f agents handed over; %lld rebalances",
            (s.halo_s + s.compute_s + s.migrate_s) * per * 1e3, s.halo_s * per * 1e3, s.compute_s * per * 1e3,
            s.fast_steps, s.steps, s.migrate_s * per * 1e3, s.steps > 0 ? s.imbalance_sum * per : 1.0,
            static_cast<double>(sent[1]) * per, static_cast<double>(sent[0]) * per, s.rebalances);
        print_summary(plan, whole, sim.params(),
                      std::to_string(ranks.size()) + " ranks x " + std::to_string(plan.threads) + " threads",
                      line, plan.steps, seconds);
    });
}

} // namespace

void run_distributed(const RunPlan& plan, const mpi::Communicator& ranks) {
    if (plan.control_port || plan.record_file || plan.trace_file) {
        throw InputError("under mpirun, boids run takes neither --control, --record nor --trace (they follow "
                         "one process's flock); run them without mpirun");
    }
    with_precision(plan.precision, [&]<class Real>() { run_ranks<Real>(plan, ranks); });
}

} // namespace boids::cli
