#include "viewer_state.hpp"

namespace boids::viewer {

double steps_per_second(SimRate rate) {
    switch (rate) {
    case SimRate::Steps30:
        return 30.0;
    case SimRate::Steps60:
        return 60.0;
    case SimRate::Unlimited:
        return 0.0;
    }
    return 0.0;
}

std::string_view sim_rate_name(SimRate rate) {
    switch (rate) {
    case SimRate::Steps30:
        return "30";
    case SimRate::Steps60:
        return "60";
    case SimRate::Unlimited:
        return "max";
    }
    return "?";
}

std::optional<SimRate> parse_sim_rate(std::string_view text) {
    if (text == "30") {
        return SimRate::Steps30;
    }
    if (text == "60") {
        return SimRate::Steps60;
    }
    if (text == "max") {
        return SimRate::Unlimited;
    }
    return std::nullopt;
}

} // namespace boids::viewer
