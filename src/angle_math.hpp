#pragma once
// The engine's own sine, cosine and arc tangent in double (internal), for the heading models (Vicsek,
// Couzin), which turn every agent by an angle every step. The C library's functions differ between
// libraries and versions, and a C library call cannot run in SIMD lanes. These are made of IEEE's
// correctly rounded +, -, *, / alone, in a fixed order, so they give the same bits with every compiler
// and C library, and angle_lanes-inl.h does the same operations in lanes, to the bit.
//
// sin_cos: the angle less the nearest multiple of pi/2 (pi/2 in three parts, Cody and Waite's
// reduction), then Taylor series to x^19 and x^20 on [-pi/4, pi/4], then the quadrant's swap and signs.
// atan2: t, the smaller of |x|, |y| over the larger; atan t = atan c + atan((t - c) / (1 + t c)) with c = 0,
// 1/2 or 1 (as fdlibm's atan); the Taylor series of atan to u^47; then the octant. docs/MODEL.md §1.7
// gives their accuracy.

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace boids::angle {

namespace constants {

inline constexpr double two_over_pi = 0x1.45f306dc9c883p-1;
/// pi/2 = pio2_1 + pio2_2 + pio2_3 to 119 bits; the first two have 33 significant bits, so n * pio2_1 and
/// n * pio2_2 are exact for |n| < 2^20.
inline constexpr double pio2_1 = 0x1.921fb544p+0;
inline constexpr double pio2_2 = 0x1.0b4611a6p-34;
inline constexpr double pio2_3 = 0x1.3198a2e037073p-69;
/// x + round_shift - round_shift is x rounded to a whole number (ties to even) for |x| < 2^51, and the low
/// bits of x + round_shift are that number's.
inline constexpr double round_shift = 0x1.8p52;
/// pi, pi/2, pi/4 and atan(1/2) as a double and the rest.
inline constexpr double pi_hi = 0x1.921fb54442d18p+1, pi_lo = 0x1.1a62633145c07p-53;
inline constexpr double pi_2_hi = 0x1.921fb54442d18p+0, pi_2_lo = 0x1.1a62633145c07p-54;
inline constexpr double pi_4_hi = 0x1.921fb54442d18p-1, pi_4_lo = 0x1.1a62633145c07p-55;
inline constexpr double huge = 0x1p995; ///< two_product's arguments stay below 2^996
inline constexpr double atan_half_hi = 0x1.dac670561bb4fp-2, atan_half_lo = 0x1.a2b7f222f65e2p-56;

/// 1 / n! for n = first, first + step, ..., the first of sign `sign`, then alternating: Taylor coefficients.
/// Each factorial up to 22! is a double exactly, so each coefficient is 1 / n! correctly rounded.
template <std::size_t N>
constexpr std::array<double, N> inverse_factorials(int first, int step, int sign) {
    std::array<double, N> c{};
    for (std::size_t k = 0; k < N; ++k) {
        double factorial = 1.0;
        for (int i = 2; i <= first + step * static_cast<int>(k); ++i) {
            factorial *= i;
        }
        c[k] = (k % 2 == 0 ? sign : -sign) / factorial;
    }
    return c;
}

/// sin r = r + r^3 * (s[0] + z * (s[1] + ...)), z = r^2: -1/3!, 1/5!, ..., 1/19!.
inline constexpr std::array<double, 9> sin_taylor = inverse_factorials<9>(3, 2, -1);
/// cos r = 1 - z/2 + z^2 * (c[0] + z * (c[1] + ...)): 1/4!, -1/6!, ..., 1/20!.
inline constexpr std::array<double, 9> cos_taylor = inverse_factorials<9>(4, 2, 1);

/// atan u = u + u^3 * (a[0] + z * (a[1] + ...)): -1/3, 1/5, ..., 1/47 (|u| <= 7/16: the first term left
/// out is below 2^-60 of u).
inline constexpr std::array<double, 23> atan_taylor = [] {
    std::array<double, 23> a{};
    for (int k = 0; k < 23; ++k) {
        a[k] = (k % 2 == 0 ? -1.0 : 1.0) / (2.0 * k + 3.0);
    }
    return a;
}();

} // namespace constants

/// p(z) = c[0] + z * (c[1] + z * (...)), innermost first.
template <std::size_t N>
inline double horner(double z, const std::array<double, N>& c) {
    double p = c[N - 1];
    for (std::size_t k = N - 1; k-- > 0;) {
        p = p * z + c[k];
    }
    return p;
}

/// The length of (x, y): sqrt(x^2 + y^2), IEEE's correctly rounded operations (hypot's results differ
/// between C libraries). Below about 2^-511 the squares lose bits, and below 2^-537 they are 0.
inline double length(double x, double y) {
    return std::sqrt(x * x + y * y);
}

struct SinCos {
    double sin, cos;
};

/// The angle x less the nearest multiple n of pi/2, as r + tail (|tail| within about an ulp of r), and n's
/// low bits (the quadrant).
struct Reduced {
    double r, tail;
    std::uint64_t quadrant;
};

/// x + y = sum + error exactly (Knuth's two-sum, for any order of magnitude).
inline void two_sum(double x, double y, double& sum, double& error) {
    sum = x + y;
    const double y_part = sum - x;
    const double x_part = sum - y_part;
    error = (x - x_part) + (y - y_part);
}

/// x * y = product + error exactly (Dekker's product, by Veltkamp's halves), for |x|, |y| below 2^996.
inline void two_product(double x, double y, double& product, double& error) {
    constexpr double splitter = 0x1p27 + 1.0;
    const double sx = splitter * x, sy = splitter * y;
    const double x_hi = sx - (sx - x), y_hi = sy - (sy - y);
    const double x_lo = x - x_hi, y_lo = y - y_hi;
    product = x * y;
    error = (((x_hi * y_hi - product) + x_hi * y_lo) + x_lo * y_hi) + x_lo * y_lo;
}

inline Reduced reduce(double x) {
    using namespace constants;
    const double shifted = x * two_over_pi + round_shift;
    const double n = shifted - round_shift;
    const double a = x - n * pio2_1; // exact: n * pio2_1 is, and it is within a factor 2 of x
    double r = 0.0, error = 0.0;
    two_sum(a, -(n * pio2_2), r, error);
    return {r, error - n * pio2_3, std::bit_cast<std::uint64_t>(shifted)};
}

/// sin x and cos x, within an ulp and a half for |x| < 2^20 pi/2 (docs/MODEL.md §1.7); further out less
/// accurate, but as deterministic (and the same in lanes).
inline SinCos sin_cos(double x) {
    using namespace constants;
    const Reduced reduced = reduce(x);
    const double r = reduced.r, tail = reduced.tail;
    const double z = r * r;
    const double half_z = 0.5 * z;
    const double w = 1.0 - half_z;
    // sin(r + tail) = sin r + tail cos r, cos(r + tail) = cos r - tail sin r, to first order in tail.
    const double s = r + ((r * z) * horner(z, sin_taylor) + tail * w);
    const double c = w + (((1.0 - w) - half_z) + ((z * z) * horner(z, cos_taylor) - r * tail));
    const bool swap = (reduced.quadrant & 1u) != 0;
    const bool negate_sin = (reduced.quadrant & 2u) != 0;
    const bool negate_cos = ((reduced.quadrant + 1u) & 2u) != 0;
    const double sin_r = swap ? c : s;
    const double cos_r = swap ? s : c;
    return {negate_sin ? -sin_r : sin_r, negate_cos ? -cos_r : cos_r};
}

/// Where an arc tangent starts (angle::atan2): atan t = atan c + atan u, u = (t - c) / (1 + t c), for
/// c = 0, 1/2 or 1 by the size of t.
struct AtanBase {
    double c, hi, lo; ///< c, and atan c as hi + lo
};

/// The angle of (x, y) in [-pi, pi], within an ulp and a half (docs/MODEL.md §1.7); as std::atan2 for
/// finite x and y, atan2(±0, ±0) = ±0 or ±pi by the sign of x as IEEE's, and NaN if both are infinite.
inline double atan2(double y, double x) {
    using namespace constants;
    const double ax = std::fabs(x), ay = std::fabs(y);
    const bool steep = ay > ax;
    const double num = steep ? ax : ay;
    const double den = steep ? ay : ax;
    const double t = den == 0.0 ? 0.0 : num / den; // in [0, 1]
    const AtanBase base = t > 11.0 / 16.0  ? AtanBase{1.0, pi_4_hi, pi_4_lo}
                          : t > 7.0 / 16.0 ? AtanBase{0.5, atan_half_hi, atan_half_lo}
                                           : AtanBase{0.0, 0.0, 0.0};
    // (t - c) / (1 + t c) from num and den: num - c den is exact where c is not 0 (Sterbenz).
    const double top = base.c == 0.0 ? num : num - base.c * den;
    double bottom = 0.0, bottom_error = 0.0; // den + c num, and what its rounding left (c num is exact)
    two_sum(den, base.c * num, bottom, bottom_error);
    const double u = den == 0.0 ? 0.0 : top / bottom;
    // What the rounding of the division and of its bottom left: du = (top - u (bottom + bottom_error)) /
    // bottom to first order, with u bottom exact. t's rounding alone would give up to an ulp of the
    // result where t is just above a power of 2 and atan t just below.
    double product = 0.0, error = 0.0;
    two_product(u, bottom, product, error);
    const double du =
        den == 0.0 || bottom > huge ? 0.0 : (((top - product) - error) - u * bottom_error) / bottom;
    const double z = u * u;
    const double a = u + ((u * z) * horner(z, atan_taylor) + du * (1.0 - z)); // atan'(u) = 1 / (1 + u^2)
    // The octant: the angle is k + sign (atan c + a), k = 0, pi/2 or pi; k + sign atan c in two parts.
    const bool negative_x = std::signbit(x);
    const double sign = steep != negative_x ? -1.0 : 1.0;
    const double k_hi = steep ? pi_2_hi : negative_x ? pi_hi : 0.0;
    const double k_lo = steep ? pi_2_lo : negative_x ? pi_lo : 0.0;
    double head = 0.0, head_error = 0.0;
    two_sum(k_hi, sign * base.hi, head, head_error);
    const double r = head + (((k_lo + sign * base.lo) + head_error) + sign * a);
    return std::copysign(r, y);
}

} // namespace boids::angle
