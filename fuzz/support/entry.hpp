// libtdls fuzzing: the body of LLVMFuzzerTestOneInput that the compute
// harnesses share: decode the call, then run it in the element type its
// dtype names. A refused dtype runs as double: its buffers are never read.
#pragma once

#include <tdls/tdls.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "input.hpp"

namespace tdls_fuzz {

/// Runs run(std::type_identity<T>{}) in the element type of dtype: float,
/// double, std::complex of either; double for any value that is no type.
template <typename Run>
void in_element_type(std::int32_t dtype, Run&& run) {
    switch (dtype) {
    case TDLS_FLOAT32:
        return run(std::type_identity<float>{});
    case TDLS_COMPLEX64:
        return run(std::type_identity<std::complex<float>>{});
    case TDLS_COMPLEX128:
        return run(std::type_identity<std::complex<double>>{});
    default:
        return run(std::type_identity<double>{});
    }
}

/// Decode: Call(Input&). DtypeOf: std::int32_t(const Call&). Run: a generic
/// callable (std::type_identity<T>, Call&, Input&) that runs the harness's
/// run<T>.
template <typename Decode, typename DtypeOf, typename Run>
int test_one_input(const std::uint8_t* data, std::size_t size, Decode decode, DtypeOf dtype_of, Run run) {
    Input in(data, size);
    auto call = decode(in);
    in_element_type(dtype_of(call), [&](auto type) { run(type, call, in); });
    return 0;
}

} // namespace tdls_fuzz
