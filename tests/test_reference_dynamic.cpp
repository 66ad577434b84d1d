// The dynamic solver, orders 1 to 128, against the reference LU, bit for bit;
// and the negative controls of the comparison itself.
#include <cmath>

#include "reference_sweep.hpp"

namespace {

using tdls::MatrixLayout;
using tdls::RowInterchange;
template <typename T, int R, RowInterchange I, MatrixLayout L>
using Dynamic = tdls_test::DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    T, tdls::CooperativeLUppConfig<T>{.rows_per_thread = R, .row_interchange = I, .layout = L}>>;

} // namespace

TEST_CASE("dynamic solver, orders 1 to 128, matches the reference LU bitwise", "[reference][dynamic]") {
    const int orders[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 64, 65, 100, 128};
    int cases = 0;
    for (int n : orders) {
        // Groups of at most 32 threads: rows per thread grows with the order.
        cases +=
            tdls_test::check_against_reference<Dynamic<double, 4, RowInterchange::Logical, MatrixLayout::RowMajor>>(
                n, 21);
        cases += tdls_test::check_against_reference<
            Dynamic<double, 4, RowInterchange::Physical, MatrixLayout::ColMajor>>(n, 22);
        if (n <= 64) {
            cases += tdls_test::check_against_reference<
                Dynamic<float, 2, RowInterchange::Physical, MatrixLayout::RowMajor>>(n, 23);
            cases += tdls_test::check_against_reference<
                Dynamic<double, 7, RowInterchange::Logical, MatrixLayout::ColMajor>>(n, 24);
        }
    }
    const int small = 18; // orders up to 64
    REQUIRE(cases == (2 * 21 + 2 * small) * 3 * 2);
}

TEST_CASE("long double solves on the host match the reference LU bitwise", "[reference][long-double]") {
    int cases = 0;
    for (int n : {1, 3, 8, 13}) {
        cases += tdls_test::check_against_reference<
            Dynamic<long double, 2, RowInterchange::Logical, MatrixLayout::ColMajor>>(n, 31);
        cases += tdls_test::check_against_reference<
            tdls_test::StaticOf<long double, 6, 4, RowInterchange::Physical, MatrixLayout::RowMajor>>(6, 32 + n);
    }
    REQUIRE(cases == 4 * 2 * 3 * 2);
}

TEST_CASE("the bitwise comparison detects a one-ulp difference and a wrong pivot rule",
          "[reference][negative]") {
    using Solver = Dynamic<double, 1, RowInterchange::Logical, MatrixLayout::ColMajor>;
    const int n = 6;
    const tdls_test::Problem<double> p{n, tdls_test::make_matrix<double>(tdls_test::Kind::PivotHeavy, n, 5),
                                       tdls_test::random_vector<double>(n, 6)};
    const auto got = tdls_test::run<Solver, false, false, false>(p, tdls_test::Entry::Solve);
    auto want = tdls_test::expected_outcome<Solver>(p, tdls_test::Entry::Solve);
    REQUIRE(tdls_test::same_outcome(got, want));
    // One ulp off in one entry of the solution: no longer the same bits.
    want.x[n / 2] = std::nextafter(want.x[n / 2], 2 * want.x[n / 2]);
    CHECK_FALSE(tdls_test::same_bits(got.x, want.x));
    // A reference that keeps the row in place (threshold 0.01) predicts other
    // pivots on a pivot-heavy matrix: the comparison must see it.
    const auto relaxed = tdls_test::reference_factor<double>(p.S, n, 0.01, 2.2250738585072014e-308);
    std::vector<int> relaxed_positions = relaxed.position;
    CHECK(relaxed_positions != got.piv);
}
