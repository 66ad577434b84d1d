// Host-side check shared by the tests and the benchmark: LAPACK's normwise
// backward error ratio of one computed solution. Header-only, no library to
// link; it is not part of the C ABI.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <tdls/core/math.hpp>

namespace tdls::check {

/// LAPACK's test programs accept a ratio below this.
inline constexpr double backward_error_bound = 30.0;

/// The type the check computes in: long double, or std::complex of it.
template <typename T>
using check_wide_t =
    std::conditional_t<is_complex_scalar_v<T>, std::complex<long double>, long double>;

/// ||b - A x||_inf / ((||A||_inf ||x||_inf + ||b||_inf) n eps), in long
/// double so that the check's own rounding does not count against the solver.
/// Element (i, j) of A is A[i * a_row_stride + j * a_col_stride], x_i is
/// x[i * x_stride] and b_i is b[i * b_stride]: strides cover column-major,
/// row-major and interleaved storage alike. Any NaN gives infinity. For a
/// complex T the norms add LAPACK's |re| + |im| (as its complex test programs
/// do, through dzasum and cabs1) and eps is that of the real type.
template <typename T>
double backward_error_ratio(int n, const T* A, std::int64_t a_row_stride, std::int64_t a_col_stride,
                            const T* x, std::int64_t x_stride, const T* b, std::int64_t b_stride) {
    using W = check_wide_t<T>;
    long double residual = 0, a_norm = 0, x_norm = 0, b_norm = 0;
    for (int i = 0; i < n; ++i) {
        W r = W(b[i * b_stride]);
        long double row = 0;
        for (int j = 0; j < n; ++j) {
            const W a = W(A[i * a_row_stride + j * a_col_stride]);
            r -= a * W(x[j * x_stride]);
            row += magnitude(a);
        }
        residual = std::max(residual, magnitude(r));
        a_norm = std::max(a_norm, row);
        x_norm = std::max(x_norm, magnitude(W(x[i * x_stride])));
        b_norm = std::max(b_norm, magnitude(W(b[i * b_stride])));
    }
    const long double eps = std::numeric_limits<real_type_t<T>>::epsilon();
    const long double denominator = (a_norm * x_norm + b_norm) * n * eps;
    // std::max drops a NaN operand, so look at the residual itself.
    if (!(residual == residual) || !(denominator == denominator))
        return std::numeric_limits<double>::infinity();
    return denominator > 0 ? double(residual / denominator)
                           : (residual == 0 ? 0.0 : std::numeric_limits<double>::infinity());
}

} // namespace tdls::check
