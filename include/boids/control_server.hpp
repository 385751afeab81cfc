#pragma once
/// The control port: a TCP server that accepts command lines from any number of clients and hands them
/// to the thread that owns the simulation, which runs them between steps.
///
/// Integration point (headless run, viewer): the driving loop calls `apply_pending(controller)` once
/// per step or frame; commands are queued by the clients' threads and executed there, in arrival order,
/// so a change never lands in the middle of a step. Each client thread waits for its reply and sends it.

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
    std::size_t max_clients = 256;  ///< further connections get one `error` line and are closed
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

    /// Runs every queued command against `controller` (execute_control_command) and releases the
    /// waiting clients. Returns how many commands ran.
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
    struct Request {
        std::string line;
        std::string reply;
        bool done = false;
    };
    struct Client {
        int fd = -1;
        std::thread thread;
        std::atomic<bool> finished{false};
    };

    void accept_loop();
    void serve_client(Client& client);
    /// Queues a line and waits for its reply (or for the server to stop).
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
};

} // namespace boids
