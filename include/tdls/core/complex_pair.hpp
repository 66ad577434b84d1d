// libtdls: a complex number that device code can use. std::complex is host
// code under nvcc (its members are not __device__) and cuComplex / HIP's
// complex types belong to one vendor each, so the GPU kernels solve complex
// systems in this pair, and the solver headers accept it on the host too.
//
// Layout: two R, real part first, aligned as R: the layout of std::complex<R>,
// C99 R _Complex and Fortran complex, and the alignment callers' buffers of
// them are guaranteed. cuDoubleComplex's 16-byte alignment is not: a caller's
// double _Complex array may start 8 bytes past a 16-byte boundary, and a
// 16-byte load from there faults on the device.
#pragma once

#include <type_traits>

#include <tdls/core/macros.hpp>

namespace tdls {

template <typename R>
struct ComplexPair {
    static_assert(std::is_floating_point_v<R>, "ComplexPair<R>: R is a real floating-point type");

    R re; ///< real part
    R im; ///< imaginary part

    /// Uninitialized, as a real scalar would be: the kernels' register rows
    /// are arrays of it.
    ComplexPair() = default;
    /// re + i im; a real number by default (the solvers write T(0), T(1)).
    TDLS_HOST_DEVICE constexpr ComplexPair(R real, R imaginary = R(0)) noexcept : re(real), im(imaginary) {}

    TDLS_HOST_DEVICE constexpr R real() const noexcept { return re; }
    TDLS_HOST_DEVICE constexpr R imag() const noexcept { return im; }

    friend TDLS_HOST_DEVICE constexpr ComplexPair operator+(const ComplexPair& a, const ComplexPair& b) noexcept {
        return {a.re + b.re, a.im + b.im};
    }
    friend TDLS_HOST_DEVICE constexpr ComplexPair operator-(const ComplexPair& a, const ComplexPair& b) noexcept {
        return {a.re - b.re, a.im - b.im};
    }
    friend TDLS_HOST_DEVICE constexpr ComplexPair operator-(const ComplexPair& a) noexcept {
        return {-a.re, -a.im};
    }
    friend TDLS_HOST_DEVICE constexpr bool operator==(const ComplexPair& a, const ComplexPair& b) noexcept {
        return a.re == b.re && a.im == b.im;
    }
    // Products and quotients are tdls::product and tdls::quotient (math.hpp):
    // the solvers' one definition of each, shared with std::complex.
};

// The layout the C ABI and the GPU plugins rely on: reinterpret_cast between
// a caller's complex array and ComplexPair's.
static_assert(sizeof(ComplexPair<float>) == 2 * sizeof(float) && alignof(ComplexPair<float>) == alignof(float));
static_assert(sizeof(ComplexPair<double>) == 2 * sizeof(double) &&
              alignof(ComplexPair<double>) == alignof(double));
static_assert(std::is_trivially_copyable_v<ComplexPair<double>> && std::is_standard_layout_v<ComplexPair<double>>);

} // namespace tdls
