// libtdls: software prefetch of the next tile's systems while the current one
// is factored. The range kernel loads a tile, factors it, stores it; without
// hints each tile's loads begin with misses that nothing overlaps. Issued a
// slice per factorization step, one tile ahead, the misses overlap the
// current tile's arithmetic: on Zen 4, 1.1-1.4x at n = 6..16 in the strided
// form and 1.1-1.3x at n = 4..32 in the interleaved one (docs/cpu_simd.md).
// A prefetch never faults and changes no value; its addresses come from the
// views the range kernel already holds for the next tile (the caller's
// pointers are read once).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "prefetch_lines.hpp"
#include "tile_io.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// What the range kernel will do with the next tile's operands.
struct PrefetchPlan {
    int n;
    int rhs_columns;     ///< right-hand-side columns read and written (0: none)
    bool writes_factors; ///< the factors go back into A and ipiv (gesv, getrf; not solve)
};

/// Which tiles gain from the hints, by the bytes of the tile's matrices (W
/// n x n systems; the same for float and double at one n), measured on Zen 4
/// (docs/cpu_simd.md, "Prefetching the next tile"):
/// - systems stored in runs (strided and pointer forms): the hardware
///   prefetchers follow the runs, and the hints paid at n = 5..24 (up to
///   1.39x at n = 8), cost 8-9% at n = 3-4 (their instructions) and 3-8%
///   at n = 32-64;
/// - side by side (interleaved blocks: one line per element, a block's
///   stride apart, a pattern the prefetchers do not follow): 1.07-1.30x at
///   n = 4..16 and in double up to 32; within 4% either way at n = 2-3 and,
///   in float, from 24 on. On the Zen 5 host of stop 48 (blocks of 64,
///   medians of four alternated runs) tiles of 144 KiB (n = 48) ran
///   1.07x in double and 1.05x in float with the hints, of 256 KiB (64)
///   1.02-1.03x, of 576 KiB (double 96) 0.97x: hinted up to 256 KiB.
/// Order 4's 1024-byte tiles in runs were left out (gesv 1.02-1.03x with
/// the hints on that host) until stop 53's pairs of tiles (simd_range.hpp,
/// pairs_pay) halved their factorization's latency: on the Zen 5 host of
/// stop 53, 128 MiB batches, gesv with the hints ran 1.16-1.20x in double
/// and 1.08-1.22x in float (tdls-bench and a C driver, alternated, 4-5
/// rounds). A batch resident in L2 (256 KiB) pays their instructions:
/// 0.87-0.91x. Batches of this library's size are not.
/// Calls that write no factor back (solve, getrs: A read only) had taken
/// the hints from order 4's tiles since stop 48 (threshold of their own
/// then, now the same): on the Zen 5 host of stop 48, with 10^6 systems,
/// solve's double order 4 ran 1.14x with the hints (median of four
/// alternated runs), float order 4 0.97x, both 0.94-0.97x with the batch in
/// L2; double order 3's 576-byte tiles 0.95x, so not below.
inline constexpr std::int64_t prefetch_runs_min_bytes = 1024;
inline constexpr std::int64_t prefetch_runs_max_bytes = std::int64_t(48) << 10;
inline constexpr std::int64_t prefetch_side_by_side_min_bytes = 1024;
inline constexpr std::int64_t prefetch_side_by_side_max_bytes = std::int64_t(256) << 10;

/// The bytes of a tile's matrices: W systems of order n.
template <typename T, int W>
constexpr std::int64_t tile_matrix_bytes(int n) noexcept {
    return std::int64_t(n) * n * W * std::int64_t(sizeof(T));
}

/// Whether tiles of this static order can pass prefetch_pays (the range
/// kernel compiles its prefetching loop only for those).
template <typename T, int W>
constexpr bool prefetch_may_pay(int n) noexcept {
    const std::int64_t bytes = tile_matrix_bytes<T, W>(n);
    const std::int64_t least =
        std::min(prefetch_runs_min_bytes, prefetch_side_by_side_min_bytes);
    return (bytes >= least || may_move_masked<W>(n)) &&
           bytes <= std::max(prefetch_runs_max_bytes, prefetch_side_by_side_max_bytes);
}

/// Decided once per range, by the form (an interleaved call's tiles are side
/// by side but where one straddles two blocks) and, for runs, by whether
/// the matrices move by masked loads (`masked`, matrices_move_masked): those
/// tiles pay below the runs' threshold. On the Zen 5 host of stop 48 float
/// order 3 (576-byte tiles, nine-element masked loads), 10^6 systems ran
/// 1.64x faster with the hints in gesv and 1.96x in solve (0.91x with the
/// batch in L2), where double order 3's tiles of the same size, moved by
/// full-width loads, ran 0.90x (docs/cpu_simd.md).
template <typename T, int W>
bool prefetch_pays(BatchForm form, int n, bool masked) noexcept {
    const std::int64_t bytes = tile_matrix_bytes<T, W>(n);
    if (form == BatchForm::Interleaved)
        return bytes >= prefetch_side_by_side_min_bytes && bytes <= prefetch_side_by_side_max_bytes;
    return (bytes >= prefetch_runs_min_bytes || masked) && bytes <= prefetch_runs_max_bytes;
}

/// A rows x columns block of elements (i, j) at base[i * row + j * column]:
/// one range per contiguous run (a column when row == 1, a row when
/// column == 1, the whole block when packed), else one line per element.
template <bool Write, typename T>
inline void prefetch_block(const T* base, std::int64_t row, std::int64_t column, int rows, int columns,
                           int lane_elements) noexcept {
    if (row == 1 && column == rows) {
        prefetch_bytes<Write>(base, std::int64_t(rows) * columns * sizeof(T));
    } else if (row == 1) {
        for (int j = 0; j < columns; ++j) prefetch_bytes<Write>(base + j * column, std::int64_t(rows) * sizeof(T));
    } else if (column == 1) {
        for (int i = 0; i < rows; ++i) prefetch_bytes<Write>(base + i * row, std::int64_t(columns) * sizeof(T));
    } else {
        for (int j = 0; j < columns; ++j)
            for (int i = 0; i < rows; ++i)
                prefetch_bytes<Write>(base + i * row + j * column, std::int64_t(lane_elements) * sizeof(T));
    }
}

/// The k-th contiguous run of a matrix operand (column k when column-major
/// storage steps rows by 1, row k when row-major), or, where no dimension is
/// contiguous (interleaved blocks), the lines of elements (i, k).
template <bool Write, typename T>
inline void prefetch_slice(const T* base, std::int64_t row, std::int64_t column, int n, int k,
                           int lane_elements) noexcept {
    if (row == 1)
        prefetch_bytes<Write>(base + k * column, std::int64_t(n) * sizeof(T));
    else if (column == 1)
        prefetch_bytes<Write>(base + k * row, std::int64_t(n) * sizeof(T));
    else
        for (int i = 0; i < n; ++i)
            prefetch_bytes<Write>(base + i * row + k * column, std::int64_t(lane_elements) * sizeof(T));
}

/// Interleaved blocks of more than one tile: a tile takes one line of each
/// element's run of `block` systems, one line in block / W (512 bytes apart
/// in blocks of 64 doubles), so each tile read the block's pages again for
/// its own lines; where the batch lies off a line boundary (malloc's 16
/// bytes past a page), each tile's lanes straddle two lines. The first tile
/// of each block therefore hints the rest of every element's run as it
/// loads its own line (load_matrices_hinting_block): the block arrives as
/// one contiguous read, and its other tiles find their lines in cache.
/// Measured on the Zen 5 host of stop 49 (blocks of 64, 128 MiB malloc'd
/// batches, gesv, medians of alternated runs): double 1.03x at n = 32
/// (64 KiB tiles), 1.06-1.09x at 48-96, level at 128 (8 MiB blocks); float
/// 1.02x at 32, 1.06-1.11x at 64-128 (a block of 128 floats of order 128 is
/// 4 MiB); blocks of 16 and 32 doubles 1.06-1.09x at 64, solve 1.10x;
/// 0.96-0.98x for tiles under 64 KiB (double 8-24, float 8-16), where the
/// next-tile hints already cover the lines. tdls-bench's 64-byte aligned
/// batches ran level with and without (docs/cpu_simd.md, "Interleaved
/// blocks of several tiles"). PREFETCHW for factors written back (gesv,
/// getrf), PREFETCHT0 otherwise: 1.03-1.06x over PREFETCHT1.
inline constexpr std::int64_t whole_block_min_tile_bytes = std::int64_t(64) << 10;
inline constexpr std::int64_t whole_block_max_bytes = std::int64_t(6) << 20;
// A hinted block holds at most whole_block_max_bytes / (min_tile_bytes / W)
// systems, W at most 64 lanes: TileSystems::block_ahead's 16 bits hold it.
static_assert(whole_block_max_bytes / whole_block_min_tile_bytes * 64 <= INT16_MAX);

/// Whether the first tile of each interleaved block hints the whole block.
template <typename T, int W>
bool prefetch_whole_blocks(BatchForm form, int n, std::int64_t block) noexcept {
    if (form != BatchForm::Interleaved || block <= W || tile_matrix_bytes<T, W>(n) < whole_block_min_tile_bytes)
        return false;
    const std::int64_t system_bytes = std::int64_t(n) * n * std::int64_t(sizeof(T));
    return block <= whole_block_max_bytes / system_bytes; // the block's bytes, without overflow
}

/// load_matrices(), and where the tile starts a block whose next systems it
/// hints (TileSystems::block_ahead, side by side), each element's line
/// loaded beside the hints of the lines after it in the element's run:
/// for writing when the factors go back (`writes`), else for reading.
template <typename T, int W, int N>
void load_matrices_hinting_block(const Tile<T, W, N>& t, const TileSystems<T, W>& s, bool writes) noexcept {
    if (s.block_ahead <= 0) return load_matrices(t, s);
    using L = Lanes<T, W>;
    const std::int64_t bytes = s.block_ahead * std::int64_t(sizeof(T));
    const auto load_hinting = [&](auto write) {
        each_side_by_side_element(t, s.view[0], [bytes](T* caller, T* tile) {
            prefetch_bytes<decltype(write)::value>(caller + W, bytes);
            L::store(tile, L::load(caller));
        });
    };
    if (writes)
        load_hinting(std::true_type{});
    else
        load_hinting(std::false_type{});
}

/// Prefetches the next tile's systems (none: null) a slice per factorization
/// step, so that their misses overlap the current tile's arithmetic: at step k, the
/// k-th n-th of the matrices (one range when they lie packed and back to
/// back, as in the strided form; else the k-th run of each lane), and at
/// step 0 the right-hand sides and pivots. Spread so: issued all at once,
/// the hints of a 64 KiB tile (n = 32, double) filled the miss buffers and
/// held the factorization behind them (n = 32 and 64 ran 3-5% slower than
/// without hints); one hint per lane and column for packed systems of order
/// 2-6 (columns of 16-48 bytes, several lanes to a line) cost 10-27%.
template <typename T, int W>
class NextTilePrefetch {
  public:
    NextTilePrefetch(const TileSystems<T, W>* next, const PrefetchPlan& plan) noexcept : next_(next), plan_(plan) {
        if (next == nullptr) return;
        const std::int64_t matrix = std::int64_t(plan.n) * plan.n;
        const SystemView<T>& v = next->view[0];
        const bool packed = (v.a_row == 1 && v.a_col == plan.n) || (v.a_col == 1 && v.a_row == plan.n);
        if (!next->side_by_side && packed && lanes_follow(*next, &SystemView<T>::A, matrix)) {
            span_bytes_ = matrix * next->count * std::int64_t(sizeof(T));
            span_step_ = (span_bytes_ + plan.n - 1) / plan.n;
        }
        const std::int64_t rhs = std::int64_t(plan.n) * plan.rhs_columns;
        rhs_span_ = plan.rhs_columns > 0 && v.B && v.b_row == 1 && (v.b_col == plan.n || plan.rhs_columns == 1) &&
                    lanes_follow(*next, &SystemView<T>::B, rhs);
        pivots_span_ = plan.writes_factors && v.ipiv && v.ipiv_step == 1 &&
                       lanes_follow(*next, &SystemView<T>::ipiv, plan.n);
    }

    void operator()(int k) const noexcept {
        if (next_ == nullptr) return;
        const TileSystems<T, W>& s = *next_;
        const int n = plan_.n;
        // Side by side: lane l of element (i, j) is element l of one run of W.
        const int lanes = s.side_by_side ? 1 : s.count;
        const int run = s.side_by_side ? W : 1;
        if (span_bytes_ > 0) {
            const std::int64_t from = k * span_step_;
            const std::int64_t to = from + span_step_ < span_bytes_ ? from + span_step_ : span_bytes_;
            const char* const base = reinterpret_cast<const char*>(s.view[0].A);
            if (plan_.writes_factors)
                prefetch_bytes<true>(base + from, to - from);
            else
                prefetch_bytes<false>(base + from, to - from);
        } else {
            for (int l = 0; l < lanes; ++l) {
                const SystemView<T>& v = s.view[l];
                if (plan_.writes_factors)
                    prefetch_slice<true>(v.A, v.a_row, v.a_col, n, k, run);
                else
                    prefetch_slice<false>(v.A, v.a_row, v.a_col, n, k, run);
            }
        }
        if (k != 0) return;
        if (plan_.rhs_columns > 0) {
            if (rhs_span_)
                prefetch_bytes<true>(s.view[0].B, std::int64_t(n) * plan_.rhs_columns * s.count * sizeof(T));
            else
                for (int l = 0; l < lanes; ++l)
                    if (s.view[l].B)
                        prefetch_block<true>(s.view[l].B, s.view[l].b_row, s.view[l].b_col, n, plan_.rhs_columns, run);
        }
        if (plan_.writes_factors) {
            if (pivots_span_)
                prefetch_bytes<true>(s.view[0].ipiv, std::int64_t(n) * s.count * sizeof(std::int32_t));
            else
                for (int l = 0; l < lanes; ++l)
                    if (s.view[l].ipiv) prefetch_block<true>(s.view[l].ipiv, s.view[l].ipiv_step, 0, n, 1, run);
        }
    }

  private:
    const TileSystems<T, W>* next_; ///< null: nothing to prefetch
    PrefetchPlan plan_;
    std::int64_t span_bytes_ = 0; ///< the matrices as one range, when they are
    std::int64_t span_step_ = 0;  ///< bytes of it per step
    bool rhs_span_ = false, pivots_span_ = false;
};

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
