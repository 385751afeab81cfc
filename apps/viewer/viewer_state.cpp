#include "viewer_state.hpp"

#include <charconv>
#include <string>

namespace boids::viewer {

double steps_per_second(SimRate rate) {
    return static_cast<double>(rate.per_second);
}

std::string sim_rate_name(SimRate rate) {
    return rate == SimRate::Unlimited ? std::string("max") : std::to_string(rate.per_second);
}

Bottleneck frame_bottleneck(double step_ms, double steps_per_frame, double render_ms) {
    return step_ms * steps_per_frame >= render_ms ? Bottleneck::Step : Bottleneck::Drawing;
}

const char* bottleneck_name(Bottleneck b) {
    return b == Bottleneck::Step ? "the step" : "drawing";
}

std::string step_path_note(const StepProfile& last, long long steps_taken, std::string_view isa) {
    if (steps_taken == 0) {
        return {};
    }
    return last.fast_steps > 0 ? " (fast path, " + std::string(isa) + ")" : " (plain path)";
}

std::optional<SimRate> parse_sim_rate(std::string_view text) {
    if (text == "max") {
        return SimRate::Unlimited;
    }
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < min_rate || value > max_rate) {
        return std::nullopt;
    }
    return SimRate{value};
}

} // namespace boids::viewer
