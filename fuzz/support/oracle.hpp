// libtdls fuzzing: the properties every harness asserts. A broken property
// prints one line naming it and traps, which libFuzzer reports as a crash
// and saves the input (crash-<sha1>) for reproduction.
#pragma once

#include <tdls/core/math.hpp>
#include <tdls/tdls.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace tdls_fuzz {

[[noreturn]] inline void oracle_failed(const char* format, ...) {
    std::fprintf(stderr, "tdls-fuzz: oracle failed: ");
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    __builtin_trap();
}

#define TDLS_FUZZ_CHECK(condition, ...)                                                                      \
    do {                                                                                                     \
        if (!(condition)) ::tdls_fuzz::oracle_failed(__VA_ARGS__);                                           \
    } while (0)

/// Bytes equal: "bitwise unchanged", NaN payloads and signed zeros included.
template <typename E>
bool same_bits(const std::vector<E>& a, const std::vector<E>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(E)) == 0);
}

/// A failed call leaves a detail for tdls_last_error() that names the function.
inline void check_last_error(const char* function) {
    const char* detail = tdls_last_error();
    TDLS_FUZZ_CHECK(detail != nullptr && detail[0] != '\0', "%s failed with an empty tdls_last_error()",
                    function);
    const std::size_t length = std::strlen(function);
    TDLS_FUZZ_CHECK(std::strncmp(detail, function, length) == 0 && detail[length] == ':',
                    "%s: tdls_last_error() \"%s\" does not start with the function's name", function, detail);
}

/// Element (i, j) of a matrix stored at p with steps (row, col): p[i*row + j*col].
template <typename T>
struct Strided {
    T* p;
    std::int64_t row, col;
    T& operator()(std::int64_t i, std::int64_t j) const { return p[i * row + j * col]; }
};

/// The real type of an element type, and what the oracles compute in: long
/// double, or std::complex of it.
template <typename T>
using Real = tdls::real_type_t<T>;
template <typename T>
using Wide = std::conditional_t<tdls::is_complex_scalar_v<T>, std::complex<long double>, long double>;

template <typename T>
Wide<T> widen(T x) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        return {(long double)x.real(), (long double)x.imag()};
    else
        return x;
}

/// Finite: for a complex number, both parts and LAPACK's magnitude
/// |re| + |im| in its own arithmetic. The pivot search compares that
/// magnitude (izamax's cabs1), and Smith's quotient by a number whose
/// magnitude overflows overflows too (its denominator c + d (d / c)),
/// giving a zero reciprocal, as LAPACK's complex routines do: such data lie
/// outside the range the complex solvers (theirs and ours) handle.
template <typename T>
bool finite(T x) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        return std::isfinite(std::fabs(x.real()) + std::fabs(x.imag()));
    else
        return std::isfinite(x);
}

/// The magnitude the library's singular test compares, in T's own real
/// arithmetic: |x|, or LAPACK's |re| + |im| for a complex x (tdls.h).
template <typename T>
Real<T> pivot_magnitude(T x) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        return std::fabs(x.real()) + std::fabs(x.imag());
    else
        return std::fabs(x);
}

template <typename T>
bool all_finite(Strided<T> m, std::int64_t rows, std::int64_t cols) {
    for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i)
            if (!finite(m(i, j))) return false;
    return true;
}

template <typename T>
bool same_bits(Strided<T> a, Strided<T> b, std::int64_t rows, std::int64_t cols) {
    for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i)
            if (std::memcmp(&a(i, j), &b(i, j), sizeof(T)) != 0) return false;
    return true;
}

/// A dense n x n matrix of T in Wide<T>, element (i, j) at i + j*n.
template <typename T>
using Dense = std::vector<Wide<T>>;

template <typename T>
Dense<T> dense(Strided<T> m, std::int64_t n) {
    Dense<T> d(std::size_t(n * n));
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) d[std::size_t(i + j * n)] = widen(m(i, j));
    return d;
}

/// max(||.||_inf, ||.||_1) of |L| |U|, with L (unit lower) and U the factors
/// stored in one n x n matrix: what the backward error of LU with partial
/// pivoting is proportional to (|b - A x| <= 3 n eps |L||U||x|, Higham 9.4),
/// so that neither the growth factor nor a threshold tau < 1 makes a correct
/// answer fail.
template <typename T>
long double factor_product_norm(Strided<T> factors, std::int64_t n) {
    const Dense<T> f = dense(factors, n);
    std::vector<long double> row_sum(std::size_t(n), 0), col_sum(std::size_t(n), 0);
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            long double entry = 0; // (|L||U|)(i, j), the modulus of each complex entry
            for (std::int64_t p = 0; p <= std::min(i, j); ++p) {
                const long double l = p == i ? 1.0L : std::abs(f[std::size_t(i + p * n)]);
                entry += l * std::abs(f[std::size_t(p + j * n)]);
            }
            row_sum[std::size_t(i)] += entry;
            col_sum[std::size_t(j)] += entry;
        }
    long double norm = 0;
    for (std::int64_t i = 0; i < n; ++i)
        norm = std::max({norm, row_sum[std::size_t(i)], col_sum[std::size_t(i)]});
    return norm;
}

/// The loose backward-error bound of one solved system: every column x_k of
/// X must satisfy ||b_k - A x_k||_inf <= 30 n eps (K ||x_k|| + ||b_k||) plus
/// a slack for underflow (subnormal intermediates lose absolute accuracy),
/// with K = factor_product_norm. It is LAPACK's normwise test ratio
/// (include/tdls/check/backward_error.hpp, bound 30) with ||A|| replaced by
/// the |L||U| that the error analysis actually bounds by. A is given dense.
/// Checked only where A, B, X and the factors are finite. Complex: moduli
/// throughout, and 4 times the bound (a complex product rounds with up to
/// 2 sqrt(2) u, not u; Higham 3.6).
template <typename T>
void check_backward_error(const char* where, std::int64_t system, std::int64_t n, std::int64_t nrhs,
                          const Dense<T>& A, Strided<T> factors, Strided<T> B, Strided<T> X) {
    if (n == 0 || nrhs == 0) return;
    for (const Wide<T>& a : A)
        if (!finite(a)) return;
    if (!all_finite(B, n, nrhs) || !all_finite(X, n, nrhs) || !all_finite(factors, n, n)) return;
    const long double K = factor_product_norm(factors, n);
    const long double eps = std::numeric_limits<Real<T>>::epsilon();
    const long double eta = std::numeric_limits<Real<T>>::denorm_min();
    const long double c = tdls::is_complex_scalar_v<T> ? 120 : 30;
    for (std::int64_t k = 0; k < nrhs; ++k) {
        long double residual = 0, x_norm = 0, b_norm = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            Wide<T> r = widen(B(i, k));
            for (std::int64_t j = 0; j < n; ++j) r -= A[std::size_t(i + j * n)] * widen(X(j, k));
            residual = std::max(residual, (long double)std::abs(r));
            x_norm = std::max(x_norm, (long double)std::abs(widen(X(i, k))));
            b_norm = std::max(b_norm, (long double)std::abs(widen(B(i, k))));
        }
        const long double bound = c * n * eps * (K * x_norm + b_norm) + c * n * n * eta * (1 + x_norm + K);
        TDLS_FUZZ_CHECK(residual <= bound,
                        "%s: system %lld, right-hand side %lld (n = %lld): residual %Lg above the bound %Lg "
                        "(|L||U| norm %Lg, ||x|| %Lg, ||b|| %Lg)",
                        where, (long long)system, (long long)k, (long long)n, residual, bound, K, x_norm,
                        b_norm);
    }
}

/// The verdict and pivots of one factored system, from the contract: info in
/// 0..n; ipiv[k] in k+1..n (LAPACK's swap sequence only swaps downwards).
/// With tau = 1 and finite factors also: info is the first k whose pivot
/// U(k,k) is below the smallest normal number (complex: |re| + |im|), or 0
/// if there is none.
/// P is the pivots' type: int32 in the C ABI, magma_int_t in the MAGMA shim.
template <typename T, typename P>
void check_factor_verdict(const char* where, std::int64_t system, std::int64_t n, std::int64_t info,
                          const P* ipiv, std::int64_t ipiv_step, Strided<T> factors, bool tau_is_one) {
    TDLS_FUZZ_CHECK(info >= 0 && info <= n, "%s: system %lld: info %lld outside 0..n (n = %lld)", where,
                    (long long)system, (long long)info, (long long)n);
    if (ipiv != nullptr)
        for (std::int64_t k = 0; k < n; ++k) {
            const std::int64_t p = ipiv[k * ipiv_step];
            TDLS_FUZZ_CHECK(p >= k + 1 && p <= n,
                            "%s: system %lld: ipiv[%lld] = %lld outside %lld..n (n = %lld)", where,
                            (long long)system, (long long)k, (long long)p, (long long)(k + 1), (long long)n);
        }
    if (!tau_is_one) return;
    for (std::int64_t k = 0; k < n; ++k)
        if (!finite(factors(k, k))) return;
    std::int64_t first_small = 0;
    for (std::int64_t k = 0; k < n && first_small == 0; ++k)
        if (pivot_magnitude(factors(k, k)) < std::numeric_limits<Real<T>>::min()) first_small = k + 1;
    TDLS_FUZZ_CHECK(
        info == first_small,
        "%s: system %lld: info %lld, but the first pivot below the smallest normal is U(%lld,%lld) "
        "(0: none), n = %lld",
        where, (long long)system, (long long)info, (long long)first_small, (long long)first_small,
        (long long)n);
}

/// A bug planted on purpose (fuzz/CMakeLists.txt builds one harness with
/// TDLS_FUZZ_PLANTED_BUG for the negative control): the solution the oracle
/// sees is made wrong, and the backward-error check must catch it.
template <typename T>
void plant_wrong_answer([[maybe_unused]] Strided<T> X, [[maybe_unused]] std::int64_t n) {
#ifdef TDLS_FUZZ_PLANTED_BUG
    if (n > 0) X(0, 0) = X(0, 0) * T(2) + T(1);
#endif
}

} // namespace tdls_fuzz
