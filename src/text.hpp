#pragma once
// Number <-> text conversions shared by parameters, scenarios and state files (internal).

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace boids::text {

/// Parses the whole of `s` as a finite number of type T; nullopt otherwise (no partial parses, no
/// NaN or infinity, no leading '+').
template <class T>
[[nodiscard]] std::optional<T> parse_finite(std::string_view s) {
    T value{};
    const char* first = s.data();
    const char* last = s.data() + s.size();
    if (first == last) {
        return std::nullopt;
    }
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc{} || ptr != last) {
        return std::nullopt;
    }
    if constexpr (std::is_floating_point_v<T>) {
        if (!(value - value == T(0))) { // NaN and infinities fail this
            return std::nullopt;
        }
    }
    return value;
}

/// Shortest text that parses back to exactly `value`.
template <class T>
[[nodiscard]] std::string shortest(T value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ptr);
}

/// Like shortest(), but whole numbers are written out in full ("100000", not "1e+05"), for messages.
[[nodiscard]] inline std::string readable(double value) {
    if (value == static_cast<double>(static_cast<long long>(value)) && value > -1e15 && value < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    return shortest(value);
}

/// `s` without leading and trailing spaces, tabs and carriage returns.
[[nodiscard]] inline std::string_view trim(std::string_view s) {
    const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && is_space(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && is_space(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

} // namespace boids::text
