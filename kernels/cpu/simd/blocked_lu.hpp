// libtdls: one system of order past the SIMD tiles (257..1024; from 160 in
// double and 224 in float where the registry says so) on one thread,
// by a blocked right-looking LU with partial pivoting in LAPACK's dgetrf
// order, on two levels: blocks of `block` columns, each factored in panels
// of `panel` columns by dgetf2's steps; after each panel (and each block)
// its interchanges reach the columns that need them, its rows of U are
// solved with its unit lower triangle, and the matrix below and right of it
// is updated by a packed product (packed_product.hpp). Then LAPACK's
// triangular solves. Vector code of the translation unit's instruction set
// (TDLS_SIMD_ISA), compiled with its multiply-adds contracted, like the
// tiles.
//
// The matrix is copied into a column-major scratch whose columns are padded
// to a multiple of two vectors and, where that height is a multiple of
// 1 KiB, two vectors more: power-of-two orders would otherwise map
// every column to the same cache sets (n = 256 ran 10x slower than 255 in the
// cooperative kernel). The padding rows start at zero and the product keeps
// them so (their factors are zero), so whole vectors run to the padded height.
// A matrix whose order is a whole number of vector pairs and whose columns
// lie whole vectors apart is factored where it lies instead (work_in_place;
// getrs reads any caller's factors there): the products read packed copies,
// and on the model-207 Xeon its 1 KiB-multiple strides ran level with the
// padded ones.
//
// Pivots and singularity are decided as in every other kernel (detail/
// engine.hpp, simd/tile_lu.hpp): the first largest magnitude below the
// diagonal unless the diagonal one is not smaller (or, under a threshold tau
// < 1, reaches tau times it), NaN never chosen from below, a column whose
// largest candidate is below the smallest normal number singular (its
// multipliers then scaled by 1). The operation order differs from the
// unblocked kernels, so results match them within rounding, not bit for bit;
// gesv, solve and getrf + getrs through this kernel agree bit for bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <immintrin.h>

#include "../../common/batch_call.hpp"
#include "aligned_buffer.hpp"
#include "isa.hpp"
#include "lanes.hpp"
#include "transpose.hpp"
#include "../processor.hpp"
#include "packed_product.hpp"
#include "prefetch_lines.hpp"

#ifndef TDLS_SIMD_BYTES
#error "TDLS_SIMD_BYTES must give the vector width of this translation unit"
#endif

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

template <typename T>
class BlockedLu {
  public:
    static constexpr int W = TDLS_SIMD_BYTES / int(sizeof(T));
    using L = Lanes<T, W>;
    using V = typename L::V;
    /// The padded column height is a multiple of these rows.
    static constexpr int block_rows = 2 * W;
    /// Columns of a panel: a multiple of W, so that every row range of a
    /// product starts on a whole vector of the padded column. On the
    /// AVX-512 Xeon host 16 ran 1.02-1.11x faster than 32 at n = 257..1024
    /// (the panel's own left-looking steps are the slow part), level with 8
    /// in double.
    static constexpr int panel = 16;
    static_assert(panel % W == 0);
    /// Columns of a panel updated together (update_panel_columns): 4 x 4
    /// accumulators of 32 vector registers, 4 x 2 of 16.
    static constexpr int panel_group = TDLS_SIMD_BYTES >= 64 ? 4 : 2;
    /// Columns of a block: the depth of the trailing update's packed
    /// product, a multiple of the panel. 96, 128, 192 and 256 ran within 3%
    /// of each other at n = 384..1024 on the AVX-512 Xeon host (192 and 256
    /// lost a third at 320, where the last block is narrow); 64 lost 3-7% at
    /// 768 and 1024.
    static constexpr int block = 128;
    static_assert(block % panel == 0);
    /// Matrices from this size on are stored with non-temporal stores
    /// (store()). On the AVX-512 Xeon host: 1.03-1.06x at n = 384..1024 in
    /// double and 768..1024 in float; matrices of half this size ran 5-9%
    /// slower with them.
    static constexpr std::int64_t stream_bytes = std::int64_t(1) << 20;

    static int leading(int n) noexcept {
        int ld = (n + block_rows - 1) / block_rows * block_rows;
        if (std::int64_t(ld) * std::int64_t(sizeof(T)) % 1024 == 0) ld += block_rows;
        return ld;
    }

    /// How factor() orders each trailing update. look_ahead: the next
    /// block's columns first, then the next block factored, then the rest of
    /// the trailing matrix, in slices of slice_columns when the block's
    /// packed multipliers take at most held_bytes (else as one product).
    /// Every order gives the same bits; tests pin each.
    struct UpdateOrder {
        bool look_ahead;
        std::int64_t held_bytes;
    };
    /// Look-ahead where it was measured to gain: 64-byte vectors, orders
    /// past two blocks, on processors other than AMD family 19h. On the
    /// AVX-512 Xeon host (family 6, model 207) double ran 1.03-1.06x faster
    /// with it at n = 768 and 1024 and level from 257 to 512; float, once
    /// its panels of U moved through register transposes (pack_b), 1.03x at
    /// 1024, 1.01x at 384 and 768, level at 257-512 (before that, 0.93-0.95x:
    /// the slices repeated the element-by-element packing). Up to two blocks
    /// (n <= 256) it lost: float 0.97-0.98x at 224, double 0.94-0.98x at
    /// 224 and 256. The AVX2 and generic families' double ran level with it
    /// (0.98-1.02x at n = 512..1024). Not measured on Zen 4, whose 512-bit
    /// instructions run as two halves. The slices' multipliers are read from
    /// L2: half of it is theirs.
    static UpdateOrder preferred_order(int n) noexcept {
        return {TDLS_SIMD_BYTES >= 64 && n > 2 * block && !amd_family_19h(), l2_bytes_per_core() / 2};
    }

    /// Scratch for `matrices` systems (side by side ones are loaded and
    /// stored together: load()); select() picks the one the other members
    /// work on.
    explicit BlockedLu(int n, int matrices = 1) : BlockedLu(n, matrices, preferred_order(n)) {}
    BlockedLu(int n, int matrices, UpdateOrder order)
        : n_(n), scratch_ld_(leading(n)), ld_(scratch_ld_), rows_(scratch_ld_), matrices_(matrices), order_(order),
          matrix_(matrix_elements(n)), a_(matrix_ * std::size_t(matrices)),
          pivot_(std::size_t(n) * std::size_t(matrices)), x_(n),
          product_(n, block, order.look_ahead ? scratch_ld_ : 0), origin_(n), place_(n), held_(std::size_t(n)),
          triangles_(std::size_t(2 * (block / panel)) * panel * panel) {
        select(0);
    }

    /// The scratch elements of one matrix of order n, and a line more past
    /// a whole number of pages: the matrices of a group are written
    /// together (load_side_by_side()), and a multiple of 4 KiB apart their
    /// columns fell into the same L1 sets.
    static std::size_t matrix_elements(int n) noexcept {
        const std::size_t bytes = std::size_t(leading(n)) * std::size_t(n) * sizeof(T);
        return ((bytes + 4095) / 4096 * 4096 + 64) / sizeof(T);
    }

    /// Systems of an interleaved block loaded and stored together: the
    /// elements of one 64-byte line, as many as side_by_side_bytes of
    /// scratch holds (at least one). One at a time, each system's load read
    /// every line of the block's matrices for one element of it, and its
    /// store fetched them again: the interleaved form ran at 0.11-0.17x the
    /// strided one at n = 320..512 on the AVX-512 Xeon host.
    static int side_by_side(int n) noexcept {
        const std::int64_t line = line_systems;
        const std::int64_t fit = side_by_side_bytes / std::int64_t(matrix_elements(n) * sizeof(T));
        return int(std::max<std::int64_t>(1, std::min(line, fit)));
    }
    /// Systems whose elements share a line in an interleaved block.
    static constexpr int line_systems = line_bytes / int(sizeof(T));
    /// The scratch of a group of side-by-side systems, per thread: n = 1024
    /// takes 3 doubles (or 7 floats) of the line's 8 (16).
    static constexpr std::int64_t side_by_side_bytes = std::int64_t(32) << 20;

    void select(int m) noexcept {
        cur_ = a_.data() + matrix_ * std::size_t(m);
        ld_ = scratch_ld_;
        rows_ = scratch_ld_;
        piv_ = pivot_.data() + std::size_t(n_) * std::size_t(m);
    }

    /// Whether the caller's matrix, read column-major as load() reads it
    /// (leading dimension lda), can be factored where it lies
    /// (work_in_place()): n a whole number of
    /// vector pairs, so that every loop runs whole vectors over the n rows
    /// without a padding row, and columns a whole number of vectors apart,
    /// so that all share the first one's alignment. A start off a 64-byte
    /// boundary (std::vector's, malloc's) makes every vector access
    /// unaligned, and still ran level with or ahead of the copy into the
    /// aligned scratch on the model-207 Xeon (1.00-1.08x at n = 160..1024;
    /// 64-byte aligned: 1.07x at 1024, 1.13x at 384 in double).
    static bool fits_in_place(std::int64_t lda, int n) noexcept {
        return n % block_rows == 0 && lda % W == 0 && lda >= n;
    }

    /// Makes the caller's matrix the one the other members work on, in
    /// place of the scratch: factor() then writes the factors there
    /// (fits_in_place() must hold), each element once where the copy in and
    /// out moved every element twice more (load(), store()); solve() reads
    /// factors there (any lda: its loops are scalar). Its rows n..lda-1 are
    /// never read or written.
    void work_in_place(T* A, std::int64_t lda) noexcept {
        cur_ = A;
        ld_ = lda;
        rows_ = n_;
        piv_ = pivot_.data();
    }

    T* column(int j) noexcept { return cur_ + std::int64_t(j) * ld_; }
    /// Column j of matrix m of the scratch, whichever is selected.
    T* at(int m, int j) noexcept { return a_.data() + matrix_ * std::size_t(m) + std::size_t(j) * scratch_ld_; }
    int* pivots() noexcept { return piv_; }

    /// The caller's matrix (element (r, c) at A[r * row + c * col]) into
    /// matrix 0 of the scratch; or `count` systems side by side, element
    /// (r, c) of system l at A[l + r * row + c * col], into matrices
    /// 0..count-1 (load_side_by_side()).
    void load(const T* A, std::int64_t row, std::int64_t col, int count = 1) noexcept {
        if (count > 1) return load_side_by_side(A, row, col, std::min(count, matrices_));
        for (int j = 0; j < n_; ++j) {
            T* c = at(0, j);
            const T* from = A + j * col;
            if (row == 1) {
                if (j + load_ahead_columns < n_)
                    hint_bytes<LineUse::ReadOnce>(from + load_ahead_columns * col, std::int64_t(n_) * sizeof(T));
                std::copy(from, from + n_, c);
            } else {
                for (int i = 0; i < n_; ++i) c[i] = from[i * row];
            }
            std::fill(c + n_, c + scratch_ld_, T(0)); // padding rows: zero, whatever the last system left
        }
    }

    /// Columns load() reads ahead of the one it copies, as lines read once
    /// (PREFETCHNTA): the caller's matrix is not read again before store()
    /// writes it, and as ordinary loads its lines took L2 beside the
    /// scratch (at n = 257, 528 KiB each in double, in a 1 MiB L2), which
    /// the factorization then missed. Zen 5 host, stop 52, 128 MiB batches,
    /// alternated runs: gesv at n = 257 (the one order of tdls-bench's sweep
    /// that copies) 1.04-1.07x in double (tdls-bench: 1.01-1.06x), 1.00-1.05x
    /// in float, 1.01-1.04x under the AVX2 family; solve (always copied)
    /// 1.02-1.07x at n = 256..512, level at 1024. 1 column ahead ran
    /// 1.03-1.06x, 4 to 16 as 2.
    /// The hint on the interleaved form's group moves ran level (0.97-1.06x),
    /// and non-temporal stores on the way back added nothing (0.98-1.02x).
    static constexpr int load_ahead_columns = 2;

    /// The factors of matrix 0 back into the caller's matrix, or of
    /// matrices 0..count-1 into `count` systems side by side (load()'s
    /// forms). Columns of a matrix of stream_bytes or more go out through
    /// non-temporal stores: nothing reads them again in this call, and the
    /// caller's lines need not be fetched first.
    void store(T* A, std::int64_t row, std::int64_t col, int count = 1) noexcept {
        if (count > 1) return store_side_by_side(A, row, col, std::min(count, matrices_));
        const bool streams = std::int64_t(n_) * n_ * std::int64_t(sizeof(T)) >= stream_bytes;
        for (int j = 0; j < n_; ++j) {
            const T* c = at(0, j);
            T* to = A + j * col;
            if (row != 1)
                for (int i = 0; i < n_; ++i) to[i * row] = c[i];
            else if (!streams)
                std::copy(c, c + n_, to);
            else {
                int i = 0;
                for (; i < n_ && reinterpret_cast<std::uintptr_t>(to + i) % sizeof(V) != 0; ++i) to[i] = c[i];
                for (; i + W <= n_; i += W) stream(to + i, L::load(c + i));
                for (; i < n_; ++i) to[i] = c[i];
            }
        }
        if (streams) _mm_sfence(); // the streamed stores ordered before any later one
    }

    /// A non-temporal store of v at p, aligned to the vector.
    static void stream(T* p, V v) noexcept {
#if TDLS_SIMD_BYTES == 64
        if constexpr (sizeof(T) == 8)
            _mm512_stream_pd(p, (__m512d)v);
        else
            _mm512_stream_ps(p, (__m512)v);
#elif TDLS_SIMD_BYTES == 32
        if constexpr (sizeof(T) == 8)
            _mm256_stream_pd(p, (__m256d)v);
        else
            _mm256_stream_ps(p, (__m256)v);
#else
        if constexpr (sizeof(T) == 8)
            _mm_stream_pd(p, (__m128d)v);
        else
            _mm_stream_ps(p, (__m128)v);
#endif
    }

    /// P A = L U in place; pivots()[k] = the row exchanged with row k at step
    /// k (0-based). Returns LAPACK's info. Two levels of blocks, dgetrf's
    /// order at each: a block of `block` columns is factored panel by panel
    /// (factor_block()); then the block's interchanges reach the other
    /// columns, its rows of U right of it are solved, and the trailing
    /// matrix gets one packed product of depth `block` (update_columns()).
    /// With look-ahead (UpdateOrder), the next block's columns get that
    /// update first and the next block is factored before the rest of the
    /// trailing matrix is updated. Every column receives the same operations
    /// in the same order either way: the same bits.
    int factor(T tau) noexcept {
        int info = 0;
        factor_block(0, std::min(n_, block), tau, info);
        pack_triangles(0, std::min(n_, block));
        for (int k0 = 0; k0 < n_; k0 += block) {
            const int end = std::min(n_, k0 + block);
            if (end == n_) break;
            const int next = std::min(n_, end + block);
            if (!order_.look_ahead) {
                update_columns(k0, end, end, n_, false, false);
                factor_block(end, next, tau, info);
                pack_triangles(end, next);
                continue;
            }
            // The first block's interchanges reach the columns right of it
            // with its update; every later block's were applied by the loop
            // below of the block before it.
            const bool exchanged = k0 > 0;
            const bool sliced =
                std::int64_t(rows_ - end) * (end - k0) * std::int64_t(sizeof(T)) <= order_.held_bytes;
            if (sliced) product_.hold(rows_ - end, end - k0, column(k0) + end, ld_);
            // Columns [first, last) updated in slices (one when not sliced),
            // each then given the next block's interchanges if asked.
            const auto update_slices = [&](int first, int last, bool then_exchange) {
                for (int c0 = first; c0 < last;) {
                    const int c1 = sliced ? std::min(last, c0 + slice_columns) : last;
                    update_columns(k0, end, c0, c1, exchanged, sliced);
                    if (then_exchange) exchange(end, next - end, c0, c1);
                    c0 = c1;
                }
            };
            update_slices(end, next, false);
            factor_block(end, next, tau, info);
            pack_triangles(end, next);
            // The rest, each slice given the next block's interchanges while
            // it is in cache: as the first touch of the next block's update,
            // the exchanges missed at random rows.
            update_slices(next, n_, true);
        }
        exchange_left();
        return info;
    }

    /// Solves one right-hand side in x() from the factors and pivots.
    /// Column-major: P b, L y = P b, U x = y (divided). Row-major: the
    /// factors are those of A^T = P^T L U: U^T z = b (reciprocal-scaled),
    /// L^T w = z, x = P^T w.
    void solve(bool row_major) noexcept {
        T* x = x_.data();
        const int n = n_;
        if (!row_major) {
            for (int k = 0; k < n; ++k) std::swap(x[k], x[piv_[k]]);
            for (int k = 0; k < n; ++k) {
                const T y = x[k];
                const T* l = column(k);
                for (int i = k + 1; i < n; ++i) x[i] = x[i] - l[i] * y;
            }
            for (int k = n - 1; k >= 0; --k) {
                const T* u = column(k);
                const T v = x[k] / u[k];
                x[k] = v;
                for (int i = 0; i < k; ++i) x[i] = x[i] - u[i] * v;
            }
            return;
        }
        for (int i = 0; i < n; ++i) {
            const T z = x[i] * (T(1) / column(i)[i]);
            x[i] = z;
            for (int j = i + 1; j < n; ++j) x[j] = x[j] - column(j)[i] * z;
        }
        for (int j = n - 1; j >= 0; --j) {
            const T w = x[j];
            for (int i = 0; i < j; ++i) x[i] = x[i] - column(i)[j] * w;
        }
        for (int k = n - 1; k >= 0; --k) std::swap(x[k], x[piv_[k]]);
    }

    T* x() noexcept { return x_.data(); }

  private:
    /// dgetrf's steps on the block of columns [k0, end): panel by panel,
    /// each factored (dgetf2's steps), its interchanges applied across the
    /// block, its rows of U right of it solved and the block below them
    /// updated.
    void factor_block(int k0, int end, T tau, int& info) noexcept {
        for (int j0 = k0; j0 < end; j0 += panel) {
            const int jb = std::min(panel, end - j0);
            factor_panel(j0, jb, tau, info);
            exchange(j0, jb, k0, j0);
            exchange(j0, jb, j0 + jb, end);
            if (j0 + jb == end) break;
            solve_then_minus(j0, jb, rows_, j0 + jb, end);
        }
    }

    /// Columns [c0, c1) right of the block [k0, end) get its interchanges
    /// (unless `exchanged`), their rows k0..end-1 become rows of U (solved
    /// panel by panel), and the rows below them the product of the block's
    /// multipliers and those rows: from the multipliers packed once for the
    /// block (`held`, PackedProduct::hold()) or packed by the product. Each
    /// column's work depends on that column and the block only, so any
    /// split of the columns gives the same bits.
    void update_columns(int k0, int end, int c0, int c1, bool exchanged, bool held) noexcept {
        if (!exchanged) exchange(k0, end - k0, c0, c1);
        for (int j0 = k0; j0 < end; j0 += panel) {
            if (packs_triangles())
                solve_then_minus(j0, std::min(panel, end - j0), end, c0, c1, triangle(k0, j0), panel);
            else
                solve_then_minus(j0, std::min(panel, end - j0), end, c0, c1);
        }
        if (held)
            product_.minus_held(c1 - c0, column(c0) + k0, ld_, column(c0) + end, ld_);
        else
            minus_product(end, rows_, c0, c1, k0, end);
    }

    /// Columns of a slice of a trailing update (UpdateOrder): 64 ran level
    /// with 32 and 128 at n = 512 and 1024 in double.
    static constexpr int slice_columns = 64;

    /// load() of `count` systems side by side (an interleaved block), in
    /// one pass over their elements: each line of the caller's block is
    /// read once for all of them. With AVX-512 and AVX2 the group moves
    /// through W x W register transposes (vector_group(); load_group()).
    void load_side_by_side(const T* A, std::int64_t row, std::int64_t col, int count) noexcept {
        if (vector_group(count))
            return count % W == 0 ? load_group<true>(A, row, col, count) : load_group<false>(A, row, col, count);
        for (int j = 0; j < n_; ++j) {
            const T* from = A + j * col;
            for (int i = 0; i < n_; ++i, from += row) {
                if (i + side_by_side_ahead < n_) hint_line<LineUse::Read>(from + side_by_side_ahead * row);
                for (int l = 0; l < count; ++l) at(l, j)[i] = from[l];
            }
            for (int l = 0; l < count; ++l) std::fill(at(l, j) + n_, at(l, j) + scratch_ld_, T(0)); // padding rows
        }
    }

    /// The side-by-side moves hint the line this many elements down the
    /// column (one a block's width apart, a stride the hardware prefetchers
    /// do not follow across pages): 1.02-1.15x at n = 192..512 on the Xeon
    /// host, blocks of 16 and 64.
    static constexpr int side_by_side_ahead = 16;

    /// store() into `count` systems side by side, each line of the block
    /// written once. The lines ahead are hinted for reading (PREFETCHT0,
    /// what the earlier __builtin_prefetch write hint compiled to without
    /// -mprfchw); PREFETCHW has not been measured on this path.
    void store_side_by_side(T* A, std::int64_t row, std::int64_t col, int count) noexcept {
        if (vector_group(count))
            return count % W == 0 ? store_group<true>(A, row, col, count)
                                  : store_group<false>(A, row, col, count);
        for (int j = 0; j < n_; ++j) {
            T* to = A + j * col;
            for (int i = 0; i < n_; ++i, to += row) {
                if (i + side_by_side_ahead < n_) hint_line<LineUse::Read>(to + side_by_side_ahead * row);
                for (int l = 0; l < count; ++l) to[l] = at(l, j)[i];
            }
        }
    }

    /// Whether a group of `count` side-by-side systems moves through
    /// register transposes (load_group(), store_group()): where a vector
    /// holds as many systems as a line (AVX-512: 8 doubles, 16 floats) and
    /// the group fills more than half of it; where it holds half a line
    /// (AVX2), a group of one or two whole vectors. An element's `count` values
    /// are consecutive in the caller's block, so one vector move reaches
    /// them wherever the lines begin; short of W, a masked one that touches
    /// no byte past the group's last. Element by element, each value cost a
    /// scalar load and a scalar store, and the loads waited on memory line
    /// by line. Zen 5 host, stop 51, tdls-bench's blocks (64, or the batch
    /// where it is smaller): double 512 (blocks of 63, off the lines'
    /// boundaries) 1.23-1.44x, double 768 (groups of 6) 1.11-1.14x, float
    /// 768 (groups of 13) 1.12-1.17x; whole lines on their boundaries
    /// (192..384) level. Groups of at most half a vector ran level or
    /// slower (double 1024, groups of 3: 0.91-1.09x; float 1024, groups of
    /// 7: 0.89-0.99x): the transposes then move more lanes than systems.
    /// The AVX2 family on the same host (TDLS_CPU_KERNEL=avx2), whole lines
    /// as two vectors: double 1.01-1.25x at 192..512, float 0.99-1.17x.
    /// Its short groups stay element by element (AVX2's masked moves not
    /// tried).
    static constexpr bool vector_group(int count) noexcept {
        if constexpr (W * sizeof(T) == line_bytes)
            return count > W / 2 && count <= W;
        else if constexpr (2 * W * sizeof(T) == line_bytes)
            return count == W || count == 2 * W;
        else
            return false;
    }

    /// The vectors of W systems a whole group of `count` fills: one where
    /// a vector is a line (AVX-512; a constant, so that its loops compile
    /// as for one vector), count / W where it is half of one (AVX2).
    static constexpr int groups_of_vectors(int count) noexcept {
        return W * sizeof(T) == line_bytes ? 1 : count / W;
    }

    /// How load_group() and store_group() cut a group of `count`: the
    /// systems of one vector, the vectors of one element's values, and all
    /// the systems.
    struct GroupShape {
        int systems, vectors, total;
    };
    template <bool Whole>
    static constexpr GroupShape group_shape(int count) noexcept {
        if constexpr (Whole)
            return {W, groups_of_vectors(count), groups_of_vectors(count) * W};
        else
            return {count, 1, count};
    }

    /// load_side_by_side() of a vector_group(): W rows of a column of the
    /// group (one vector load of W of an element's values each, or of all
    /// `count` by a masked load unless Whole), transposed in registers into
    /// rows of W of the group's matrices (one vector store each). Bases and strides are
    /// held in locals: the vector moves are memcpy, which may alias the
    /// members. Out of line: inlined into blocked_range, the transposes'
    /// vectors went through the stack, and whole lines of double 384 ran
    /// 0.94-0.99x. On the Zen 5 host of stop 50, whole lines on 64-byte
    /// boundaries ran 1.07-1.13x at n = 192..384 in double and 1.07x at
    /// 256..384 in float over the element by element loads (on the Xeon
    /// host of 2026-12-06, level).
    template <bool Whole>
    [[gnu::noinline]] void load_group(const T* A, std::int64_t row, std::int64_t col, int count) noexcept {
        const int n = n_, ld = scratch_ld_;
        const std::size_t stride = matrix_;
        const auto [systems, vectors, total] = group_shape<Whole>(count);
        for (int j = 0; j < n; ++j) {
            const T* const from = A + j * col;
            T* const to = a_.data() + std::size_t(j) * std::size_t(ld); // matrix 0's column j
            int i = 0;
            for (; i + W <= n; i += W) {
                if (i + side_by_side_ahead < n) hint_line<LineUse::Read>(from + (i + side_by_side_ahead) * row);
                for (int g = 0; g < vectors; ++g) {
                    V v[W];
                    for (int r = 0; r < W; ++r) {
                        if constexpr (Whole)
                            v[r] = L::load(from + g * W + (i + r) * row);
                        else
                            v[r] = load_first<T, W>(from + (i + r) * row, count);
                    }
                    transpose<T, W>(v);
                    for (int l = 0; l < systems; ++l) L::store(to + (g * W + l) * stride + i, v[l]);
                }
            }
            for (; i < n; ++i)
                for (int l = 0; l < total; ++l) to[l * stride + i] = from[i * row + l];
            for (int l = 0; l < total; ++l) // padding rows
                std::fill(to + l * stride + n, to + l * stride + ld, T(0));
        }
    }

    /// store_side_by_side() of a vector_group(): W rows of `count` of the
    /// group's matrices transposed in registers, each element's `count`
    /// values written by one vector store (masked unless Whole), where
    /// element by element W scalar stores went to each line. Stop 50, Zen
    /// 5, whole lines: 1.03-1.08x at n = 192..512 in double, 1.01-1.07x at
    /// 256..512 in float (non-temporal stores instead: 0.87-0.94x at
    /// 192..257 in double, the group's lines being still in L3).
    template <bool Whole>
    [[gnu::noinline]] void store_group(T* A, std::int64_t row, std::int64_t col, int count) noexcept {
        const int n = n_, ld = scratch_ld_;
        const std::size_t stride = matrix_;
        const auto [systems, vectors, total] = group_shape<Whole>(count);
        for (int j = 0; j < n; ++j) {
            T* const to = A + j * col;
            const T* const from = a_.data() + std::size_t(j) * std::size_t(ld);
            int i = 0;
            for (; i + W <= n; i += W) {
                for (int g = 0; g < vectors; ++g) {
                    V v[W];
                    for (int l = 0; l < W; ++l)
                        v[l] = l < systems ? L::load(from + (g * W + l) * stride + i) : V{};
                    transpose<T, W>(v);
                    for (int r = 0; r < W; ++r) {
                        if constexpr (Whole)
                            L::store(to + g * W + (i + r) * row, v[r]);
                        else
                            store_first<T, W>(to + (i + r) * row, v[r], count);
                    }
                }
            }
            for (; i < n; ++i)
                for (int l = 0; l < total; ++l) to[i * row + l] = from[l * stride + i];
        }
    }

    /// dgetf2's steps on columns k0..k0+kb-1, rows k0..n-1, left-looking:
    /// column k first receives the updates of the panel's earlier columns,
    /// then is pivoted and scaled; exchanges within the panel only. The
    /// columns go in groups of panel_group: the group's columns receive the
    /// steps before the group together (update_panel_columns), each then the
    /// group's own earlier steps at its turn (update_panel_column). An
    /// exchange moves the partly updated rows of the later columns of the
    /// group with the multipliers' rows, so every element receives the same
    /// updates in the same order as column by column: the same bits.
    /// Right-looking, every step read and wrote the rest of the panel (64 KiB
    /// at n = 256, past L1): 28% of the whole factorization sat on those
    /// stores.
    void factor_panel(int k0, int kb, T tau, int& info) noexcept {
        const int n = n_;
        const T floor = std::numeric_limits<T>::min();
        const bool relaxed = tau < T(1);
        for (int k = k0; k < k0 + kb; ++k) {
            T* c = column(k);
            // A panel's last columns short of a whole group (its width is
            // not a multiple of panel_group: the matrix's last panel, with
            // few rows below) go column by column.
            const int group = k0 + (k - k0) / panel_group * panel_group;
            if (group + panel_group > k0 + kb)
                update_panel_column(k0, k);
            else if (k == group)
                update_panel_columns(k0, k, panel_group);
            else
                update_panel_column(group, k);
            const T in_place = std::fabs(c[k]);
            T best;
            const int below = first_largest_below(c, k + 1, best);
            const bool larger_below = below >= 0 && best > in_place;
            bool stays = !larger_below;
            if (relaxed) stays = stays || (in_place >= tau * best && in_place >= floor && in_place > T(0));
            const T largest = larger_below ? best : in_place;
            const int p = stays ? k : below;
            piv_[k] = p;
            const bool singular = largest < floor || largest == T(0);
            if (singular && info == 0) info = k + 1;
            if (p != k)
                for (int j = k0; j < k0 + kb; ++j) std::swap(column(j)[k], column(j)[p]);
            const T reciprocal = singular ? T(1) : T(1) / c[k];
            for (int i = k + 1; i < n; ++i) c[i] = c[i] * reciprocal;
        }
    }

    /// The first row of [first, n) of column c with the largest magnitude, its
    /// magnitude in best (-1 and -1 when the range is empty; NaN never wins):
    /// a running maximum per lane (strictly larger replaces, so each lane
    /// keeps its first), the lanes' maxima reduced to the smallest row among
    /// the largest, then the tail rows, which come after all of them.
    int first_largest_below(const T* c, int first, T& best) const noexcept {
        using M = typename L::M;
        using Index = typename L::Index;
        const int n = n_;
        int i = first;
        best = T(-1);
        int row = -1;
        if (n - first >= 2 * W) {
            V lane_best = L::splat(T(-1));
            M lane_row = L::splat_index(-1), at{};
            for (int l = 0; l < W; ++l) at[l] = Index(first + l);
            for (; i + W <= n; i += W, at += Index(W)) {
                const V m = L::magnitude(L::load(c + i));
                const M larger = m > lane_best;
                lane_best = larger ? m : lane_best;
                lane_row = larger ? at : lane_row;
            }
            for (int l = 0; l < W; ++l) {
                const int r = int(lane_row[l]);
                if (r < 0) continue;
                if (lane_best[l] > best || (lane_best[l] == best && r < row)) {
                    best = lane_best[l];
                    row = r;
                }
            }
        }
        for (; i < n; ++i) {
            const T m = std::fabs(c[i]);
            if (m > best) {
                best = m;
                row = i;
            }
        }
        return row;
    }

    /// Columns k..k+count-1 of the panel (count 1 or panel_group) get the
    /// updates of columns k0..k-1: their rows k0..k-1 by forward
    /// substitution with the unit lower triangle (U's part), their rows from
    /// k on by the product with the multipliers, each element's updates in
    /// increasing step order, the scalar rows rounded as the vector ones
    /// (minus_as_vectors()). Below the head rows, 4 row vectors x count
    /// columns in registers: each multiplier vector loaded serves every
    /// column of the group, where one column at a time (update_panel_column)
    /// every later column of the panel loaded them all again.
    void update_panel_columns(int k0, int k, int count) noexcept {
        if (k == k0) return;
        const int head = std::min(rows_, (k + W - 1) / W * W);
        for (int j = k; j < k + count; ++j) {
            T* c = column(j);
            for (int q = k0; q < k; ++q) {
                const T u = c[q];
                const T* l = column(q);
                for (int i = q + 1; i < k; ++i) c[i] = minus_as_vectors(c[i], l[i], u);
            }
            for (int i = k; i < head; ++i) {
                T x = c[i];
                for (int q = k0; q < k; ++q) x = minus_as_vectors(x, column(q)[i], c[q]);
                c[i] = x;
            }
        }
        if (count == panel_group)
            update_rows_below<panel_group>(k0, k, head);
        else
            update_rows_below<1>(k0, k, head);
    }

    /// Column k of the panel gets the updates of columns k0..k-1.
    void update_panel_column(int k0, int k) noexcept {
        update_panel_columns(k0, k, 1);
    }

    /// x - a b rounded as this ISA's vector updates round it: fused where it
    /// has FMA (-ffp-contract=fast fuses every vector update), else twice.
    /// Left to contraction, GCC vectorized the scalar rows' sum over the
    /// steps as separate products and differences.
    static T minus_as_vectors(T x, T a, T b) noexcept {
#if defined(__FMA__)
        return std::fma(-a, b, x);
#else
        return x - a * b;
#endif
    }

    /// update_panel_columns()'s rows from `head` on, for G columns from k:
    /// 4 x G vectors of accumulators, each column read and written once.
    template <int G>
    void update_rows_below(int k0, int k, int head) noexcept {
        T* c[G];
        for (int g = 0; g < G; ++g) c[g] = column(k + g);
        int i = head;
        for (; i + 4 * W <= rows_; i += 4 * W) {
            V acc[4][G];
            for (int g = 0; g < G; ++g)
                for (int r = 0; r < 4; ++r) acc[r][g] = L::load(c[g] + i + r * W);
            for (int q = k0; q < k; ++q) {
                const T* l = column(q) + i;
                V m[4];
                for (int r = 0; r < 4; ++r) m[r] = L::load(l + r * W);
                for (int g = 0; g < G; ++g) {
                    const V u = L::broadcast(c[g] + q);
                    for (int r = 0; r < 4; ++r) acc[r][g] = acc[r][g] - m[r] * u;
                }
            }
            for (int g = 0; g < G; ++g)
                for (int r = 0; r < 4; ++r) L::store(c[g] + i + r * W, acc[r][g]);
        }
        for (; i < rows_; i += W) {
            V acc[G];
            for (int g = 0; g < G; ++g) acc[g] = L::load(c[g] + i);
            for (int q = k0; q < k; ++q) {
                const V m = L::load(column(q) + i);
                for (int g = 0; g < G; ++g) acc[g] = acc[g] - m * L::broadcast(c[g] + q);
            }
            for (int g = 0; g < G; ++g) L::store(c[g] + i, acc[g]);
        }
    }

    /// The interchanges of steps k0..k0+kb-1 on columns [first, last),
    /// column by column: all kb exchanges of one column touch that column
    /// only (in cache), where exchanging whole rows would stride across the
    /// matrix for every step (at n = 256 that took half of the
    /// factorization).
    void exchange(int k0, int kb, int first, int last) noexcept {
        const int* p = piv_;
        // Diagonally dominant systems (the Jacobians of implicit
        // integrators) never exchange: no pass over the columns then.
        bool any = false;
        for (int k = k0; k < k0 + kb; ++k) any |= p[k] != k;
        if (!any) return;
        int j = first;
        // Four columns at a time: one column's exchanges form a chain through
        // memory (a later step may move the row an earlier one wrote), four
        // columns are four independent chains.
        // Block-wide interchanges (kb past a panel) reach trailing columns
        // last touched a block ago, far from L1: the swaps, at random rows,
        // waited on a miss for nearly every row they read. Each step
        // prefetches its share of the next four columns' rows k0..n-1, so
        // that they arrive while these are exchanged (PREFETCHT0: the write
        // hint, PREFETCHW, ran 0.94-1.01x at n = 1024). On the Zen 5 host
        // (stop 51) the exchanges' share of double n = 512 fell from 7.2%
        // of the samples to 3.2%; strided gesv ran 1.02-1.13x at double
        // 192..512 and 1.01-1.16x at float 384..1024 (257, whose matrix
        // sits in L2, level; double 768 and 1024 0.93-1.15x, noise).
        constexpr int line = line_bytes / int(sizeof(T));
        const int lines = (n_ - k0 + line - 1) / line; // of rows k0..n-1: the pivots lie there
        const int per_step = (lines + kb - 1) / kb;
        for (; j + 4 <= last; j += 4) {
            T* c0 = column(j);
            T* c1 = column(j + 1);
            T* c2 = column(j + 2);
            T* c3 = column(j + 3);
            const bool ahead = kb > panel && j + 8 <= last;
            for (int k = k0; k < k0 + kb; ++k) {
                if (const int q = (k - k0) * per_step; ahead && q < lines)
                    for (int c = 4; c < 8; ++c)
                        prefetch_bytes<false>(column(j + c) + k0 + q * line,
                                              std::int64_t(std::min(per_step, lines - q)) * line_bytes);
                const int r = p[k];
                std::swap(c0[k], c0[r]);
                std::swap(c1[k], c1[r]);
                std::swap(c2[k], c2[r]);
                std::swap(c3[k], c3[r]);
            }
        }
        for (; j < last; ++j) {
            T* c = column(j);
            for (int k = k0; k < k0 + kb; ++k) std::swap(c[k], c[p[k]]);
        }
    }

    /// The interchanges of the later blocks on each block's multipliers,
    /// once at the end: nothing reads a block's multipliers after the
    /// block is done except through the rows of its own steps, which the
    /// later steps never move. Last block first, the exchanges of the steps
    /// from the current block's end on are composed (origin_ and its
    /// inverse: prepending the exchange of rows a and b relabels the two
    /// rows their values came from), and each column is permuted below the
    /// block in one pass through a copy: every line of it read once, in
    /// order. Exchanged block by block as the factorization went, the same
    /// rows were reached at random once per later block, each a cache miss
    /// past L2.
    void exchange_left() noexcept {
        int* origin = origin_.data();
        int* place = place_.data(); // place[origin[r]] = r
        for (int i = 0; i < n_; ++i) origin[i] = place[i] = i;
        const int last_block = (n_ - 1) / block * block;
        for (int k0 = last_block; k0 >= 0; k0 -= block) {
            const int end = std::min(n_, k0 + block);
            if (end < n_)
                for (int j = k0; j < end; ++j) {
                    T* c = column(j);
                    T* held = held_.data();
                    std::copy(c + end, c + n_, held);
                    for (int r = end; r < n_; ++r) c[r] = held[origin[r] - end];
                }
            for (int k = end - 1; k >= k0; --k) {
                const int a = k, b = piv_[k];
                const int ra = place[a], rb = place[b];
                origin[ra] = b;
                origin[rb] = a;
                place[a] = rb;
                place[b] = ra;
            }
        }
    }

    /// Rows r0..r1-1 of columns [c0, c1) minus the product of the
    /// multipliers of steps [s0, s1) (those rows of columns s0..s1-1) and
    /// the rows s0..s1-1 of U in those columns. Every row range starts on a
    /// multiple of `panel` (or is the padded height), so whole vectors.
    void minus_product(int r0, int r1, int c0, int c1, int s0, int s1) noexcept {
        product_.minus(r1 - r0, c1 - c0, s1 - s0, column(s0) + r0, ld_, column(c0) + s0, ld_, column(c0) + r0,
                       ld_);
    }

    /// Rows j0..j0+jb-1 of columns [c0, c1) solved with the unit lower
    /// triangle of the panel at j0 (they become rows of U), then the rows
    /// from j0+jb up to r1 of those columns minus the panel's multipliers
    /// times them. The triangle is read where it lies, or (`lower`, `ldl`)
    /// from its packed copy.
    void solve_then_minus(int j0, int jb, int r1, int c0, int c1) noexcept {
        solve_then_minus(j0, jb, r1, c0, c1, column(j0) + j0, ld_);
    }
    void solve_then_minus(int j0, int jb, int r1, int c0, int c1, const T* lower, std::int64_t ldl) noexcept {
        const int r0 = j0 + jb;
        product_.solve_then_minus(r1 - r0, c1 - c0, jb, lower, ldl, column(c0) + j0, ld_, column(j0) + r0, ld_,
                                  column(c0) + r0, ld_);
    }

    /// Where pack_triangles() keeps the triangle of the panel at j0 of the
    /// block at k0: two blocks' worth, alternating, since with look-ahead
    /// the next block is factored while this one's update goes on.
    T* triangle(int k0, int j0) noexcept {
        const int slot = (k0 / block) % 2 * (block / panel) + (j0 - k0) / panel;
        return triangles_.data() + std::size_t(slot) * panel * panel;
    }

    /// Whether the trailing updates read the panels' triangles from packed
    /// copies (pack_triangles()): where the column stride is a multiple of
    /// 4 KiB, the way size of the L1 caches of the hosts measured, so that a
    /// triangle's columns all fall into the same L1 sets.
    bool packs_triangles() const noexcept { return ld_ * std::int64_t(sizeof(T)) % 4096 == 0; }

    /// The strictly lower triangles of the block [k0, end)'s panels, packed
    /// (ld panel) once the block is factored (where packs_triangles()):
    /// every slice of its trailing update solves its rows of U with them,
    /// panel by panel, and PackedProduct's substitution reads a triangle
    /// once per panel of its columns. Where they lie, at a power-of-two
    /// stride in place (order 1024 in float), they missed L1 every time:
    /// the substitutions took 2.5x their time at lda 1040. Zen 5 host
    /// (stop 51): float 1024 1.01-1.03x in a C driver, 1.00-1.09x in
    /// tdls-bench, double 1024 1.00-1.02x, double 512 1.01-1.05x; the
    /// library's samples at float 1024 fell 4.8%. Packed at every stride,
    /// double 384 (in place, 3 KiB apart) ran 0.95-0.99x in tdls-bench.
    /// Rows of U solved within a block read the panel just factored, in
    /// cache, where it lies. Same values, same bits.
    void pack_triangles(int k0, int end) noexcept {
        if (!packs_triangles()) return;
        for (int j0 = k0; j0 < end; j0 += panel) {
            const int jb = std::min(panel, end - j0);
            T* const t = triangle(k0, j0);
            for (int q = 0; q < jb; ++q) {
                const T* const c = column(j0 + q) + j0;
                for (int r = q + 1; r < jb; ++r) t[r + q * panel] = c[r];
            }
        }
    }

    // The matrix the members work on: scratch (select()) or the caller's
    // (work_in_place()), its column stride and the rows every loop runs
    // over (n, or n padded to whole vector pairs in the scratch).
    int n_, scratch_ld_;
    std::int64_t ld_;
    int rows_, matrices_;
    UpdateOrder order_;
    std::size_t matrix_; // matrix_elements(n_): one matrix's stride in a_
    AlignedBuffer<T> a_;
    std::vector<int> pivot_;
    T* cur_;   // the selected matrix in a_
    int* piv_; // its pivots in pivot_
    std::vector<T> x_;
    PackedProduct<T> product_;
    // exchange_left()'s composed exchanges: the row each row's value came
    // from, where each original row went, one column below a block.
    std::vector<int> origin_, place_;
    AlignedBuffer<T> held_;
    // The unit lower triangles of two blocks' panels (pack_triangles()).
    AlignedBuffer<T> triangles_;
};

/// Systems [begin, end) of the call, one after the other on this thread;
/// those side by side in an interleaved block are loaded and stored in
/// groups (BlockedLu::side_by_side()). Each system's arithmetic is the same
/// in every form.
template <typename T, bool RowMajor>
void blocked_range(const BatchCall& call, std::int64_t begin, std::int64_t end) {
    const BatchOperands& ops = call.operands;
    const int n = int(ops.n);
    const bool interleaved = ops.form == BatchForm::Interleaved;
    const int group =
        interleaved ? int(std::min<std::int64_t>(BlockedLu<T>::side_by_side(n), end - begin)) : 1;
    BlockedLu<T> lu(n, group);
    const T tau = T(call.pivot_threshold);
    const bool stores = writes_factors(call.operation);
    bool solves[BlockedLu<T>::line_systems];
    for (std::int64_t first = begin; first < end;) {
        // The systems of this group: side by side within one block.
        const int count =
            interleaved ? int(std::min<std::int64_t>({group, end - first, ops.block - first % ops.block}))
                        : 1;
        const SystemView<T> v0 = view_of<T>(ops, first);
        // A factorization that writes the factors back factors a matrix that
        // fits where it lies (BlockedLu::fits_in_place), and getrs reads the
        // caller's factors where they lie: no copy. Either layout: the
        // kernel works on the stored matrix read column-major (row-major's
        // transpose), one element step down a column in both.
        const bool in_place =
            count == 1 && v0.a_row == 1 &&
            (call.operation == Operation::Getrs || (stores && BlockedLu<T>::fits_in_place(v0.a_col, n)));
        const auto pick = [&](int l) {
            if (in_place)
                lu.work_in_place(v0.A, v0.a_col);
            else
                lu.select(l);
        };
        if (!in_place) lu.load(v0.A, v0.a_row, v0.a_col, count);
        for (int l = 0; l < count; ++l) {
            const std::int64_t s = first + l;
            const SystemView<T> v = view_of<T>(ops, s);
            pick(l);
            solves[l] = call.operation != Operation::Getrf && ops.nrhs > 0;
            if (call.operation == Operation::Getrs) {
                // Each pivot read once and checked as it is used: one outside
                // 1..n (it changed since validation) leaves B untouched.
                for (int k = 0; k < n && solves[l]; ++k) {
                    const std::int32_t p = v.ipiv[k * v.ipiv_step];
                    if (p < 1 || p > n)
                        solves[l] = false; // and p - 1 never formed: p may be INT32_MIN
                    else
                        lu.pivots()[k] = p - 1;
                }
            } else {
                const int info = lu.factor(tau);
                ops.info[s] = info;
                if (stores && v.ipiv)
                    for (int k = 0; k < n; ++k) v.ipiv[k * v.ipiv_step] = lu.pivots()[k] + 1;
                solves[l] = solves[l] && info == 0;
            }
        }
        if (stores && !in_place) lu.store(v0.A, v0.a_row, v0.a_col, count);
        for (int l = 0; l < count; ++l) {
            if (!solves[l]) continue;
            const SystemView<T> v = view_of<T>(ops, first + l);
            pick(l);
            for (std::int64_t k = 0; k < ops.nrhs; ++k) {
                T* b = v.B + k * v.b_col;
                T* x = lu.x();
                for (int i = 0; i < n; ++i) x[i] = b[i * v.b_row];
                lu.solve(RowMajor);
                for (int i = 0; i < n; ++i) b[i * v.b_row] = x[i];
            }
        }
        first += count;
    }
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA

/// One instance of an ISA's translation unit (blocked_range.cpp).
#define TDLS_BLOCKED_INSTANTIATE(T, ROW_MAJOR)                                                               \
    template void tdls::kernels::cpu::simd::TDLS_SIMD_ISA::blocked_range<T, ROW_MAJOR>(                      \
        const tdls::kernels::BatchCall&, std::int64_t, std::int64_t);
