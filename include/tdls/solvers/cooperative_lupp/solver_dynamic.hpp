// libtdls: CooperativeLUppSolverDynamic, the cooperative LU-pp solver for an
// order known only at run time.
//
// Copyright (c) 2026, the libtdls developers. BSD 3-Clause License (LICENSE).
// Method after MAGMA's small-system batched solver (see solver_static.hpp and
// the LICENSE file for MAGMA's BSD 3-Clause notice).
//
// Same algorithm, conventions, operands, barriers and results as
// CooperativeLUppSolverStatic (read its header comment), with the order n as
// the first argument of every entry point. With no compile-time order there are
// no register rows: each thread works on its rows where the caller keeps them
// (its internal slice, or the external matrix in place), and column loops are
// not unrolled. The operations and their order are those of the static solver:
// on the same input both produce bitwise-identical results.
//
// As upstream's, the entry points take every operand external by default, so
// that a call names no template argument; the residency booleans (internal_rhs,
// internal_piv, internal_matrix) and compile-time strides remain available as
// libtdls extensions. tdls::NoSync is accepted for a group of one thread
// (rows_per_thread >= n); with more, the call stops the program on entry.
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

template <typename T, CooperativeLUppConfig<T> Config = CooperativeLUppConfig<T>{}>
struct CooperativeLUppSolverDynamic {
    static_assert(is_solver_scalar_v<T>,
                  "CooperativeLUppSolverDynamic: T must be float, double, long double or a complex of one "
                  "(std::complex, tdls::ComplexPair)");
#if defined(TDLS_DEVICE_PASS)
    static_assert(!std::is_same_v<T, long double>,
                  "CooperativeLUppSolverDynamic: long double does not exist on GPUs");
#endif
    static_assert(Config.rows_per_thread >= 1, "CooperativeLUppSolverDynamic: rows_per_thread must be >= 1");
    static_assert(Config.relative_pivot_threshold.value() > 0 &&
                      Config.relative_pivot_threshold.value() <= 1,
                  "CooperativeLUppSolverDynamic: relative_pivot_threshold must be in (0, 1]");
    static_assert(Config.singular_floor.value() > 0,
                  "CooperativeLUppSolverDynamic: singular_floor must be positive");

  private:
    using Driver = detail::coop::Driver<T, Config, 0>;
    using Engine = typename Driver::E;
    static constexpr std::int64_t runtime = dynamic_stride;

  public:
    using value_type = T;
    static constexpr CooperativeLUppConfig<T> config = Config;
    static constexpr int rows_per_thread = Config.rows_per_thread;
    static constexpr real_type_t<T> relative_pivot_threshold = Engine::threshold;
    static constexpr real_type_t<T> singular_floor = Engine::floor;
    static constexpr RowInterchange row_interchange = Config.row_interchange;
    static constexpr MatrixLayout layout = Config.layout;
    static constexpr bool unroll_loops = Config.unroll_loops;
    /// The solver factors S = A^T (MatrixLayout::RowMajor) rather than A.
    static constexpr bool transposed = Config.layout == MatrixLayout::RowMajor;

    /// Threads of the group for order n >= 1: ceil(n / rows_per_thread).
    TDLS_HOST_DEVICE static constexpr int threads_per_system(int n) noexcept {
        return (n + rows_per_thread - 1) / rows_per_thread;
    }
    /// Workspace elements for order n, as CooperativeLUppSolverStatic::workspace_size.
    TDLS_HOST_DEVICE static constexpr int workspace_size(int n) noexcept {
        return detail::coop::workspace_elements<Engine::physical>(n, threads_per_system(n));
    }

    /// The barrier the solver deduces for the group of order n sharing `work`.
    TDLS_HOST_DEVICE static constexpr auto make_sync(int n, T* work) noexcept {
        return tdls::make_sync(threads_per_system(n), work);
    }

    /// See CooperativeLUppSolverStatic::factorize; n >= 1 is the order.
    template <bool internal_piv = false, bool internal_matrix = false, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    factorize(int n, int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv,
              std::int64_t piv_stride, T* work, Sync&& sync = Sync{}) {
        return Driver::template factorize<internal_matrix, internal_piv, MatrixStride, PivotStride>(
            n, tx, A, A_stride, piv, piv_stride, work, sync);
    }

    /// See CooperativeLUppSolverStatic::substitute.
    template <bool internal_rhs = false, bool internal_piv = false, bool internal_matrix = false,
              std::int64_t RhsStride = runtime, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute(int n, int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride, const int* TDLS_RESTRICT piv,
               std::int64_t piv_stride, const T* TDLS_RESTRICT b, T* TDLS_RESTRICT x, std::int64_t rhs_stride,
               T* work, Sync&& sync = Sync{}) {
        Driver::template substitute<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                    RhsStride>(n, tx, A, A_stride, piv, piv_stride, b, x, rhs_stride, work,
                                               sync);
    }

    /// See CooperativeLUppSolverStatic::substitute_inplace.
    template <bool internal_rhs = false, bool internal_piv = false, bool internal_matrix = false,
              std::int64_t RhsStride = runtime, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_inplace(int n, int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride,
                       const int* TDLS_RESTRICT piv, std::int64_t piv_stride, T* TDLS_RESTRICT y,
                       std::int64_t y_stride, T* work, Sync&& sync = Sync{}) {
        Driver::template substitute<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                    RhsStride>(n, tx, A, A_stride, piv, piv_stride, y, y, y_stride, work,
                                               sync);
    }

    /// See CooperativeLUppSolverStatic::substitute_canonical.
    template <bool internal_rhs = false, bool internal_piv = false, bool internal_matrix = false,
              std::int64_t RhsStride = runtime, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_canonical(int n, int tx, const T* TDLS_RESTRICT A, std::int64_t A_stride,
                         const int* TDLS_RESTRICT piv, std::int64_t piv_stride, int col, T* TDLS_RESTRICT x,
                         std::int64_t rhs_stride, T* work, Sync&& sync = Sync{}) {
        Driver::template substitute_canonical<internal_matrix, internal_piv, internal_rhs, MatrixStride,
                                              PivotStride, RhsStride>(n, tx, A, A_stride, piv, piv_stride,
                                                                      col, x, rhs_stride, work, sync);
    }

    /// See CooperativeLUppSolverStatic::solve.
    template <bool internal_rhs = false, bool internal_piv = false, bool internal_matrix = false,
              std::int64_t RhsStride = runtime, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    solve(int n, int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv,
          std::int64_t piv_stride, const T* TDLS_RESTRICT b, T* TDLS_RESTRICT x, std::int64_t rhs_stride,
          T* work, Sync&& sync = Sync{}) {
        return Driver::template solve<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                      RhsStride>(n, tx, A, A_stride, piv, piv_stride, b, x, rhs_stride, work,
                                                 sync);
    }

    /// See CooperativeLUppSolverStatic::solve_inplace.
    template <bool internal_rhs = false, bool internal_piv = false, bool internal_matrix = false,
              std::int64_t RhsStride = runtime, std::int64_t PivotStride = runtime,
              std::int64_t MatrixStride = runtime, typename Sync = AutoSync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    solve_inplace(int n, int tx, T* TDLS_RESTRICT A, std::int64_t A_stride, int* TDLS_RESTRICT piv,
                  std::int64_t piv_stride, T* TDLS_RESTRICT y, std::int64_t y_stride, T* work,
                  Sync&& sync = Sync{}) {
        return Driver::template solve<internal_matrix, internal_piv, internal_rhs, MatrixStride, PivotStride,
                                      RhsStride>(n, tx, A, A_stride, piv, piv_stride, y, y, y_stride, work,
                                                 sync);
    }
};

} // namespace tdls
