// Compile-failure cases: configurations and barriers upstream TDLS refuses at
// compile time, with its diagnostics. TDLS_REJECT_CASE selects one; each must
// fail to compile with the message tests/CMakeLists.txt expects. With
// TDLS_REJECT_VALID the same program uses a valid value instead and must
// compile: the control that the failure comes from the refusal alone.
#include <tdls/tdls.hpp>

#ifndef TDLS_REJECT_CASE
#error "TDLS_REJECT_CASE selects the case"
#endif

#if defined(TDLS_REJECT_VALID)
#define TDLS_BAD(bad, good) good
#else
#define TDLS_BAD(bad, good) bad
#endif

int main() {
    double work[64] = {};
    double A[16] = {}, y[4] = {};
    int piv[4] = {};
#if TDLS_REJECT_CASE == 1 // a zero singular floor, static solver
    using S =
        tdls::CooperativeLUppSolverStatic<double, 4,
                                          tdls::CooperativeLUppConfig<double>{
                                              .rows_per_thread = 4, .singular_floor = TDLS_BAD(0.0, 1e-300)}>;
    return S::solve_inplace<false, false, false>(0, A, 1, piv, 1, y, 1, work, tdls::NoSync{}) ? 0 : 1;
#elif TDLS_REJECT_CASE == 2 // a zero singular floor, runtime solver
    using D = tdls::CooperativeLUppSolverDynamic<double, tdls::CooperativeLUppConfig<double>{
                                                             .rows_per_thread = 4,
                                                             .singular_floor = TDLS_BAD(0.0, 1e-300)}>;
    return D::solve_inplace(4, 0, A, 1, piv, 1, y, 1, work) ? 0 : 1;
#elif TDLS_REJECT_CASE == 3 // a zero threshold, static solver
    using S = tdls::CooperativeLUppSolverStatic<double, 4,
                                                tdls::CooperativeLUppConfig<double>{
                                                    .rows_per_thread = 4,
                                                    .relative_pivot_threshold = TDLS_BAD(0.0, 0.5)}>;
    return S::solve_inplace<false, false, false>(0, A, 1, piv, 1, y, 1, work) ? 0 : 1;
#elif TDLS_REJECT_CASE == 4 // a threshold above 1, runtime solver
    using D = tdls::CooperativeLUppSolverDynamic<double, tdls::CooperativeLUppConfig<double>{
                                                             .rows_per_thread = 4,
                                                             .relative_pivot_threshold = TDLS_BAD(2.0, 1.0)}>;
    return D::solve_inplace(4, 0, A, 1, piv, 1, y, 1, work) ? 0 : 1;
#elif TDLS_REJECT_CASE == 5 // no row per thread
    using S = tdls::CooperativeLUppSolverStatic<
        double, 4, tdls::CooperativeLUppConfig<double>{.rows_per_thread = TDLS_BAD(0, 4)}>;
    return S::workspace_size > 0 ? 0 : 1;
#elif TDLS_REJECT_CASE == 6 // NoSync for a group of several threads (static solver)
    using S = tdls::CooperativeLUppSolverStatic<
        double, 4, tdls::CooperativeLUppConfig<double>{.rows_per_thread = TDLS_BAD(2, 4)}>;
    return S::solve_inplace<false, false, false>(0, A, 1, piv, 1, y, 1, work, tdls::NoSync{}) ? 0 : 1;
#else
#error "unknown TDLS_REJECT_CASE"
#endif
}
