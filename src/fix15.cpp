#include "boids/fix15.hpp"

#include "boids/error.hpp"
#include "text.hpp"

#include <cstdlib>

namespace boids {

std::string exact_decimal(Fix15 value) {
    const std::int64_t raw = value.raw;
    const std::uint64_t magnitude = static_cast<std::uint64_t>(raw < 0 ? -raw : raw);
    std::string out = raw < 0 ? "-" : "";
    out += std::to_string(magnitude >> Fix15::fraction_bits);
    // fraction / 2^15 = fraction * 5^15 / 10^15: exactly 15 decimal digits, trailing zeros dropped.
    std::uint64_t fraction = (magnitude & (Fix15::one_raw - 1)) * 30517578125ull;
    if (fraction != 0) {
        std::string digits = std::to_string(fraction);
        digits.insert(0, 15 - digits.size(), '0');
        digits.erase(digits.find_last_not_of('0') + 1);
        out += "." + digits;
    }
    return out;
}

void validate_fix15(const Params& params) {
    if (params.model == Model::Vicsek || params.model == Model::Couzin) {
        throw InputError(invalid_value_message(
            "model", get_param(params, "model"),
            "precision fix15 runs only these models: classic | topological | weighted"));
    }
    if (params.dimensions != 2) {
        throw InputError(invalid_value_message("dimensions", std::to_string(params.dimensions),
                                               "precision fix15 is the lab's planar firmware: must be 2"));
    }
    for (const ParamInfo& info : param_table()) {
        if (info.kind != std::string_view("number")) {
            continue;
        }
        const double value = text::parse_finite<double>(get_param(params, info.key)).value_or(0.0);
        if (!ScalarTraits<Fix15>::representable(value)) {
            throw InputError(
                invalid_value_message(std::string(info.key), text::readable(value),
                                      "with precision fix15 values must lie in (-65536, 65536)"));
        }
    }
    const std::pair<const char*, double> ranges[] = {{"visual_range", params.visual_range},
                                                     {"protected_range", params.protected_range},
                                                     {"predator_range", params.predator_range}};
    for (const auto& [key, range] : ranges) {
        if (range >= 256.0) {
            throw InputError(invalid_value_message(
                key, text::readable(range),
                "with precision fix15 its square must fit fix15, so it must be below 256"));
        }
    }
}

} // namespace boids
