// A whole solve during constant evaluation: one thread per system (the only
// group constant evaluation can run), every operand internal.
#include <catch2/catch.hpp>

#include <tdls/solvers.hpp>

namespace {

template <tdls::MatrixLayout L, tdls::RowInterchange I>
constexpr double last_unknown() {
    using Solver =
        tdls::CooperativeLUppSolverStatic<double, 4,
                                          tdls::CooperativeLUppConfig<double>{
                                              .rows_per_thread = 4, .row_interchange = I, .layout = L}>;
    // Symmetric, so A and A^T agree: x = (1, 2, 3, 4) under both layouts. The
    // slice of the single thread is the whole matrix in the layout's order.
    double A[16] = {4, 1, 0, 2, 1, 5, 1, 0, 0, 1, 6, 1, 2, 0, 1, 7};
    double y[4] = {14, 14, 24, 33};
    double work[Solver::workspace_size] = {};
    int piv[4] = {};
    const tdls::Verdict v = Solver::template solve_inplace<true, true, true>(0, A, 1, piv, 1, y, 1, work);
    return v ? y[3] : -1.0;
}

constexpr bool close(double a, double b) {
    return a - b < 1e-12 && b - a < 1e-12;
}
static_assert(close(last_unknown<tdls::MatrixLayout::RowMajor, tdls::RowInterchange::Logical>(), 4.0));
static_assert(close(last_unknown<tdls::MatrixLayout::ColMajor, tdls::RowInterchange::Physical>(), 4.0));

constexpr int singular_info() {
    using Solver =
        tdls::CooperativeLUppSolverStatic<double, 3,
                                          tdls::CooperativeLUppConfig<double>{.rows_per_thread = 3}>;
    // Row-major A with a zero row 1: S = A^T has a zero column 1, so column 2
    // (1-based) is the first singular one.
    double A[9] = {1, 2, 3, 0, 0, 0, 4, 5, 7};
    double work[Solver::workspace_size] = {};
    int piv[3] = {};
    return Solver::template factorize<true, true>(0, A, 1, piv, 1, work).info;
}
static_assert(singular_info() == 2);

} // namespace

TEST_CASE("constant evaluation solves a system", "[constexpr]") {
    // The static_asserts above are the test; this repeats them at run time so
    // that the count of run checks is visible.
    CHECK(close(last_unknown<tdls::MatrixLayout::RowMajor, tdls::RowInterchange::Logical>(), 4.0));
    CHECK(singular_info() == 2);
}
