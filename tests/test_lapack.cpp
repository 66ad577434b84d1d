// LAPACKE as the oracle at threshold 1: same pivots as dgetrf/sgetrf, factors
// and solutions within LAPACK's own test bounds, for the static and the dynamic
// solver, both interchanges, both layouts, float and double.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness.hpp"
#include "matrices.hpp"
#include "norms.hpp"

namespace {

using namespace tdls_test;
using tdls::MatrixLayout;
using tdls::RowInterchange;

/// Largest |a - b| over the largest |b|, in units of n eps.
template <typename T>
double factor_difference(const std::vector<T>& a, const std::vector<T>& b, int n) {
    using W = tdls::check::check_wide_t<T>;
    long double diff = 0, scale = 0;
    for (std::size_t e = 0; e < a.size(); ++e) {
        diff = std::max(diff, tdls::magnitude(W(a[e]) - W(b[e])));
        scale = std::max(scale, tdls::magnitude(W(b[e])));
    }
    const long double eps = std::numeric_limits<tdls::real_type_t<T>>::epsilon();
    return scale > 0 ? double(diff / scale / (n * eps)) : 0.0;
}

struct Tally {
    int cases = 0;
};

/// One system against LAPACK: pivots, factors, solution.
template <typename Solver>
void check_against_lapack(int n, Kind kind, std::uint64_t seed, Tally& tally) {
    using T = typename Solver::T;
    const bool row_major = Solver::config.layout == MatrixLayout::RowMajor;
    const Problem<T> p{n, make_matrix<T>(kind, n, seed), random_vector<T>(n, seed + 3)};
    const Outcome<T> got = run<Solver, false, false, false>(p, Entry::Solve);
    INFO("n = " << n << ", kind = " << kind_name(kind) << ", physical = " << Solver::physical
                << ", row-major = " << row_major << ", rows_per_thread = " << Solver::config.rows_per_thread);
    REQUIRE(got.info == 0);

    // dgetrf on S (the memory read column-major) makes the pivots of both layouts.
    std::vector<T> lu = p.S;
    std::vector<lapack_int> ipiv(n);
    REQUIRE(lapack_getrf(n, lu.data(), ipiv.data()) == 0);
    const auto [ours, perm] = lapack_format(got, n, Solver::physical);
    CHECK(swap_sequence(perm) == std::vector<int>(ipiv.begin(), ipiv.end()));
    if (kind != Kind::IllConditioned) CHECK(factor_difference(ours, lu, n) < 64.0);

    // Solutions: both within LAPACK's test ratio for A x = b.
    CHECK(backward_error_ratio(p.S, n, row_major, got.x, p.b) < backward_error_bound);
    std::vector<T> S = p.S, x = p.b;
    REQUIRE(lapack_gesv(n, S.data(), ipiv.data(), x.data(), row_major) == 0);
    CHECK(backward_error_ratio(p.S, n, row_major, x, p.b) < backward_error_bound);
    ++tally.cases;
}

template <typename Solver>
void sweep(const std::vector<int>& orders, Tally& tally) {
    for (int n : orders)
        for (Kind kind : all_kinds)
            for (std::uint64_t seed : {101u, 202u}) check_against_lapack<Solver>(n, kind, seed + n, tally);
}

// Threshold 1, LAPACK's partial pivoting, set explicitly: the headers' default
// is upstream TDLS's 0.1.
template <typename T, int R, RowInterchange I, MatrixLayout L>
using Dynamic = DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    T, tdls::CooperativeLUppConfig<T>{
           .rows_per_thread = R, .row_interchange = I, .relative_pivot_threshold = 1.0, .layout = L}>>;
template <typename T, int N, int R, RowInterchange I, MatrixLayout L>
using Static = StaticSolver<
    tdls::CooperativeLUppSolverStatic<T, N,
                                      tdls::CooperativeLUppConfig<T>{.rows_per_thread = R,
                                                                     .row_interchange = I,
                                                                     .relative_pivot_threshold = 1.0,
                                                                     .unroll_loops = false,
                                                                     .layout = L}>>;

} // namespace

TEST_CASE("double: pivots equal LAPACK's, solutions within its backward-error bound", "[lapack][double]") {
    Tally tally;
    const std::vector<int> orders = {1, 2, 3, 4, 5, 8, 11, 16, 23, 32, 40, 64, 100, 128};
    sweep<Dynamic<double, 4, RowInterchange::Logical, MatrixLayout::ColMajor>>(orders, tally);
    sweep<Dynamic<double, 4, RowInterchange::Physical, MatrixLayout::RowMajor>>(orders, tally);
    sweep<Static<double, 16, 1, RowInterchange::Physical, MatrixLayout::ColMajor>>({16}, tally);
    sweep<Static<double, 32, 3, RowInterchange::Logical, MatrixLayout::RowMajor>>({32}, tally);
    sweep<Static<double, 7, 2, RowInterchange::Logical, MatrixLayout::ColMajor>>({7}, tally);
    REQUIRE(tally.cases == (2 * 14 + 3) * 3 * 2);
}

TEST_CASE("float: pivots equal LAPACK's, solutions within its backward-error bound", "[lapack][float]") {
    Tally tally;
    const std::vector<int> orders = {1, 2, 3, 5, 8, 13, 16, 32, 48};
    sweep<Dynamic<float, 2, RowInterchange::Logical, MatrixLayout::RowMajor>>(orders, tally);
    sweep<Dynamic<float, 3, RowInterchange::Physical, MatrixLayout::ColMajor>>(orders, tally);
    sweep<Static<float, 12, 2, RowInterchange::Physical, MatrixLayout::RowMajor>>({12}, tally);
    REQUIRE(tally.cases == (2 * 9 + 1) * 3 * 2);
}

TEST_CASE("complex double: pivots equal zgetrf's, solutions within its backward-error bound",
          "[lapack][complex]") {
    using Z = std::complex<double>;
    Tally tally;
    const std::vector<int> orders = {1, 2, 3, 4, 7, 16, 33, 64};
    sweep<Dynamic<Z, 4, RowInterchange::Logical, MatrixLayout::ColMajor>>(orders, tally);
    sweep<Dynamic<Z, 3, RowInterchange::Physical, MatrixLayout::RowMajor>>(orders, tally);
    sweep<Static<Z, 9, 2, RowInterchange::Physical, MatrixLayout::ColMajor>>({9}, tally);
    REQUIRE(tally.cases == (2 * 8 + 1) * 3 * 2);
}

TEST_CASE("complex float: pivots equal cgetrf's, solutions within its backward-error bound",
          "[lapack][complex]") {
    using C = std::complex<float>;
    Tally tally;
    const std::vector<int> orders = {1, 2, 5, 8, 13, 32};
    sweep<Dynamic<C, 2, RowInterchange::Logical, MatrixLayout::RowMajor>>(orders, tally);
    sweep<Dynamic<C, 1, RowInterchange::Physical, MatrixLayout::ColMajor>>(orders, tally);
    sweep<Static<C, 6, 3, RowInterchange::Logical, MatrixLayout::RowMajor>>({6}, tally);
    REQUIRE(tally.cases == (2 * 6 + 1) * 3 * 2);
}

TEST_CASE("the complex LAPACK checks reject a wrong imaginary part and the modulus as pivot magnitude",
          "[lapack][complex][negative]") {
    using Z = std::complex<double>;
    using Solver = Dynamic<Z, 2, RowInterchange::Physical, MatrixLayout::ColMajor>;
    const int n = 9;
    const Problem<Z> p{n, make_matrix<Z>(Kind::Uniform, n, 91), random_vector<Z>(n, 92)};
    const Outcome<Z> got = run<Solver, false, false, false>(p, Entry::Solve);
    REQUIRE(backward_error_ratio(p.S, n, false, got.x, p.b) < backward_error_bound);
    std::vector<Z> wrong = got.x;
    wrong[0] += Z(0, 1e-6 * std::abs(wrong[0]));
    CHECK(backward_error_ratio(p.S, n, false, wrong, p.b) > backward_error_bound);
    // zgetrf's pivots are those of |re| + |im|: a factorization pivoting on
    // the modulus differs on this matrix (found by the sweep below).
    std::vector<Z> lu = p.S;
    std::vector<lapack_int> ipiv(n);
    REQUIRE(lapack_getrf(n, lu.data(), ipiv.data()) == 0);
    const auto [ours, perm] = lapack_format(got, n, true);
    REQUIRE(swap_sequence(perm) == std::vector<int>(ipiv.begin(), ipiv.end()));
    std::vector<int> modulus_perm(n);
    {
        std::vector<std::vector<Z>> rows(n, std::vector<Z>(n));
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) rows[r][c] = p.S[std::size_t(c) * n + r];
        for (int k = 0; k < n; ++k) modulus_perm[k] = k;
        for (int i = 0; i < n; ++i) {
            int best = i;
            for (int r = i + 1; r < n; ++r)
                if (std::abs(rows[r][i]) > std::abs(rows[best][i])) best = r;
            std::swap(rows[i], rows[best]);
            std::swap(modulus_perm[i], modulus_perm[best]);
            for (int r = i + 1; r < n; ++r) {
                const Z l = rows[r][i] / rows[i][i];
                for (int c = i; c < n; ++c) rows[r][c] -= l * rows[i][c];
            }
        }
    }
    CHECK(swap_sequence(modulus_perm) != std::vector<int>(ipiv.begin(), ipiv.end()));
}

TEST_CASE("the LAPACK checks reject a wrong solution and a wrong pivot sequence", "[lapack][negative]") {
    using Solver = Dynamic<double, 2, RowInterchange::Logical, MatrixLayout::ColMajor>;
    const int n = 9;
    const Problem<double> p{n, make_matrix<double>(Kind::PivotHeavy, n, 77), random_vector<double>(n, 78)};
    const Outcome<double> got = run<Solver, false, false, false>(p, Entry::Solve);
    REQUIRE(backward_error_ratio(p.S, n, false, got.x, p.b) < backward_error_bound);
    // A solution off by one part in a million fails the bound.
    std::vector<double> wrong = got.x;
    wrong[0] *= 1.0 + 1e-6;
    CHECK(backward_error_ratio(p.S, n, false, wrong, p.b) > backward_error_bound);
    // Two pivot steps exchanged no longer match LAPACK's sequence.
    std::vector<double> lu = p.S;
    std::vector<lapack_int> ipiv(n);
    REQUIRE(lapack_getrf(n, lu.data(), ipiv.data()) == 0);
    auto [ours, perm] = lapack_format(got, n, false);
    REQUIRE(swap_sequence(perm) == std::vector<int>(ipiv.begin(), ipiv.end()));
    std::swap(perm[0], perm[n - 1]);
    CHECK(swap_sequence(perm) != std::vector<int>(ipiv.begin(), ipiv.end()));
}
