// The suite's names and sizes of the four scalar types, from the library's
// own table (kernels/common/scalar_type.hpp): the sweep's case labels, the
// model's and the benchmark's rows.
#pragma once

#include <cstddef>

#include <tdls/tdls.h>

#include "common/scalar_type.hpp"

namespace tdls_device {

/// "float", "double", "complex float", "complex double"; "?" for a value that is none.
inline const char* type_name(tdls_dtype_t dtype) {
    switch (dtype) {
    case TDLS_FLOAT32:
        return "float";
    case TDLS_FLOAT64:
        return "double";
    case TDLS_COMPLEX64:
        return "complex float";
    case TDLS_COMPLEX128:
        return "complex double";
    }
    return "?";
}

/// Bytes of one element (complex: both parts); 0 for a value that is no type.
inline std::size_t element_bytes(tdls_dtype_t dtype) {
    return std::size_t(tdls::kernels::element_bytes(dtype));
}

/// Whether dtype is complex: 4 real flops per complex multiply-add pair, as
/// LAPACK counts them.
inline bool is_complex(tdls_dtype_t dtype) {
    const tdls::kernels::DtypeInfo* info = tdls::kernels::find_dtype(dtype);
    return info != nullptr && info->complex;
}

/// Bytes of one real part: which of the device's peaks applies.
inline std::size_t real_bytes(tdls_dtype_t dtype) {
    const tdls::kernels::DtypeInfo* info = tdls::kernels::find_dtype(dtype);
    return info == nullptr ? 0 : std::size_t(info->real_bytes);
}

} // namespace tdls_device
