// libtdls: which backends can run, and which precompiled kernel serves a call.
// The CPU table is built from the generated instance list (kernels/
// instances.cmake); a case without an instance is a status, never a crash.
#pragma once

#include <cstdint>
#include <string>

#include <tdls/tdls.h>

#include "cpu/range_kernel.hpp"

namespace tdls::runtime {

/// 1 if calls can run on the backend now: the CPU always, a GPU backend when
/// its plugin loaded and sees a device (backends/plugin/loader.hpp).
bool backend_available(tdls_backend_t backend) noexcept;

/// Why a GPU backend is unavailable (the plugin loader's sentence); "" else.
std::string unavailable_reason(tdls_backend_t backend);

/// Devices of a usable GPU backend (0 for any other backend).
int device_count(tdls_backend_t backend);

/// The families of CPU kernels: one system per SIMD lane for each
/// instruction set (orders up to 256; past it, the instruction set's blocked
/// kernel, one system per thread), or one system per thread.
enum class CpuFamily { Scalar, SimdGeneric, SimdAvx2, SimdAvx512 };

const char* name(CpuFamily family) noexcept;

/// The family the CPU backend uses, decided once per process: the widest
/// instruction set that was built and that this machine runs, lowered by the
/// environment variable TDLS_CPU_KERNEL (avx512, avx2, generic or scalar; a
/// request the machine cannot honour falls back to the widest it can).
CpuFamily cpu_family() noexcept;

/// The CPU kernel for (dtype, layout, n) in `family`: the static instance of
/// order n if one was compiled, else the dynamic one; run null if neither
/// exists. Orders past the SIMD tiles' 256 go to the family's blocked
/// kernel (or, where none was built, to the scalar family).
kernels::cpu::CpuKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n,
                                   CpuFamily family = cpu_family()) noexcept;

} // namespace tdls::runtime
