// libtdls: CooperativeLUppSolverStatic, LU with partial pivoting held in the
// registers of a group of threads, one system of compile-time order N per group.
//
// Copyright (c) 2026, the libtdls developers. BSD 3-Clause License (LICENSE).
//
// The elimination and substitution method is that of MAGMA's small-system
// batched solver (magmablas/zgesv_batched_small.cu, zgesv_batched_small_device,
// by Azzam Haidar and Ahmad Abdelfattah; MAGMA 2.x, Univ. of Tennessee,
// Knoxville; Univ. of California, Berkeley; Univ. of Colorado, Denver), whose
// BSD 3-Clause license is reproduced in full in the LICENSE file. This is an
// independent implementation; see detail/engine.hpp.
//
// Overview
// --------
// A group of threads_per_system = ceil(N / rows_per_thread) threads solves one
// system. The solver factors S, the stored matrix read column-major (S = A
// under MatrixLayout::ColMajor, S = A^T under MatrixLayout::RowMajor, the default). Thread
// tx holds rows tx, tx + threads_per_system, ... of S (rows_per_thread of them,
// its "slots") in registers, so consecutive threads read consecutive
// addresses. Threads cooperate through a small shared workspace and a barrier.
// With relative_pivot_threshold = 1 the pivots are LAPACK's; the default, 0.1,
// is upstream TDLS's threshold pivoting.
//
// ColMajor: P A = L U, solved as L y = P b (folded into the factorization),
// U x = y. RowMajor: P A^T = L U, so A = U^T L^T P, solved as U^T z = b
// (folded), L^T w = z, x = P^T w: partial pivoting of A^T, as stable.
//
// Calling convention: every thread of the group calls the same entry point with
// the same template arguments, the same operands (or, for an internal operand,
// its own slice), the same workspace and its rank tx in [0, threads_per_system).
// Callers pre-offset every external operand to the system and pass a stride:
// 1 for AoS, the batch size for SoA, the block width for AoSoA. A stride may
// also be a template argument, after the residency booleans and in their order
// (tdls::dynamic_stride, the default, takes it at run time).
//
// Residency: the booleans internal_rhs, internal_piv, internal_matrix (in that
// order, as upstream TDLS and the seed list them; factorize takes
// internal_piv, internal_matrix) select, per operand,
// the slice of the calling thread (a plain local array; stride ignored) or the
// whole external object. Matrix slice: element c of the row of slot K at
// A[c * rows_per_thread + K]. Vector slices: the entry of slot K at [K].
// Each thread reads on entry only the entries of its own rows, so a caller
// that builds them in that thread needs no barrier before the call.
//
// Results: every entry point ends with a barrier; on return every thread's
// results are written and visible to the group, and the workspace is free.
// The factorizing entry points return a Verdict, which converts to bool (true:
// nonsingular) and keeps LAPACK's info.
// Pivots: Logical interchanges: piv[r] = position of row r of S in the pivoted
// order, rows never move, the factored row r holds its multipliers before the
// column of its pivot step and its row of U from there on. Physical: rows end in
// pivoted order (LAPACK's format); piv[k] = original index of the row at
// position k. The diagonal holds the pivots themselves. A factorization must be
// consumed by the substitutions of the same configuration.
//
// Barrier: the last argument, omitted by most calls (AutoSync), is deduced:
// nothing for one thread; the lanes of the group inside its warp on CUDA or its
// wavefront on HIP (checked on entry); on the CPU a barrier held in workspace
// elements 0 and 1, which must be zero before the first call of a group. Any
// callable with no argument serves instead (core/group.hpp). Each entry point
// runs a fixed sequence of barriers set by N, the interchanges, the layout and
// the entry point alone, never by the data: a singular verdict is returned at
// the end, never by an early exit.
#pragma once

#include <cstdint>
#include <type_traits>

#include <tdls/core/group.hpp>
#include <tdls/core/macros.hpp>
#include <tdls/core/math.hpp>
#include <tdls/core/target.hpp>
#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/driver.hpp>
#include <tdls/solvers/cooperative_lupp/detail/operands.hpp>
#include <tdls/solvers/cooperative_lupp/verdict.hpp>

namespace tdls {

template <typename T, int N, CooperativeLUppConfig<T> Config = CooperativeLUppConfig<T>{}>
struct CooperativeLUppSolverStatic {
    static_assert(is_solver_scalar_v<T>, "CooperativeLUppSolverStatic: T must be float, double, long double or a "
                                         "complex of one (std::complex, tdls::ComplexPair)");
#if defined(TDLS_DEVICE_PASS)
    static_assert(!std::is_same_v<T, long double>,
                  "CooperativeLUppSolverStatic: long double does not exist on GPUs");
#endif
    static_assert(N >= 1, "CooperativeLUppSolverStatic: N must be >= 1");
    static_assert(Config.rows_per_thread >= 1, "CooperativeLUppSolverStatic: rows_per_thread must be >= 1");
    static_assert(Config.relative_pivot_threshold.value() > 0 &&
                      Config.relative_pivot_threshold.value() <= 1,
                  "CooperativeLUppSolverStatic: relative_pivot_threshold must be in (0, 1]");
    static_assert(Config.singular_floor.value() > 0,
                  "CooperativeLUppSolverStatic: singular_floor must be positive");

  private:
    using Driver = detail::coop::Driver<T, Config, N>;
    using Engine = typename Driver::E;
    static constexpr std::int64_t runtime = dynamic_stride;

  public:
    using value_type = T;
    static constexpr int order = N;
    static constexpr CooperativeLUppConfig<T> config = Config;
    /// Rows of S each thread holds (its slots): the configured value clamped
    /// to N, as upstream does.
    static constexpr int rows_per_thread = Engine::R;
    /// Threads of a group: ceil(N / rows_per_thread).
    static constexpr int threads_per_system = Engine::static_threads;
    /// Workspace elements one group shares, the two barrier elements included:
    /// 2 + 3N under logical interchanges, 2 + 2N + 2 threads_per_system + 5
    /// under physical ones (the seed's formula).
    static constexpr int workspace_size =
        detail::coop::workspace_elements<Engine::physical>(N, threads_per_system);
    static constexpr real_type_t<T> relative_pivot_threshold = Engine::threshold;
    static constexpr real_type_t<T> singular_floor = Engine::floor;
    static constexpr RowInterchange row_interchange = Config.row_interchange;
    static constexpr MatrixLayout layout = Config.layout;
    static constexpr bool unroll_loops = Config.unroll_loops;
    /// The solver factors S = A^T (MatrixLayout::RowMajor) rather than A.
    static constexpr bool transposed = Config.layout == MatrixLayout::RowMajor;

    /// Every thread of the group holds a real row in slot K.
    static constexpr bool slot_is_full(int K) noexcept {
        return (K + 1) * threads_per_system <= N;
    }
    /// At least one thread of the group holds a real row in slot K; the others
    /// hold phantom rows, skipped at run time.
    static constexpr bool slot_has_rows(int K) noexcept {
        return K * threads_per_system < N;
    }

    /// The barrier the solver deduces for the group sharing `work`, for a
    /// caller's own exchanges between solver calls (NoSync for one thread).
    TDLS_HOST_DEVICE static constexpr auto make_sync(T* work) noexcept {
        return tdls::make_sync<threads_per_system>(work);
    }

    /// Factors the matrix in place and writes the pivots.
    /// @param[in]     tx        rank of the calling thread in the group
    /// @param[in,out] A         matrix, factors on return (see header comment)
    /// @param[in]     A_stride  element stride of an external matrix
    /// @param[out]    piv       pivots (Logical: position of each row;
    ///                          Physical: original index of each position)
    /// @param[in]     piv_stride element stride of external pivots
    /// @param[in,out] work      workspace of workspace_size elements, shared by the group
    /// @param[in]     sync      barrier of the group; AutoSync deduces it
    /// @return the verdict, identical in every thread: true when nonsingular
    template <bool internal_piv, bool internal_matrix, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    factorize(int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv,
              std::int64_t piv_stride, T* work, Sync&& sync = Sync{}) {
        return Driver::template factorize<internal_matrix, internal_piv, MatrixStride, PivotStride>(
            N, tx, A, A_stride, piv, piv_stride, work, sync);
    }

    /// Solves A x = b from a factorization by factorize or solve of this
    /// configuration; b and x may not overlap (see substitute_inplace).
    template <bool internal_rhs, bool internal_piv, bool internal_matrix, std::int64_t RhsStride = runtime,
              std::int64_t PivotStride = runtime, std::int64_t MatrixStride = runtime,
              typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute(int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride, const int* TDLS_RESTRICT piv,
               std::int64_t piv_stride, const T* TDLS_RESTRICT b, T* TDLS_RESTRICT x, std::int64_t rhs_stride,
               T* work, Sync&& sync = Sync{}) {
        Driver::template substitute<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                    RhsStride>(N, tx, A, A_stride, piv, piv_stride, b, x, rhs_stride, work,
                                               sync);
    }

    /// substitute with y holding b on entry and x on return.
    template <bool internal_rhs, bool internal_piv, bool internal_matrix, std::int64_t RhsStride = runtime,
              std::int64_t PivotStride = runtime, std::int64_t MatrixStride = runtime,
              typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_inplace(int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride, const int* TDLS_RESTRICT piv,
                       std::int64_t piv_stride, T* TDLS_RESTRICT y, std::int64_t y_stride, T* work,
                       Sync&& sync = Sync{}) {
        Driver::template substitute<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                    RhsStride>(N, tx, A, A_stride, piv, piv_stride, y, y, y_stride, work,
                                               sync);
    }

    /// substitute with b = e_col, the canonical vector of entry col, made on
    /// the fly (no b operand): column col of A^-1, e.g. for a consistent
    /// tangent operator. Bitwise the result of substitute on an explicit e_col.
    template <bool internal_rhs, bool internal_piv, bool internal_matrix, std::int64_t RhsStride = runtime,
              std::int64_t PivotStride = runtime, std::int64_t MatrixStride = runtime,
              typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_canonical(int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride,
                         const int* TDLS_RESTRICT piv, std::int64_t piv_stride, int col, T* TDLS_RESTRICT x,
                         std::int64_t rhs_stride, T* work, Sync&& sync = Sync{}) {
        Driver::template substitute_canonical<internal_matrix, internal_piv, internal_rhs, MatrixStride,
                                              PivotStride, RhsStride>(N, tx, A, A_stride, piv, piv_stride,
                                                                      col, x, rhs_stride, work, sync);
    }

    /// Factors A and solves A x = b. x is written only for a nonsingular
    /// verdict; b and x may not overlap (see solve_inplace).
    template <bool internal_rhs, bool internal_piv, bool internal_matrix, std::int64_t RhsStride = runtime,
              std::int64_t PivotStride = runtime, std::int64_t MatrixStride = runtime,
              typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    solve(int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv, std::int64_t piv_stride,
          const T* TDLS_RESTRICT b, T* TDLS_RESTRICT x, std::int64_t rhs_stride, T* work,
          Sync&& sync = Sync{}) {
        return Driver::template solve<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                      RhsStride>(N, tx, A, A_stride, piv, piv_stride, b, x, rhs_stride, work,
                                                 sync);
    }

    /// solve with y holding b on entry and x on return; y keeps b when the
    /// verdict is singular.
    template <bool internal_rhs, bool internal_piv, bool internal_matrix, std::int64_t RhsStride = runtime,
              std::int64_t PivotStride = runtime, std::int64_t MatrixStride = runtime,
              typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    solve_inplace(int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv,
                  std::int64_t piv_stride, T* TDLS_RESTRICT y, std::int64_t y_stride, T* work,
                  Sync&& sync = Sync{}) {
        return Driver::template solve<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                      RhsStride>(N, tx, A, A_stride, piv, piv_stride, y, y, y_stride, work,
                                                 sync);
    }
};

} // namespace tdls
