#include "mpi/communicator.hpp"

#include "boids/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <thread>

#ifdef BOIDS_HAVE_MPI
#include <mpi.h>
#endif

namespace boids::mpi {

namespace {

/// True when a launcher started this process as a rank of a job.
bool launched_as_rank() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
        if (std::getenv(name) != nullptr) {
            return true;
        }
    }
    return false;
}

#ifdef BOIDS_HAVE_MPI
/// A byte count as MPI's int; a message beyond 2 GiB is refused rather than truncated.
int as_count(std::size_t n) {
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw std::runtime_error("a message between ranks exceeds 2 GiB; use more ranks");
    }
    return static_cast<int>(n);
}

/// Waits for a started collective to complete, sleeping between polls once it has polled for a while.
///
/// MPI's own wait spins; on a shared or oversubscribed machine (more ranks than cores, or other programs
/// on them) a spinning rank keeps a core from the rank it waits for, and with the yield OpenMPI turns on
/// when oversubscribed it is worse: on Linux's EEVDF scheduler (6.6 and later) each sched_yield pushes the
/// caller's virtual deadline one time slice later, so a rank that yields through a long wait is then
/// passed over for as many slices by every CPU-bound task once the message arrives. Measured with two
/// ranks and two busy loops on 2 cores: the 3D test scene took 10 to 19 s instead of 0.7 s, and at higher
/// load a run stalled for minutes. A sleeping rank leaves its core to the others and wakes with a fresh
/// deadline. A collective completes only while its ranks call into MPI, so the sleeps stay short.
void complete(MPI_Request& request) {
    using clock = std::chrono::steady_clock;
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    const auto spin_until = clock::now() + std::chrono::microseconds(50); // a quiet machine answers by then
    while (done == 0 && clock::now() < spin_until) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
    auto pause = std::chrono::microseconds(10);
    while (done == 0) {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(500));
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
}

/// Displacements of consecutive blocks, each checked to fit an int.
std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> at(counts.size(), 0);
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        at[r] = as_count(total);
        total += static_cast<std::size_t>(counts[r]);
    }
    (void)as_count(total);
    return at;
}
#endif

} // namespace

int launcher_rank() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
        if (const char* value = std::getenv(name); value != nullptr) {
            return std::atoi(value);
        }
    }
    return 0;
}

Communicator::Communicator([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef BOIDS_HAVE_MPI
    if (launched_as_rank()) {
        MPI_Init(&argc, &argv);
        initialised_ = true;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
#else
    if (launched_as_rank() && std::getenv("OMPI_COMM_WORLD_RANK") != nullptr &&
        std::string(std::getenv("OMPI_COMM_WORLD_SIZE")) != "1") {
        // Each copy would run the whole job on its own and race for the same output files.
        throw std::runtime_error("this boids was built without MPI (BOIDS_MPI=OFF): run it without mpirun");
    }
#endif
}

Communicator::~Communicator() {
#ifdef BOIDS_HAVE_MPI
    if (initialised_) {
        MPI_Finalize();
    }
#endif
}

void Communicator::abort(int code) const {
#ifdef BOIDS_HAVE_MPI
    if (initialised_) {
        MPI_Abort(MPI_COMM_WORLD, code);
    }
#endif
    std::exit(code);
}

void Communicator::on_root(const std::function<void()>& check) const {
    // The outcome as bytes: a kind (0 fine, 1 InputError, 2 IoError, 3 another failure) and the message.
    std::vector<std::byte> outcome(1, std::byte{0});
    if (root()) {
        const auto failed = [&](std::byte kind, const char* what) {
            outcome.assign(1, kind);
            for (const char* c = what; *c != 0; ++c) {
                outcome.push_back(static_cast<std::byte>(*c));
            }
        };
        try {
            check();
        } catch (const InputError& e) {
            failed(std::byte{1}, e.what());
        } catch (const IoError& e) {
            failed(std::byte{2}, e.what());
        } catch (const std::exception& e) {
            failed(std::byte{3}, e.what());
        }
    }
    broadcast(outcome);
    const std::string message(reinterpret_cast<const char*>(outcome.data()) + 1, outcome.size() - 1);
    if (outcome[0] == std::byte{1}) {
        throw InputError(message);
    }
    if (outcome[0] == std::byte{2}) {
        throw IoError(message);
    }
    if (outcome[0] == std::byte{3}) {
        throw std::runtime_error(message);
    }
}

void Communicator::broadcast([[maybe_unused]] std::vector<std::byte>& bytes) const {
#ifdef BOIDS_HAVE_MPI
    if (!distributed()) {
        return;
    }
    std::uint64_t n = bytes.size();
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
    complete(request);
    bytes.resize(n);
    MPI_Ibcast(bytes.data(), as_count(n), MPI_BYTE, 0, MPI_COMM_WORLD, &request);
    complete(request);
#endif
}

void Communicator::broadcast_values([[maybe_unused]] std::vector<std::uint64_t>& values) const {
#ifdef BOIDS_HAVE_MPI
    if (distributed()) {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Ibcast(values.data(), as_count(values.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
        complete(request);
    }
#endif
}

std::vector<std::byte> Communicator::gather(const std::vector<std::byte>& mine,
                                            std::vector<std::size_t>* counts) const {
    if (!distributed()) {
        if (counts != nullptr) {
            *counts = {mine.size()};
        }
        return mine;
    }
#ifdef BOIDS_HAVE_MPI
    const int n = as_count(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_), 0);
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Igather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    complete(request);
    std::vector<std::byte> all;
    std::vector<int> at;
    if (root()) {
        at = displacements(sizes);
        all.resize(static_cast<std::size_t>(at.back()) + static_cast<std::size_t>(sizes.back()));
        if (counts != nullptr) {
            counts->assign(sizes.begin(), sizes.end());
        }
    }
    MPI_Igatherv(mine.data(), n, MPI_BYTE, all.data(), sizes.data(), at.data(), MPI_BYTE, 0, MPI_COMM_WORLD,
                 &request);
    complete(request);
    return all;
#else
    return mine;
#endif
}

std::vector<std::byte> Communicator::exchange(const std::vector<std::vector<std::byte>>& outbox) const {
    if (!distributed()) {
        return outbox.at(0);
    }
#ifdef BOIDS_HAVE_MPI
    const auto ranks = static_cast<std::size_t>(size_);
    std::vector<int> send_counts(ranks), recv_counts(ranks);
    std::vector<std::byte> send;
    for (std::size_t r = 0; r < ranks; ++r) {
        send_counts[r] = as_count(outbox[r].size());
        send.insert(send.end(), outbox[r].begin(), outbox[r].end());
    }
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ialltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
    complete(request);
    const std::vector<int> send_at = displacements(send_counts), recv_at = displacements(recv_counts);
    std::vector<std::byte> received(static_cast<std::size_t>(recv_at.back()) +
                                    static_cast<std::size_t>(recv_counts.back()));
    MPI_Ialltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, received.data(),
                   recv_counts.data(), recv_at.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
    complete(request);
    return received;
#else
    return outbox.at(0);
#endif
}

void Communicator::sum([[maybe_unused]] std::vector<std::uint64_t>& values) const {
#ifdef BOIDS_HAVE_MPI
    if (distributed()) {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Iallreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_UINT64_T, MPI_SUM,
                       MPI_COMM_WORLD, &request);
        complete(request);
    }
#endif
}

void Communicator::max([[maybe_unused]] std::vector<double>& values) const {
#ifdef BOIDS_HAVE_MPI
    if (distributed()) {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Iallreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_DOUBLE, MPI_MAX,
                       MPI_COMM_WORLD, &request);
        complete(request);
    }
#endif
}

double Communicator::now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace boids::mpi
