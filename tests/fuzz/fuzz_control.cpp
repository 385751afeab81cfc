// The control port's protocol: each line of the input is framed as the server frames it and run against a
// small session; every line gets one reply line, and the session's state stays finite.

#include "boids/control_protocol.hpp"
#include "boids/metrics.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation_controller.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace {

/// True for a command that asks for more work than a fuzzing run can wait for (many steps, a big spawn):
/// the protocol bounds it (max_steps_per_request, max_spawn_per_call) but the bound is still seconds.
bool expensive(std::string_view line) {
    std::size_t digits = 0;
    for (const char c : line) {
        digits = (c >= '0' && c <= '9') ? digits + 1 : 0;
        if (digits > 3) {
            return line.find("step") != std::string_view::npos ||
                   line.find("spawn") != std::string_view::npos;
        }
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const boids::Scenario scene = [] {
        boids::Scenario s = boids::load_preset("vga-predator");
        s.agents = boids::AgentCounts{40, 2, 2, 1};
        return s;
    }();
    boids::SimulationController controller(
        boids::SimulationSetup{scene, std::nullopt, boids::Precision::F32, 1});
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::size_t pos = 0;
    for (int lines = 0; pos < input.size() && lines < 32; ++lines) {
        std::size_t end = input.find('\n', pos);
        end = end == std::string_view::npos ? input.size() : end;
        const std::string_view line = input.substr(pos, end - pos);
        pos = end + 1;
        if (expensive(line)) {
            continue;
        }
        std::string reply = boids::check_control_line(line);
        if (reply.empty()) {
            reply = boids::execute_control_command(controller, line);
        }
        if (reply.find('\n') != std::string::npos ||
            (reply.rfind("ok", 0) != 0 && reply.rfind("error", 0) != 0)) {
            __builtin_trap(); // one line, `ok ...` or `error ...`
        }
    }
    controller.visit([](const auto& sim) {
        if (!boids::summarize(sim.world()).finite) {
            __builtin_trap(); // NaN or infinity in the state
        }
    });
    return 0;
}
