#include "machine_description.hpp"

#include <cstring>
#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#else
#include <fstream>
#endif

namespace boids::cli {

namespace {

/// Leading and trailing spaces removed (CPUID pads its brand string).
std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

#if defined(__x86_64__) || defined(__i386__)
std::string processor() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    char brand[49] = {};
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) != 0 && a >= 0x80000004u) {
        for (unsigned leaf = 0; leaf < 3; ++leaf) {
            unsigned r[4] = {};
            __get_cpuid(0x80000002u + leaf, &r[0], &r[1], &r[2], &r[3]);
            std::memcpy(brand + 16 * leaf, r, sizeof r);
        }
    }
    std::string name = trimmed(brand);
    char vendor[13] = {};
    if (__get_cpuid(0, &a, &b, &c, &d) == 0) {
        return name.empty() ? "unknown x86 CPU" : name;
    }
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    __get_cpuid(1, &a, &b, &c, &d);
    // The family and model as Linux reports them: the extended fields count only where the base ones say so.
    unsigned family = (a >> 8) & 0xFu, model = (a >> 4) & 0xFu;
    if (family == 0xFu) {
        family += (a >> 20) & 0xFFu;
    }
    if (family == 0x6u || family >= 0xFu) {
        model += ((a >> 16) & 0xFu) << 4;
    }
    return (name.empty() ? std::string("x86 CPU") : name) + " (" + vendor + " family " +
           std::to_string(family) + " model " + std::to_string(model) + ")";
}
#else
std::string processor() {
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);) {
        for (const char* key : {"model name", "Model", "cpu model", "CPU part"}) {
            if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
                return trimmed(line.substr(line.find(':') + 1));
            }
        }
    }
    return "unknown CPU";
}
#endif

} // namespace

std::string cpu_description() {
    const int cpus = omp_get_num_procs();
    return processor() + ", " + std::to_string(cpus) + (cpus == 1 ? " logical CPU" : " logical CPUs");
}

} // namespace boids::cli
