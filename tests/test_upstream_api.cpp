// The solver headers in upstream TDLS's spelling, as a TDLS user's code calls
// them: <tdls/tdls.hpp>, tdls::MatrixLayout, the residency booleans in the
// order <internal_rhs, internal_piv, internal_matrix>, results used as bool,
// make_sync(work), substitute_canonical, the runtime solver called without
// template arguments, rows_per_thread clamped to N, the seed's workspace sizes
// and upstream's defaults. Groups of real std::threads, both barriers, both
// layouts, both interchange schemes; LAPACKE and the reference LU as oracles.
// The refusals are compile-failure tests (tests/upstream_api/reject_*.cpp),
// the run-time stops programs of their own (stop_*.cpp).
#include <catch2/catch.hpp>

#include <tdls/tdls.hpp>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "lapack.hpp"
#include "reference_lu.hpp"
#include "thread_group.hpp"

namespace {

using tdls::CooperativeLUppConfig;
using tdls::MatrixLayout;
using tdls::RowInterchange;
using tdls_test::group_of;

template <int N, int R, RowInterchange I, MatrixLayout L>
using Static = tdls::CooperativeLUppSolverStatic<
    double, N, CooperativeLUppConfig<double>{.rows_per_thread = R, .row_interchange = I, .layout = L}>;
template <int R, RowInterchange I, MatrixLayout L>
using Dynamic =
    tdls::CooperativeLUppSolverDynamic<double, CooperativeLUppConfig<double>{
                                                   .rows_per_thread = R, .row_interchange = I, .layout = L}>;

// ---- constants: the seed's workspace formula, upstream's defaults ------------

constexpr CooperativeLUppConfig<double> defaults{};
static_assert(defaults.rows_per_thread == 1 && defaults.row_interchange == RowInterchange::Logical);
static_assert(static_cast<double>(defaults.relative_pivot_threshold) == 0.1);
static_assert(defaults.singular_floor.value() == DBL_MIN && defaults.unroll_loops);
static_assert(defaults.layout == MatrixLayout::RowMajor);
static_assert(std::is_same_v<tdls::Layout, tdls::MatrixLayout>); // libtdls's former name
static_assert(tdls::CooperativeLUppSolverStatic<double, 12>::workspace_size == 3 * 12 + 2);
static_assert(tdls::CooperativeLUppSolverStatic<double, 12>::relative_pivot_threshold == 0.1);
static_assert(tdls::CooperativeLUppSolverStatic<double, 12>::transposed);
static_assert(!Static<4, 1, RowInterchange::Logical, MatrixLayout::ColMajor>::transposed);
static_assert(Static<13, 5, RowInterchange::Logical, MatrixLayout::RowMajor>::workspace_size == 41);
static_assert(Static<12, 1, RowInterchange::Physical, MatrixLayout::RowMajor>::workspace_size == 55);
static_assert(Static<13, 5, RowInterchange::Physical, MatrixLayout::RowMajor>::workspace_size == 39);
static_assert(Static<4, 1, RowInterchange::Logical, MatrixLayout::RowMajor>::workspace_size == 14);
static_assert(Static<4, 4, RowInterchange::Physical, MatrixLayout::RowMajor>::workspace_size == 17);
static_assert(Static<1, 1, RowInterchange::Logical, MatrixLayout::RowMajor>::workspace_size == 5);
static_assert(Dynamic<8, RowInterchange::Logical, MatrixLayout::RowMajor>::workspace_size(1) == 5);
static_assert(Dynamic<2, RowInterchange::Logical, MatrixLayout::RowMajor>::workspace_size(5) == 17);
// rows_per_thread above N: clamped by the static solver, kept by the dynamic one.
static_assert(Static<5, 8, RowInterchange::Logical, MatrixLayout::RowMajor>::rows_per_thread == 5);
static_assert(Static<5, 8, RowInterchange::Logical, MatrixLayout::RowMajor>::threads_per_system == 1);
static_assert(Dynamic<8, RowInterchange::Logical, MatrixLayout::RowMajor>::rows_per_thread == 8);
static_assert(Dynamic<8, RowInterchange::Logical, MatrixLayout::RowMajor>::threads_per_system(5) == 1);
static_assert(tdls::detail::abs(-2.5) == 2.5 && tdls::detail::abs(3.0f) == 3.0f);

// ---- constant evaluation with the deduced barrier ------------------------------

/// A one-thread dynamic solve with no barrier argument (AutoSync deduced), and
/// its canonical column: both constant expressions, as upstream's.
constexpr bool dynamic_one_thread_certificate() {
    using D = Dynamic<4, RowInterchange::Physical, MatrixLayout::RowMajor>;
    double A[16] = {4, 1, 0, 2, 1, 5, 1, 0, 0, 1, 6, 1, 2, 0, 1, 7}; // symmetric
    double b[4] = {14, 14, 24, 33}, x[4] = {};
    double work[D::workspace_size(4)] = {};
    int piv[4] = {};
    const bool ok = D::solve(4, 0, A, 1, piv, 1, b, x, 1, work);
    double e1[4] = {};
    D::substitute_canonical(4, 0, A, 1, piv, 1, 1, e1, 1, work);
    double reference[4] = {}, unit[4] = {0, 1, 0, 0};
    D::substitute(4, 0, A, 1, piv, 1, unit, reference, 1, work);
    bool same = true;
    for (int i = 0; i < 4; ++i) same = same && e1[i] == reference[i];
    const double error = x[3] - 4.0;
    return ok && same && error < 1e-12 && -error < 1e-12;
}
static_assert(dynamic_one_thread_certificate());

constexpr bool static_one_thread_certificate() {
    using S = Static<1, 1, RowInterchange::Logical, MatrixLayout::RowMajor>;
    double A[1] = {4}, y[1] = {2}, work[S::workspace_size] = {};
    int piv[1] = {};
    const bool ok = S::solve_inplace<true, true, true>(0, A, 1, piv, 1, y, 1, work);
    return ok && y[0] == 0.5;
}
static_assert(static_one_thread_certificate());

// ---- problems and oracles ---------------------------------------------------------

struct Problem {
    int n;
    std::vector<double> stored; ///< A row-major (RowMajor) or column-major (ColMajor)
    std::vector<double> b;
};

Problem random_problem(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Problem p{n, std::vector<double>(std::size_t(n) * n), std::vector<double>(n)};
    for (auto& v : p.stored) v = u(gen);
    for (auto& v : p.b) v = u(gen);
    return p;
}

/// The reference LU's solution of the stored array, read column-major as the
/// solver reads it: the exact bits the solver must produce.
std::vector<double> reference_x(const Problem& p, MatrixLayout layout) {
    const auto f = tdls_test::reference_factor<double>(p.stored, p.n, 0.1, DBL_MIN);
    REQUIRE(f.info == 0);
    return tdls_test::reference_solve(f, p.b, layout);
}

/// LAPACKE's dgesv of A x = b: the independent oracle, within a tolerance.
std::vector<double> lapack_x(const Problem& p, MatrixLayout layout) {
    std::vector<double> S = p.stored, x = p.b;
    std::vector<lapack_int> ipiv(p.n);
    REQUIRE(tdls_test::lapack_gesv(p.n, S.data(), ipiv.data(), x.data(), layout == MatrixLayout::RowMajor) ==
            0);
    return x;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
}

// ---- the residency order ---------------------------------------------------------

/// An internal right-hand side with an external matrix and external pivots:
/// with the booleans in any other order this call would read the thread's
/// slice as the whole vector (x = b or garbage, an overrun under ASan).
template <typename S>
int check_internal_rhs(unsigned seed) {
    constexpr int N = S::order, R = S::rows_per_thread, T = S::threads_per_system;
    const Problem p = random_problem(N, seed);
    std::vector<double> A = p.stored, x(N, -1.0), work(S::workspace_size, 0.0);
    std::vector<int> piv(N, -1);
    std::vector<int> ok(T, 0);
    group_of(T).run([&](int tx) {
        double b_slice[R], x_slice[R];
        for (int K = 0; K < R; ++K) b_slice[K] = tx + K * T < N ? p.b[tx + K * T] : 0.0;
        ok[tx] = S::template solve<true, false, false>(tx, A.data(), 1, piv.data(), 1, b_slice, x_slice, 1,
                                                       work.data());
        for (int K = 0; K < R; ++K)
            if (tx + K * T < N) x[tx + K * T] = x_slice[K];
    });
    for (int v : ok) REQUIRE(v == 1);
    CHECK(same_bits(x, reference_x(p, S::layout)));
    CHECK(max_difference(x, lapack_x(p, S::layout)) < 1e-10);
    return 1;
}

/// The converse: the matrix slice internal (element c of the row of slot K at
/// [c * R + K]), pivots internal, right-hand side external; then a separate
/// substitution through factorize<internal_piv, internal_matrix>.
template <typename S>
int check_internal_matrix(unsigned seed) {
    constexpr int N = S::order, R = S::rows_per_thread, T = S::threads_per_system;
    const Problem p = random_problem(N, seed);
    std::vector<double> x(N, -1.0), y = p.b, work(S::workspace_size, 0.0);
    std::vector<int> ok(T, 0);
    group_of(T).run([&](int tx) {
        double slice[N * R];
        for (int K = 0; K < R; ++K)
            for (int c = 0; c < N; ++c) // row tx + K T of S, the stored array read column-major
                slice[c * R + K] = tx + K * T < N ? p.stored[std::size_t(c) * N + tx + K * T] : 0.0;
        double copy[N * R];
        std::memcpy(copy, slice, sizeof slice);
        int piv[R];
        ok[tx] =
            S::template solve<false, true, true>(tx, slice, 1, piv, 1, p.b.data(), x.data(), 1, work.data());
        int piv2[R];
        const bool factored = S::template factorize<true, true>(tx, copy, 1, piv2, 1, work.data());
        S::template substitute_inplace<false, true, true>(tx, copy, 1, piv2, 1, y.data(), 1, work.data());
        ok[tx] = ok[tx] && factored && std::memcmp(slice, copy, sizeof slice) == 0;
    });
    for (int v : ok) REQUIRE(v == 1);
    const auto expected = reference_x(p, S::layout);
    CHECK(same_bits(x, expected));
    CHECK(same_bits(y, expected));
    return 1;
}

template <template <int, int, RowInterchange, MatrixLayout> class Check>
int every_scheme(unsigned seed) {
    return Check<7, 3, RowInterchange::Logical, MatrixLayout::RowMajor>::run(seed) +
           Check<7, 3, RowInterchange::Physical, MatrixLayout::RowMajor>::run(seed + 1) +
           Check<7, 2, RowInterchange::Logical, MatrixLayout::ColMajor>::run(seed + 2) +
           Check<7, 2, RowInterchange::Physical, MatrixLayout::ColMajor>::run(seed + 3);
}

template <int N, int R, RowInterchange I, MatrixLayout L>
struct InternalRhs {
    static int run(unsigned seed) { return check_internal_rhs<Static<N, R, I, L>>(seed); }
};
template <int N, int R, RowInterchange I, MatrixLayout L>
struct InternalMatrix {
    static int run(unsigned seed) { return check_internal_matrix<Static<N, R, I, L>>(seed); }
};

} // namespace

TEST_CASE("the residency booleans are <internal_rhs, internal_piv, internal_matrix>",
          "[upstream][residency]") {
    CHECK(every_scheme<InternalRhs>(11) == 4);
    CHECK(every_scheme<InternalMatrix>(21) == 4);
}

namespace {

// ---- bool results, the runtime solver without template arguments ----------------

/// The runtime solver as upstream code calls it: no template argument, every
/// operand external; AutoSync and a caller's barrier; solve, solve_inplace,
/// factorize + substitute(_inplace), all bitwise the reference's.
template <typename D>
int check_runtime_solver(int n, unsigned seed, bool user_barrier) {
    const int T = D::threads_per_system(n);
    const Problem p = random_problem(n, seed);
    const auto expected = reference_x(p, D::layout);
    int cases = 0;
    for (int entry = 0; entry < 4; ++entry) {
        std::vector<double> A = p.stored, x(n, -1.0), y = p.b, work(D::workspace_size(n), 0.0);
        std::vector<int> piv(n, -1);
        bool ok[64] = {};
        tdls_test::UserBarrier barrier(T);
        group_of(T).run([&](int tx) {
            auto call = [&](auto&& sync) {
                switch (entry) {
                case 0:
                    ok[tx] = D::solve(n, tx, A.data(), 1, piv.data(), 1, p.b.data(), x.data(), 1, work.data(),
                                      sync);
                    break;
                case 1:
                    ok[tx] =
                        D::solve_inplace(n, tx, A.data(), 1, piv.data(), 1, y.data(), 1, work.data(), sync);
                    break;
                case 2:
                    ok[tx] = D::factorize(n, tx, A.data(), 1, piv.data(), 1, work.data(), sync);
                    D::substitute(n, tx, A.data(), 1, piv.data(), 1, p.b.data(), x.data(), 1, work.data(),
                                  sync);
                    break;
                default:
                    ok[tx] = D::factorize(n, tx, A.data(), 1, piv.data(), 1, work.data(), sync);
                    D::substitute_inplace(n, tx, A.data(), 1, piv.data(), 1, y.data(), 1, work.data(), sync);
                }
            };
            if (user_barrier)
                call(barrier.callable());
            else
                call(tdls::AutoSync{});
        });
        for (int tx = 0; tx < T; ++tx) REQUIRE(ok[tx]);
        CHECK(same_bits(entry % 2 == 0 ? x : y, expected));
        // The barrier state the deduced CPU barrier leaves between calls.
        CHECK(work[0] == 0.0);
        CHECK((work[1] == 0.0 || work[1] == 1.0));
        ++cases;
    }
    return cases;
}

} // namespace

TEST_CASE("the runtime solver takes no template argument; results are bool", "[upstream][dynamic]") {
    int cases = 0;
    for (int n : {1, 2, 5, 9})
        for (bool user : {false, true}) {
            cases += check_runtime_solver<Dynamic<2, RowInterchange::Logical, MatrixLayout::RowMajor>>(
                n, 30u + n, user);
            cases += check_runtime_solver<Dynamic<3, RowInterchange::Physical, MatrixLayout::ColMajor>>(
                n, 40u + n, user);
            cases += check_runtime_solver<Dynamic<1, RowInterchange::Physical, MatrixLayout::RowMajor>>(
                n, 50u + n, user);
        }
    CHECK(cases == 4 * 2 * 3 * 4);
}

TEST_CASE("a singular verdict is false in every thread, and keeps LAPACK's info", "[upstream][bool]") {
    using S = Static<6, 2, RowInterchange::Physical, MatrixLayout::ColMajor>;
    Problem p = random_problem(6, 61);
    for (int r = 0; r < 6; ++r) p.stored[std::size_t(2) * 6 + r] = 0.0; // column 2 of A is zero
    std::vector<double> A = p.stored, y = p.b, work(S::workspace_size, 0.0);
    std::vector<int> piv(6);
    int ok[3] = {-1, -1, -1}, info[3] = {};
    group_of(3).run([&](int tx) {
        const tdls::Verdict v =
            S::solve_inplace<false, false, false>(tx, A.data(), 1, piv.data(), 1, y.data(), 1, work.data());
        ok[tx] = v; // upstream: a bool stored into an int
        info[tx] = v.info;
    });
    for (int tx = 0; tx < 3; ++tx) {
        CHECK(ok[tx] == 0);
        CHECK(info[tx] == 3);
    }
    CHECK(same_bits(y, p.b)); // y keeps b
}

namespace {

// ---- substitute_canonical ------------------------------------------------------------

/// Column col of A^-1 by substitute_canonical is bitwise substitute on an
/// explicit e_col (signed zeros included: memcmp), for every col.
template <typename S>
int check_canonical_static(unsigned seed) {
    constexpr int N = S::order, T = S::threads_per_system;
    const Problem p = random_problem(N, seed);
    std::vector<double> A = p.stored, work(S::workspace_size, 0.0);
    std::vector<int> piv(N);
    group_of(T).run([&](int tx) {
        (void)S::template factorize<false, false>(tx, A.data(), 1, piv.data(), 1, work.data());
    });
    int cases = 0;
    for (int col = 0; col < N; ++col) {
        std::vector<double> canonical(N, 7.0), explicit_x(N, 7.0), e(N, 0.0);
        e[col] = 1.0;
        group_of(T).run([&](int tx) {
            S::template substitute_canonical<false, false, false>(tx, A.data(), 1, piv.data(), 1, col,
                                                                  canonical.data(), 1, work.data());
            S::template substitute<false, false, false>(tx, A.data(), 1, piv.data(), 1, e.data(),
                                                        explicit_x.data(), 1, work.data());
        });
        CHECK(same_bits(canonical, explicit_x));
        Problem unit{N, p.stored, e};
        CHECK(max_difference(canonical, lapack_x(unit, S::layout)) < 1e-10);
        ++cases;
    }
    return cases;
}

template <typename D>
int check_canonical_dynamic(int n, unsigned seed) {
    const int T = D::threads_per_system(n);
    const Problem p = random_problem(n, seed);
    std::vector<double> A = p.stored, work(D::workspace_size(n), 0.0);
    std::vector<int> piv(n);
    tdls_test::UserBarrier barrier(T);
    group_of(T).run([&](int tx) {
        (void)D::factorize(n, tx, A.data(), 1, piv.data(), 1, work.data(), barrier.callable());
    });
    int cases = 0;
    for (int col = 0; col < n; ++col) {
        std::vector<double> canonical(n, 7.0), explicit_x(n, 7.0), e(n, 0.0);
        e[col] = 1.0;
        group_of(T).run([&](int tx) {
            D::substitute_canonical(n, tx, A.data(), 1, piv.data(), 1, col, canonical.data(), 1, work.data());
            D::substitute(n, tx, A.data(), 1, piv.data(), 1, e.data(), explicit_x.data(), 1, work.data());
        });
        CHECK(same_bits(canonical, explicit_x));
        ++cases;
    }
    return cases;
}

} // namespace

TEST_CASE("substitute_canonical is substitute on e_col, bitwise", "[upstream][canonical]") {
    int cases = 0;
    cases += check_canonical_static<Static<6, 2, RowInterchange::Logical, MatrixLayout::RowMajor>>(71);
    cases += check_canonical_static<Static<6, 2, RowInterchange::Physical, MatrixLayout::RowMajor>>(72);
    cases += check_canonical_static<Static<6, 4, RowInterchange::Logical, MatrixLayout::ColMajor>>(73);
    cases += check_canonical_static<Static<6, 1, RowInterchange::Physical, MatrixLayout::ColMajor>>(74);
    cases += check_canonical_dynamic<Dynamic<2, RowInterchange::Physical, MatrixLayout::ColMajor>>(7, 75);
    cases += check_canonical_dynamic<Dynamic<3, RowInterchange::Logical, MatrixLayout::RowMajor>>(7, 76);
    CHECK(cases == 4 * 6 + 2 * 7);
}

TEST_CASE("make_sync(work) is the group's own barrier between solver calls", "[upstream][make_sync]") {
    // Each thread writes the right-hand-side entries of the other threads'
    // rows, then waits on the solver's deduced barrier before substituting:
    // without it the substitution could read entries not yet written.
    using S = Static<8, 2, RowInterchange::Physical, MatrixLayout::RowMajor>;
    using D = Dynamic<2, RowInterchange::Logical, MatrixLayout::ColMajor>;
    int cases = 0;
    for (int round = 0; round < 20; ++round) {
        const Problem p = random_problem(8, 80u + round);
        std::vector<double> A = p.stored, A2 = p.stored, x(8), x2(8), b(8, 0.0), b2(8, 0.0);
        std::vector<double> work(S::workspace_size, 0.0), work2(D::workspace_size(8), 0.0);
        std::vector<int> piv(8), piv2(8);
        group_of(4).run([&](int tx) {
            auto sync = S::make_sync(work.data());
            auto sync2 = D::make_sync(8, work2.data());
            (void)S::factorize<false, false>(tx, A.data(), 1, piv.data(), 1, work.data());
            (void)D::factorize(8, tx, A2.data(), 1, piv2.data(), 1, work2.data());
            for (int r = (tx + 1) % 4; r < 8; r += 4) b[r] = b2[r] = p.b[r];
            sync();
            sync2();
            S::substitute<false, false, false>(tx, A.data(), 1, piv.data(), 1, b.data(), x.data(), 1,
                                               work.data());
            D::substitute(8, tx, A2.data(), 1, piv2.data(), 1, b2.data(), x2.data(), 1, work2.data());
        });
        CHECK(same_bits(x, reference_x(p, MatrixLayout::RowMajor)));
        CHECK(same_bits(x2, reference_x(p, MatrixLayout::ColMajor)));
        ++cases;
    }
    CHECK(cases == 20);
}

TEST_CASE("rows_per_thread above N: the static solver's slice has N rows", "[upstream][clamp]") {
    // One thread holds the whole matrix; its internal slice is element c of row
    // K at [c * rows_per_thread + K] with rows_per_thread clamped to 5.
    using S = Static<5, 8, RowInterchange::Logical, MatrixLayout::ColMajor>;
    const Problem p = random_problem(5, 91);
    double slice[25], x[5];
    for (int K = 0; K < 5; ++K)
        for (int c = 0; c < 5; ++c) slice[c * S::rows_per_thread + K] = p.stored[std::size_t(c) * 5 + K];
    double work[S::workspace_size] = {};
    int piv[5];
    const bool ok = S::solve<true, true, true>(0, slice, 1, piv, 1, p.b.data(), x, 1, work, tdls::NoSync{});
    REQUIRE(ok);
    CHECK(same_bits(std::vector<double>(x, x + 5), reference_x(p, MatrixLayout::ColMajor)));
    // The runtime solver with a group of one accepts NoSync too.
    using D = Dynamic<8, RowInterchange::Physical, MatrixLayout::ColMajor>;
    std::vector<double> A = p.stored, x2(5), work2(D::workspace_size(5), 0.0);
    std::vector<int> piv2(5);
    REQUIRE(
        D::solve(5, 0, A.data(), 1, piv2.data(), 1, p.b.data(), x2.data(), 1, work2.data(), tdls::NoSync{}));
    CHECK(same_bits(x2, reference_x(p, MatrixLayout::ColMajor)));
}

TEST_CASE("the row-major solve multiplies by the pivot's reciprocal", "[upstream][arithmetic]") {
    // n = 1 isolates the U^T step: x = b * (1 / a), MAGMA's and upstream's
    // arithmetic, where the column-major back substitution divides. The case
    // is chosen where the two roundings differ, so that either rule fails the
    // other's check.
    double a = 3.0, b = 0.0;
    for (int k = 1; k < 1000 && b == 0.0; ++k)
        if (double(k) / a != double(k) * (1.0 / a)) b = double(k);
    REQUIRE(b != 0.0);
    using R = Dynamic<1, RowInterchange::Logical, MatrixLayout::RowMajor>;
    using C = Dynamic<1, RowInterchange::Logical, MatrixLayout::ColMajor>;
    for (int entry = 0; entry < 2; ++entry) {
        double A[1] = {a}, Ac[1] = {a}, y[1] = {b}, yc[1] = {b}, work[5] = {}, workc[5] = {};
        int piv[1], pivc[1];
        if (entry == 0) {
            REQUIRE(R::solve_inplace(1, 0, A, 1, piv, 1, y, 1, work));
            REQUIRE(C::solve_inplace(1, 0, Ac, 1, pivc, 1, yc, 1, workc));
        } else {
            REQUIRE(R::factorize(1, 0, A, 1, piv, 1, work));
            R::substitute_inplace(1, 0, A, 1, piv, 1, y, 1, work);
            REQUIRE(C::factorize(1, 0, Ac, 1, pivc, 1, workc));
            C::substitute_inplace(1, 0, Ac, 1, pivc, 1, yc, 1, workc);
        }
        CHECK(y[0] == b * (1.0 / a));
        CHECK(yc[0] == b / a);
    }
}

namespace {

/// Runs fn with the process's stderr redirected to a file; returns what was
/// written.
template <typename Fn>
std::string captured_stderr(Fn&& fn) {
    std::fflush(stderr);
    char path[] = "/tmp/tdls_stderr_XXXXXX";
    const int file = mkstemp(path);
    REQUIRE(file >= 0);
    const int saved = dup(2);
    dup2(file, 2);
    fn();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    if (FILE* f = std::fopen(path, "r")) {
        char buffer[512];
        for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, got);
        std::fclose(f);
    }
    close(file);
    std::remove(path);
    return text;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
}

} // namespace

TEST_CASE("a group waiting over a second at the CPU barrier is told once why", "[upstream][barrier]") {
    using S = Static<4, 2, RowInterchange::Logical, MatrixLayout::RowMajor>;
    const Problem p = random_problem(4, 95);
    const std::string message = "has waited for 1 s at a barrier";
    auto late_group = [&](int late_ms) {
        std::vector<double> A = p.stored, y = p.b, work(S::workspace_size, 0.0);
        std::vector<int> piv(4);
        std::thread late([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(late_ms));
            (void)S::solve_inplace<false, false, false>(1, A.data(), 1, piv.data(), 1, y.data(), 1,
                                                        work.data());
        });
        (void)S::solve_inplace<false, false, false>(0, A.data(), 1, piv.data(), 1, y.data(), 1, work.data());
        late.join();
        CHECK(same_bits(y, reference_x(p, MatrixLayout::RowMajor)));
    };
    // A short wait says nothing (the negative control); a long one says it
    // once, and a second long one in the same process says nothing more.
    CHECK(captured_stderr([&] { late_group(100); }).empty());
    const std::string first = captured_stderr([&] { late_group(1500); });
    CHECK(occurrences(first, message) == 1);
    CHECK(first.find("a group of 2 CPU threads") != std::string::npos);
    CHECK(occurrences(captured_stderr([&] { late_group(1500); }), message) == 0);
}
