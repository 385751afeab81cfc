#include "boids/control_server.hpp"

#include "boids/control_protocol.hpp"
#include "boids/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace boids {

namespace {

/// How often the accept loop looks at the stop flag and reaps finished clients.
constexpr int accept_poll_ms = 50;

/// Sends all of `text`; false when the peer is gone. MSG_NOSIGNAL: a vanished client must not raise SIGPIPE.
bool send_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t sent = ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) {
            continue;
        }
        if (sent <= 0) {
            return false;
        }
        text.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
}

in_addr parse_host(const std::string& host) {
    in_addr address{};
    const std::string numeric = host == "localhost" ? "127.0.0.1" : host;
    if (::inet_pton(AF_INET, numeric.c_str(), &address) != 1) {
        throw InputError(invalid_value_message("--control-host", "'" + host + "'",
                                               "expected an IPv4 address such as 127.0.0.1 (or localhost)"));
    }
    return address;
}

} // namespace

ControlServer::ControlServer(ControlServerOptions options) : options_(std::move(options)) {
    if (options_.port < 0 || options_.port > 65535) {
        throw InputError(invalid_value_message("--control", std::to_string(options_.port),
                                               "expected a TCP port in [0, 65535] (0 = any free port)"));
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr = parse_host(options_.host);
    address.sin_port = htons(static_cast<std::uint16_t>(options_.port));

    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) {
        throw std::runtime_error(std::string("control port: socket() failed: ") + std::strerror(errno));
    }
    const int yes = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listen_fd_, 128) != 0) {
        const std::string why = std::strerror(errno);
        ::close(listen_fd_);
        throw InputError(invalid_value_message(
            "--control", options_.host + ":" + std::to_string(options_.port), "cannot listen there: " + why));
    }
    sockaddr_in bound{};
    socklen_t length = sizeof bound;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &length);
    port_ = ntohs(bound.sin_port);
    accept_thread_ = std::thread([this] { accept_loop(); });
}

ControlServer::~ControlServer() {
    stop();
}

void ControlServer::stop() {
    if (stopping_.exchange(true)) {
        return;
    }
    if (accept_thread_.joinable()) {
        accept_thread_.join();
    }
    ::close(listen_fd_);
    {
        std::lock_guard lock(queue_mutex_);
        reply_cv_.notify_all(); // clients waiting for a reply give up
    }
    std::lock_guard lock(clients_mutex_);
    // A client whose command was just answered (`quit`, mostly: the loop stops right after it) sends its
    // reply before its socket is shut down; on a busy machine its thread may not have run yet.
    const auto deadline = Clock::now() + std::chrono::seconds(2);
    for (Client& client : clients_) {
        while (client.state == ClientState::Busy && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    for (Client& client : clients_) {
        ::shutdown(client.fd, SHUT_RDWR); // wakes a client thread blocked in recv()
    }
    for (Client& client : clients_) {
        client.thread.join();
        ::close(client.fd);
    }
    clients_.clear();
}

void ControlServer::accept_loop() {
    pollfd watch{listen_fd_, POLLIN, 0};
    while (!stopping_) {
        reap_finished_clients();
        if (::poll(&watch, 1, accept_poll_ms) <= 0 || !(watch.revents & POLLIN)) {
            continue;
        }
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        // A client that stops reading its replies must not hold its thread in send() for ever.
        const auto send_limit = std::chrono::duration_cast<std::chrono::microseconds>(options_.idle_timeout);
        const timeval send_timeout{static_cast<time_t>(send_limit.count() / 1'000'000),
                                   static_cast<suseconds_t>(send_limit.count() % 1'000'000)};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
        std::lock_guard lock(clients_mutex_);
        std::size_t live = 0;
        for (const Client& client : clients_) {
            live += client.finished || client.state == ClientState::Evicted ? 0 : 1;
        }
        if (live >= options_.max_clients && !evict_longest_idle()) {
            send_all(fd, "error too many clients (limit " + std::to_string(options_.max_clients) +
                             ", all of them active); try again later\n");
            ::close(fd);
            continue;
        }
        Client& client = clients_.emplace_back();
        client.fd = fd;
        client.last_command = Clock::now().time_since_epoch().count();
        client.thread = std::thread([this, &client] { serve_client(client); });
    }
}

bool ControlServer::evict_longest_idle() {
    const Clock::rep latest = (Clock::now() - options_.evict_after).time_since_epoch().count();
    for (;;) {
        Client* oldest = nullptr;
        for (Client& client : clients_) {
            if (!client.finished && client.state == ClientState::Idle && client.last_command <= latest &&
                (!oldest || client.last_command < oldest->last_command)) {
                oldest = &client;
            }
        }
        if (!oldest) {
            return false;
        }
        ClientState idle = ClientState::Idle;
        if (oldest->state.compare_exchange_strong(idle, ClientState::Evicted)) {
            ::shutdown(oldest->fd, SHUT_RD); // wakes its thread, which says why and leaves
            return true;
        }
        // It just completed a line and is busy now: look for another.
    }
}

void ControlServer::reap_finished_clients() {
    std::lock_guard lock(clients_mutex_);
    for (auto it = clients_.begin(); it != clients_.end();) {
        if (it->finished) {
            it->thread.join();
            ::close(it->fd);
            it = clients_.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t ControlServer::client_count() const {
    std::lock_guard lock(clients_mutex_);
    std::size_t live = 0;
    for (const Client& client : clients_) {
        live += client.finished ? 0 : 1;
    }
    return live;
}

void ControlServer::serve_client(Client& client) {
    std::string line;
    bool discarding = false; // inside an over-long line that was already answered
    char buffer[4096];
    bool connected = true;
    while (connected && !stopping_) {
        // Only complete lines count as activity: a client trickling bytes of a line that never ends is
        // as idle as a silent one.
        const auto deadline =
            Clock::time_point(Clock::duration(client.last_command.load())) + options_.idle_timeout;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        pollfd watch{client.fd, POLLIN, 0};
        const int ready =
            left > 0 ? ::poll(&watch, 1, static_cast<int>(std::min<long long>(left, 1'000'000))) : 0;
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (client.state == ClientState::Evicted) {
            send_all(client.fd, "error closed: the server was full and this connection had sent no command "
                                "for the longest time\n");
            break;
        }
        if (ready == 0 && Clock::now() >= deadline) {
            send_all(client.fd,
                     "error closed: no complete command line for " +
                         text::shortest(std::chrono::duration<double>(options_.idle_timeout).count()) +
                         " s\n");
            break;
        }
        if (ready <= 0) {
            continue;
        }
        const ssize_t received = ::recv(client.fd, buffer, sizeof buffer, 0);
        if (received < 0 && errno == EINTR) {
            continue;
        }
        if (received <= 0) {
            if (client.state == ClientState::Evicted) {
                continue; // say why above
            }
            break; // disconnected (a partial line is dropped) or shut down by stop()
        }
        for (ssize_t i = 0; i < received && connected; ++i) {
            const char c = buffer[i];
            if (c == '\n') {
                if (!discarding) {
                    connected = answer_line(client, line);
                }
                discarding = false;
                line.clear();
            } else if (!discarding) {
                line.push_back(c);
                // One byte of slack for the carriage return of a CRLF line ending.
                if (line.size() > max_control_line + 1 ||
                    (line.size() == max_control_line + 1 && line.back() != '\r')) {
                    connected = send_all(client.fd, check_control_line(line) + "\n");
                    discarding = true;
                    line.clear();
                }
            }
        }
    }
    client.finished = true;
}

bool ControlServer::answer_line(Client& client, std::string& line) {
    ClientState idle = ClientState::Idle;
    if (!client.state.compare_exchange_strong(idle, ClientState::Busy)) {
        return true; // evicted: the loop says why and closes
    }
    client.last_command = Clock::now().time_since_epoch().count();
    std::string reply = check_control_line(line);
    if (reply.empty()) {
        reply = submit(std::move(line));
    }
    const bool sent = send_all(client.fd, reply + "\n");
    client.last_command = Clock::now().time_since_epoch().count();
    client.state = ClientState::Idle;
    return sent;
}

std::string ControlServer::submit(std::string line) {
    auto request = std::make_shared<Request>();
    request->line = std::move(line);
    std::unique_lock lock(queue_mutex_);
    if (stopping_) {
        return "error server stopping";
    }
    queue_.push_back(request);
    queue_cv_.notify_all();
    const auto started_or_stopping = [&] { return request->started || stopping_; };
    auto deadline = Clock::now() + options_.busy_timeout;
    while (!reply_cv_.wait_until(lock, deadline, started_or_stopping)) {
        const auto now = Clock::now();
        if (running_command_ && now - command_started_ >= options_.busy_timeout) {
            // Behind another client's long command (a big step or spawn): withdraw this one rather than
            // keep its client waiting without an answer.
            queue_.erase(std::find(queue_.begin(), queue_.end(), request));
            return "error busy: another command has run for over " +
                   text::shortest(std::chrono::duration<double>(options_.busy_timeout).count()) +
                   " s (a long step or spawn); nothing was done, send it again later";
        }
        // The simulation's thread is in a step of its own (this command runs right after it), or has
        // only just started another command.
        deadline = (running_command_ ? command_started_ : now) + options_.busy_timeout;
    }
    reply_cv_.wait(lock, [&] { return request->done || stopping_; });
    return request->done ? request->reply : "error server stopping";
}

bool ControlServer::wait_for_pending(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(queue_mutex_);
    return queue_cv_.wait_until(lock, deadline, [&] { return !queue_.empty() || stopping_.load(); }) &&
           !queue_.empty();
}

std::size_t ControlServer::apply_pending(SimulationController& controller) {
    return apply_pending([&](std::string_view line) { return execute_control_command(controller, line); });
}

std::size_t ControlServer::apply_pending(const std::function<std::string(std::string_view)>& execute) {
    std::unique_lock lock(queue_mutex_);
    // Only what is queued now: clients that keep sending cannot hold the simulation's thread here.
    std::size_t ran = 0;
    for (std::size_t n = queue_.size(); n > 0 && !queue_.empty(); --n, ++ran) {
        const std::shared_ptr<Request> request = std::move(queue_.front());
        queue_.pop_front();
        request->started = true;
        running_command_ = true;
        command_started_ = Clock::now();
        lock.unlock();
        std::string reply = execute(request->line);
        lock.lock();
        running_command_ = false;
        request->reply = std::move(reply);
        request->done = true;
        reply_cv_.notify_all(); // each client as soon as its command has run
    }
    return ran;
}

} // namespace boids
