// The fast classic step's neighbour lines for float agents in a world with margins, for every instruction set
// (fast_classic_lines.inc).

#define BOIDS_LINES_REAL float
#define BOIDS_LINES_WRAP false
#define BOIDS_LINES_NAMESPACE f32_margin

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_classic_lines_f32_margin.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep

#include "fast_classic_lines.inc"
