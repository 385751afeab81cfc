#pragma once
// The neighbour lines of the fast classic step (internal), one translation unit per scalar type and
// boundary (fast_classic_lines_*.cpp): each compiles a quarter of the kernel's instantiations for every
// instruction set and dispatches to the best one. Callers use neighbour_lines (fast_classic_kernel.hpp).

#include "fast_classic_kernel.hpp"

namespace boids::fast {

namespace f32_margin {
void neighbour_lines(const FlockInCellOrder<float>& flock, int line_begin, int line_end);
}
namespace f32_wrap {
void neighbour_lines(const FlockInCellOrder<float>& flock, int line_begin, int line_end);
}
namespace f64_margin {
void neighbour_lines(const FlockInCellOrder<double>& flock, int line_begin, int line_end);
}
namespace f64_wrap {
void neighbour_lines(const FlockInCellOrder<double>& flock, int line_begin, int line_end);
}

} // namespace boids::fast
