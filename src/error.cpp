#include "boids/error.hpp"

namespace boids {

std::string invalid_value_message(const std::string& field, const std::string& value,
                                  const std::string& allowed) {
    return field + " = " + value + " is invalid: " + allowed;
}

} // namespace boids
