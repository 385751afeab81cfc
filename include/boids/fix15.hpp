#pragma once
/// The lab's fixed-point scalar (docs/MODEL.md §8): a signed 32-bit integer holding value * 2^15, with
/// exactly the arithmetic of the course's RP2040 code, so the engine can run bit for bit as the firmware
/// does.

#include "boids/params.hpp"
#include "boids/scalar.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace boids {

/// fix15: value * 32768 in an int32. `+`/`-` wrap modulo 2^32 like the hardware; `*` and `/` are the lab's
/// mul and div; comparisons act on the raw integers.
struct Fix15 {
    std::int32_t raw = 0;

    static constexpr int fraction_bits = 15;
    static constexpr std::int32_t one_raw = std::int32_t{1} << fraction_bits;

    constexpr Fix15() = default;
    /// An integer constant (0, 1, 2, -1 in the engine's code): exact.
    constexpr explicit Fix15(int value)
        : raw(static_cast<std::int32_t>(static_cast<std::uint32_t>(value) << 15)) {}

    [[nodiscard]] static constexpr Fix15 from_raw(std::int32_t r) {
        Fix15 f;
        f.raw = r;
        return f;
    }
    /// from_float: (int32)(d * 32768.0), truncating toward zero. Outside the int32 range (where the C cast
    /// is undefined) it saturates.
    [[nodiscard]] static Fix15 from_double(double d) {
        const double scaled = d * 32768.0;
        if (!(scaled > -2147483649.0)) {
            return from_raw(INT32_MIN);
        }
        if (!(scaled < 2147483648.0)) {
            return from_raw(INT32_MAX);
        }
        return from_raw(static_cast<std::int32_t>(scaled));
    }
    /// to_float: raw / 32768.0 (exact in a double).
    [[nodiscard]] constexpr double to_double() const { return raw / 32768.0; }
    constexpr explicit operator double() const { return to_double(); }

    friend constexpr Fix15 operator+(Fix15 a, Fix15 b) {
        return from_raw(
            static_cast<std::int32_t>(static_cast<std::uint32_t>(a.raw) + static_cast<std::uint32_t>(b.raw)));
    }
    friend constexpr Fix15 operator-(Fix15 a, Fix15 b) {
        return from_raw(
            static_cast<std::int32_t>(static_cast<std::uint32_t>(a.raw) - static_cast<std::uint32_t>(b.raw)));
    }
    friend constexpr Fix15 operator-(Fix15 a) { return Fix15(0) - a; }
    /// mul(a, b) = (int32)(((int64)a * (int64)b) >> 15), arithmetic shift.
    friend constexpr Fix15 operator*(Fix15 a, Fix15 b) {
        return from_raw(static_cast<std::int32_t>((static_cast<std::int64_t>(a.raw) * b.raw) >> 15));
    }
    /// div(a, b) = (int32)(((int64)a << 15) / (int64)b), C division (truncation toward zero). b != 0.
    friend constexpr Fix15 operator/(Fix15 a, Fix15 b) {
        return from_raw(static_cast<std::int32_t>((static_cast<std::int64_t>(a.raw) * one_raw) / b.raw));
    }
    friend constexpr auto operator<=>(Fix15 a, Fix15 b) = default;
};

/// Throws InputError if a parameter does not fit fix15: every value must lie in (-65536, 65536), and
/// the ranges below 256 so that their squares (mul(r, r)) do too.
void validate_fix15(const Params& params);

/// The exact decimal of to_float(value): every fix15 value has a finite one (at most 15 fraction digits).
[[nodiscard]] std::string exact_decimal(Fix15 value);

template <>
struct ScalarTraits<Fix15> {
    static Fix15 from_double(double value) { return Fix15::from_double(value); }
    static double to_double(Fix15 value) { return value.to_double(); }
    /// The raw sum divided by the integer count with C integer division (the lab's averages).
    static Fix15 divide_by_count(Fix15 sum, long long count) {
        return Fix15::from_raw(static_cast<std::int32_t>(sum.raw / count));
    }
    static Fix15 abs(Fix15 value) { return value.raw < 0 ? -value : value; }
    /// from_float(sqrt(to_float(v))), through double as on the MCU. A negative argument (a sum of squares
    /// that overflowed) has no square root and gives 0.
    static Fix15 sqrt(Fix15 value) {
        return value.raw < 0 ? Fix15(0) : from_double(std::sqrt(value.to_double()));
    }
    /// Whether a double converts without saturating: fix15 holds [-65536, 65536).
    static bool representable(double value) { return value > -65536.0 && value < 65536.0; }
};

} // namespace boids
