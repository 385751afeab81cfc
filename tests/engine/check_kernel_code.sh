#!/usr/bin/env bash
# The fast kernel's AVX2, SSE4 and SSSE3 code copies no table onto the stack. Highway 1.0's Compress on
# those targets keeps its index table in a constexpr local array that GCC 12 copies at every call with
# `rep movsq` (src/fast_classic_kernel-inl.h, kOwnCompress); the listing avoids it, and this keeps it so.
# Usage: check_kernel_code.sh OBJECT (a compiled fast_classic_lines_*.cpp, or a library holding them)
set -euo pipefail
object=$1
listing=$(objdump -d --no-show-raw-insn -C "$object")
# Functions of the kernel compiled for each target, and the string copies inside them.
report=$(awk '/^[0-9a-f]+ <.*>:$/ { fn = $0 }
    fn ~ /boids::fast::N_(AVX2|SSE4|SSSE3)::/ {
        if ($0 ~ /^[0-9a-f]+ </) { seen++ }
        if ($0 ~ /rep movs/) { copies++; print "copy in " fn > "/dev/stderr" }
    }
    END { printf "%d %d\n", seen, copies }' <<<"$listing")
read -r functions copies <<<"$report"
echo "kernel functions for AVX2/SSE4/SSSE3: $functions, table copies (rep movs) in them: $copies"
if ((functions == 0)); then
    echo "no AVX2/SSE4/SSSE3 kernel functions found in $object" >&2
    exit 1
fi
((copies == 0))
