// Host-side check shared by the tests and the benchmark: LAPACK's normwise
// backward error ratio of one computed solution. Header-only, no library to
// link; it is not part of the C ABI.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tdls::check {

/// LAPACK's test programs accept a ratio below this.
inline constexpr double backward_error_bound = 30.0;

/// ||b - A x||_inf / ((||A||_inf ||x||_inf + ||b||_inf) n eps), in long
/// double so that the check's own rounding does not count against the solver.
/// Element (i, j) of A is A[i * a_row_stride + j * a_col_stride], x_i is
/// x[i * x_stride] and b_i is b[i * b_stride]: strides cover column-major,
/// row-major and interleaved storage alike. Any NaN gives infinity.
template <typename T>
double backward_error_ratio(int n, const T* A, std::int64_t a_row_stride, std::int64_t a_col_stride,
                            const T* x, std::int64_t x_stride, const T* b, std::int64_t b_stride) {
    long double residual = 0, a_norm = 0, x_norm = 0, b_norm = 0;
    for (int i = 0; i < n; ++i) {
        long double r = b[i * b_stride], row = 0;
        for (int j = 0; j < n; ++j) {
            const long double a = A[i * a_row_stride + j * a_col_stride];
            r -= a * x[j * x_stride];
            row += std::fabs(a);
        }
        residual = std::max(residual, std::fabs(r));
        a_norm = std::max(a_norm, row);
        x_norm = std::max(x_norm, std::fabs((long double)x[i * x_stride]));
        b_norm = std::max(b_norm, std::fabs((long double)b[i * b_stride]));
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    const long double denominator = (a_norm * x_norm + b_norm) * n * eps;
    // std::max drops a NaN operand, so look at the residual itself.
    if (!(residual == residual) || !(denominator == denominator))
        return std::numeric_limits<double>::infinity();
    return denominator > 0 ? double(residual / denominator)
                           : (residual == 0 ? 0.0 : std::numeric_limits<double>::infinity());
}

} // namespace tdls::check
