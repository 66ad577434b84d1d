// libtdls: C -= A B on column-major operands for the blocked LU
// (blocked_lu.hpp): the trailing update and the block row's substitution.
// Both operands are first copied into packed panels, the order of the
// classic Goto / BLIS decomposition, so that the register-blocked inner
// kernel reads every operand contiguously whatever the matrix's stride:
// unpacked, a power-of-two column stride maps the rows of a multiplier
// panel to a few cache sets, and the blocked LU fell to the OpenBLAS loop's
// speed past n = 256 (docs/cpu_blocked.md).
//
// - B (k x n, the rows of U) is packed once per call into panels of C
//   columns, each panel k rows of C contiguous values (k * C * sizeof(T):
//   8 KiB at k = 128 in double, an L1 share).
// - A (m x k, the multipliers) is packed a block of rows at a time (about
//   192 KiB, an L2 share) into panels of R vectors of rows, each panel k
//   steps of R * W contiguous values; or whole, once (hold()), when the
//   blocked LU applies one trailing update to its columns slice by slice.
// - The inner kernel holds an R vectors x C columns block of A B in
//   registers over the k steps (R * C accumulators, R vectors of A and one
//   broadcast element of B beside them), then subtracts it from C: C is
//   read and written once per call, prefetched when the kernel starts.
//
// The sum over k is formed before it meets C (C - (a0 b0 + a1 b1 + ...)),
// not element by element into C as in the unblocked kernels: results agree
// with them within rounding, not bit for bit (blocked_lu.hpp says the same
// of the whole kernel). Vector code of the translation unit's ISA, compiled
// with contraction of multiply-adds.
#pragma once

#include <algorithm>
#include <cstdint>

#include "aligned_buffer.hpp"
#include "lanes.hpp"
#include "prefetch_lines.hpp"
#include "transpose.hpp"

#ifndef TDLS_SIMD_BYTES
#error "TDLS_SIMD_BYTES must give the vector width of this translation unit"
#endif

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// The register block of the inner kernel. 32 vector registers (AVX-512):
/// 3 vectors x 8 columns, 24 accumulators, 3 vectors of A and a broadcast.
/// 16 registers (AVX2, SSE2): 2 x 6, 12 + 2 + 1.
template <typename T>
struct ProductShape {
    static constexpr int W = TDLS_SIMD_BYTES / int(sizeof(T));
    static constexpr int R = TDLS_SIMD_BYTES >= 64 ? 3 : 2;
    static constexpr int C = TDLS_SIMD_BYTES >= 64 ? 8 : 6;
    static constexpr int mr = R * W;
    /// Bytes of packed A per block of rows.
    static constexpr std::int64_t a_block_bytes = 192 * 1024;
};

/// Scratch for the packed operands of products of up to `columns` columns
/// and depth `depth`, allocated once: one per blocked LU, so one per thread.
template <typename T>
class PackedProduct {
  public:
    using Shape = ProductShape<T>;
    static constexpr int W = Shape::W, R = Shape::R, C = Shape::C, mr = Shape::mr;
    using L = Lanes<T, W>;
    using V = typename L::V;

    /// held_rows: the most rows of A that hold() will pack whole (0: none).
    PackedProduct(int columns, int depth, int held_rows = 0)
        : columns_(columns), depth_(depth), held_rows_(held_rows),
          a_(std::size_t(Shape::a_block_bytes) / sizeof(T) + std::size_t(mr) * std::size_t(depth)),
          b_(std::size_t((columns + C - 1) / C) * C * std::size_t(depth)),
          held_(std::size_t(held_rows) * std::size_t(depth)) {}

    /// C (m x n, ldc) -= A (m x k, lda) B (k x n, ldb), every operand
    /// column-major; n and k within the sizes given at construction.
    void minus(int m, int n, int k, const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T* Cm,
               std::int64_t ldc) noexcept {
        if (m <= 0 || n <= 0 || k <= 0) return;
        check(n, k);
        pack_b(n, k, B, ldb);
        minus_packed(m, n, k, A, lda, Cm, ldc);
    }

    /// B (k x n, ldb) := L^-1 B, L the unit lower triangle of the k x k
    /// block at Lm (ldl), then C (m x n, ldc) -= A (m x k, lda) B: the
    /// blocked LU's rows of U and the update below them. The substitution
    /// runs on the packed copy of B, whose rows of C columns lie contiguous,
    /// and the product reads the solved copy directly; B is written back
    /// once.
    void solve_then_minus(int m, int n, int k, const T* Lm, std::int64_t ldl, T* B, std::int64_t ldb,
                          const T* A, std::int64_t lda, T* Cm, std::int64_t ldc) noexcept {
        if (n <= 0 || k <= 0) return;
        check(n, k);
        pack_b(n, k, B, ldb);
        for (int j = 0; j < n; j += C) {
            T* x = b_.data() + std::size_t(j / C) * C * k;
            solve_panel(k, Lm, ldl, x);
            unpack_b(x, k, std::min(C, n - j), B, ldb, j);
        }
        if (m > 0) minus_packed(m, n, k, A, lda, Cm, ldc);
    }

    /// Packs A (m x k, lda; m a multiple of W) whole, for minus_held():
    /// the multipliers of a trailing update applied to its columns slice
    /// by slice are then packed once, not once per slice.
    void hold(int m, int k, const T* A, std::int64_t lda) noexcept {
        if (m > held_rows_ || k > depth_ || m % W != 0) __builtin_trap(); // a caller's bug
        held_m_ = m;
        held_k_ = k;
        pack_a(held_.data(), m, k, A, lda);
    }

    /// C (m x n, ldc) -= A B with the A of the last hold() (m x k) and B
    /// (k x n, ldb): minus()'s arithmetic, element for element.
    void minus_held(int n, const T* B, std::int64_t ldb, T* Cm, std::int64_t ldc) noexcept {
        if (held_m_ <= 0 || n <= 0 || held_k_ <= 0) return;
        check(n, held_k_);
        pack_b(n, held_k_, B, ldb);
        minus_panels(held_.data(), held_m_, n, held_k_, Cm, ldc);
    }

  private:
    void check(int n, int k) const noexcept {
        if (n > columns_ || k > depth_) __builtin_trap(); // the scratch was sized for less: a caller's bug
    }

    /// C (m x n) -= A (m x k) times the packed B (pack_b).
    void minus_packed(int m, int n, int k, const T* A, std::int64_t lda, T* Cm, std::int64_t ldc) noexcept {
        // Whole vectors through the kernel; rows past the last whole vector
        // (none in the blocked LU, whose row ranges are multiples of W) by
        // the scalar tail. A block of rows: about a_block_bytes of packed A,
        // at least one panel (a_'s size covers both).
        const int vector_rows = m / W * W;
        const int block =
            std::max<int>(mr, int(Shape::a_block_bytes / (std::int64_t(k) * sizeof(T))) / mr * mr);
        for (int i0 = 0; i0 < vector_rows; i0 += block) {
            const int rows = std::min(block, vector_rows - i0);
            pack_a(a_.data(), rows, k, A + i0, lda);
            minus_panels(a_.data(), rows, n, k, Cm + i0, ldc);
        }
        for (int i = vector_rows; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                T s = T(0);
                for (int q = 0; q < k; ++q)
                    s += A[i + q * lda] * b_.data()[(std::size_t(j / C) * k + q) * C + j % C];
                Cm[i + j * ldc] -= s;
            }
    }

    /// `rows` (a multiple of W) rows of C (m x n) minus the packed A at ap
    /// (pack_a) times the packed B: B panel by B panel (one in L1), each
    /// down every row panel of A.
    void minus_panels(const T* ap, int rows, int n, int k, T* Cm, std::int64_t ldc) noexcept {
        const int panels = (n + C - 1) / C;
        for (int p = 0; p < panels; ++p) {
            const int j = p * C;
            const int cols = std::min(C, n - j);
            const T* bp = b_.data() + std::size_t(p) * C * k;
            int i = 0;
            for (; i + mr <= rows; i += mr)
                kernel<R>(k, ap + std::size_t(i) * k, bp, Cm + i + j * ldc, ldc, cols);
            const int left = (rows - i) / W;
            const T* a = ap + std::size_t(i) * k;
            T* c = Cm + i + j * ldc;
            if (left == 1) kernel<1>(k, a, bp, c, ldc, cols);
            if constexpr (R > 2)
                if (left == 2) kernel<2>(k, a, bp, c, ldc, cols);
        }
    }

    /// Forward substitution with the unit lower triangle at Lm on one packed
    /// panel x (k rows of C values): eight rows at a time, each receiving the
    /// rows above the group (eight independent chains of multiply-adds, one
    /// vector each: enough to cover the latency of both FMA ports; four ran
    /// 0.99x at n = 384..1024 on the model-207 Xeon), then the group's own
    /// triangle. Each row receives the rows above it in order whatever the
    /// group size: the same bits. Out of line: inlined with the constant
    /// ld of a packed triangle (BlockedLu::pack_triangles), GCC made its
    /// accumulators scalars on the stack, and float 257 ran 0.90x.
    [[gnu::noinline]] static void solve_panel(int k, const T* Lm, std::int64_t ldl, T* x) noexcept {
        constexpr int G = 8;
        for (int q0 = 0; q0 < k; q0 += G) {
            const int g = std::min(G, k - q0);
            T acc[G][C];
#pragma GCC unroll 8
            for (int r = 0; r < G; ++r)
#pragma GCC unroll 8
                for (int c = 0; c < C; ++c) acc[r][c] = r < g ? x[(q0 + r) * C + c] : T(0);
            for (int q = 0; q < q0; ++q) {
                const T* row = x + q * C;
#pragma GCC unroll 8
                for (int r = 0; r < G; ++r) {
                    const T l = r < g ? Lm[q0 + r + q * ldl] : T(0);
#pragma GCC unroll 8
                    for (int c = 0; c < C; ++c) acc[r][c] = acc[r][c] - l * row[c];
                }
            }
#pragma GCC unroll 8
            for (int r = 1; r < G; ++r) {
                if (r >= g) break;
#pragma GCC unroll 8
                for (int s = 0; s < r; ++s) {
                    const T l = Lm[q0 + r + (q0 + s) * ldl];
#pragma GCC unroll 8
                    for (int c = 0; c < C; ++c) acc[r][c] = acc[r][c] - l * acc[s][c];
                }
            }
#pragma GCC unroll 8
            for (int r = 0; r < G; ++r) {
                if (r >= g) break;
#pragma GCC unroll 8
                for (int c = 0; c < C; ++c) x[(q0 + r) * C + c] = acc[r][c];
            }
        }
    }

    /// Whole panels move through C x C register transposes where C lanes
    /// of T make a vector of this ISA (AVX-512: a zmm of 8 doubles, a ymm
    /// of 8 floats); element by element, the packing took a fifth of the
    /// product's time at n = 384 in double, and pack_b and unpack_b 7.5% of
    /// the whole factorization at n = 1024 in float.
    static constexpr bool transposed_panels = (C & (C - 1)) == 0 && C * int(sizeof(T)) <= TDLS_SIMD_BYTES;
    using PanelRow = Lanes<T, C>;

    /// B's columns in panels of C: panel p, step q, column c at
    /// b_[(p * k + q) * C + c]; the columns past n of the last panel zero.
    void pack_b(int n, int k, const T* B, std::int64_t ldb) noexcept {
        T* to = b_.data();
        for (int j = 0; j < n; j += C, to += std::size_t(C) * k) {
            const int cols = std::min(C, n - j);
            int q = 0;
            if constexpr (transposed_panels)
                if (cols == C)
                    for (; q + C <= k; q += C) {
                        typename PanelRow::V v[C];
                        for (int c = 0; c < C; ++c) v[c] = PanelRow::load(B + q + (j + c) * ldb);
                        transpose<T, C>(v);
                        for (int r = 0; r < C; ++r) PanelRow::store(to + (q + r) * C, v[r]);
                    }
            for (; q < k; ++q) {
                for (int c = 0; c < cols; ++c) to[q * C + c] = B[q + (j + c) * ldb];
                for (int c = cols; c < C; ++c) to[q * C + c] = T(0);
            }
        }
    }

    /// The first `cols` columns of one packed panel x (k steps) back into B
    /// from column j on: pack_b's inverse.
    static void unpack_b(const T* x, int k, int cols, T* B, std::int64_t ldb, int j) noexcept {
        int q = 0;
        if constexpr (transposed_panels)
            if (cols == C)
                for (; q + C <= k; q += C) {
                    typename PanelRow::V v[C];
                    for (int r = 0; r < C; ++r) v[r] = PanelRow::load(x + (q + r) * C);
                    transpose<T, C>(v);
                    for (int c = 0; c < C; ++c) PanelRow::store(B + q + (j + c) * ldb, v[c]);
                }
        for (int c = 0; c < cols; ++c)
            for (int r = q; r < k; ++r) B[r + (j + c) * ldb] = x[r * C + c];
    }

    /// `rows` (a multiple of W) rows of A in panels of mr into `to`: panel
    /// p, step q, row r at to[(p * k + q) * mr + r]; a last panel of fewer rows is
    /// packed at its own height (the kernel of that many vectors reads it).
    static void pack_a(T* to, int rows, int k, const T* A, std::int64_t lda) noexcept {
        for (int i = 0; i < rows; i += mr) {
            const int height = std::min(mr, rows - i);
            for (int q = 0; q < k; ++q, to += height) {
                const T* from = A + i + q * lda;
                for (int r = 0; r < height; r += W) L::store(to + r, L::load(from + r));
            }
        }
    }

    /// Rows of Rv vectors by `cols` (<= C) columns of C minus the product of
    /// a packed panel of A (Rv * W rows) and one of B (C columns). C's
    /// lines are hinted for reading though they are written: PREFETCHW
    /// ran level on the Zen 5 host of stop 53 (docs/cpu_blocked.md).
    template <int Rv>
    static void kernel(int k, const T* ap, const T* bp, T* c, std::int64_t ldc, int cols) noexcept {
        for (int j = 0; j < cols; ++j)
            for (int r = 0; r < Rv * W * int(sizeof(T)); r += 64)
                hint_line<LineUse::Read>(c + j * ldc + r / int(sizeof(T)));
        V acc[Rv][C];
#pragma GCC unroll 8
        for (int j = 0; j < C; ++j)
#pragma GCC unroll 4
            for (int r = 0; r < Rv; ++r) acc[r][j] = V{};
#pragma GCC unroll 4
        for (int q = 0; q < k; ++q, ap += Rv * W, bp += C) {
            V a[Rv];
#pragma GCC unroll 4
            for (int r = 0; r < Rv; ++r) a[r] = L::load(ap + r * W);
#pragma GCC unroll 8
            for (int j = 0; j < C; ++j) {
                const V b = L::broadcast(bp + j);
#pragma GCC unroll 4
                for (int r = 0; r < Rv; ++r) acc[r][j] = acc[r][j] + a[r] * b;
            }
        }
#pragma GCC unroll 8
        for (int j = 0; j < C; ++j) {
            if (j >= cols) break;
#pragma GCC unroll 4
            for (int r = 0; r < Rv; ++r)
                L::store(c + j * ldc + r * W, L::load(c + j * ldc + r * W) - acc[r][j]);
        }
    }

    int columns_, depth_, held_rows_;
    int held_m_ = 0, held_k_ = 0; // the shape of the held A (hold())
    AlignedBuffer<T> a_, b_, held_;
};

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
