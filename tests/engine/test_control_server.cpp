// The control server over real TCP sockets on 127.0.0.1, driven by a loop like the headless run's.

#include "boids/control_server.hpp"

#include "boids/error.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace boids {
namespace {

/// A blocking client with a receive timeout, so a missing reply fails the test instead of hanging it.
class Client {
public:
    explicit Client(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout{30, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(port));
        ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
    ~Client() { close(); }
    void close() {
        if (fd_ >= 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    [[nodiscard]] bool connected() const { return connected_; }
    void send(std::string_view text) const {
        while (!text.empty()) {
            const ssize_t n = ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL);
            if (n <= 0) {
                return;
            }
            text.remove_prefix(static_cast<std::size_t>(n));
        }
    }
    std::string read_line() {
        while (buffer_.find('\n') == std::string::npos) {
            char chunk[4096];
            const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n <= 0) {
                return "<closed>";
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
        const std::size_t end = buffer_.find('\n');
        std::string line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return line;
    }
    /// True when a reply (or the end of the connection) is waiting to be read.
    [[nodiscard]] bool readable() const {
        char byte = 0;
        return !buffer_.empty() || ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT) >= 0;
    }
    std::string ask(std::string_view line) {
        send(std::string(line) + "\n");
        return read_line();
    }

private:
    int fd_ = -1;
    bool connected_ = false;
    std::string buffer_;
};

/// A server plus a driving thread that applies queued commands until `quit`.
struct Session {
    explicit Session(ControlServerOptions options = {"127.0.0.1", 0})
        : controller(setup()), server(std::move(options)) {
        loop = std::thread([this] {
            while (!controller.quit_requested() && !stop) {
                server.wait_for_pending(std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
                server.apply_pending(controller);
            }
        });
    }
    ~Session() {
        stop = true;
        loop.join();
        server.stop();
    }
    static SimulationSetup setup() {
        SimulationSetup s;
        s.scenario = load_preset("ece4760");
        s.threads = 1;
        return s;
    }
    SimulationController controller;
    ControlServer server;
    std::atomic<bool> stop{false};
    std::thread loop;
};

TEST(ControlServer, AnswersCommandsOverTcp) {
    Session s;
    ASSERT_GT(s.server.port(), 0);
    Client c(s.server.port());
    ASSERT_TRUE(c.connected());
    EXPECT_EQ(c.ask("set visual_range 25"), "ok visual_range=25");
    EXPECT_EQ(c.ask("get visual_range"), "ok visual_range=25");
    EXPECT_EQ(c.ask("step 2"), "ok steps=2");
    c.send("get protected_range\nget turn_factor\r\n");
    EXPECT_EQ(c.read_line(), "ok protected_range=2");
    EXPECT_EQ(c.read_line(), "ok turn_factor=0.2");
    EXPECT_EQ(c.ask("quit"), "ok quit");
}

TEST(ControlServer, OversizedNonUtf8AndAbandonedLines) {
    Session s;
    Client c(s.server.port());
    EXPECT_EQ(c.ask(std::string(100'000, 'x') + " quit"), "error line longer than 4096 bytes");
    EXPECT_EQ(c.ask("\xc3\x28"), "error line is not valid UTF-8");
    {
        Client victim(s.server.port());
        victim.send("set visual_range 9"); // no newline: dropped when the client goes
    }
    {
        Client vanishing(s.server.port());
        vanishing.send("step 1\n"); // answered to nobody
    }
    EXPECT_EQ(c.ask("get visual_range"), "ok visual_range=20");
    EXPECT_FALSE(s.controller.quit_requested());
}

TEST(ControlServer, ManyClientsAtOnce) {
    Session s;
    std::atomic<int> good{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 40; ++i) {
        clients.emplace_back([&, i] {
            Client c(s.server.port());
            const std::string value = std::to_string(10 + i);
            if (c.ask("set protected_range " + value) == "ok protected_range=" + value &&
                c.ask("stats").rfind("ok steps=", 0) == 0 && c.ask("bogus").rfind("error ", 0) == 0) {
                ++good;
            }
        });
    }
    for (auto& t : clients) {
        t.join();
    }
    EXPECT_EQ(good, 40);
}

TEST(ControlServer, StopReleasesWaitingClientsAndRejectsBadHosts) {
    SimulationController controller(Session::setup());
    auto server = std::make_unique<ControlServer>(ControlServerOptions{"localhost", 0});
    Client c(server->port());
    std::string reply;
    std::thread waiting([&] { reply = c.ask("stats"); }); // nobody applies it
    for (int tries = 0; tries < 6000 && c.connected() && server->client_count() == 0; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    server->stop();
    waiting.join();
    EXPECT_TRUE(reply == "error server stopping" || reply == "<closed>") << reply;
    EXPECT_THROW(ControlServer({"999.1.1.1", 0}), InputError);
    EXPECT_THROW(ControlServer({"127.0.0.1", 70000}), InputError);
    const int port = ControlServer({"127.0.0.1", 0}).port();
    EXPECT_GT(port, 0);
}

TEST(ControlServer, CustomExecutorForOtherLoops) {
    ControlServer server({"127.0.0.1", 0});
    Client c(server.port());
    std::string reply;
    std::thread asking([&] { reply = c.ask("anything"); });
    for (int tries = 0; tries < 600; ++tries) { // at most 30 s
        if (server.wait_for_pending(std::chrono::steady_clock::now() + std::chrono::milliseconds(50))) {
            break;
        }
    }
    EXPECT_EQ(server.apply_pending([](std::string_view line) { return "ok echo " + std::string(line); }), 1u);
    asking.join();
    EXPECT_EQ(reply, "ok echo anything");
}

bool starts_with(const std::string& s, std::string_view prefix) {
    return s.rfind(prefix, 0) == 0;
}

/// Waits (at most 30 s) until the server counts `n` clients.
void wait_for_clients(const ControlServer& server, std::size_t n) {
    for (int tries = 0; tries < 6000 && server.client_count() != n; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_EQ(server.client_count(), n);
}

TEST(ControlServer, IdleAndTricklingConnectionsAreClosed) {
    ControlServerOptions options{"127.0.0.1", 0};
    options.idle_timeout = std::chrono::milliseconds(300);
    Session s(options);
    Client idle(s.server.port()), trickling(s.server.port()), active(s.server.port());
    std::thread trickle([&] {
        // One byte every 20 ms of a line that never ends, until the server says something (at most 6 s).
        for (int i = 0; i < 300 && !trickling.readable(); ++i) {
            trickling.send("x");
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    // A client that completes a line every 100 ms stays, for three idle timeouts and more.
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(active.ask("get visual_range"), "ok visual_range=20");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    trickle.join();
    for (Client* closed : {&idle, &trickling}) {
        EXPECT_EQ(closed->read_line(), "error closed: no complete command line for 0.3 s");
        EXPECT_EQ(closed->read_line(), "<closed>");
    }
    EXPECT_EQ(active.ask("get visual_range"), "ok visual_range=20");
    wait_for_clients(s.server, 1);
}

TEST(ControlServer, IdleClientsFillingEverySlotDoNotLockOutNewOnes) {
    ControlServerOptions options{"127.0.0.1", 0};
    options.max_clients = 24;
    options.evict_after = std::chrono::milliseconds(100);
    Session s(options);
    std::vector<std::unique_ptr<Client>> squatters;
    for (int i = 0; i < 24; ++i) {
        squatters.push_back(std::make_unique<Client>(s.server.port()));
        squatters.back()->send(i % 2 ? "get visual_ra" : ""); // half of them never finish their line
    }
    wait_for_clients(s.server, 24);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::vector<std::unique_ptr<Client>> newcomers; // staying connected: each needs a slot of its own
    for (int i = 0; i < 12; ++i) {
        newcomers.push_back(std::make_unique<Client>(s.server.port()));
        EXPECT_TRUE(starts_with(newcomers.back()->ask("stats"), "ok steps=")) << i;
    }
    int evicted = 0;
    for (int i = 0; i < 12; ++i) { // the longest idle, that is the first to connect, made room
        evicted += squatters[static_cast<std::size_t>(i)]->read_line() ==
                   "error closed: the server was full and this connection had sent no command for the "
                   "longest time";
    }
    EXPECT_EQ(evicted, 12);
    Client last(s.server.port());
    EXPECT_EQ(last.ask("get visual_range"), "ok visual_range=20");
}

TEST(ControlServer, ClientsGetAnErrorInsteadOfWaitingBehindALongCommand) {
    ControlServerOptions options{"127.0.0.1", 0};
    options.busy_timeout = std::chrono::milliseconds(200);
    ControlServer server(options);
    std::atomic<bool> slow_started{false}, release{false}, done{false};
    std::vector<std::string> executed;
    std::thread loop([&] {
        while (!done) {
            server.wait_for_pending(std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
            server.apply_pending([&](std::string_view line) {
                executed.emplace_back(line);
                if (line == "slow") { // stands for a long step: blocks until released (at most 30 s)
                    slow_started = true;
                    for (int i = 0; i < 6000 && !release; ++i) {
                        std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    }
                }
                return "ok " + std::string(line);
            });
        }
    });
    Client slow(server.port()), other(server.port());
    slow.send("slow\n");
    for (int i = 0; i < 6000 && !slow_started; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(other.ask("stats"),
              "error busy: another command has run for over 0.2 s (a long step or spawn); "
              "nothing was done, send it again later");
    release = true;
    EXPECT_EQ(slow.read_line(), "ok slow");
    EXPECT_EQ(other.ask("stats"), "ok stats");
    done = true;
    loop.join();
    EXPECT_EQ(executed, (std::vector<std::string>{"slow", "stats"})); // the refused one never ran
}

TEST(ControlServer, ACommandBehindTheLoopsOwnLongStepWaitsForItAndRuns) {
    ControlServerOptions options{"127.0.0.1", 0};
    options.busy_timeout = std::chrono::milliseconds(100);
    ControlServer server(options);
    std::atomic<bool> done{false};
    std::thread loop([&] {
        while (!done) {
            server.apply_pending([](std::string_view line) { return "ok " + std::string(line); });
            std::this_thread::sleep_for(std::chrono::milliseconds(400)); // a step of its own, long
        }
    });
    Client c(server.port());
    // However slow the steps, quit (or remove, or pause) still gets through after the current one.
    EXPECT_EQ(c.ask("quit"), "ok quit");
    EXPECT_EQ(c.ask("stats"), "ok stats");
    done = true;
    loop.join();
}

} // namespace
} // namespace boids
