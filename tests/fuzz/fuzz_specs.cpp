// The --obstacle and --food specs: any text gives a validated shape or source, or InputError.

#include "boids/error.hpp"
#include "boids/food.hpp"
#include "boids/obstacle.hpp"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        boids::validate(boids::parse_obstacle(text), "obstacle");
    } catch (const boids::InputError&) {
    }
    try {
        const boids::FoodSource food = boids::parse_food(text);
        (void)food.position(12345);
    } catch (const boids::InputError&) {
    }
    return 0;
}
