// Which SIMD instruction set the fast path's kernel runs: the best one this CPU supports (Highway's
// dynamic dispatch), or one the user names, so that a path other than the machine's best can be measured
// and tested on any machine (an AVX2 laptop's path on an AVX-512 workstation, say).
//
// The choice goes through Highway's own switch, hwy::DisableTargets: every dispatched kernel
// (neighbour pass, binning, lane counts, the target's name) then follows it together.

#include "boids/error.hpp"
#include "boids/fast_path.hpp"

#include "hwy/targets.h"

#include <cstdlib>
#include <mutex>

namespace boids {

namespace {

struct NamedTarget {
    const char* name;
    std::int64_t bits; ///< Highway's target bit (the scalar fallback is whichever of the two was compiled)
};

/// Best first, as Highway ranks them on x86 (the only architecture whose targets have user names here).
constexpr NamedTarget named_targets[] = {
    {"avx3", HWY_AVX3},
    {"avx2", HWY_AVX2},
    {"sse4", HWY_SSE4},
    {"ssse3", HWY_SSSE3},
    {"scalar", HWY_EMU128 | HWY_SCALAR},
};

// Guarded by choice_mutex.
std::mutex choice_mutex;
bool choice_settled = false; ///< the environment was read or a target set explicitly
std::int64_t disabled = 0;   ///< the targets switched off in Highway (0: the best runs)

/// The compiled targets this CPU runs, whatever is switched off. Must hold choice_mutex.
std::int64_t available_targets() {
    hwy::DisableTargets(0);
    const std::int64_t available = hwy::SupportedTargets() & HWY_TARGETS;
    hwy::DisableTargets(disabled);
    return available;
}

/// "auto" and the names of the targets this CPU runs, best first. Must hold choice_mutex.
std::vector<std::string> available_names() {
    const std::int64_t available = available_targets();
    std::vector<std::string> names{"auto"};
    for (const NamedTarget& t : named_targets) {
        if ((t.bits & available) != 0) {
            names.emplace_back(t.name);
        }
    }
    return names;
}

/// Applies `name` ("auto" or a named target this CPU runs). Must hold choice_mutex. Throws InputError
/// naming `field`, before anything changed, for a name that is unknown or not runnable here.
void choose(const std::string& name, const std::string& field) {
    const std::int64_t available = available_targets();
    for (const NamedTarget& t : named_targets) {
        if (name == "auto" || (name == t.name && (t.bits & available) != 0)) {
            // Everything but this target off; Highway re-dispatches at the next call of each kernel.
            disabled = name == "auto" ? 0 : ~(t.bits & available);
            hwy::DisableTargets(disabled);
            return;
        }
    }
    std::string allowed;
    for (const std::string& n : available_names()) {
        allowed += (allowed.empty() ? "" : " | ") + n;
    }
    throw InputError(invalid_value_message(field, "'" + name + "'", "this CPU runs " + allowed));
}

} // namespace

std::vector<std::string> fast_path_targets() {
    const std::lock_guard lock(choice_mutex);
    return available_names();
}

void set_fast_path_target(const std::string& name, const std::string& field) {
    const std::lock_guard lock(choice_mutex);
    choose(name, field);
    choice_settled = true;
}

void apply_fast_path_target_environment() {
    const std::lock_guard lock(choice_mutex);
    if (choice_settled) {
        return;
    }
    if (const char* value = std::getenv(fast_path_target_variable)) {
        choose(value, fast_path_target_variable); // throws, leaving the choice unsettled, on a bad value
    }
    choice_settled = true;
}

} // namespace boids
