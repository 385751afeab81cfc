#!/usr/bin/env bash
# The lanes kernels copy no index table onto the stack. Highway 1.0.3's Compress keeps its table in a
# constexpr local array that GCC 12 copies at every call with `rep movsq`: 1 KiB on AVX2 (and SSE4,
# SSSE3), 2 KiB for 64-bit lanes on AVX-512. The classic kernel's listing and the topological k-nearest
# search compress with src/compress_lanes-inl.h instead, and this keeps it so:
# - in the classic kernel's AVX2, SSE4 and SSSE3 code, no string copy at all;
# - in the classic kernel and the k-nearest search on every target, no copy of a fixed 1 KiB or more
#   (`mov $count,%ecx` of at least 128 quadwords, then `rep movsq`).
# Usage: check_kernel_code.sh OBJECT (a library or program holding the kernels)
set -euo pipefail
object=$1
# objdump's listing goes straight to awk: held in a shell variable, its 100 MB took bash 10 s.
report=$(objdump -d --no-show-raw-insn -C "$object" | awk 'function hex(s,    n, i) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
    /^[0-9a-f]+ <.*>:$/ { fn = $0; kernel = fn ~ /boids::(fast|two_rings)::N_[A-Z0-9_]+::/;
                                     below512 = fn ~ /boids::fast::N_(AVX2|SSE4|SSSE3)::/; seen += below512 }
    kernel && /rep movs/ {
        if (below512) { copies++; print "copy in " fn > "/dev/stderr" }
        else if (previous ~ /mov +\$0x[0-9a-f]+,%[er]cx$/) {
            count = previous; sub(/.*\$0x/, "", count); sub(/,.*/, "", count)
            if (hex(count) >= 128) { copies++; print "table-sized copy in " fn > "/dev/stderr" }
        }
    }
    { previous = $0 }
    END { printf "%d %d\n", seen, copies }')
read -r functions copies <<<"$report"
echo "classic kernel functions for AVX2/SSE4/SSSE3: $functions, table copies in the kernels: $copies"
if ((functions == 0)); then
    echo "no AVX2/SSE4/SSSE3 kernel functions found in $object" >&2
    exit 1
fi
((copies == 0))
