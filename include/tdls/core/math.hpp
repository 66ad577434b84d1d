// libtdls: the little arithmetic the solvers need, callable on host and device
// and during constant evaluation.
#pragma once

#include <cfloat>
#include <cmath>
#include <complex>
#include <type_traits>

#include <tdls/core/complex_pair.hpp>
#include <tdls/core/macros.hpp>

namespace tdls {

/// Real scalar types the solvers accept: float and double everywhere, long
/// double on the host (GPUs have no such type).
template <typename T>
inline constexpr bool is_real_scalar_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, long double>;

/// The real type under a scalar: T itself for a real T, R for a complex one.
/// The complex types are std::complex (host) and ComplexPair (host and
/// device, complex_pair.hpp); the complex overloads below serve both, through
/// their real(), imag() and (re, im) constructor.
template <typename T>
struct real_type {
    using type = T;
};
template <typename R>
struct real_type<std::complex<R>> {
    using type = R;
};
template <typename R>
struct real_type<ComplexPair<R>> {
    using type = R;
};
template <typename T>
using real_type_t = typename real_type<T>::type;

/// Whether T is a complex scalar (its real type differs from it).
template <typename T>
inline constexpr bool is_complex_scalar_v = !std::is_same_v<real_type_t<T>, T>;

/// Every scalar type the solvers accept: the real ones, std::complex of each
/// on the host and ComplexPair of each anywhere.
template <typename T>
inline constexpr bool is_solver_scalar_v = is_real_scalar_v<real_type_t<T>>;

/// Smallest positive normal number of T (of its real type, for a complex T):
/// the default singular floor, below which a pivot is subnormal and its
/// reciprocal may overflow. Spelled with <cfloat> macros because
/// std::numeric_limits is not callable in device code.
template <typename T>
TDLS_HOST_DEVICE constexpr real_type_t<T> smallest_normal() noexcept {
    using R = real_type_t<T>;
    if constexpr (std::is_same_v<R, float>)
        return FLT_MIN;
    else if constexpr (std::is_same_v<R, double>)
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

/// LAPACK's magnitude of a complex number, |re| + |im| (cabs1, what izamax
/// compares): partial pivoting on it chooses zgetrf's pivots. Cheaper than the
/// modulus and never below it. NaN in either part gives NaN.
template <typename C>
    requires is_complex_scalar_v<C>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr real_type_t<C> magnitude(C x) noexcept {
    return magnitude(x.real()) + magnitude(x.imag());
}

/// a * b as the solvers multiply. Real: the product. Complex: (ac - bd,
/// ad + bc), Fortran's product (gfortran's default) and that of the SIMD
/// kernels; std::complex's would, where both parts come out NaN, call the
/// C99 Annex G routine that recovers infinities, which no vector code does.
template <typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T product(T a, T b) noexcept {
    return a * b;
}
template <typename C>
    requires is_complex_scalar_v<C>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr C product(C a, C b) noexcept {
    return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

/// a * b + c rounded once: the fused multiply-add that GPUs execute as one
/// instruction. Host and device compute the same bits (IEEE 754 fixes the
/// operation), which is what lets a CPU reference reproduce the GPU kernels
/// (CooperativeLUppConfig::fused_multiply_add). Not constant-evaluable: the
/// solvers call it only under that option, never in the default one.
template <typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU T fused_multiply_add(T a, T b, T c) noexcept {
#if defined(TDLS_DEVICE_PASS)
    if constexpr (std::is_same_v<T, float>)
        return ::fmaf(a, b, c);
    else
        return ::fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}

/// c - a * b as the solvers' updates compute it: a product then a
/// subtraction (two roundings, the CPU backend's arithmetic), or, Fused, with
/// fused multiply-adds. Complex, Fused: each part of the Fortran product of
/// `product` folded into c by two fused multiply-adds, the imaginary-times-
/// imaginary (resp. second) term first:
///   re = fma(-ar, br, fma(ai, bi, cr)),  im = fma(-ar, bi, fma(-ai, br, ci)).
template <bool Fused, typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T minus_product(T c, T a, T b) noexcept {
    if constexpr (!Fused) {
        return c - product(a, b);
    } else if constexpr (is_complex_scalar_v<T>) {
        const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
        return T(fused_multiply_add(-ar, br, fused_multiply_add(ai, bi, c.real())),
                 fused_multiply_add(-ar, bi, fused_multiply_add(-ai, br, c.imag())));
    } else {
        return fused_multiply_add(-a, b, c);
    }
}

/// a / b as the solvers divide. Real: the division. Complex: Smith's
/// algorithm (the scaling gfortran and LAPACK's reference builds use),
/// spelled out so that the SIMD kernels reproduce it bit for bit, which they
/// could not do for std::complex's division (a library call, C99 Annex G).
/// A NaN or infinite b gives NaN parts, as does b = 0.
template <typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T quotient(T a, T b) noexcept {
    return a / b;
}
template <typename C>
    requires is_complex_scalar_v<C>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr C quotient(C a, C b) noexcept {
    using R = real_type_t<C>;
    const R c = b.real(), d = b.imag();
    if (magnitude(c) >= magnitude(d)) {
        const R r = d / c, den = c + d * r;
        return C((a.real() + a.imag() * r) / den, (a.imag() - a.real() * r) / den);
    }
    const R r = c / d, den = c * r + d;
    return C((a.real() * r + a.imag()) / den, (a.imag() * r - a.real()) / den);
}

/// The real part; the number itself for a real one. The solvers keep real
/// bookkeeping (magnitudes, row indices) in scalar workspace and read it back
/// with this.
template <typename T>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T real_part(T x) noexcept {
    return x;
}
template <typename C>
    requires is_complex_scalar_v<C>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr real_type_t<C> real_part(C x) noexcept {
    return x.real();
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
