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

/// An output could not be written although its path was accepted: the disk is full, a quota or file-size
/// limit was reached, the device failed. Not the user's input at fault, so the CLI exits 1, not 2.
class IoError : public std::runtime_error {
public:
    explicit IoError(const std::string& message) : std::runtime_error(message) {}
};

/// Builds the project's standard message: "<field>: <value> is invalid; <allowed>".
[[nodiscard]] std::string invalid_value_message(const std::string& field, const std::string& value,
                                                const std::string& allowed);

} // namespace boids
