#pragma once
// The ranks of a job and the few collective operations the distributed run and sweep need (internal).
//
// Built on MPI when the program is (BOIDS_MPI) and started by a launcher (mpirun, srun); otherwise the
// job is this one process and every operation is the one-rank case of the same collective. Nothing here is
// a transport of its own: with more than one rank every byte moves through MPI. Every operation is a
// non-blocking collective completed by polling that sleeps while it waits (see complete() in the .cpp):
// ranks often share cores, and a rank that spins in MPI starves the rank it waits for.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace boids::mpi {

/// This process's rank as the launcher gave it (0 when none did): who reports before MPI starts.
[[nodiscard]] int launcher_rank();

/// MPI_COMM_WORLD, initialised for the life of the object (one per process, in main).
class Communicator {
public:
    /// Initialises MPI when a launcher started this process (it sets OMPI_COMM_WORLD_SIZE, PMIX_RANK or
    /// PMI_RANK); a plain start stays a one-rank job without touching MPI.
    Communicator(int& argc, char**& argv);
    ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    /// This process's rank, in [0, size()).
    [[nodiscard]] int rank() const { return rank_; }
    /// The number of ranks.
    [[nodiscard]] int size() const { return size_; }
    /// True on rank 0, the one that reads, writes and prints.
    [[nodiscard]] bool root() const { return rank_ == 0; }
    /// True when more than one rank takes part (MPI calls are made).
    [[nodiscard]] bool distributed() const { return size_ > 1; }

    /// Ends every rank of the job with `code` (a rank failed while the others may wait on it).
    [[noreturn]] void abort(int code) const;

    /// Runs `check` on root only (file checks, reading a file to resume); when it throws InputError,
    /// IoError or another std::exception (as std::runtime_error), every rank throws the same, so that the job
    /// ends with one message and one exit code instead of ranks waiting on a root that left.
    void on_root(const std::function<void()>& check) const;

    /// Root's bytes, on every rank.
    void broadcast(std::vector<std::byte>& bytes) const;
    /// Root's values, on every rank (the vector has the same size everywhere).
    void broadcast_values(std::vector<std::uint64_t>& values) const;
    /// Every rank's bytes, concatenated in rank order, on root (empty elsewhere); `counts` gets each
    /// rank's share on root.
    [[nodiscard]] std::vector<std::byte> gather(const std::vector<std::byte>& mine,
                                                std::vector<std::size_t>* counts = nullptr) const;
    /// Sends outbox[r] to rank r (outbox has size() entries); returns what every rank sent to this one,
    /// concatenated in rank order.
    [[nodiscard]] std::vector<std::byte> exchange(const std::vector<std::vector<std::byte>>& outbox) const;
    /// Element-wise sum or maximum over the ranks, in place, on every rank.
    void sum(std::vector<std::uint64_t>& values) const;
    void max(std::vector<double>& values) const;
    /// Seconds on a clock shared by the job's timers.
    [[nodiscard]] static double now();

private:
    int rank_ = 0;
    int size_ = 1;
    bool initialised_ = false;
};

/// Bytes of trivially copyable values, appended and read back in order (records sent between ranks).
template <class T>
void put(std::vector<std::byte>& out, const T& value) {
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
}

} // namespace boids::mpi
