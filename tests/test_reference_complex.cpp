// The solver headers on std::complex<float> and std::complex<double> (and on
// tdls::ComplexPair, the GPU kernels' complex type), against
// the reference LU bit for bit: static and dynamic solvers, both layouts, both
// interchange schemes, groups of one thread to groups with phantom rows. And
// the negative controls of what is new for complex: the pivot magnitude is
// LAPACK's |re| + |im| (izamax), not the modulus, and the imaginary parts
// reach the result.
#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

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

namespace {

/// v's bits as a vector of To (std::complex <-> ComplexPair: the same layout).
template <typename To, typename From>
std::vector<To> with_bits_of(const std::vector<From>& v) {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To>);
    std::vector<To> out(v.size());
    if (!v.empty()) std::memcpy(static_cast<void*>(out.data()), v.data(), v.size() * sizeof(From));
    return out;
}

/// The solver of template Solver over ComplexPair against the reference LU's
/// outcome for the same configuration over std::complex, on the same bits.
template <template <typename> class Solver, typename R>
int check_pair_against_reference(int n, std::uint64_t seed) {
    using Z = std::complex<R>;
    using P = tdls::ComplexPair<R>;
    int cases = 0;
    for (tdls_test::Kind kind : tdls_test::all_kinds) {
        const tdls_test::Problem<Z> p{n, tdls_test::make_matrix<Z>(kind, n, seed),
                                      tdls_test::random_vector<Z>(n, seed + 1)};
        const tdls_test::Problem<P> q{n, with_bits_of<P>(p.S), with_bits_of<P>(p.b)};
        for (tdls_test::Entry entry : {tdls_test::Entry::Solve, tdls_test::Entry::FactorizeSubstitute}) {
            INFO("n = " << n << ", kind = " << tdls_test::kind_name(kind) << ", entry = " << int(entry));
            const tdls_test::Outcome<P> got = tdls_test::run<Solver<P>, false, false, false>(q, entry);
            const tdls_test::Outcome<Z> want = tdls_test::expected_outcome<Solver<Z>>(p, entry);
            REQUIRE(got.verdicts_agree);
            REQUIRE(got.guards_intact);
            CHECK(got.info == want.info);
            CHECK(got.piv == want.piv);
            CHECK(tdls_test::same_bits(with_bits_of<Z>(got.S), want.S));
            CHECK(tdls_test::same_bits(with_bits_of<Z>(got.x), want.x));
            ++cases;
        }
    }
    return cases;
}

template <typename T>
using PairStatic = tdls_test::StaticOf<T, 7, 2, RowInterchange::Physical, MatrixLayout::ColMajor>;
template <typename T>
using PairStaticRolled = tdls_test::StaticOf<T, 11, 1, RowInterchange::Logical, MatrixLayout::RowMajor, false>;
template <typename T>
using PairDynamic = Dynamic<T, 3, RowInterchange::Logical, MatrixLayout::RowMajor>;
template <typename T>
using PairDynamicPartial = DynamicPartial<T, 2, RowInterchange::Physical, MatrixLayout::ColMajor>;

} // namespace

TEST_CASE("the device complex pair gives the reference LU's bits on the host", "[reference][complex]") {
    // tdls::ComplexPair, the GPU kernels' complex type, on the bits of the
    // std::complex problems: the same magnitudes, products and quotients.
    int cases = 0;
    cases += check_pair_against_reference<PairStatic, double>(7, 61);
    cases += check_pair_against_reference<PairStaticRolled, float>(11, 62);
    for (int n : {1, 5, 17, 33}) {
        cases += check_pair_against_reference<PairDynamic, double>(n, 63);
        cases += check_pair_against_reference<PairDynamicPartial, float>(n, 64);
    }
    REQUIRE(cases == (2 + 4 * 2) * 3 * 2);

    // Negative control: the pair solver on the conjugate system gives the
    // conjugate solution, which the bitwise comparison must tell apart.
    using Z = std::complex<double>;
    using P = tdls::ComplexPair<double>;
    const tdls_test::Problem<Z> p{9, tdls_test::make_matrix<Z>(tdls_test::Kind::Uniform, 9, 65),
                                  tdls_test::random_vector<Z>(9, 66)};
    tdls_test::Problem<P> conjugate{9, with_bits_of<P>(p.S), with_bits_of<P>(p.b)};
    for (P& e : conjugate.S) e.im = -e.im;
    for (P& e : conjugate.b) e.im = -e.im;
    const auto got = tdls_test::run<PairDynamic<P>, false, false, false>(conjugate, tdls_test::Entry::Solve);
    const auto want = tdls_test::expected_outcome<PairDynamic<Z>>(p, tdls_test::Entry::Solve);
    REQUIRE(got.info == 0);
    CHECK_FALSE(tdls_test::same_bits(with_bits_of<Z>(got.x), want.x));
    std::vector<Z> back = with_bits_of<Z>(got.x);
    for (Z& e : back) e = std::conj(e);
    CHECK(tdls_test::same_bits(back, want.x)); // conjugated back: the reference's bits
}
