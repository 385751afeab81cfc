// The fast classic step's neighbour lines for double agents on a torus, for every instruction set
// (fast_classic_lines.inc).

#define BOIDS_LINES_REAL double
#define BOIDS_LINES_WRAP true
#define BOIDS_LINES_NAMESPACE f64_wrap

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_classic_lines_f64_wrap.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "fast_classic_lines.inc"
