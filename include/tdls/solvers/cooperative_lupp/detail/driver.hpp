// libtdls: the entry points of the cooperative LU-pp solver, written once for
// the static solver (rows in registers) and the dynamic one (rows in place):
// operands assembled from raw pointers, the barrier resolved, the engine's
// phases run in order.
#pragma once

#include <cstdint>

#include <tdls/core/group.hpp>
#include <tdls/core/macros.hpp>
#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>
#include <tdls/solvers/cooperative_lupp/detail/operands.hpp>
#include <tdls/solvers/cooperative_lupp/verdict.hpp>

namespace tdls::detail::coop {

/// The factorizing entry points take the pivot threshold last; it counts only
/// under Config.runtime_pivot_threshold (the public solvers never pass it).
/// Residency booleans and strides come matrix first here (IM, IP, IR), the
/// kernels' order; the public solvers take upstream's order (rhs, piv, matrix)
/// and forward them by name.
template <typename T, auto Config, int StaticN>
struct Driver {
    using E = Engine<T, Config, StaticN>;
    static constexpr int R = E::R;

    /// Rows of the calling thread: copied into registers (static order) or
    /// left in the operand (dynamic order). Each thread reads only its rows.
    template <typename M>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr auto rows_of(const E& e, const M& A) {
        if constexpr (StaticN > 0) {
            RegisterRows<T, R, StaticN> rows{}; // phantom rows stay defined
            e.for_slots([&](auto K) {
                for_range<E::unroll>(zero, Index<StaticN>{},
                                     [&](auto c) { rows(K, c) = A(K, e.index(K), c, StaticN); });
            });
            return rows;
        } else {
            return OperandRows<M>{A, e.order(), e.threads(), e.tx()};
        }
    }

    /// Writes register rows back to the operand; rows worked in place are there.
    template <typename M, typename Rows>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void store_rows(const E& e, const M& A,
                                                                            Rows& rows) {
        if constexpr (StaticN > 0) {
            e.for_slots([&](auto K) {
                for_range<E::unroll>(zero, Index<StaticN>{},
                                     [&](auto c) { A(K, e.index(K), c, StaticN) = rows(K, c); });
            });
        }
    }

    // ---- entry points on raw operands: the public solvers forward here ------

    template <bool IM, bool IP, std::int64_t MS, std::int64_t PS, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    factorize(int n, int tx, T* A, std::int64_t A_stride, int* piv, std::int64_t piv_stride, T* work,
              Sync& sync, real_type_t<T> threshold = E::threshold) {
        E e(n, tx, work, threshold);
        auto&& barrier = resolve_sync<E::static_threads>(sync, tx, e.threads(), work);
        auto rows = rows_of(e, Matrix<T, IM, MS>{A, {A_stride}});
        e.init_places();
        e.template factor<false>(rows, barrier);
        finish(e, Matrix<T, IM, MS>{A, {A_stride}}, rows, VectorOperand<int, IP, PS>{piv, {piv_stride}},
               barrier);
        return Verdict{e.info()};
    }

    /// Factorization with the first triangular solve folded in, then the
    /// second. The solution is written only for a nonsingular verdict: a
    /// singular system keeps its right-hand side. b and x may be one array.
    template <bool IM, bool IP, bool IR, std::int64_t MS, std::int64_t PS, std::int64_t RS, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict
    solve(int n, int tx, T* A, std::int64_t A_stride, int* piv, std::int64_t piv_stride, const T* b, T* x,
          std::int64_t rhs_stride, T* work, Sync& sync, real_type_t<T> threshold = E::threshold) {
        E e(n, tx, work, threshold);
        auto&& barrier = resolve_sync<E::static_threads>(sync, tx, e.threads(), work);
        const VectorOperand<T, IR, RS> solution{x, {rhs_stride}};
        auto rows = rows_of(e, Matrix<T, IM, MS>{A, {A_stride}});
        e.init_places();
        e.load_rhs(VectorOperand<const T, IR, RS>{b, {rhs_stride}});
        e.template factor<true>(rows, barrier);
        arrive_and_wait(barrier); // the substitution reuses the whole workspace
        const bool write = e.info() == 0;
        if constexpr (E::row_major) {
            e.template lower_transposed<false>(rows, barrier, 0);
            e.output_row_major(solution, barrier, write);
        } else {
            e.back_upper(rows, barrier);
            e.output_col_major(solution, write);
        }
        finish(e, Matrix<T, IM, MS>{A, {A_stride}}, rows, VectorOperand<int, IP, PS>{piv, {piv_stride}},
               barrier);
        return Verdict{e.info()};
    }

    /// Both triangular solves from a factorization of this solver. b and x may
    /// be one array.
    template <bool IM, bool IP, bool IR, std::int64_t MS, std::int64_t PS, std::int64_t RS, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute(int n, int tx, const T* A, std::int64_t A_stride, const int* piv, std::int64_t piv_stride,
               const T* b, T* x, std::int64_t rhs_stride, T* work, Sync& sync) {
        substitute_operands<IM, IP, MS, PS>(n, tx, A, A_stride, piv, piv_stride,
                                            VectorOperand<const T, IR, RS>{b, {rhs_stride}},
                                            VectorOperand<T, IR, RS>{x, {rhs_stride}}, work, sync);
    }

    /// substitute on b = e_col, whose entries are made where they are read:
    /// exactly 1 and 0, so the result is bitwise that of an explicit e_col.
    template <bool IM, bool IP, bool IR, std::int64_t MS, std::int64_t PS, std::int64_t RS, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_canonical(int n, int tx, const T* A, std::int64_t A_stride, const int* piv,
                         std::int64_t piv_stride, int col, T* x, std::int64_t rhs_stride, T* work,
                         Sync& sync) {
        substitute_operands<IM, IP, MS, PS>(n, tx, A, A_stride, piv, piv_stride, CanonicalVector<T>{col},
                                            VectorOperand<T, IR, RS>{x, {rhs_stride}}, work, sync);
    }

  private:
    template <typename P, bool Internal, std::int64_t Stride>
    using Matrix = MatrixOperand<P, R, Internal, Stride>;

    /// The substitutions on any right-hand-side operand (read as rhs(K, v))
    /// into the solution operand.
    template <bool IM, bool IP, std::int64_t MS, std::int64_t PS, typename Rhs, typename X, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void
    substitute_operands(int n, int tx, const T* A, std::int64_t A_stride, const int* piv,
                        std::int64_t piv_stride, const Rhs& rhs, const X& solution, T* work, Sync& sync) {
        E e(n, tx, work);
        auto&& barrier = resolve_sync<E::static_threads>(sync, tx, e.threads(), work);
        auto rows = rows_of(e, Matrix<const T, IM, MS>{A, {A_stride}});
        e.load_places(VectorOperand<const int, IP, PS>{piv, {piv_stride}});
        if constexpr (E::row_major) {
            e.load_rhs(rhs);
            e.upper_transposed(rows, barrier);
            e.template lower_transposed<true>(rows, barrier, e.order());
            e.output_row_major(solution, barrier, true);
        } else {
            if constexpr (E::physical)
                e.gather_permuted_rhs(rhs, barrier);
            else
                e.load_rhs(rhs);
            e.forward_lower(rows, barrier);
            e.back_upper(rows, barrier);
            e.output_col_major(solution, true);
        }
        arrive_and_wait(barrier);
    }

    /// The factorization's results out (rows, pivots), then the closing barrier.
    template <typename M, typename Rows, typename Piv, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void finish(E& e, const M& A, Rows& rows,
                                                                        const Piv& piv, Sync& sync) {
        store_rows(e, A, rows);
        e.store_places(piv);
        arrive_and_wait(sync);
    }
};

} // namespace tdls::detail::coop
