// Shared by the test_reference_* files: one solver against the reference LU.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>

#include "harness.hpp"
#include "matrices.hpp"

namespace tdls_test {

/// Solves the three kinds of matrices of order n with Solver through two entry
/// points (solve; factorize then substitute) and requires the exact bits the
/// reference LU predicts. Returns the number of cases checked.
template <typename Solver>
int check_against_reference(int n, std::uint64_t seed) {
    using T = typename Solver::T;
    int cases = 0;
    for (Kind kind : all_kinds) {
        const Problem<T> p{n, make_matrix<T>(kind, n, seed), random_vector<T>(n, seed + 1)};
        for (Entry entry : {Entry::Solve, Entry::FactorizeSubstitute}) {
            const Outcome<T> got = run<Solver, false, false, false>(p, entry);
            const Outcome<T> want = expected_outcome<Solver>(p, entry);
            INFO("n = " << n << ", kind = " << kind_name(kind) << ", entry = " << int(entry)
                        << ", rows_per_thread = " << Solver::config.rows_per_thread
                        << ", physical = " << Solver::physical);
            REQUIRE(got.verdicts_agree);
            REQUIRE(got.guards_intact);
            CHECK(got.info == want.info);
            CHECK(got.piv == want.piv);
            CHECK(same_bits(got.S, want.S));
            CHECK(same_bits(got.x, want.x));
            ++cases;
        }
    }
    return cases;
}

template <typename T, int N, int R, tdls::RowInterchange I, tdls::MatrixLayout L, bool Unroll = true>
using StaticOf = StaticSolver<tdls::CooperativeLUppSolverStatic<
    T, N,
    tdls::CooperativeLUppConfig<T>{
        .rows_per_thread = R, .row_interchange = I, .unroll_loops = Unroll, .layout = L}>>;

/// Five configurations of the static solver of order N: one thread per row to
/// groups with phantom rows, both interchanges, both layouts, double and float.
/// The first has its column loops expanded at compile time (unroll_loops), the
/// form GPU builds use; one such configuration per order keeps the build time
/// of this sweep reasonable.
template <int N>
int sweep_static_order() {
    using tdls::MatrixLayout;
    using tdls::RowInterchange;
    int cases = 0;
    cases +=
        check_against_reference<StaticOf<double, N, 1, RowInterchange::Logical, MatrixLayout::RowMajor>>(N, 11);
    cases +=
        check_against_reference<StaticOf<double, N, 2, RowInterchange::Physical, MatrixLayout::ColMajor, false>>(
            N, 12);
    cases +=
        check_against_reference<StaticOf<double, N, 3, RowInterchange::Logical, MatrixLayout::ColMajor, false>>(N,
                                                                                                          13);
    cases +=
        check_against_reference<StaticOf<double, N, 5, RowInterchange::Physical, MatrixLayout::RowMajor, false>>(
            N, 14);
    cases += check_against_reference<StaticOf<float, N, 4, RowInterchange::Logical, MatrixLayout::RowMajor, false>>(
        N, 15);
    return cases;
}

/// sweep_static_order for each of the orders N, summed.
template <int... N>
int sweep_static_order_list() {
    return (sweep_static_order<N>() + ...);
}

/// Cases one sweep_static_order checks: 5 configurations x 3 kinds x 2 entries.
inline constexpr int cases_per_static_order = 5 * 3 * 2;

} // namespace tdls_test
