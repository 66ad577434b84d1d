// Test support: normwise backward error, LAPACK's test ratio.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tdls_test {

/// ||b - A x||_inf / ((||A||_inf ||x||_inf + ||b||_inf) n eps), in long
/// double, with A = S (ColMajor) or A = S^T (RowMajor). LAPACK's own tests
/// accept a ratio below 30.
template <typename T>
double backward_error_ratio(const std::vector<T>& S, int n, bool row_major, const std::vector<T>& x,
                            const std::vector<T>& b) {
    long double residual = 0, a_norm = 0, x_norm = 0, b_norm = 0;
    for (int i = 0; i < n; ++i) {
        long double r = b[i], row = 0;
        for (int j = 0; j < n; ++j) {
            const long double a = row_major ? S[std::size_t(i) * n + j] : S[std::size_t(j) * n + i];
            r -= a * x[j];
            row += std::fabs(a);
        }
        residual = std::max(residual, std::fabs(r));
        a_norm = std::max(a_norm, row);
        x_norm = std::max(x_norm, std::fabs((long double)x[i]));
        b_norm = std::max(b_norm, std::fabs((long double)b[i]));
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    const long double denominator = (a_norm * x_norm + b_norm) * n * eps;
    if (!(residual == residual)) return std::numeric_limits<double>::infinity();
    return denominator > 0 ? double(residual / denominator) : (residual == 0 ? 0.0 : INFINITY);
}

inline constexpr double backward_error_bound = 30.0;

} // namespace tdls_test
