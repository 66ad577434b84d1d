// libtdls: moving W systems of a batch between the caller's memory and a
// tile (lane l = system first + l). Three ways, fastest first:
// - W consecutive systems of one interleaved block are already side by side
//   in memory: whole vectors, no shuffle;
// - a full tile whose systems store runs of at least W consecutive elements
//   (a packed matrix, or columns of order >= W): vector loads of each
//   system's run and W x W transposes (transpose.hpp);
// - a full tile whose runs are shorter than W: a masked load (store) per
//   system and a W x W transpose (transpose.hpp, gather_short_runs);
// - any other full tile (steps other than 1): a gather per element
//   (gather.hpp);
// - the last, partial tile: element by element through each system's view.
// Lanes past the end of the range hold an identity system, read and written
// nowhere.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../../common/batch_accessor.hpp"
#include "gather.hpp"
#include "tile_lu.hpp"
#include "transpose.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// Right-hand-side columns solved together: a block of at most ~64 KiB of
/// `bytes_per_entry` per entry (one lane vector of n entries per column), at
/// least one column, at most nrhs.
inline int rhs_block_columns(int n, std::int64_t nrhs, std::int64_t bytes_per_entry) noexcept {
    const std::int64_t fit = std::max<std::int64_t>(1, (64 << 10) / (std::int64_t(n) * bytes_per_entry));
    return int(std::max<std::int64_t>(1, std::min(nrhs, fit)));
}

/// Where the systems of one tile live.
template <typename T, int W>
struct TileSystems {
    SystemView<T> view[W];
    int count;         ///< systems in the tile, 1..W; the other lanes are padding
    bool side_by_side; ///< lanes are consecutive elements of one interleaved block
    /// Dynamic orders: systems of the tile's block after it that its load
    /// hints (a block's first tile; prefetch.hpp), else 0. Not set for
    /// static orders. 16 bits: it fits beside the fields above in the
    /// struct's padding (the static orders' code stays as it was), and the
    /// hinted blocks are far shorter (prefetch_whole_blocks).
    std::int16_t block_ahead;
};

/// Fills `s` in place (the range kernel keeps two and alternates: a copy of
/// W views per tile cost a tenth of the call at n = 2).
template <typename T, int W>
void fill_systems(TileSystems<T, W>& s, const BatchOperands& ops, std::int64_t first, int count) noexcept {
    s.count = count;
    s.view[0] = view_of<T>(ops, first);
    s.side_by_side = ops.form == BatchForm::Interleaved && count == W && first % ops.block + W <= ops.block;
    if (s.side_by_side) {
        // Consecutive systems of one block: each operand one element on per
        // lane. Spares the divisions of view_of for every lane but the first.
        for (int l = 1; l < W; ++l) {
            SystemView<T>& v = s.view[l];
            v = s.view[0];
            v.A += l;
            if (v.B) v.B += l;
            if (v.ipiv) v.ipiv += l;
        }
        return;
    }
    for (int l = 1; l < count; ++l) s.view[l] = view_of<T>(ops, first + l);
}

template <typename T, int W>
TileSystems<T, W> systems_of(const BatchOperands& ops, std::int64_t first, int count) noexcept {
    TileSystems<T, W> s;
    fill_systems(s, ops, first, count);
    return s;
}

/// Whether packed matrices (runs_of_matrix) move as one run per lane rather
/// than column by column: where the tile's columns are as tall as the order,
/// or where a column is not a whole number of vectors (shorter than W: no
/// column run at all; longer, the last vector of each column overlaps the one
/// before it). Whole vectors per column take as many transposes as the
/// packed run and no placement arithmetic.
template <int W, typename T>
bool moves_packed(const SystemView<T>& v, int n, int ld) noexcept {
    return v.a_col == n && (ld == n || n % W != 0);
}

template <typename T, int W>
[[gnu::noinline]] void gather_padded_dynamic(T* tile, const T* const (&src)[W], int n, int ld) noexcept {
    gather_runs<T, W>(tile, src, n * n, PaddedColumns{n, ld});
}

template <typename T, int W>
[[gnu::noinline]] void scatter_padded_dynamic(const T* tile, T* const (&dst)[W], int n, int ld) noexcept {
    bool all[W];
    for (int l = 0; l < W; ++l) all[l] = true;
    scatter_runs<T, W>(tile, dst, n * n, all, PaddedColumns{n, ld});
}

/// W packed matrices of order n into (out of) a tile of ld-row columns.
/// Inlined for a static order, whose placement divides by a constant; out of
/// line for the dynamic kernel, where inlined the placement's arithmetic
/// took registers from the column-by-column moves beside it, whose
/// transposes then went through the stack (n = 24 double, 0.97x).
template <typename T, int W, int N>
TDLS_SIMD_FORCE_INLINE void gather_padded(T* tile, const T* const (&src)[W], int n, int ld) noexcept {
    if constexpr (N > 0)
        gather_runs<T, W>(tile, src, N * N, PaddedColumns{N, ld});
    else
        gather_padded_dynamic<T, W>(tile, src, n, ld);
}

template <typename T, int W, int N>
TDLS_SIMD_FORCE_INLINE void scatter_padded(const T* tile, T* const (&dst)[W], int n, int ld) noexcept {
    if constexpr (N > 0) {
        bool all[W];
        for (int l = 0; l < W; ++l) all[l] = true;
        scatter_runs<T, W>(tile, dst, N * N, all, PaddedColumns{N, ld});
    } else {
        scatter_padded_dynamic<T, W>(tile, dst, n, ld);
    }
}

/// One run of `elements` per lane into (out of) the tile: by full-width
/// transposes (gather_runs) or, for runs shorter than W (Short), by masked
/// moves and one transpose (gather_short_runs).
template <bool Short, typename T, int W>
TDLS_SIMD_FORCE_INLINE void gather_lane_runs(T* tile, const T* const (&src)[W], int elements) noexcept {
    if constexpr (Short)
        gather_short_runs<T, W>(tile, src, elements);
    else
        gather_runs<T, W>(tile, src, elements);
}

template <bool Short, typename T, int W>
TDLS_SIMD_FORCE_INLINE void scatter_lane_runs(const T* tile, T* const (&dst)[W], int elements,
                                              const bool (&written)[W]) noexcept {
    if constexpr (Short)
        scatter_short_runs<T, W>(tile, dst, elements, written);
    else
        scatter_runs<T, W>(tile, dst, elements, written);
}

/// Columns [0, columns) of `rows` consecutive elements of each lane's
/// operand (lane l's column j at first[l] + j * step) into the tile block
/// whose columns start tile_ld rows apart: one run of rows * columns where
/// both sides are packed, else a run per column. The matrices and the
/// right-hand sides both move through it.
template <bool Short, typename T, int W>
TDLS_SIMD_FORCE_INLINE void gather_columns(T* tile, std::int64_t tile_ld, const T* const (&first)[W],
                                           std::int64_t step, int rows, int columns) noexcept {
    if (step == rows && tile_ld == rows) {
        gather_lane_runs<Short, T, W>(tile, first, rows * columns);
        return;
    }
    const T* src[W];
    for (int j = 0; j < columns; ++j) {
        for (int l = 0; l < W; ++l) src[l] = first[l] + j * step;
        gather_lane_runs<Short, T, W>(tile + j * tile_ld * W, src, rows);
    }
}

/// The inverse of gather_columns, into the lanes marked in `written` only.
template <bool Short, typename T, int W>
TDLS_SIMD_FORCE_INLINE void scatter_columns(const T* tile, std::int64_t tile_ld, T* const (&first)[W],
                                            std::int64_t step, int rows, int columns,
                                            const bool (&written)[W]) noexcept {
    if (step == rows && tile_ld == rows) {
        scatter_lane_runs<Short, T, W>(tile, first, rows * columns, written);
        return;
    }
    T* dst[W];
    for (int j = 0; j < columns; ++j) {
        for (int l = 0; l < W; ++l) dst[l] = first[l] + j * step;
        scatter_lane_runs<Short, T, W>(tile + j * tile_ld * W, dst, rows, written);
    }
}

/// Whether a full tile's matrices move as runs: consecutive rows (step 1) and
/// runs of at least W elements, packed (one run per lane, whatever the
/// tile's column height) or per column.
template <typename T, int W>
bool runs_of_matrix(const TileSystems<T, W>& s, int n) noexcept {
    const SystemView<T>& v = s.view[0];
    return s.count == W && v.a_row == 1 && (v.a_col == n ? n * n >= W : n >= W);
}

/// Whether runs of `elements` < W move by masked moves and a transpose
/// rather than a gather (a scalar store) per element: a transpose costs
/// W log2(W) shuffles whatever the run, so the shortest runs stay as they
/// were (float order 2's pivots, 2 per lane through a 16 x 16 transpose, ran
/// 0.79x).
template <int W>
constexpr bool pays_as_short_run(int elements) noexcept {
    return 2 * elements >= W;
}

/// Whether a full tile's matrices move as runs shorter than W (float orders
/// up to 15 with a leading dimension other than the order, float order 3):
/// packed with n*n < W in a tile as tall as the order, or columns of n < W.
template <typename T, int W>
bool short_runs_of_matrix(const TileSystems<T, W>& s, int n, int ld) noexcept {
    const SystemView<T>& v = s.view[0];
    const int run = v.a_col == n && ld == n ? n * n : n;
    return s.count == W && v.a_row == 1 && run < W && pays_as_short_run<W>(run);
}

/// Whether a tile of order n can move its matrices by masked loads at all
/// (short_runs_of_matrix for some layout): runs of W/2..W-1 elements, a
/// packed matrix or its columns. Static orders decide at compile time
/// whether the prefetching loop that such tiles may take is compiled
/// (prefetch.hpp).
template <int W>
constexpr bool may_move_masked(int n) noexcept {
    return (n < W && pays_as_short_run<W>(n)) || (n * n < W && pays_as_short_run<W>(n * n));
}

/// runs_of_matrix for columns [0, columns) of the right-hand sides.
template <typename T, int W>
bool runs_of_rhs(const TileSystems<T, W>& s, int n, int columns) noexcept {
    const SystemView<T>& v = s.view[0];
    return s.count == W && v.b_row == 1 && (v.b_col == n ? n * columns >= W : n >= W);
}

/// Whether they move as runs shorter than W.
template <typename T, int W>
bool short_runs_of_rhs(const TileSystems<T, W>& s, int n, int columns) noexcept {
    const SystemView<T>& v = s.view[0];
    const int run = v.b_col == n ? n * columns : n;
    return s.count == W && v.b_row == 1 && run < W && pays_as_short_run<W>(run);
}

/// Small systems packed back to back (lane l at first + l*E, E elements
/// each, E a power of two below W): the tile's block is W*E contiguous
/// elements, moved as E vectors and split or merged in registers.
template <int E, int W>
inline constexpr bool splits_in_registers = E >= 1 && E < W && (E & (E - 1)) == 0;

/// Whether the operand `member` of lanes 0 .. count - 1 lies back to back,
/// lane l at lane 0's address plus l * step elements.
template <typename T, int W, typename P>
bool lanes_follow(const TileSystems<T, W>& s, P* SystemView<T>::*member, std::int64_t step) noexcept {
    for (int l = 1; l < s.count; ++l)
        if (s.view[l].*member != s.view[0].*member + l * step) return false;
    return true;
}

/// The byte address of each lane's operand `member` (a full tile): the
/// bases of gather_lanes.
template <typename T, int W, typename P>
LaneAddresses<W> addresses_of(const TileSystems<T, W>& s, P* SystemView<T>::*member) noexcept {
    LaneAddresses<W> a;
    for (int l = 0; l < W; ++l) a.at[l] = std::int64_t(reinterpret_cast<std::uintptr_t>(s.view[l].*member));
    return a;
}

/// Elements (i, j), i < rows, j < columns, of each lane's operand, at its
/// address plus i * row_step + j * column_step elements, one gather each,
/// into the tile block dst[(j * ld + i) * W + lane]: the move of a full tile
/// whose systems cannot move as runs (matrices and right-hand sides). The
/// steps are scaled per element: a step no element uses (B's column step
/// with one column) may hold any value, INT64_MAX included. Inline: out of
/// line (compiled once per type instead of once per order) it ran n = 3
/// float at 0.94x, and compiled no faster (docs/ci.md, stop 44).
template <typename T, int W>
inline void gather_block(T* dst, std::int64_t ld, int rows, int columns, const LaneAddresses<W>& base,
                         std::int64_t row_step, std::int64_t column_step) noexcept {
    constexpr std::int64_t size = sizeof(T);
    for (int j = 0; j < columns; ++j)
        for (int i = 0; i < rows; ++i)
            Lanes<T, W>::store(dst + (j * ld + i) * W,
                               gather_lanes<T, W>(base, (i * row_step + j * column_step) * size));
}

/// The same for a full tile.
template <typename T, int W>
bool back_to_back(const TileSystems<T, W>& s, T* SystemView<T>::*operand, std::int64_t elements) noexcept {
    return s.count == W && lanes_follow(s, operand, elements);
}

/// Calls move(caller, tile) with the addresses of element (i, j) of W side-
/// by-side systems in the caller's block and in the tile, column by column.
/// Bases and strides are locals: the vector moves are memcpy (Lanes), which
/// may alias anything, and with the strides read through the view and the
/// tile GCC reloaded all four and multiplied both addresses afresh at every
/// element (double n = 32, blocks of 64, batch in L2: the moves took 1.4-1.6x
/// the time of the strided form's transposes).
template <typename T, int W, int N, typename Move>
TDLS_SIMD_FORCE_INLINE void each_side_by_side_element(const Tile<T, W, N>& t, const SystemView<T>& first,
                                                      const Move& move) noexcept {
    const int n = t.order();
    T* const caller = first.A;
    const std::int64_t row = first.a_row, column = first.a_col;
    T* const tile = t.at(0, 0);
    const std::int64_t tile_column = std::int64_t(t.ld()) * W;
    for (int j = 0; j < n; ++j) {
        T* const from = caller + j * column;
        T* const to = tile + j * tile_column;
        for (int i = 0; i < n; ++i) move(from + i * row, to + i * W);
    }
}

/// Whether load_matrices moves this full tile's matrices by masked loads
/// (short_runs_of_matrix, where no path it tries first applies): such tiles
/// waited on memory where tiles of full-width loads did not (prefetch.hpp).
template <typename T, int W, int N>
bool matrices_move_masked(const Tile<T, W, N>& t, const TileSystems<T, W>& s) noexcept {
    const int n = t.order();
    const SystemView<T>& first = s.view[0];
    if (s.side_by_side || runs_of_matrix(s, n)) return false;
    if constexpr (splits_in_registers<N * N, W>)
        if (first.a_row == 1 && first.a_col == N && back_to_back(s, &SystemView<T>::A, N * N)) return false;
    return short_runs_of_matrix(s, n, t.ld());
}

template <typename T, int W, int N>
void load_matrices(const Tile<T, W, N>& t, const TileSystems<T, W>& s) noexcept {
    using L = Lanes<T, W>;
    const int n = t.order();
    const SystemView<T>& first = s.view[0];
    if (s.side_by_side) {
        each_side_by_side_element(t, first, [](T* caller, T* tile) { L::store(tile, L::load(caller)); });
        return;
    }
    if constexpr (splits_in_registers<N * N, W>) {
        if (first.a_row == 1 && first.a_col == N && back_to_back(s, &SystemView<T>::A, N * N)) {
            typename L::V v[N * N];
            for (int e = 0; e < N * N; ++e) v[e] = L::load(first.A + e * W);
            deinterleave<T, W, N * N>(v);
            for (int e = 0; e < N * N; ++e) L::store(t.at(0, 0) + e * W, v[e]);
            return;
        }
    }
    const bool runs = runs_of_matrix(s, n);
    if (runs || short_runs_of_matrix(s, n, t.ld())) {
        const T* src[W];
        for (int l = 0; l < W; ++l) src[l] = s.view[l].A;
        if (!runs)
            gather_columns<true, T, W>(t.at(0, 0), t.ld(), src, first.a_col, n, n);
        else if (moves_packed<W>(first, n, t.ld()) && t.ld() != n) // one run per lane, placed in padded columns
            gather_padded<T, W, N>(t.at(0, 0), src, n, t.ld());
        else
            gather_columns<false, T, W>(t.at(0, 0), t.ld(), src, first.a_col, n, n);
        return;
    }
    if (s.count == W) {
        // Steps other than 1: a gather per element. The
        // strides are the call's, the same in every lane.
        gather_block<T, W>(t.at(0, 0), t.ld(), n, n, addresses_of(s, &SystemView<T>::A), first.a_row, first.a_col);
        return;
    }
    for (int l = 0; l < s.count; ++l) {
        const SystemView<T>& v = s.view[l];
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) t.at(i, j)[l] = v.A[i * v.a_row + j * v.a_col];
    }
    for (int l = s.count; l < W; ++l)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) t.at(i, j)[l] = i == j ? T(1) : T(0);
}

template <typename T, int W, int N>
void store_matrices(const Tile<T, W, N>& t, const TileSystems<T, W>& s) noexcept {
    using L = Lanes<T, W>;
    const int n = t.order();
    const SystemView<T>& first = s.view[0];
    if (s.side_by_side) {
        each_side_by_side_element(t, first, [](T* caller, T* tile) { L::store(caller, L::load(tile)); });
        return;
    }
    if constexpr (splits_in_registers<N * N, W>) {
        if (first.a_row == 1 && first.a_col == N && back_to_back(s, &SystemView<T>::A, N * N)) {
            typename L::V v[N * N];
            for (int e = 0; e < N * N; ++e) v[e] = L::load(t.at(0, 0) + e * W);
            interleave<T, W, N * N>(v);
            for (int e = 0; e < N * N; ++e) L::store(first.A + e * W, v[e]);
            return;
        }
    }
    const bool runs = runs_of_matrix(s, n);
    if (runs || short_runs_of_matrix(s, n, t.ld())) {
        T* dst[W];
        bool all[W];
        for (int l = 0; l < W; ++l) {
            dst[l] = s.view[l].A;
            all[l] = true;
        }
        if (!runs)
            scatter_columns<true, T, W>(t.at(0, 0), t.ld(), dst, first.a_col, n, n, all);
        else if (moves_packed<W>(first, n, t.ld()) && t.ld() != n)
            scatter_padded<T, W, N>(t.at(0, 0), dst, n, t.ld());
        else
            scatter_columns<false, T, W>(t.at(0, 0), t.ld(), dst, first.a_col, n, n, all);
        return;
    }
    for (int l = 0; l < s.count; ++l) {
        const SystemView<T>& v = s.view[l];
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) v.A[i * v.a_row + j * v.a_col] = t.at(i, j)[l];
    }
}

/// Whether every lane has pivots with entries one apart.
template <typename T, int W>
bool consecutive_pivots(const TileSystems<T, W>& s) noexcept {
    for (int l = 0; l < s.count; ++l)
        if (!s.view[l].ipiv || s.view[l].ipiv_step != 1) return false;
    return true;
}

/// LAPACK's 1-based swap sequence out of the 0-based pivot rows. Always
/// inlined, as solve_tiles() is (tile_lu.hpp).
template <typename T, int W, int N>
TDLS_SIMD_FORCE_INLINE void store_pivots(const Tile<T, W, N>& t, const TileSystems<T, W>& s) noexcept {
    if (s.side_by_side) {
        // Pivot k of the W lanes: W consecutive entries, one vector store
        // (lane by lane, the stores went a block's stride apart).
        const SystemView<T>& v = s.view[0];
        if (!v.ipiv) return;
        for (int k = 0; k < t.order(); ++k) {
            std::int32_t* const out = v.ipiv + k * v.ipiv_step;
            const auto* pivot = t.pivot(k);
            for (int l = 0; l < W; ++l) out[l] = std::int32_t(pivot[l] + 1);
        }
        return;
    }
    if constexpr (W * sizeof(std::int32_t) >= 16) { // a vector of W entries (not SSE2's double)
        if (s.count == W && pays_as_short_run<W>(t.order()) && consecutive_pivots(s)) {
            // W pivots of each lane at a time: W vectors of W lanes, one
            // transpose, a run of W entries per lane (element by element,
            // float order 12's pivots and solutions held a sixth of the call).
            // The entries' bits ride in float vectors, whose transpose only
            // moves them (Lanes has no 32-bit integer family of its own).
            using Carrier = Lanes<float, W>;
            using Entries = typename VectorOf<std::int32_t, 4 * W>::type;
            const int n = t.order();
            for (int k0 = 0; k0 < n; k0 += W) {
                const int count = std::min(W, n - k0);
                typename Carrier::V v[W];
                for (int r = 0; r < W; ++r)
                    v[r] = r < count ? (typename Carrier::V)(
                                           __builtin_convertvector(Lanes<T, W>::load(t.pivot(k0 + r)), Entries) + 1)
                                     : typename Carrier::V{};
                transpose<float, W>(v);
                for (int l = 0; l < W; ++l) {
                    float* const out = reinterpret_cast<float*>(s.view[l].ipiv + k0);
                    if (count == W)
                        Carrier::store(out, v[l]);
                    else
                        store_first<float, W>(out, v[l], count);
                }
            }
            return;
        }
    }
    for (int l = 0; l < s.count; ++l) {
        const SystemView<T>& v = s.view[l];
        if (!v.ipiv) continue;
        for (int k = 0; k < t.order(); ++k) v.ipiv[k * v.ipiv_step] = std::int32_t(t.pivot(k)[l] + 1);
    }
}

/// Pivots in from LAPACK's swap sequence; padding lanes exchange nothing.
/// Validation checked the pivots, but they may overlap an earlier tile's B (a
/// contract violation), so each is read once and checked here: an entry
/// outside 1..n is replaced by k (no exchange) and its lane is cleared in the
/// mask returned, so that its B is not written.
template <typename T, int W, int N>
typename Lanes<T, W>::M load_pivots(const Tile<T, W, N>& t, const TileSystems<T, W>& s) noexcept {
    using L = Lanes<T, W>;
    using Index = typename L::Index;
    typename L::M valid = L::splat_index(-1);
    const int n = t.order();
    for (int k = 0; k < n; ++k) {
        auto* pivot = t.pivot(k);
        for (int l = 0; l < s.count; ++l) {
            const std::int32_t entry = s.view[l].ipiv[k * s.view[l].ipiv_step];
            const bool in_range = entry >= 1 && entry <= n;
            if (!in_range) valid[l] = 0;
            pivot[l] = in_range ? Index(entry - 1) : Index(k);
        }
        for (int l = s.count; l < W; ++l) pivot[l] = k;
    }
    return valid;
}

/// Columns [first_column, first_column + columns) of each system's B into
/// the tile's right-hand-side block b[(c*n + i)*W + l]. Always inlined, as
/// store_rhs: with the short-run moves GCC kept both out of line in the
/// static orders' range kernels (float order 7 ran 0.74x).
template <int N, typename T, int W>
TDLS_SIMD_FORCE_INLINE void load_rhs(T* b, int n, const TileSystems<T, W>& s, std::int64_t first_column, int columns) noexcept {
    using L = Lanes<T, W>;
    const auto at = [&](int i, int c) { return b + (std::int64_t(c) * n + i) * W; };
    if constexpr (N > 0 && splits_in_registers<N, W>) {
        // One right-hand side each, back to back: N vectors, split in registers.
        const SystemView<T>& v = s.view[0];
        if (first_column == 0 && columns == 1 && v.b_row == 1 && back_to_back(s, &SystemView<T>::B, N)) {
            typename L::V x[N];
            for (int e = 0; e < N; ++e) x[e] = L::load(v.B + e * W);
            deinterleave<T, W, N>(x);
            for (int e = 0; e < N; ++e) L::store(at(e, 0), x[e]);
            return;
        }
    }
    if (s.side_by_side) {
        // Base and strides in locals, as each_side_by_side_element's.
        const T* const from = s.view[0].B + first_column * s.view[0].b_col;
        const std::int64_t row = s.view[0].b_row, column = s.view[0].b_col;
        for (int c = 0; c < columns; ++c)
            for (int i = 0; i < n; ++i) L::store(at(i, c), L::load(from + i * row + c * column));
        return;
    }
    const bool runs = runs_of_rhs(s, n, columns);
    if (runs || short_runs_of_rhs(s, n, columns)) {
        const std::int64_t step = s.view[0].b_col;
        const T* src[W];
        for (int l = 0; l < W; ++l) src[l] = s.view[l].B + first_column * step;
        if (runs)
            gather_columns<false, T, W>(b, n, src, step, n, columns);
        else
            gather_columns<true, T, W>(b, n, src, step, n, columns);
        return;
    }
    if (s.count == W) { // as load_matrices: a gather per element
        const SystemView<T>& v = s.view[0];
        LaneAddresses<W> base = addresses_of(s, &SystemView<T>::B); // at column first_column
        if (first_column > 0)
            for (std::int64_t& a : base.at) a += first_column * v.b_col * std::int64_t(sizeof(T));
        gather_block<T, W>(b, n, n, columns, base, v.b_row, v.b_col);
        return;
    }
    for (int l = 0; l < s.count; ++l) {
        const SystemView<T>& v = s.view[l];
        for (int c = 0; c < columns; ++c)
            for (int i = 0; i < n; ++i) at(i, c)[l] = v.B[i * v.b_row + (first_column + c) * v.b_col];
    }
    for (int l = s.count; l < W; ++l)
        for (int c = 0; c < columns; ++c)
            for (int i = 0; i < n; ++i) at(i, c)[l] = T(0);
}

/// The solutions back, in the lanes of `written` only (all ones: write; the
/// caller's B of the other lanes keeps every bit it had).
template <int N, typename T, int W>
TDLS_SIMD_FORCE_INLINE void store_rhs(const T* b, int n, const TileSystems<T, W>& s, std::int64_t first_column, int columns,
               typename Lanes<T, W>::M written) noexcept {
    using L = Lanes<T, W>;
    const auto at = [&](int i, int c) { return b + (std::int64_t(c) * n + i) * W; };
    if constexpr (N > 0 && splits_in_registers<N, W>) {
        const SystemView<T>& v = s.view[0];
        if (first_column == 0 && columns == 1 && v.b_row == 1 && back_to_back(s, &SystemView<T>::B, N)) {
            typename L::V x[N];
            for (int e = 0; e < N; ++e) x[e] = L::load(at(e, 0));
            interleave<T, W, N>(x);
            for (int e = 0; e < N; ++e) {
                // Element i of vector e belongs to lane (e*W + i) / N.
                typename L::M keep{};
                for (int i = 0; i < W; ++i) keep[i] = written[(e * W + i) / N];
                T* const out = v.B + e * W;
                L::store(out, keep ? x[e] : L::load(out));
            }
            return;
        }
    }
    if (s.side_by_side) {
        T* const to = s.view[0].B + first_column * s.view[0].b_col;
        const std::int64_t row = s.view[0].b_row, column = s.view[0].b_col;
        for (int c = 0; c < columns; ++c)
            for (int i = 0; i < n; ++i) {
                T* const out = to + i * row + c * column;
                L::store(out, written ? L::load(at(i, c)) : L::load(out));
            }
        return;
    }
    const bool runs = runs_of_rhs(s, n, columns);
    if (runs || short_runs_of_rhs(s, n, columns)) {
        const std::int64_t step = s.view[0].b_col;
        bool lanes[W];
        T* dst[W];
        for (int l = 0; l < W; ++l) {
            lanes[l] = written[l] != 0;
            dst[l] = s.view[l].B + first_column * step;
        }
        if (runs)
            scatter_columns<false, T, W>(b, n, dst, step, n, columns, lanes);
        else
            scatter_columns<true, T, W>(b, n, dst, step, n, columns, lanes);
        return;
    }
    for (int l = 0; l < s.count; ++l) {
        if (!written[l]) continue;
        const SystemView<T>& v = s.view[l];
        for (int c = 0; c < columns; ++c)
            for (int i = 0; i < n; ++i) v.B[i * v.b_row + (first_column + c) * v.b_col] = at(i, c)[l];
    }
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
