// libtdls: which backends can run, and which precompiled kernel serves a call.
// The CPU table is built from the generated instance list (kernels/
// instances.cmake); a case without an instance is a status, never a crash.
#pragma once

#include <cstdint>

#include <tdls/tdls.h>

#include "cpu/range_kernel.hpp"

namespace tdls::runtime {

/// 1 if calls can run on the backend now. GPU backends arrive as plugins.
bool backend_available(tdls_backend_t backend) noexcept;

/// The backend that runs a call made under `requested` (AUTO: decided by
/// where the operands live). Throws BACKEND_UNAVAILABLE.
tdls_backend_t resolve_backend(const char* function, tdls_backend_t requested);

/// The CPU kernel for (dtype, layout, n): the static instance of order n if
/// one was compiled, else the dynamic one; null if neither exists.
kernels::cpu::RangeKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n) noexcept;

} // namespace tdls::runtime
