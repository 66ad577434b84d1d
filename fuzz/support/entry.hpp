// libtdls fuzzing: the body of LLVMFuzzerTestOneInput that the compute
// harnesses share: decode the call, then run it in the element type it
// names. A refused dtype runs as double: its buffers are never read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "input.hpp"

namespace tdls_fuzz {

/// Decode: Call(Input&). IsFloat: bool(const Call&). RunFloat, RunDouble:
/// void(Call&, Input&), the harness's run<float> and run<double>.
template <typename Decode, typename IsFloat, typename RunFloat, typename RunDouble>
int test_one_input(const std::uint8_t* data, std::size_t size, Decode decode, IsFloat is_float,
                   RunFloat run_float, RunDouble run_double) {
    Input in(data, size);
    auto call = decode(in);
    if (is_float(call))
        run_float(call, in);
    else
        run_double(call, in);
    return 0;
}

} // namespace tdls_fuzz
