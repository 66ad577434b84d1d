// libtdls: the one path every compute call of the C ABI takes: handle,
// validation, quick returns, backend, kernel, run.
#pragma once

#include <tdls/tdls.h>

#include "common/batch_call.hpp"

namespace tdls::runtime {

/// Runs a call whose operands were gathered from the C arguments. Throws
/// Error on any failure, before any operand is written.
void solve(const char* function, tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
           kernels::BatchCall call);

} // namespace tdls::runtime
