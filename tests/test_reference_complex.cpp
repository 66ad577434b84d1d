// The solver headers on std::complex<float> and std::complex<double>, against
// the reference LU bit for bit: static and dynamic solvers, both layouts, both
// interchange schemes, groups of one thread to groups with phantom rows. And
// the negative controls of what is new for complex: the pivot magnitude is
// LAPACK's |re| + |im| (izamax), not the modulus, and the imaginary parts
// reach the result.
#include <complex>

#include "reference_sweep.hpp"

namespace {

using tdls::MatrixLayout;
using tdls::RowInterchange;
using zdouble = std::complex<double>;
using zfloat = std::complex<float>;

template <typename T, int R, RowInterchange I, MatrixLayout L>
using Dynamic = tdls_test::DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    T, tdls::CooperativeLUppConfig<T>{.rows_per_thread = R, .row_interchange = I, .layout = L}>>;

/// LAPACK's partial pivoting (threshold 1) on T.
template <typename T, int R, RowInterchange I, MatrixLayout L>
using DynamicPartial = tdls_test::DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    T, tdls::CooperativeLUppConfig<T>{
           .rows_per_thread = R, .row_interchange = I, .relative_pivot_threshold = 1.0, .layout = L}>>;

} // namespace

TEST_CASE("complex dynamic solver matches the reference LU bitwise", "[reference][complex]") {
    const int orders[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 33, 64};
    int cases = 0;
    for (int n : orders) {
        cases += tdls_test::check_against_reference<
            Dynamic<zdouble, 4, RowInterchange::Logical, MatrixLayout::RowMajor>>(n, 41);
        cases += tdls_test::check_against_reference<
            Dynamic<zdouble, 3, RowInterchange::Physical, MatrixLayout::ColMajor>>(n, 42);
        cases += tdls_test::check_against_reference<
            DynamicPartial<zfloat, 2, RowInterchange::Physical, MatrixLayout::RowMajor>>(n, 43);
        cases += tdls_test::check_against_reference<
            DynamicPartial<zfloat, 5, RowInterchange::Logical, MatrixLayout::ColMajor>>(n, 44);
    }
    REQUIRE(cases == 11 * 4 * 3 * 2);
}

TEST_CASE("complex static solver matches the reference LU bitwise", "[reference][complex]") {
    using tdls_test::StaticOf;
    int cases = 0;
    // Unrolled (the GPU form) and rolled, phantom rows (7 = 2 * 4 - 1), a group of one.
    cases += tdls_test::check_against_reference<
        StaticOf<zdouble, 7, 2, RowInterchange::Logical, MatrixLayout::ColMajor>>(7, 51);
    cases += tdls_test::check_against_reference<
        StaticOf<zdouble, 7, 1, RowInterchange::Physical, MatrixLayout::RowMajor, false>>(7, 52);
    cases += tdls_test::check_against_reference<
        StaticOf<zfloat, 12, 5, RowInterchange::Physical, MatrixLayout::ColMajor, false>>(12, 53);
    cases += tdls_test::check_against_reference<
        StaticOf<zfloat, 4, 4, RowInterchange::Logical, MatrixLayout::RowMajor>>(4, 54);
    cases += tdls_test::check_against_reference<
        StaticOf<zdouble, 1, 1, RowInterchange::Physical, MatrixLayout::ColMajor>>(1, 55);
    REQUIRE(cases == 5 * 3 * 2);
}

TEST_CASE("the complex pivot is the first largest |re| + |im|, not the largest modulus",
          "[reference][complex][negative]") {
    using Solver = DynamicPartial<zdouble, 1, RowInterchange::Physical, MatrixLayout::ColMajor>;
    // Column 0: (1, 0), (3, 3), (5, 0). |re| + |im| is 1, 6, 5: row 1 pivots.
    // The modulus (1, 4.24, 5) would pick row 2.
    const int n = 3;
    std::vector<zdouble> S = {{1, 0}, {3, 3}, {5, 0}, {0, 1}, {2, 0}, {1, 1}, {1, 0}, {0, 2}, {4, -1}};
    const tdls_test::Problem<zdouble> p{n, S, {{1, 0}, {0, 1}, {1, 1}}};
    const auto got = tdls_test::run<Solver, false, false, false>(p, tdls_test::Entry::Solve);
    REQUIRE(got.info == 0);
    // Physical interchanges: row 0 now holds the original row 1.
    CHECK(got.piv[0] == 1);
    CHECK_FALSE(got.piv[0] == 2);
    // The solution solves the system (A x - b small), with the solver's own pivots.
    for (int r = 0; r < n; ++r) {
        zdouble ax = 0;
        for (int c = 0; c < n; ++c) ax += S[std::size_t(c) * n + r] * got.x[c];
        CHECK(std::abs(ax - p.b[r]) < 1e-14);
    }
}

TEST_CASE("the complex comparison detects a change in an imaginary part alone",
          "[reference][complex][negative]") {
    using Solver = Dynamic<zdouble, 2, RowInterchange::Logical, MatrixLayout::RowMajor>;
    const int n = 9;
    const tdls_test::Problem<zdouble> p{
        n, tdls_test::make_matrix<zdouble>(tdls_test::Kind::PivotHeavy, n, 7), tdls_test::random_vector<zdouble>(n, 8)};
    // Both parts were drawn: a real-only system would leave the imaginary path untested.
    int imaginary = 0;
    for (const zdouble& e : p.S) imaginary += e.imag() != 0;
    REQUIRE(imaginary > n * n / 2);
    const auto got = tdls_test::run<Solver, false, false, false>(p, tdls_test::Entry::Solve);
    auto want = tdls_test::expected_outcome<Solver>(p, tdls_test::Entry::Solve);
    REQUIRE(tdls_test::same_outcome(got, want));
    want.x[n / 2].imag(std::nextafter(want.x[n / 2].imag(), 2 * want.x[n / 2].imag()));
    CHECK_FALSE(tdls_test::same_bits(got.x, want.x));
    // The system with its imaginary parts dropped has another solution.
    tdls_test::Problem<zdouble> real_only = p;
    for (zdouble& e : real_only.S) e = e.real();
    const auto dropped = tdls_test::run<Solver, false, false, false>(real_only, tdls_test::Entry::Solve);
    CHECK_FALSE(tdls_test::same_bits(got.x, dropped.x));
}
