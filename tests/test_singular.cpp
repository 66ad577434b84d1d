// Singular and nearly singular systems: the documented verdict (LAPACK's info
// with the singular floor), a factorization that completes finite, a right-hand
// side left as it was, the pivot threshold and floor at their edges, and a
// barrier sequence that does not depend on the data.
#include <catch2/catch.hpp>

#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "harness.hpp"
#include "matrices.hpp"

namespace {

using namespace tdls_test;
using tdls::MatrixLayout;
using tdls::RowInterchange;

template <int R, RowInterchange I, MatrixLayout L, double Threshold = 1.0, double Floor = DBL_MIN>
using Dynamic =
    DynamicSolver<tdls::CooperativeLUppSolverDynamic<double, tdls::CooperativeLUppConfig<double>{
                                                                 .rows_per_thread = R,
                                                                 .row_interchange = I,
                                                                 .relative_pivot_threshold = Threshold,
                                                                 .singular_floor = Floor,
                                                                 .layout = L}>>;

using Logical = Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor>;
using Physical = Dynamic<3, RowInterchange::Physical, MatrixLayout::RowMajor>;

void set_column(std::vector<double>& S, int n, int c, double value) {
    for (int r = 0; r < n; ++r) S[std::size_t(c) * n + r] = value;
}
void set_row(std::vector<double>& S, int n, int r, double value) {
    for (int c = 0; c < n; ++c) S[std::size_t(c) * n + r] = value;
}
bool all_finite(const std::vector<double>& v) {
    for (double e : v)
        if (!std::isfinite(e)) return false;
    return true;
}

/// Solves with every entry point, requires the verdict `info`, the reference's
/// bits for the factors, finite factors, and B untouched when singular.
template <typename Solver>
int check_verdict(const Problem<double>& p, int info) {
    int cases = 0;
    for (Entry entry : all_entries) {
        const Outcome<double> got = run<Solver, false, false, false>(p, entry);
        const Outcome<double> want = expected_outcome<Solver>(p, entry);
        INFO("entry " << int(entry) << ", physical " << Solver::physical);
        REQUIRE(got.verdicts_agree);
        REQUIRE(got.guards_intact);
        CHECK(got.info == info);
        CHECK(want.info == info);
        CHECK(same_bits(got.S, want.S));
        CHECK(got.piv == want.piv);
        CHECK(all_finite(got.S));
        if (info > 0 && entry == Entry::Solve)
            CHECK(same_bits(got.x, std::vector<double>(p.n, guard_value<double>())));
        if (info > 0 && entry == Entry::SolveInplace) CHECK(same_bits(got.x, p.b));
        if (info == 0) CHECK(same_bits(got.x, want.x));
        ++cases;
    }
    return cases;
}

template <typename... Solvers>
int check_all(const Problem<double>& p, int info) {
    return (check_verdict<Solvers>(p, info) + ...);
}

Problem<double> random_problem(int n, std::uint64_t seed) {
    return {n, make_matrix<double>(Kind::Uniform, n, seed), random_vector<double>(n, seed + 1)};
}

} // namespace

TEST_CASE("zero columns, zero rows and zero matrices give LAPACK's info", "[singular]") {
    int cases = 0;
    for (int n : {1, 2, 5, 16, 33}) {
        for (int c : {0, n / 2, n - 1}) {
            auto p = random_problem(n, 40 + c);
            set_column(p.S, n, c, 0.0);
            cases += check_all<Logical, Physical>(p, c + 1);
            // LAPACK agrees on an exactly zero pivot column.
            std::vector<double> lu = p.S;
            std::vector<lapack_int> ipiv(n);
            CHECK(lapack_getrf(n, lu.data(), ipiv.data()) == c + 1);
        }
        auto zero_row = random_problem(n, 50);
        set_row(zero_row.S, n, n / 2, 0.0);
        cases += check_all<Logical, Physical>(zero_row, n);
        auto zero = random_problem(n, 60);
        set_column(zero.S, n, 0, 0.0);
        for (int c = 0; c < n; ++c) set_column(zero.S, n, c, 0.0);
        cases += check_all<Logical, Physical>(zero, 1);
    }
    REQUIRE(cases == 5 * (3 + 1 + 1) * 2 * 4);
}

TEST_CASE("subnormal pivots are singular under the default floor only", "[singular][floor]") {
    int cases = 0;
    for (int n : {1, 4, 9}) {
        // Column 0 subnormal: every candidate below the smallest normal.
        auto p = random_problem(n, 70);
        for (int r = 0; r < n; ++r) p.S[r] = (r + 1) * 1e-310;
        cases += check_all<Logical, Physical>(p, 1);
        // A floor at the smallest subnormal keeps only exact zeros singular (a
        // zero floor is refused at compile time): the same matrix passes.
        cases +=
            check_verdict<Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor, 1.0, DBL_TRUE_MIN>>(p,
                                                                                                          0);
        // Exactly the floor is not below it; one ulp less is.
        auto edge = random_problem(n, 71);
        for (int r = 0; r < n; ++r) edge.S[r] = r == n - 1 ? DBL_MIN : DBL_MIN / 4;
        cases += check_all<Logical, Physical>(edge, 0);
        edge.S[n - 1] = std::nextafter(DBL_MIN, 0.0);
        cases += check_all<Logical, Physical>(edge, 1);
    }
    REQUIRE(cases == 3 * (2 + 1 + 2 + 2) * 4);
}

TEST_CASE("a custom singular floor applies at its edge, later columns included", "[singular][floor]") {
    using Floored = Dynamic<2, RowInterchange::Physical, MatrixLayout::ColMajor, 1.0, 1e-3>;
    using FlooredLogical = Dynamic<1, RowInterchange::Logical, MatrixLayout::RowMajor, 1.0, 1e-3>;
    int cases = 0;
    const int n = 6;
    // Identity but for column 3, whose largest magnitude is the floor (or just below).
    Problem<double> p{n, std::vector<double>(n * n, 0.0), random_vector<double>(n, 80)};
    for (int i = 0; i < n; ++i) p.S[std::size_t(i) * n + i] = 1.0;
    p.S[3 * n + 3] = 1e-3;
    p.S[3 * n + 5] = -0.5e-3;
    cases += check_all<Floored, FlooredLogical>(p, 0);
    p.S[3 * n + 3] = std::nextafter(1e-3, 0.0);
    cases += check_all<Floored, FlooredLogical>(p, 4);
    // Negative control: the default floor does not flag that column.
    cases += check_verdict<Logical>(p, 0);
    REQUIRE(cases == 5 * 4);
}

TEST_CASE("the relative pivot threshold keeps the row in place exactly from its edge", "[threshold]") {
    using Half = Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor, 0.5>;
    using HalfPhysical = Dynamic<1, RowInterchange::Physical, MatrixLayout::ColMajor, 0.5>;
    using HalfFloored = Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor, 0.5, 1e-3>;
    int cases = 0;
    const int n = 5;
    auto p = random_problem(n, 90);
    for (int r = 0; r < n; ++r) p.S[r] = 0.1 * (r % 2 ? 1 : -1);
    p.S[2] = 0.8;  // the largest magnitude of column 0, in row 2
    p.S[0] = -0.4; // in place: exactly half of it
    for (auto check_kept : {true, false}) {
        if (!check_kept) p.S[0] = -std::nextafter(0.4, 0.0);
        const auto logical = run<Half, false, false, false>(p, Entry::Solve);
        const auto physical = run<HalfPhysical, false, false, false>(p, Entry::Solve);
        CHECK(same_outcome(logical, expected_outcome<Half>(p, Entry::Solve)));
        CHECK(same_outcome(physical, expected_outcome<HalfPhysical>(p, Entry::Solve)));
        // Logical: row 0 keeps position 0 when kept; physical: position 0 holds row 0.
        CHECK((logical.piv[0] == 0) == check_kept);
        CHECK((physical.piv[0] == 0) == check_kept);
        CHECK((physical.piv[0] == 2) == !check_kept);
        // LAPACK's rule (threshold 1) always takes row 2 as the first pivot.
        CHECK(order_from_pivots(run<Logical, false, false, false>(p, Entry::Solve).piv, false)[0] == 2);
        cases += 3;
    }
    // In place at half the largest magnitude but below the floor: not kept.
    auto small = p;
    for (int r = 0; r < n; ++r) small.S[r] *= 2e-3;
    small.S[0] = -0.9e-3;
    small.S[2] = 1.5e-3;
    const auto floored = run<HalfFloored, false, false, false>(small, Entry::Solve);
    CHECK(floored.piv[0] != 0);
    CHECK(floored.info == 0);
    CHECK(same_outcome(floored, expected_outcome<HalfFloored>(small, Entry::Solve)));
    REQUIRE(cases == 6);
}

TEST_CASE("the barrier sequence does not depend on the data", "[singular][barriers]") {
    using Solver =
        tdls::CooperativeLUppSolverDynamic<double, tdls::CooperativeLUppConfig<double>{
                                                       .rows_per_thread = 2,
                                                       .row_interchange = RowInterchange::Physical}>;
    const int n = 7, threads = Solver::threads_per_system(n);
    auto count_barriers = [&](std::vector<double> S, std::vector<double> y) {
        std::vector<double> work(Solver::workspace_size(n), 0.0);
        std::vector<int> piv(n);
        std::vector<int> calls(threads, 0);
        UserBarrier barrier(threads);
        group_of(threads).run([&](int tx) {
            auto wait = barrier.callable();
            auto counting = [&] {
                ++calls[tx];
                wait();
            };
            Solver::solve_inplace<false, false, false>(n, tx, S.data(), 1, piv.data(), 1, y.data(), 1,
                                                       work.data(), counting);
        });
        for (int c : calls) CHECK(c == calls[0]);
        return calls[0];
    };
    auto regular = random_problem(n, 95);
    auto singular = regular;
    set_column(singular.S, n, 2, 0.0);
    auto first_singular = regular;
    set_column(first_singular.S, n, 0, 0.0);
    const int expected = count_barriers(regular.S, regular.b);
    CHECK(expected > 2 * n);
    CHECK(count_barriers(singular.S, singular.b) == expected);
    CHECK(count_barriers(first_singular.S, first_singular.b) == expected);
}
