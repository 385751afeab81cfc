// The answer, pinned: one state hash per built-in preset and precision after a fixed number of steps, as
// Box2D's determinism test pins its scenes. A change that moves any bit of any preset's flight fails here;
// a deliberate change of behaviour updates its pin in its own commit and says why.

#include "boids/hash.hpp"
#include "boids/precision.hpp"
#include "boids/scenario.hpp"
#include "boids/simulation.hpp"
#include "boids/spawn.hpp"

#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>

namespace boids {
namespace {

constexpr long long pinned_steps = 120;

/// One pinned run: a preset, a precision, and optionally the preset lifted into 3D.
struct Pin {
    const char* preset;
    /// "f32", "f64", "fix15", "3d" (f32 with dimensions = 3) or "6k" (f32 with 6,000 boids: several threads)
    const char* variant;
    std::uint64_t hash;
};

// clang-format off
constexpr Pin pins[] = {
    {"couzin", "f32", 0x41aacd0539d67cb9ULL},
    {"couzin", "f64", 0x6e6c7ec1b9592f75ULL},
    {"downey-2d", "f32", 0xc78ff9bd32289938ULL},
    {"downey-2d", "f64", 0x5768c9c4207223c3ULL},
    {"downey-2d", "fix15", 0xc6099c9eae50a442ULL},
    {"downey-2d", "3d", 0xf41dbb13f51f1fc2ULL},
    {"downey-3d", "f32", 0x00a7474235e44f3fULL},
    {"downey-3d", "f64", 0xc562ce53953017f5ULL},
    {"ece4760", "f32", 0xb077ea39aee504d4ULL},
    {"ece4760", "f64", 0xe6990a12d497b097ULL},
    {"ece4760", "fix15", 0x51ad911aa3133edfULL},
    {"ece4760", "3d", 0x8781f81d2cd09f15ULL},
    {"obstacles", "f32", 0x698a32d3af01a1d5ULL},
    {"obstacles", "f64", 0xccf0728288b125aeULL},
    {"obstacles", "3d", 0x62f0e71448a964fdULL},
    {"perching", "f32", 0x1149aa81890ba505ULL},
    {"perching", "f64", 0x894f537069b58fa8ULL},
    {"perching", "3d", 0xb3615c55b7a562c6ULL},
    {"pynboids", "f32", 0x22ff6b3b20bf8e81ULL},
    {"pynboids", "f64", 0xb0308041a6b41500ULL},
    {"pynboids", "fix15", 0x352769022a4dcc86ULL},
    {"smart-predators", "f32", 0xa3af81dfe5810696ULL},
    {"smart-predators", "f64", 0x4bbb2b1f57b18482ULL},
    {"smart-predators", "3d", 0x405dfc782d486bb4ULL},
    {"vga-predator", "f32", 0x51e356b149b6729fULL},
    {"vga-predator", "f64", 0x6dc9245d8f66f087ULL},
    {"vga-predator", "fix15", 0x1a299d5c2328ebbcULL},
    {"vga-predator", "3d", 0x3b2553164fbd108cULL},
    {"vga-scouts", "f32", 0xdb86534557aa738aULL},
    {"vga-scouts", "f64", 0x23852323a1c03bdbULL},
    {"vga-scouts", "fix15", 0x01b184c6ed7749dfULL},
    {"vga-scouts", "3d", 0xd5d07f4d10ec836bULL},
    {"obstacles", "6k", 0x991811f8919cbc4aULL},
    {"vga-predator", "6k", 0x3d06757102abfe51ULL},
    {"vga-scouts", "6k", 0xee8cfeda0341dadbULL},
    {"vicsek", "f32", 0x49b32f490ad49f03ULL},
    {"vicsek", "f64", 0xc18bdff4a80a8a8fULL},
};
// clang-format on

template <class Real>
std::uint64_t fly(const Scenario& s, int threads) {
    Simulation<Real> sim(s.params, spawn_world<Real>(s.params, s.agents, s.seed));
    sim.set_threads(threads);
    sim.step(pinned_steps);
    return state_hash(sim.world());
}

std::uint64_t fly(const Pin& pin, int threads) {
    Scenario s = load_preset(pin.preset);
    const std::string variant = pin.variant;
    if (variant == "3d") {
        s.params.dimensions = 3;
    }
    if (variant == "6k") {
        s.agents.boids = 6000;
    }
    const Precision precision = variant == "f64"     ? Precision::F64
                                : variant == "fix15" ? Precision::Fix15
                                                     : Precision::F32;
    return with_precision(precision, [&]<class Real>() { return fly<Real>(s, threads); });
}

std::string hex(std::uint64_t h) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%016llxULL", static_cast<unsigned long long>(h));
    return text;
}

TEST(GoldenHashes, EveryPresetFliesToItsPinnedState) {
    for (const Pin& pin : pins) {
        const std::uint64_t two = fly(pin, 2);
        EXPECT_EQ(hex(two), hex(pin.hash))
            << pin.preset << " " << pin.variant << " after " << pinned_steps << " steps";
        EXPECT_EQ(hex(fly(pin, 1)), hex(two)) << pin.preset << " " << pin.variant << ": 1 thread differs";
    }
}

TEST(GoldenHashes, EveryPresetIsPinned) {
    for (const std::string& name : preset_names()) {
        int pinned = 0;
        for (const Pin& pin : pins) {
            pinned += name == pin.preset && std::string(pin.variant) == "f32";
        }
        EXPECT_EQ(pinned, 1) << "preset " << name << " has no f32 pin";
    }
}

} // namespace
} // namespace boids
