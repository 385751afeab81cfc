#pragma once
// What `boids bench` says of the machine it measured, so that a figure names the CPU that produced it and
// the load other processes put on it meanwhile.

#include <chrono>
#include <string>

namespace boids::cli {

/// The CPU's name, its vendor, family and model (x86: from CPUID, the numbers Linux's /proc/cpuinfo gives;
/// elsewhere the name alone, where known) and the logical CPUs this process may run on, e.g.
/// "AMD EPYC (AuthenticAMD family 26 model 2), 2 logical CPUs". Two machines sold under one name
/// (a cloud's "AMD EPYC") differ in family and model, and so in what their SIMD units cost.
std::string cpu_description();

/// CPU time (user + system, all threads) of this process so far, in seconds.
double process_cpu_seconds();

/// How much of the machine other processes held over a stretch of wall time: the machine's busy CPU time
/// (the kernel's counters) minus this process's own (its spinning threads included), per second.
class OtherLoad {
public:
    OtherLoad();
    /// Cores other processes held on average since construction; negative if unknown.
    [[nodiscard]] double cores() const;

private:
    std::chrono::steady_clock::time_point wall_;
    double machine_;
    double own_;
};

/// "other processes held 0.25 of 2 cores", or that the load is unknown (a negative `cores`).
std::string describe_load(double cores);

/// The closing line of a table: how much of the machine other processes held while it was measured (a
/// figure taken beside them measures them too), and the 1-minute load average.
void print_machine_load(const char* during, double others);

} // namespace boids::cli
