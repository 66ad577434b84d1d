// libtdls: the entry points of the cooperative LU-pp solver, written once for
// the static solver (rows in registers) and the dynamic one (rows in place).
#pragma once

#include <tdls/core/group.hpp>
#include <tdls/core/macros.hpp>
#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>
#include <tdls/solvers/cooperative_lupp/detail/operands.hpp>
#include <tdls/solvers/cooperative_lupp/verdict.hpp>

namespace tdls::detail::coop {

template <typename T, auto Config, int StaticN>
struct Driver {
    using E = Engine<T, Config, StaticN>;
    static constexpr int R = E::R;

    /// Rows of the calling thread: copied into registers (static order) or
    /// left in the operand (dynamic order). Each thread reads only its rows.
    template <typename Matrix>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr auto rows_of(const E& e,
                                                                         const Matrix& A) {
        if constexpr (StaticN > 0) {
            RegisterRows<T, R, StaticN> rows{}; // phantom rows stay defined
            e.for_slots([&](auto K) {
                for_range<E::unroll>(zero, Index<StaticN>{},
                                     [&](auto c) { rows(K, c) = A(K, e.index(K), c, StaticN); });
            });
            return rows;
        } else {
            return OperandRows<Matrix>{A, e.order(), e.threads(), e.tx()};
        }
    }

    /// Writes register rows back to the operand; rows worked in place are there.
    template <typename Matrix, typename Rows>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void store_rows(const E& e,
                                                                            const Matrix& A,
                                                                            Rows& rows) {
        if constexpr (StaticN > 0) {
            e.for_slots([&](auto K) {
                for_range<E::unroll>(zero, Index<StaticN>{},
                                     [&](auto c) { A(K, e.index(K), c, StaticN) = rows(K, c); });
            });
        }
    }

    template <typename Matrix, typename Piv, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict factorize(E& e, const Matrix& A,
                                                                             const Piv& piv,
                                                                             Sync& sync) {
        auto rows = rows_of(e, A);
        e.init_places();
        e.template factor<false>(rows, sync);
        store_rows(e, A, rows);
        e.store_places(piv);
        arrive_and_wait(sync);
        return Verdict{e.info()};
    }

    /// Factorization with the first triangular solve folded in, then the
    /// second. The solution is written only for a nonsingular verdict: a
    /// singular system keeps its right-hand side.
    template <typename Matrix, typename Piv, typename B, typename X, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr Verdict solve(E& e, const Matrix& A,
                                                                         const Piv& piv, const B& b,
                                                                         const X& x, Sync& sync) {
        auto rows = rows_of(e, A);
        e.init_places();
        e.load_rhs(b);
        e.template factor<true>(rows, sync);
        arrive_and_wait(sync); // the substitution reuses the whole workspace
        const bool write = e.info() == 0;
        if constexpr (E::row_major) {
            e.template lower_transposed<false>(rows, sync, 0);
            e.output_row_major(x, sync, write);
        } else {
            e.back_upper(rows, sync);
            e.output_col_major(x, write);
        }
        store_rows(e, A, rows);
        e.store_places(piv);
        arrive_and_wait(sync);
        return Verdict{e.info()};
    }

    /// Both triangular solves from a factorization of this solver.
    template <typename Matrix, typename Piv, typename B, typename X, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr void substitute(E& e, const Matrix& A,
                                                                           const Piv& piv,
                                                                           const B& b, const X& x,
                                                                           Sync& sync) {
        auto rows = rows_of(e, A);
        e.load_places(piv);
        if constexpr (E::row_major) {
            e.load_rhs(b);
            e.upper_transposed(rows, sync);
            e.template lower_transposed<true>(rows, sync, e.order());
            e.output_row_major(x, sync, true);
        } else {
            if constexpr (E::physical)
                e.gather_permuted_rhs(b, sync);
            else
                e.load_rhs(b);
            e.forward_lower(rows, sync);
            e.back_upper(rows, sync);
            e.output_col_major(x, true);
        }
        arrive_and_wait(sync);
    }
};

} // namespace tdls::detail::coop
