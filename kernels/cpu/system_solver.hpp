// libtdls: one system on one CPU thread, through the cooperative LU-pp solver
// (a group of one thread holding every row), with LAPACK's results: factors in
// LAPACK's row order (physical interchanges), 1-based swap-sequence pivots, B
// overwritten only for a nonsingular system.
#pragma once

#include <cstdint>

#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/driver.hpp>
#include <tdls/tdls.h>

#include "../common/batch_accessor.hpp"
#include "../common/pivots.hpp"
#include "system_scratch.hpp"

namespace tdls::kernels::cpu {

/// The barrier of a group of one thread: nothing to wait for. (tdls::NoSync
/// says the same but is refused where the group size is not a compile-time
/// constant, as in the dynamic solver.)
struct AloneInGroup {
    constexpr void operator()() const noexcept {}
};

/// Fused: the GPU kernels' fused multiply-adds (the gpu_reference family).
template <typename T, int StaticN, bool RowMajor, bool Fused = false>
struct SystemSolver {
    /// One thread holds every row: N for a static instance, up to the largest
    /// order for the dynamic one (whose slots the engine then loops over).
    static constexpr CooperativeLUppConfig<T> config{
        .rows_per_thread = StaticN > 0 ? StaticN : TDLS_MAX_ORDER,
        .row_interchange = RowInterchange::Physical,
        // Rolled column loops. Expanded ones (the GPU's need) measured no
        // faster with g++ 12 -O3 and far costlier to build: n = 16 double,
        // 0.27 vs 0.46 Msystems/s on one core, 31 s vs 6 s of compile.
        .unroll_loops = false,
        .layout = RowMajor ? MatrixLayout::RowMajor : MatrixLayout::ColMajor,
        .runtime_pivot_threshold = true,
        .fused_multiply_add = Fused,
    };
    using Driver = detail::coop::Driver<T, config, StaticN>;
    using Scratch = SystemScratch<T, StaticN>;
    static constexpr std::int64_t runtime = dynamic_stride;

    /// The matrix as the solver walks it: the caller's memory when packed,
    /// else a packed copy.
    struct Matrix {
        T* data;
        std::int64_t step;
        bool staged;
    };

    /// read_only: always a packed copy, so that the caller's matrix is never
    /// written (tdls_batched_solve).
    static Matrix load_matrix(const SystemView<T>& v, int n, Scratch& scratch, bool read_only = false) {
        if (!read_only && v.matrix_is_packed(n)) return {v.A, v.a_row, false};
        T* packed = scratch.packed_matrix();
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r) packed[c * n + r] = v.A[r * v.a_row + c * v.a_col];
        return {packed, 1, true};
    }

    static void store_matrix(const Matrix& m, const SystemView<T>& v, int n) {
        if (!m.staged) return;
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r) v.A[r * v.a_row + c * v.a_col] = m.data[c * n + r];
    }

    /// Factors the system and solves its nrhs right-hand sides (none: factor
    /// only). Returns LAPACK's info.
    static int gesv(const SystemView<T>& v, int n, std::int64_t nrhs, real_type_t<T> tau, Scratch& scratch) {
        const Matrix m = load_matrix(v, n, scratch);
        const int info = factor_and_solve(m, v, n, nrhs, tau, scratch);
        store_matrix(m, v, n);
        if (v.ipiv)
            swap_sequence_from_order(scratch.order(), n, v.ipiv, v.ipiv_step, scratch.position_of(),
                                     scratch.row_at());
        return info;
    }

    /// gesv's X and info with the caller's A only read: the same arithmetic
    /// on a packed copy (hence bitwise gesv's X), which is then dropped.
    static int solve(const SystemView<T>& v, int n, std::int64_t nrhs, real_type_t<T> tau, Scratch& scratch) {
        const Matrix m = load_matrix(v, n, scratch, true);
        return factor_and_solve(m, v, n, nrhs, tau, scratch);
    }

    /// Solves from LAPACK-format factors and pivots. Validation checked the
    /// pivots, but they are read again here, once, and checked as they are
    /// used (they may overlap an earlier system's B): false, B untouched, when
    /// one is outside 1..n.
    static bool getrs(const SystemView<T>& v, int n, std::int64_t nrhs, Scratch& scratch) {
        if (!order_from_checked_swap_sequence(v.ipiv, v.ipiv_step, n, scratch.order())) return false;
        const Matrix m = load_matrix(v, n, scratch);
        for (std::int64_t k = 0; k < nrhs; ++k) substitute(m, v.B + k * v.b_col, v.b_row, n, scratch);
        return true;
    }

  private:
    /// Factors m (the order of its rows into scratch.order()) and solves the
    /// nrhs columns of v's B (none: factor only); returns LAPACK's info.
    static int factor_and_solve(const Matrix& m, const SystemView<T>& v, int n, std::int64_t nrhs, real_type_t<T> tau,
                                Scratch& scratch) {
        AloneInGroup sync;
        int info;
        if (nrhs == 1) {
            // The first triangular solve rides along with the factorization.
            info = Driver::template solve<false, false, false, runtime, runtime, runtime>(
                       n, 0, m.data, m.step, scratch.order(), 1, v.B, v.B, v.b_row, scratch.work(), sync, tau)
                       .info;
        } else {
            info = Driver::template factorize<false, false, runtime, runtime>(
                       n, 0, m.data, m.step, scratch.order(), 1, scratch.work(), sync, tau)
                       .info;
            if (info == 0)
                for (std::int64_t k = 0; k < nrhs; ++k) substitute(m, v.B + k * v.b_col, v.b_row, n, scratch);
        }
        return info;
    }

    static void substitute(const Matrix& m, T* column, std::int64_t step, int n, Scratch& scratch) {
        AloneInGroup sync;
        Driver::template substitute<false, false, false, runtime, runtime, runtime>(
            n, 0, m.data, m.step, scratch.order(), 1, column, column, step, scratch.work(), sync);
    }
};

} // namespace tdls::kernels::cpu
