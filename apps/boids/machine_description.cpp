#include "machine_description.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

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

/// CPU time the whole machine has spent busy (all cores, all processes), in seconds, from the kernel's
/// counters; negative where they cannot be read.
double machine_busy_seconds() {
    std::FILE* stat = std::fopen("/proc/stat", "r");
    if (stat == nullptr) {
        return -1.0;
    }
    // cpu  user nice system idle iowait irq softirq steal ...
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    const int fields = std::fscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                                   &idle, &iowait, &irq, &softirq, &steal);
    std::fclose(stat);
    if (fields < 4) {
        return -1.0;
    }
    const auto ticks = static_cast<double>(user + nice + system + irq + softirq + steal);
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

} // namespace

std::string cpu_description() {
    const int cpus = omp_get_num_procs();
    return processor() + ", " + std::to_string(cpus) + (cpus == 1 ? " logical CPU" : " logical CPUs");
}

double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto sec = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return sec(usage.ru_utime) + sec(usage.ru_stime);
}

OtherLoad::OtherLoad()
    : wall_(std::chrono::steady_clock::now()), machine_(machine_busy_seconds()), own_(process_cpu_seconds()) {
}

double OtherLoad::cores() const {
    const double machine = machine_busy_seconds();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
    if (machine < 0 || machine_ < 0 || wall <= 0) {
        return -1.0;
    }
    return std::max(0.0, (machine - machine_ - (process_cpu_seconds() - own_)) / wall);
}

std::string describe_load(double cores) {
    if (cores < 0) {
        return "other processes' load unknown";
    }
    char text[96];
    std::snprintf(text, sizeof text, "other processes held %.2f of %d cores", cores, omp_get_num_procs());
    return text;
}

void print_machine_load(const char* during, double others) {
    double load_average[1] = {-1.0};
    getloadavg(load_average, 1);
    std::printf("machine load during the %s: %s on average (1-minute load average %.2f)\n", during,
                describe_load(others).c_str(), load_average[0]);
}

} // namespace boids::cli
