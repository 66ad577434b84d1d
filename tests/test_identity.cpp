// Bitwise identities the design promises: the values computed depend on the
// matrix, the pivot rule and the layout only, not on how rows are spread over
// threads, which interchange scheme moves them, where the operands live, how
// they are strided, which solver variant or entry point runs, or which barrier.
#include <catch2/catch.hpp>

#include <cstdint>

#include "harness.hpp"
#include "matrices.hpp"

namespace {

using namespace tdls_test;
using tdls::MatrixLayout;
using tdls::RowInterchange;

template <int N, int R, RowInterchange I = RowInterchange::Logical, MatrixLayout L = MatrixLayout::RowMajor,
          bool Unroll = false>
using Static = StaticSolver<tdls::CooperativeLUppSolverStatic<
    double, N,
    tdls::CooperativeLUppConfig<double>{
        .rows_per_thread = R, .row_interchange = I, .unroll_loops = Unroll, .layout = L}>>;
template <int R, RowInterchange I = RowInterchange::Logical, MatrixLayout L = MatrixLayout::RowMajor>
using Dynamic = DynamicSolver<tdls::CooperativeLUppSolverDynamic<
    double, tdls::CooperativeLUppConfig<double>{.rows_per_thread = R, .row_interchange = I, .layout = L}>>;

Problem<double> problem(int n, Kind kind, std::uint64_t seed) {
    return {n, make_matrix<double>(kind, n, seed), random_vector<double>(n, seed + 9)};
}

/// Outcome in LAPACK format, so that both interchange schemes compare.
struct Canonical {
    std::vector<double> lu;
    std::vector<int> perm;
    std::vector<double> x;
    int info;
    bool operator==(const Canonical& o) const {
        return same_bits(lu, o.lu) && perm == o.perm && same_bits(x, o.x) && info == o.info;
    }
};
template <typename Solver>
Canonical canonical(const Outcome<double>& o, int n) {
    auto [lu, perm] = lapack_format(o, n, Solver::physical);
    return {lu, perm, o.x, o.info};
}

} // namespace

TEST_CASE("every rows_per_thread gives the same bits", "[identity]") {
    constexpr int N = 13;
    int cases = 0;
    for (Kind kind : all_kinds) {
        const auto p = problem(N, kind, 1);
        const auto base = run<Static<N, 1>, false, false, false>(p, Entry::Solve);
        REQUIRE(base.info == 0);
        // Sanitized builds keep 2 (several threads), 5 (phantom rows) and 16
        // (one thread, phantom rows): each instance is minutes of
        // instrumented compile (docs/ci.md); release builds check all seven.
        const Outcome<double> others[] = {
            run<Static<N, 2>, false, false, false>(p, Entry::Solve),
#ifndef TDLS_TEST_NARROW_SANITIZED
            run<Static<N, 3>, false, false, false>(p, Entry::Solve),
            run<Static<N, 4>, false, false, false>(p, Entry::Solve),
            run<Static<N, 7>, false, false, false>(p, Entry::Solve),
            run<Static<N, 13>, false, false, false>(p, Entry::Solve),
#endif
            run<Static<N, 5>, false, false, false>(p, Entry::Solve),
            run<Static<N, 16>, false, false, false>(p, Entry::Solve),
        };
        for (const auto& o : others) {
            CHECK(same_outcome(o, base));
            ++cases;
        }
    }
#ifndef TDLS_TEST_NARROW_SANITIZED
    REQUIRE(cases == 3 * 7);
#else
    REQUIRE(cases == 3 * 3);
#endif
}

TEST_CASE("logical and physical interchanges give the same rows and solutions", "[identity]") {
    int cases = 0;
    for (Kind kind : all_kinds) {
        for (Entry entry : all_entries) {
            const auto p = problem(11, kind, 2);
            const auto logical =
                run<Static<11, 2, RowInterchange::Logical, MatrixLayout::ColMajor>, false, false, false>(p, entry);
            const auto physical =
                run<Static<11, 2, RowInterchange::Physical, MatrixLayout::ColMajor>, false, false, false>(p, entry);
            CHECK(canonical<Static<11, 2, RowInterchange::Logical>>(logical, 11) ==
                  canonical<Static<11, 2, RowInterchange::Physical>>(physical, 11));
            const auto logical_rm = run<Dynamic<3, RowInterchange::Logical>, false, false, false>(p, entry);
            const auto physical_rm = run<Dynamic<3, RowInterchange::Physical>, false, false, false>(p, entry);
            CHECK(canonical<Dynamic<3, RowInterchange::Logical>>(logical_rm, 11) ==
                  canonical<Dynamic<3, RowInterchange::Physical>>(physical_rm, 11));
            // The logical pivots really differ from the physical ones on a
            // pivot-heavy matrix: the comparison above is not trivial.
            if (kind == Kind::PivotHeavy) CHECK(logical.piv != physical.piv);
            cases += 2;
        }
    }
    REQUIRE(cases == 3 * 4 * 2);
}

TEST_CASE("static and dynamic solvers give the same bits", "[identity]") {
    int cases = 0;
    for (Kind kind : all_kinds) {
        for (Entry entry : all_entries) {
            const auto p = problem(9, kind, 3);
            CHECK(same_outcome(run<Static<9, 2, RowInterchange::Physical>, false, false, false>(p, entry),
                               run<Dynamic<2, RowInterchange::Physical>, false, false, false>(p, entry)));
            CHECK(same_outcome(
                run<Static<9, 4, RowInterchange::Logical, MatrixLayout::ColMajor, true>, false, false, false>(
                    p, entry),
                run<Dynamic<4, RowInterchange::Logical, MatrixLayout::ColMajor>, false, false, false>(p, entry)));
            cases += 2;
        }
    }
    REQUIRE(cases == 3 * 4 * 2);
}

TEST_CASE("unrolled and rolled loops give the same bits", "[identity]") {
    int cases = 0;
    for (Kind kind : all_kinds) {
        const auto p = problem(10, kind, 4);
        CHECK(same_outcome(
            run<Static<10, 3, RowInterchange::Physical, MatrixLayout::RowMajor, true>, false, false, false>(
                p, Entry::Solve),
            run<Static<10, 3, RowInterchange::Physical, MatrixLayout::RowMajor, false>, false, false, false>(
                p, Entry::Solve)));
        ++cases;
    }
    REQUIRE(cases == 3);
}

TEST_CASE("every residency, entry point and barrier gives the same bits", "[identity][residency]") {
    int cases = 0;
    const auto p = problem(7, Kind::PivotHeavy, 5);
    auto check_solver = [&](auto solver_tag) {
        using Solver = typename decltype(solver_tag)::type;
        const auto solve = run<Solver, false, false, false>(p, Entry::Solve);
        const auto solve_inplace = run<Solver, false, false, false>(p, Entry::SolveInplace);
        // solve and factorize + substitute agree on everything; the in-place
        // forms hold the same solution in y.
        for (Entry entry : all_entries)
            for (int mask = 0; mask < 8; ++mask)
                for (Barrier barrier : {Barrier::Deduced, Barrier::User}) {
                    INFO("entry " << int(entry) << ", residency mask " << mask << ", user barrier "
                                  << (barrier == Barrier::User));
                    const auto o = run_residency<Solver>(mask, p, entry, barrier);
                    REQUIRE(o.verdicts_agree);
                    REQUIRE(o.guards_intact);
                    CHECK(same_outcome(o, solve));
                    ++cases;
                }
        CHECK(same_outcome(solve_inplace, solve));
    };
    // Each solver is 64 instantiations (entry x residency x barrier):
    // sanitized builds keep a logical static and a physical dynamic one.
    check_solver(std::type_identity<Static<7, 2, RowInterchange::Logical, MatrixLayout::RowMajor, true>>{});
    check_solver(std::type_identity<Dynamic<2, RowInterchange::Physical, MatrixLayout::RowMajor>>{});
#ifndef TDLS_TEST_NARROW_SANITIZED
    check_solver(std::type_identity<Static<7, 3, RowInterchange::Physical, MatrixLayout::ColMajor>>{});
    check_solver(std::type_identity<Dynamic<1, RowInterchange::Logical, MatrixLayout::ColMajor>>{});
    constexpr int solvers = 4;
#else
    constexpr int solvers = 2;
#endif
    REQUIRE(cases == solvers * 4 * 8 * 2);
}

TEST_CASE("runtime and compile-time element strides give the same bits", "[identity][stride]") {
    int cases = 0;
    for (Kind kind : all_kinds) {
        const auto p = problem(8, kind, 6);
        using S = Static<8, 3, RowInterchange::Physical, MatrixLayout::ColMajor>;
        using D = Dynamic<2, RowInterchange::Logical, MatrixLayout::RowMajor>;
        const auto s1 = run<S, false, false, false>(p, Entry::Solve, Barrier::Deduced, 1);
        const auto d1 = run<D, false, false, false>(p, Entry::FactorizeSubstitute, Barrier::Deduced, 1);
        for (std::int64_t stride : {2, 3, 17, 64}) {
            const auto s = run<S, false, false, false>(p, Entry::Solve, Barrier::Deduced, stride);
            const auto d =
                run<D, false, false, false>(p, Entry::FactorizeSubstitute, Barrier::Deduced, stride);
            REQUIRE(s.guards_intact);
            REQUIRE(d.guards_intact);
            CHECK(same_outcome(s, s1));
            CHECK(same_outcome(d, d1));
            cases += 2;
        }
        CHECK(same_outcome(run<S, false, false, false, 3>(p, Entry::Solve, Barrier::Deduced, 3), s1));
        CHECK(same_outcome(run<D, false, false, false, 17>(p, Entry::FactorizeSubstitute, Barrier::User, 17),
                           d1));
        CHECK(same_outcome(run<S, false, false, false, 1>(p, Entry::Solve, Barrier::Deduced, 1), s1));
        cases += 3;
    }
    REQUIRE(cases == 3 * (4 * 2 + 3));
}

TEST_CASE("AoS, SoA and AoSoA batches give the same bits as packed systems", "[identity][batch]") {
    using Solver =
        tdls::CooperativeLUppSolverStatic<double, 6,
                                          tdls::CooperativeLUppConfig<double>{.rows_per_thread = 2}>;
    constexpr int N = 6, E = N * N, count = 11, block = 4;
    std::vector<Problem<double>> systems;
    std::vector<Outcome<double>> packed;
    for (int s = 0; s < count; ++s) {
        systems.push_back(problem(N, all_kinds[s % 3], 100 + s));
        packed.push_back(run<StaticSolver<Solver>, false, false, false>(systems.back(), Entry::SolveInplace));
    }
    // Offset of element e of system s, and the element stride, per layout.
    struct Form {
        const char* name;
        std::int64_t (*offset)(int s, int e, int elements);
        std::int64_t (*stride)(int elements);
    };
    const Form forms[] = {
        {"AoS", [](int s, int e, int E_) { return std::int64_t(s) * E_ + e; },
         [](int) { return std::int64_t(1); }},
        {"SoA", [](int s, int e, int) { return std::int64_t(e) * count + s; },
         [](int) { return std::int64_t(count); }},
        {"AoSoA",
         [](int s, int e, int E_) {
             return std::int64_t(s / block) * block * E_ + std::int64_t(e) * block + s % block;
         },
         [](int) { return std::int64_t(block); }},
    };
    int cases = 0;
    for (const Form& form : forms) {
        const std::int64_t blocks = (count + block - 1) / block;
        std::vector<double> A(std::size_t(blocks * block * E)), y(std::size_t(blocks * block * N));
        std::vector<int> piv(std::size_t(blocks * block * N));
        for (int s = 0; s < count; ++s) {
            for (int e = 0; e < E; ++e) A[form.offset(s, e, E)] = systems[s].S[e];
            for (int e = 0; e < N; ++e) y[form.offset(s, e, N)] = systems[s].b[e];
        }
        auto& group = group_of(Solver::threads_per_system);
        for (int s = 0; s < count; ++s) {
            std::vector<double> work(Solver::workspace_size, 0.0);
            group.run([&](int tx) {
                Solver::solve_inplace<false, false, false>(
                    tx, A.data() + form.offset(s, 0, E), form.stride(E), piv.data() + form.offset(s, 0, N),
                    form.stride(N), y.data() + form.offset(s, 0, N), form.stride(N), work.data());
            });
        }
        for (int s = 0; s < count; ++s) {
            INFO(form.name << " system " << s);
            Outcome<double> o;
            for (int e = 0; e < E; ++e) o.S.push_back(A[form.offset(s, e, E)]);
            for (int e = 0; e < N; ++e) {
                o.piv.push_back(piv[form.offset(s, e, N)]);
                o.x.push_back(y[form.offset(s, e, N)]);
            }
            o.info = packed[s].info;
            CHECK(same_outcome(o, packed[s]));
            ++cases;
        }
    }
    REQUIRE(cases == 3 * count);
}

TEST_CASE("RowMajor A factors exactly as ColMajor A^T, and solves its own system", "[identity][layout]") {
    int cases = 0;
    for (Kind kind : all_kinds) {
        for (int n : {1, 5, 12}) {
            // The same memory: A row-major is A^T column-major.
            const auto p = problem(n, kind, 7);
            const auto row = run<Dynamic<2, RowInterchange::Logical, MatrixLayout::RowMajor>, false, false, false>(
                p, Entry::Solve);
            const auto col = run<Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor>, false, false, false>(
                p, Entry::Solve);
            CHECK(same_bits(row.S, col.S));
            CHECK(row.piv == col.piv);
            CHECK(row.info == col.info);
            // Each solves its own system: the row-major one A x = b, the
            // column-major one A^T x = b; both exactly as the reference.
            CHECK(same_bits(
                row.x,
                expected_outcome<Dynamic<2, RowInterchange::Logical, MatrixLayout::RowMajor>>(p, Entry::Solve).x));
            CHECK(same_bits(
                col.x,
                expected_outcome<Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor>>(p, Entry::Solve).x));
            if (n > 1) CHECK_FALSE(same_bits(row.x, col.x));
            ++cases;
        }
    }
    REQUIRE(cases == 3 * 3);
}
