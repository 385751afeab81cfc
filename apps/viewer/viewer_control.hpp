#pragma once
// The control port's line protocol against a running viewer (`boids view --control PORT`). The server's
// threads queue lines; the viewer's frame hook runs them here, between two steps, on its own thread.

#include "viewer_state.hpp"

#include <string>
#include <string_view>

namespace boids::viewer {

/// Runs one command line (see boids/control_protocol.hpp for the commands) against the viewer's requests
/// and returns the one reply line, `ok ...` or `error <why>`. A rejected command changes nothing.
[[nodiscard]] std::string execute_viewer_command(ViewerState& state, std::string_view line);

} // namespace boids::viewer
