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
    // The range test comes first: converting NaN or a value beyond long long to an integer is undefined.
    if (value > -1e15 && value < 1e15 && value == static_cast<double>(static_cast<long long>(value))) {
        return std::to_string(static_cast<long long>(value));
    }
    return shortest(value);
}

/// The length in bytes of the UTF-8 character whose first byte is `first` (valid UTF-8: invalid_utf8_at).
[[nodiscard]] inline std::size_t utf8_length(char first) {
    const auto b = static_cast<unsigned char>(first);
    return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/// The code point whose UTF-8 encoding starts at `s[at]`; `s` must be valid UTF-8 there (invalid_utf8_at).
[[nodiscard]] inline char32_t code_point_at(std::string_view s, std::size_t at) {
    const auto b = static_cast<unsigned char>(s[at]);
    const std::size_t length = utf8_length(s[at]);
    char32_t c = length == 1 ? b : b & (0x7F >> length);
    for (std::size_t k = 1; k < length && at + k < s.size(); ++k) {
        c = (c << 6) | (static_cast<unsigned char>(s[at + k]) & 0x3F);
    }
    return c;
}

/// The offset of the first byte in `s` that does not start or continue a well-formed UTF-8 character
/// (overlong forms, surrogates and values past U+10FFFF included); nullopt when `s` is all valid.
[[nodiscard]] inline std::optional<std::size_t> invalid_utf8_at(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
        const unsigned char b = byte(i);
        std::size_t length = 0;
        unsigned char lo = 0x80, hi = 0xBF; // the allowed range of the second byte
        if (b < 0x80) {
            length = 1;
        } else if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            lo = b == 0xE0 ? 0xA0 : 0x80;
            hi = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            lo = b == 0xF0 ? 0x90 : 0x80;
            hi = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + length > s.size()) {
            return i;
        }
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned char c = byte(i + k);
            if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) {
                return i;
            }
        }
        i += length;
    }
    return std::nullopt;
}

/// 1 + the number of line breaks before `offset`: the line a byte is on, for messages.
[[nodiscard]] inline std::size_t line_of(std::string_view s, std::size_t offset) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < s.size(); ++i) {
        line += s[i] == '\n' ? 1 : 0;
    }
    return line;
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
