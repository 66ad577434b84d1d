// libtdls: the little arithmetic the solvers need, callable on host and device
// and during constant evaluation.
#pragma once

#include <cfloat>
#include <cmath>
#include <type_traits>

#include <tdls/core/macros.hpp>

namespace tdls {

/// Scalar types the solvers accept: float and double everywhere, long double
/// on the host (GPUs have no such type).
template <typename T>
inline constexpr bool is_real_scalar_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, long double>;

/// Smallest positive normal number of T: the default singular floor, below
/// which a pivot is subnormal and its reciprocal may overflow. Spelled with
/// <cfloat> macros because std::numeric_limits is not callable in device code.
template <typename T>
TDLS_HOST_DEVICE constexpr T smallest_normal() noexcept {
    if constexpr (std::is_same_v<T, float>)
        return FLT_MIN;
    else if constexpr (std::is_same_v<T, double>)
        return DBL_MIN;
    else
        return LDBL_MIN;
}

/// |x|: the magnitude that partial pivoting compares, as in the real variants
/// of LAPACK and MAGMA. NaN stays NaN, so that every comparison with it fails.
template <typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T magnitude(T x) noexcept {
#if defined(TDLS_DEVICE_PASS)
    return ::fabs(x);
#else
    if (std::is_constant_evaluated()) return x < T(0) ? -x : x; // std::fabs is not constexpr
    return std::fabs(x);
#endif
}

namespace detail {

/// |x| in constant evaluation too, under upstream TDLS's name (its tests and
/// snippets call tdls::detail::abs); the solvers use magnitude.
template <typename T>
TDLS_HOST_DEVICE constexpr T abs(T x) noexcept {
    return x < T(0) ? -x : x;
}

} // namespace detail
} // namespace tdls
