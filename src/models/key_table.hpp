#pragma once
// The pieces every model's key table is made of (internal). A key names a field of Params, anywhere in
// it, through a small accessor function, so that a model's keys can point into its own sub-struct.

#include "boids/params.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

namespace boids::models {

inline constexpr double world_max = 1e7; // pixels; keeps float positions meaningful to well below a pixel
inline constexpr double range_max = 1e5;
inline constexpr double speed_max = 1e5;
inline constexpr double turn_max = 1e3;
inline constexpr double pi = 3.14159265358979323846;
inline constexpr double two_pi = 2 * pi;
inline constexpr double seed_max = 9007199254740992.0; // 2^53: every integer up to it is exact in a double

/// "Take the key's allowed bound" for a slider range.
inline constexpr double allowed = std::numeric_limits<double>::quiet_NaN();

/// A field of Params reached through a function (member pointers cannot reach into sub-structs).
using DoubleField = double& (*)(Params&);

/// The accessor of a top-level field: `field<&Params::visual_range>`.
template <auto Member>
double& field(Params& p) {
    return p.*Member;
}

/// The accessor of a field of a sub-struct: `field<&Params::weighted, &WeightedParams::w_love>`.
template <auto Sub, auto Member>
double& field(Params& p) {
    return (p.*Sub).*Member;
}

/// The parameters a model keeps for itself (`Own`, declared in its file with `static constexpr Model model`),
/// inside `p`.
template <class Own>
Own& own(Params& p) {
    return *static_cast<Own*>(p.models.of(Own::model));
}
template <class Own>
const Own& own(const Params& p) {
    return *static_cast<const Own*>(p.models.of(Own::model));
}

/// The accessor of a field of a model's own parameters: `own_field<&WeightedParams::w_love>`.
template <class MemberPointer>
struct MemberOwner;
template <class Own, class Value>
struct MemberOwner<Value Own::*> {
    using type = Own;
};
template <auto Member>
double& own_field(Params& p) {
    return own<typename MemberOwner<decltype(Member)>::type>(p).*Member;
}

/// The bit of a model in ParamInfo::models.
constexpr std::uint32_t bit(Model m) {
    return std::uint32_t{1} << static_cast<unsigned>(m);
}

/// Who reads a key: one bit per model; `by_every_model` for the world's keys.
inline constexpr std::uint32_t by_every_model = ~std::uint32_t{0};

/// One numeric key: its description (ParamInfo's `models` and `default_value` are filled in when the
/// table is assembled) and where its value lives.
struct NumberKey {
    std::string_view key;
    double min, max; ///< allowed, inclusive
    std::string_view help;
    DoubleField ref;
    std::string_view label;                            ///< the panel's text
    double slider_min = allowed, slider_max = allowed; ///< the panel's range (NaN: the allowed bound)
    SliderScale scale = SliderScale::Linear;
    bool whole = false; ///< integers only (counts, steps, seeds)
};

/// A key with a few named values, stored as an enum (or an int).
struct ChoiceKey {
    ParamInfo info;
    std::span<const std::string_view> names; ///< indexed by the stored value
    int (*get)(const Params&);
    void (*set)(Params&, int);
};

/// One numeric key of a model, used by that model (and possibly others: `also`).
struct ModelKey {
    NumberKey number;
    std::uint32_t also = 0;
};

} // namespace boids::models
