#pragma once
// What `boids bench` says of the machine it measured, so that a figure names the CPU that produced it.

#include <string>

namespace boids::cli {

/// The CPU's name, its vendor, family and model (x86: from CPUID, the numbers Linux's /proc/cpuinfo gives;
/// elsewhere the name alone, where known) and the logical CPUs this process may run on, e.g.
/// "AMD EPYC (AuthenticAMD family 26 model 2), 2 logical CPUs". Two machines sold under one name
/// (a cloud's "AMD EPYC") differ in family and model, and so in what their SIMD units cost.
std::string cpu_description();

} // namespace boids::cli
