// The state CSV reader (--init, load_state): any bytes are refused with InputError or parse to a world that
// writes back and reads again to the same world, step included.

#include "boids/error.hpp"
#include "boids/fix15.hpp"
#include "boids/state_io.hpp"

#include <cstdint>
#include <sstream>
#include <string_view>

namespace {

template <class Real>
void check(std::string_view text, const boids::Params& params) {
    boids::World<Real> world;
    long long step = 0;
    try {
        world = boids::parse_state_csv<Real>(text, "fuzz", params, &step);
    } catch (const boids::InputError&) {
        return;
    }
    std::ostringstream out;
    boids::write_state_csv(out, world, step);
    long long again_step = -1;
    const boids::World<Real> again = boids::parse_state_csv<Real>(out.str(), "dump", params, &again_step);
    if (!(again == world) || again_step != step) {
        __builtin_trap(); // a dump that does not read back as the same state
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    boids::Params flat;
    boids::Params solid;
    solid.dimensions = 3;
    check<float>(text, flat);
    check<double>(text, solid);
    check<boids::Fix15>(text, flat);
    return 0;
}
