// Test support: LAPACKE as the oracle, and conversions between the solver's
// pivot formats and LAPACK's swap sequence.
#pragma once

#include <lapacke.h>

#include <complex>
#include <vector>

namespace tdls_test {

inline lapack_int lapack_getrf(int n, double* a, lapack_int* ipiv) {
    return LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
inline lapack_int lapack_getrf(int n, float* a, lapack_int* ipiv) {
    return LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
/// Solves op(S) x = b with S column-major; op = transpose for the RowMajor
/// systems, whose matrix is A = S^T. Returns LAPACK's info.
inline lapack_int lapack_gesv(int n, double* S, lapack_int* ipiv, double* b, bool transpose) {
    return transpose ? LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, S, n, ipiv, b, 1)
                     : LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, S, n, ipiv, b, n);
}
inline lapack_int lapack_gesv(int n, float* S, lapack_int* ipiv, float* b, bool transpose) {
    return transpose ? LAPACKE_sgesv(LAPACK_ROW_MAJOR, n, 1, S, n, ipiv, b, 1)
                     : LAPACKE_sgesv(LAPACK_COL_MAJOR, n, 1, S, n, ipiv, b, n);
}

// Complex: std::complex is layout-compatible with LAPACKE's complex types
// (two consecutive reals), which C++ sees as the C99 _Complex types.
inline lapack_complex_double* lapack_ptr(std::complex<double>* p) {
    return reinterpret_cast<lapack_complex_double*>(p);
}
inline lapack_complex_float* lapack_ptr(std::complex<float>* p) {
    return reinterpret_cast<lapack_complex_float*>(p);
}
inline const lapack_complex_double* lapack_ptr(const std::complex<double>* p) {
    return reinterpret_cast<const lapack_complex_double*>(p);
}
inline const lapack_complex_float* lapack_ptr(const std::complex<float>* p) {
    return reinterpret_cast<const lapack_complex_float*>(p);
}
inline lapack_int lapack_getrf(int n, std::complex<double>* a, lapack_int* ipiv) {
    return LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, lapack_ptr(a), n, ipiv);
}
inline lapack_int lapack_getrf(int n, std::complex<float>* a, lapack_int* ipiv) {
    return LAPACKE_cgetrf(LAPACK_COL_MAJOR, n, n, lapack_ptr(a), n, ipiv);
}
inline lapack_int lapack_gesv(int n, std::complex<double>* S, lapack_int* ipiv, std::complex<double>* b,
                              bool transpose) {
    return transpose ? LAPACKE_zgesv(LAPACK_ROW_MAJOR, n, 1, lapack_ptr(S), n, ipiv, lapack_ptr(b), 1)
                     : LAPACKE_zgesv(LAPACK_COL_MAJOR, n, 1, lapack_ptr(S), n, ipiv, lapack_ptr(b), n);
}
inline lapack_int lapack_gesv(int n, std::complex<float>* S, lapack_int* ipiv, std::complex<float>* b,
                              bool transpose) {
    return transpose ? LAPACKE_cgesv(LAPACK_ROW_MAJOR, n, 1, lapack_ptr(S), n, ipiv, lapack_ptr(b), 1)
                     : LAPACKE_cgesv(LAPACK_COL_MAJOR, n, 1, lapack_ptr(S), n, ipiv, lapack_ptr(b), n);
}

/// LAPACK's 1-based swap sequence producing the final order perm (perm[k] =
/// original row at position k): at step i, row i is swapped with row ipiv[i].
inline std::vector<int> swap_sequence(const std::vector<int>& perm) {
    const int n = int(perm.size());
    std::vector<int> current(n), where(n), ipiv(n);
    for (int k = 0; k < n; ++k) current[k] = where[k] = k;
    for (int i = 0; i < n; ++i) {
        const int p = where[perm[i]];
        ipiv[i] = p + 1;
        const int moved = current[i];
        current[i] = perm[i];
        current[p] = moved;
        where[perm[i]] = i;
        where[moved] = p;
    }
    return ipiv;
}

/// Final order from the solver's pivots: logical pivots give the position of
/// each row, physical ones the row at each position.
inline std::vector<int> order_from_pivots(const std::vector<int>& piv, bool physical) {
    if (physical) return piv;
    std::vector<int> perm(piv.size(), -1);
    for (std::size_t r = 0; r < piv.size(); ++r)
        if (piv[r] >= 0 && std::size_t(piv[r]) < piv.size()) perm[piv[r]] = int(r);
    return perm;
}

} // namespace tdls_test
