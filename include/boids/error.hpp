#pragma once
/// User-facing errors: bad flags, files, parameter values. Programmer errors are assertions instead.

#include <stdexcept>
#include <string>

namespace boids {

/// A user input was rejected. The message names the field, the value and what is allowed.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// Builds the project's standard message: "<field>: <value> is invalid; <allowed>".
[[nodiscard]] std::string invalid_value_message(const std::string& field, const std::string& value,
                                                const std::string& allowed);

} // namespace boids
