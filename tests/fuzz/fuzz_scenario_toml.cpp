// The scenario reader (--scenario, World(scenario=...)): any bytes give a validated scenario or InputError,
// never an abort inside the TOML parser.

#include "boids/error.hpp"
#include "boids/scenario.hpp"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        (void)boids::parse_scenario(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
    } catch (const boids::InputError&) {
    }
    return 0;
}
