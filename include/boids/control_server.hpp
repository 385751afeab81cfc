#pragma once
/// The control port: a TCP server that accepts command lines from any number of clients and hands them
/// to the thread that owns the simulation, which runs them between steps.
///
/// Integration point (headless run, viewer): the driving loop calls `apply_pending(controller)` once
/// per step or frame; commands are queued by the clients' threads and executed there, in arrival order,
/// so a change never lands in the middle of a step. Each client thread waits for its reply and sends it.
///
/// Fairness: no client can lock the others out. A connection that completes no command line for
/// `idle_timeout` is closed (bytes that never end a line do not count, so a trickling client is closed
/// too). When all `max_clients` slots are taken, a new connection takes the slot of the one that has gone
/// longest without a command (if that is over `evict_after`). A command queued behind another client's
/// command that has run for over `busy_timeout` (a big step or spawn) is withdrawn and answered `error
/// busy ...`, so no client waits on another's long command; behind the loop's own step a command waits
/// for that one step, then runs. The work one command may ask for is bounded by the protocol
/// (control_protocol.hpp).

#include "boids/simulation_controller.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace boids {

/// Where and how the control server listens.
struct ControlServerOptions {
    std::string host = "127.0.0.1"; ///< IPv4 address to bind; "localhost" means 127.0.0.1
    int port = 0;                   ///< 0 = an ephemeral port chosen by the system (see port())
    std::size_t max_clients = 256;  ///< connections at once (see evict_after)
    /// A connection that completes no command line for this long gets an `error` line and is closed.
    std::chrono::milliseconds idle_timeout{std::chrono::minutes(5)};
    /// With every slot taken, a new connection replaces the one longest without a command if that one
    /// has been idle this long; otherwise the newcomer gets an `error` line and is closed.
    std::chrono::milliseconds evict_after{std::chrono::seconds(1)};
    /// A queued command still waiting when another client's command has run this long is answered
    /// `error busy` and not run (below the Python client's 5 s timeout).
    std::chrono::milliseconds busy_timeout{std::chrono::seconds(3)};
};

/// A line-protocol TCP server (control_protocol.hpp). Starts listening in the constructor, stops in
/// stop() or the destructor. Thread-safe; apply_pending() must be called by the simulation's thread.
class ControlServer {
public:
    /// Binds and listens. Throws InputError for a bad host or a port that cannot be bound.
    explicit ControlServer(ControlServerOptions options);
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    /// The bound port (the system's choice when the options said 0).
    [[nodiscard]] int port() const { return port_; }
    [[nodiscard]] const std::string& host() const { return options_.host; }

    /// Runs the commands queued when it is called against `controller` (execute_control_command), one by
    /// one, releasing each client as soon as its command has run. Returns how many commands ran.
    std::size_t apply_pending(SimulationController& controller);
    /// Same with any executor mapping a command line to a reply line (for loops that own another kind
    /// of simulation). The executor must not throw.
    std::size_t apply_pending(const std::function<std::string(std::string_view)>& execute);

    /// Blocks until a command is queued or `deadline` passes; true if commands are waiting.
    bool wait_for_pending(std::chrono::steady_clock::time_point deadline);

    /// Clients connected right now.
    [[nodiscard]] std::size_t client_count() const;

    /// Stops accepting, disconnects every client (pending commands are answered `error server
    /// stopping`) and joins the threads. Idempotent.
    void stop();

private:
    using Clock = std::chrono::steady_clock;
    struct Request {
        std::string line;
        std::string reply;
        bool started = false; ///< taken by apply_pending: the client waits for it however long it runs
        bool done = false;
    };
    /// Idle: waiting for a line (may be evicted); Busy: running a command; Evicted: its slot was given
    /// to a new connection. Idle -> Busy and Idle -> Evicted are compare-and-swaps: never both.
    enum class ClientState { Idle, Busy, Evicted };
    struct Client {
        int fd = -1;
        std::thread thread;
        std::atomic<bool> finished{false};
        std::atomic<ClientState> state{ClientState::Idle};
        std::atomic<Clock::rep> last_command{0}; ///< when it connected or last completed a line
    };

    void accept_loop();
    /// With every slot taken: evicts the idle client longest without a command; false if none may go.
    bool evict_longest_idle();
    void serve_client(Client& client);
    /// Runs one complete line (framing check, queue, reply); false when the client must be dropped.
    bool answer_line(Client& client, std::string& line);
    /// Queues a line and waits for its reply (or for the server to stop, or for another command to run
    /// past busy_timeout while this one waits).
    std::string submit(std::string line);
    void reap_finished_clients();

    ControlServerOptions options_;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::thread accept_thread_;

    mutable std::mutex clients_mutex_;
    std::list<Client> clients_;

    std::mutex queue_mutex_;
    std::condition_variable queue_cv_; ///< a request was queued
    std::condition_variable reply_cv_; ///< a reply is ready, or the server is stopping
    std::deque<std::shared_ptr<Request>> queue_;
    bool running_command_ = false;      ///< apply_pending is running a command (since command_started_)
    Clock::time_point command_started_; ///< (both guarded by queue_mutex_)
};

} // namespace boids
