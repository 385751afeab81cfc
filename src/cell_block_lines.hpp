#pragma once
// The columns and rows of a block of cells around an agent's (internal), as the k-nearest searches read
// them (k_nearest_two_rings.cpp, k_nearest_tiles.cpp): the block's columns as spans of a row's cells, and
// its rows, on a torus (wrapped) or an open grid (cut at its edges).

#include <algorithm>

namespace boids::block_lines {

/// Columns [first, last] of a row.
struct Columns {
    int first = 0, last = -1;
};

/// The columns from `first` to `last` (within [-r, nx - 1 + r]) of a row of nx >= last - first + 1: on a
/// torus one or two spans (its seam splits them), on an open grid the part within it. Returns how many.
inline int column_spans(int first, int last, int nx, bool wrap, Columns (&out)[2]) {
    if (!wrap) {
        out[0] = {std::max(first, 0), std::min(last, nx - 1)};
        return 1;
    }
    if (first < 0) {
        out[0] = {first + nx, nx - 1};
        out[1] = {0, last};
        return 2;
    }
    if (last >= nx) {
        out[0] = {first, nx - 1};
        out[1] = {0, last - nx};
        return 2;
    }
    out[0] = {first, last};
    return 1;
}

/// The grid row at `row` (within [-r, ny - 1 + r] for a grid of ny >= 2r + 1 rows): wrapped on a torus, -1
/// past an open grid's edge.
inline int grid_row(int row, int ny, bool wrap) {
    if (wrap) {
        return row < 0 ? row + ny : (row >= ny ? row - ny : row);
    }
    return row >= 0 && row < ny ? row : -1;
}

/// The rows from `first` to `last` (grid_row of each).
inline void rows_of(int first, int last, int ny, bool wrap, int* out) {
    for (int r = first; r <= last; ++r) {
        *out++ = grid_row(r, ny, wrap);
    }
}

} // namespace boids::block_lines
