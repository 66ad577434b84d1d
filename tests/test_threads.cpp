// Groups of real std::threads, from 1 to 32, not in lockstep, with the barrier
// the solver deduces (held in the workspace) and with a caller's barrier. This
// binary is also built under ThreadSanitizer by the test command: any data
// race between two barriers fails it.
#include <catch2/catch.hpp>

#include <vector>

#include "harness.hpp"
#include "matrices.hpp"

namespace {

using namespace tdls_test;
using tdls::MatrixLayout;
using tdls::RowInterchange;

template <int R, RowInterchange I, MatrixLayout L>
using Dynamic = DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    double, tdls::CooperativeLUppConfig<double>{.rows_per_thread = R, .row_interchange = I, .layout = L}>>;

template <typename Solver>
int check_group(int n, Entry entry, Barrier barrier, std::uint64_t seed) {
    const Problem<double> p{n, make_matrix<double>(Kind::PivotHeavy, n, seed),
                            random_vector<double>(n, seed + 1)};
    const Outcome<double> got = run<Solver, false, false, false>(p, entry, barrier);
    INFO("n = " << n << ", threads = " << Solver::threads(n) << ", entry = " << int(entry)
                << ", user barrier = " << (barrier == Barrier::User));
    REQUIRE(got.verdicts_agree);
    REQUIRE(got.guards_intact);
    CHECK(same_outcome(got, expected_outcome<Solver>(p, entry)));
    return 1;
}

} // namespace

TEST_CASE("the deduced CPU barrier orders the phases of 2 to 32 threads", "[threads][barrier]") {
    int rounds_checked = 0;
    for (int threads : {2, 3, 5, 8, 13, 32}) {
        std::vector<double> work(2, 0.0);
        std::vector<int> slots(threads, -1);
        std::vector<int> mismatches(threads, 0);
        constexpr int rounds = 200;
        group_of(threads).run([&](int tx) {
            auto sync = tdls::make_sync(threads, work.data());
            for (int round = 0; round < rounds; ++round) {
                slots[tx] = round; // plain writes: only the barrier orders them
                sync();
                for (int other = 0; other < threads; ++other) mismatches[tx] += slots[other] != round;
                sync();
            }
        });
        for (int m : mismatches) CHECK(m == 0);
        // Between calls the barrier leaves its counter at zero and its flag at 0 or 1.
        CHECK(work[0] == 0.0);
        CHECK((work[1] == 0.0 || work[1] == 1.0));
        rounds_checked += rounds;
    }
    REQUIRE(rounds_checked == 6 * 200);
}

TEST_CASE("groups of 1 to 32 threads solve exactly, deduced barrier", "[threads]") {
    int cases = 0;
    for (int threads = 1; threads <= 32; ++threads) {
        cases += check_group<Dynamic<1, RowInterchange::Logical, MatrixLayout::RowMajor>>(
            threads, Entry::Solve, Barrier::Deduced, threads);
        cases += check_group<Dynamic<1, RowInterchange::Physical, MatrixLayout::ColMajor>>(
            threads, Entry::FactorizeSubstitute, Barrier::Deduced, threads);
    }
    REQUIRE(cases == 64);
}

TEST_CASE("groups of odd sizes with phantom rows, both barriers, every entry point", "[threads]") {
    int cases = 0;
    for (int threads : {3, 5, 7, 9, 15, 17, 31}) {
        const int n = 2 * threads - 1; // the last thread holds one real row and one phantom
        for (Entry entry : all_entries) {
            cases += check_group<Dynamic<2, RowInterchange::Physical, MatrixLayout::RowMajor>>(n, entry,
                                                                                         Barrier::User, n);
            cases += check_group<Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor>>(n, entry,
                                                                                        Barrier::Deduced, n);
        }
    }
    REQUIRE(cases == 7 * 4 * 2);
}

TEST_CASE("static solvers on 32, 17 and 11 threads, both barriers", "[threads][static]") {
    using S32 = StaticSolver<tdls::CooperativeLUppSolverStatic<
        double, 32, tdls::CooperativeLUppConfig<double>{.unroll_loops = false}>>;
    using S17 = StaticSolver<tdls::CooperativeLUppSolverStatic<
        double, 33,
        tdls::CooperativeLUppConfig<double>{
            .rows_per_thread = 2, .row_interchange = RowInterchange::Physical, .unroll_loops = false}>>;
    using S11 = StaticSolver<tdls::CooperativeLUppSolverStatic<
        double, 31,
        tdls::CooperativeLUppConfig<double>{
            .rows_per_thread = 3, .unroll_loops = false, .layout = MatrixLayout::ColMajor}>>;
    int cases = 0;
    for (Barrier barrier : {Barrier::Deduced, Barrier::User}) {
        for (Entry entry : {Entry::SolveInplace, Entry::FactorizeSubstituteInplace}) {
            cases += check_group<S32>(32, entry, barrier, 500);
            cases += check_group<S17>(33, entry, barrier, 501);
            cases += check_group<S11>(31, entry, barrier, 502);
        }
    }
    REQUIRE(cases == 2 * 2 * 3);
}

TEST_CASE("internal operands on a group of 16 threads", "[threads][residency]") {
    using Solver = Dynamic<2, RowInterchange::Physical, MatrixLayout::ColMajor>;
    const int n = 31;
    const Problem<double> p{n, make_matrix<double>(Kind::Uniform, n, 600), random_vector<double>(n, 601)};
    int cases = 0;
    for (Entry entry : all_entries) {
        const auto got = run<Solver, true, true, true>(p, entry, Barrier::Deduced);
        CHECK(same_outcome(got, expected_outcome<Solver>(p, entry)));
        ++cases;
    }
    REQUIRE(cases == 4);
}
