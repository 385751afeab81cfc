#pragma once
/// How the engine converts between its scalar type and the doubles of parameters and files.
/// The engine is a template over the scalar; float (default) and double are instantiated.

#include <cmath>

namespace boids {

/// The alpha-max-plus-beta-min speed estimate's coefficients (docs/MODEL.md §2.8).
inline constexpr double alpha_max_beta_min_alpha = 0.960433870103;
inline constexpr double alpha_max_beta_min_beta = 0.397824734759;

/// Conversion hooks for a scalar type used by the engine. Specialise for non-IEEE scalars.
template <class Real>
struct ScalarTraits {
    /// A parameter or file value in the scalar, and back.
    static Real from_double(double value) { return static_cast<Real>(value); }
    static double to_double(Real value) { return static_cast<double>(value); }
    /// The average of `count` values whose sum is `sum` (docs/MODEL.md §2.3).
    static Real divide_by_count(Real sum, long long count) { return sum / static_cast<Real>(count); }
    /// |value| and its square root, in the scalar's own arithmetic.
    static Real abs(Real value) { return value < Real(0) ? -value : value; }
    static Real sqrt(Real value) { return std::sqrt(value); }
    /// Whether a (finite) double converts to Real without overflow.
    static bool representable(double) { return true; }
};

/// The precisions the CLI offers by name: IEEE single, IEEE double, the lab's fixed point (fix15.hpp).
enum class Precision { F32, F64, Fix15 };

} // namespace boids
