// libtdls: the scalar types as data. One traits entry per C++ type links it
// to its C ABI value (tdls_dtype_t), its size, its real type, its name and its
// LAPACK prefix; the registry, validation, the plan, the GPU plugins, the
// MAGMA shim, the benchmark and the tests all read these, never a spelled-out
// "float or double". Which types a build compiles kernels for is the list in
// kernels/instances.cmake (TDLS_INSTANCE_TYPES and each backend's subset),
// whose names are the aliases below.
#pragma once

#include <complex>
#include <cstdint>
#include <iterator>

#include <tdls/core/complex_pair.hpp>
#include <tdls/core/math.hpp>
#include <tdls/tdls.h>

namespace tdls {

/// Names of the types in kernels/instances.cmake: a type list entry must be
/// one identifier, since it names generated files and macro arguments. The
/// generated sources see them through `using namespace tdls::scalar_names`.
/// std::complex<R> is two consecutive R, real part first: the layout of C99
/// R _Complex, Fortran complex and tdls.h's TDLS_COMPLEX64 / TDLS_COMPLEX128.
namespace scalar_names {
using complex_float = std::complex<float>;
using complex_double = std::complex<double>;
} // namespace scalar_names
using namespace scalar_names;

namespace kernels {

/// What the library knows of a scalar type at run time.
struct DtypeInfo {
    tdls_dtype_t dtype;
    int bytes;            ///< one element
    int real_bytes;       ///< one element of its real type
    bool complex;
    const char* name;     ///< as tdls.h spells it, without TDLS_ (FLOAT32, COMPLEX128, ...)
    char lapack_prefix;   ///< s, d, c or z
};

/// The traits of each scalar type; undefined for any other type.
template <typename T>
struct ScalarTraits;

template <>
struct ScalarTraits<float> {
    static constexpr DtypeInfo info{TDLS_FLOAT32, 4, 4, false, "FLOAT32", 's'};
};
template <>
struct ScalarTraits<double> {
    static constexpr DtypeInfo info{TDLS_FLOAT64, 8, 8, false, "FLOAT64", 'd'};
};
template <>
struct ScalarTraits<complex_float> {
    static constexpr DtypeInfo info{TDLS_COMPLEX64, 8, 4, true, "COMPLEX64", 'c'};
};
template <>
struct ScalarTraits<complex_double> {
    static constexpr DtypeInfo info{TDLS_COMPLEX128, 16, 8, true, "COMPLEX128", 'z'};
};

/// The type the GPU kernels compute a T in: T itself for a real type,
/// ComplexPair (device-usable, same layout) for std::complex. The plugins key
/// their tables by T; their kernels view the caller's buffers as
/// device_scalar_t<T>.
template <typename T>
struct device_scalar {
    using type = T;
};
template <typename R>
struct device_scalar<std::complex<R>> {
    using type = ComplexPair<R>;
};
template <typename T>
using device_scalar_t = typename device_scalar<T>::type;
static_assert(sizeof(device_scalar_t<complex_double>) == sizeof(complex_double) &&
              alignof(device_scalar_t<complex_double>) <= alignof(complex_double));

/// The C ABI value of T.
template <typename T>
inline constexpr tdls_dtype_t dtype_of = ScalarTraits<T>::info.dtype;

// The traits agree with the C++ types they describe.
template <typename T>
constexpr bool traits_match() noexcept {
    constexpr DtypeInfo i = ScalarTraits<T>::info;
    return i.bytes == int(sizeof(T)) && i.real_bytes == int(sizeof(real_type_t<T>)) &&
           i.complex == is_complex_scalar_v<T> && i.bytes == (i.complex ? 2 : 1) * i.real_bytes;
}
static_assert(traits_match<float>() && traits_match<double>() && traits_match<complex_float>() &&
              traits_match<complex_double>());

/// Every value of tdls_dtype_t, whatever this build compiled kernels for.
inline constexpr DtypeInfo all_dtypes[] = {ScalarTraits<float>::info, ScalarTraits<double>::info,
                                           ScalarTraits<complex_float>::info,
                                           ScalarTraits<complex_double>::info};

/// The entry of a tdls_dtype_t value; null for a value that is none (read
/// from a caller, it may be anything).
constexpr const DtypeInfo* find_dtype(tdls_dtype_t dtype) noexcept {
    for (const DtypeInfo& i : all_dtypes)
        if (i.dtype == dtype) return &i;
    return nullptr;
}

/// Bytes of one element of dtype; 0 for a value that is no tdls_dtype_t.
constexpr int element_bytes(tdls_dtype_t dtype) noexcept {
    const DtypeInfo* i = find_dtype(dtype);
    return i == nullptr ? 0 : i->bytes;
}

} // namespace kernels
} // namespace tdls
