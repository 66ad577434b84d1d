// libtdls: the copy between a caller's matrix and its packed copy in shared
// memory (column c at c * n), by the threads of one group; used by the block
// and the warp drivers.
#pragma once

#include <cstdint>

#include "launch.hpp"

namespace tdls::kernels::gpu {

/// Thread tx of a group of `threads` moves elements tx, tx + threads, ... of
/// every column (column-major or interleaved storage: consecutive threads
/// touch consecutive addresses of the caller's column) or of every row
/// (row-major storage: consecutive addresses of the caller's row). No index is
/// divided. load: caller -> packed; otherwise packed -> caller.
template <typename T>
TDLS_HOST_DEVICE void copy_packed(const SystemView<T>& v, int n, int tx, int threads, T* packed, bool load) {
    const bool rows_contiguous = v.a_col == 1 && v.a_row != 1;
    for (int k = 0; k < n; ++k) {
        for (int e = tx; e < n; e += threads) {
            const int r = rows_contiguous ? k : e;
            const int c = rows_contiguous ? e : k;
            T& mine = packed[std::int64_t(c) * n + r];
            T& theirs = v.A[r * v.a_row + c * v.a_col];
            if (load)
                mine = theirs;
            else
                theirs = mine;
        }
    }
}

} // namespace tdls::kernels::gpu
