// libtdls: LAPACK's pivots and the solver's. The solver (physical row
// interchanges) reports the order of the rows: order[k] = original row at
// position k. LAPACK reports the swap sequence that builds that order: at step
// k, row k was interchanged with row ipiv[k] (1-based). With ipiv[k] >= k + 1,
// as every ?getrf produces, the sequence of an order is unique.
#pragma once

#include <cstdint>

#include <tdls/core/macros.hpp>

namespace tdls::kernels {

/// One step of turning an order into LAPACK's swap sequence: the original
/// row that ends at position k is found at position_of[row]; the rows at k
/// and there are exchanged in the two scratch maps. Returns the 1-based pivot.
TDLS_HOST_DEVICE inline std::int32_t swap_step(int k, int row, int* position_of, int* row_at) noexcept {
    const int p = position_of[row];
    const int displaced = row_at[k];
    row_at[k] = row;
    row_at[p] = displaced;
    position_of[row] = k;
    position_of[displaced] = p;
    return p + 1;
}

/// The 1-based swap sequence of an order given in the pivot array itself
/// (ipiv[k * step] = order[k] on entry): step k reads order[k] before it
/// writes ipiv[k], so the conversion needs no array of its own. The GPU
/// register driver uses it, where the group's threads write their rows' order
/// straight into the caller's pivots. The caller's memory may have changed
/// under it (pivots overlapping another system's B, a contract violation): an
/// entry outside 0..n-1 is never used as an index; it becomes the identity
/// step k + 1 and the maps stay as they were (the result is then undefined,
/// as for any overlap, but nothing outside the scratch maps is addressed).
TDLS_HOST_DEVICE inline void swap_sequence_in_place(std::int32_t* ipiv, std::int64_t step, int n,
                                                    int* position_of, int* row_at) noexcept {
    for (int r = 0; r < n; ++r) {
        position_of[r] = r;
        row_at[r] = r;
    }
    for (int k = 0; k < n; ++k) {
        const std::int32_t row = ipiv[k * step];
        ipiv[k * step] = row >= 0 && row < n ? swap_step(k, int(row), position_of, row_at) : k + 1;
    }
}

/// Writes the 1-based swap sequence of `order` (library memory) to
/// ipiv[k * step], each entry written once and the caller's pivots never read
/// back. position_of and row_at are scratch arrays of n ints.
TDLS_HOST_DEVICE inline void swap_sequence_from_order(const int* order, int n, std::int32_t* ipiv,
                                                      std::int64_t step, int* position_of,
                                                      int* row_at) noexcept {
    for (int r = 0; r < n; ++r) {
        position_of[r] = r;
        row_at[r] = r;
    }
    for (int k = 0; k < n; ++k) ipiv[k * step] = swap_step(k, order[k], position_of, row_at);
}

/// The order that the 1-based swap sequence ipiv[k * step] builds, as
/// LAPACK's ?laswp applies it. Every entry must lie in 1..n (see
/// first_invalid_pivot).
TDLS_HOST_DEVICE inline void order_from_swap_sequence(const std::int32_t* ipiv, std::int64_t step, int n,
                                                      int* order) noexcept {
    for (int k = 0; k < n; ++k) order[k] = k;
    for (int k = 0; k < n; ++k) {
        const int p = ipiv[k * step] - 1;
        const int row = order[k];
        order[k] = order[p];
        order[p] = row;
    }
}

/// order_from_swap_sequence with each entry read once and checked before it
/// is used: false, with `order` a permutation still, when one lies outside
/// 1..n. The CPU getrs reads its pivots through this at the point of use,
/// since pivots that overlap B (a contract violation) may have changed since
/// validation; garbage then costs that system its solve, never an index
/// outside it.
TDLS_HOST_DEVICE inline bool order_from_checked_swap_sequence(const std::int32_t* ipiv, std::int64_t step, int n,
                                                              int* order) noexcept {
    for (int k = 0; k < n; ++k) order[k] = k;
    for (int k = 0; k < n; ++k) {
        const std::int32_t pivot = ipiv[k * step];
        if (pivot < 1 || pivot > n) return false;
        const int p = pivot - 1;
        const int row = order[k];
        order[k] = order[p];
        order[p] = row;
    }
    return true;
}

/// Index of the first pivot outside 1..n, or -1 when all are valid.
TDLS_HOST_DEVICE inline int first_invalid_pivot(const std::int32_t* ipiv, std::int64_t step, int n) noexcept {
    for (int k = 0; k < n; ++k) {
        const std::int32_t p = ipiv[k * step];
        if (p < 1 || p > n) return k;
    }
    return -1;
}

} // namespace tdls::kernels
