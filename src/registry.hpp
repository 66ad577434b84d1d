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
/// kernel, one system per thread), or one system per thread; the vector ones
/// in order of width. GpuReference stands apart: the one-system-per-thread
/// solver with the GPU kernels' fused multiply-adds, whose results are the
/// GPU plugins' bit for bit, chosen only by name (TDLS_CPU_KERNEL=
/// gpu_reference) and never by the library.
enum class CpuFamily { Scalar, SimdGeneric, SimdAvx2, SimdAvx512, GpuReference };

const char* name(CpuFamily family) noexcept;

/// The family the CPU backend uses, decided once per process: the widest
/// instruction set that was built and that this machine runs, lowered by the
/// environment variable TDLS_CPU_KERNEL (avx512, avx2, generic or scalar; a
/// request the machine cannot honour falls back to the widest it can), or
/// GpuReference where that variable says gpu_reference.
CpuFamily cpu_family() noexcept;

/// Whether the processor executes each 512-bit instruction as two 256-bit
/// halves (AMD family 19h with AVX-512: Zen 4), decided once per process.
bool splits_512_bit_vectors() noexcept;

/// The order from which systems of dtype go to the family's blocked kernel
/// rather than the SIMD tiles: for real types kernels::cpu::simd::
/// blocked_from, past the tiles (max_order + 1) for complex ones (no
/// blocked kernel) and on AMD family 19h, where the tiles were measured
/// ahead of the one-level blocked kernel up to 256 and the packed one was
/// not measured.
int blocked_from_order(tdls_dtype_t dtype) noexcept;

/// The inputs of the family a call takes (family_for).
struct FamilyChoice {
    CpuFamily family; ///< cpu_family()
    bool requested;   ///< TDLS_CPU_KERNEL named a family: it is kept as it is
    bool splits_512;  ///< splits_512_bit_vectors()
    bool avx2_usable; ///< the AVX2 family was built and runs here
};

/// The family for a call of dtype: `choice.family`, except that complex
/// calls on a processor that splits 512-bit vectors take AVX2 when nothing
/// was requested: on Zen 4 the AVX2 complex kernels ran 1.07-1.35x as fast
/// as the AVX-512 ones from n = 16 to 128 and as fast at 8 (twice the tile
/// for the same arithmetic throughput; docs/cpu_simd.md).
CpuFamily family_for(tdls_dtype_t dtype, const FamilyChoice& choice) noexcept;

/// family_for with this process's choice.
CpuFamily cpu_family(tdls_dtype_t dtype) noexcept;

/// The CPU kernel for (dtype, layout, n) in `family`: the static instance of
/// order n if one was compiled, else the dynamic one; run null if neither
/// exists. Real orders from blocked_from_order(dtype) on go to the family's
/// blocked kernel where it has one, in every batch form (so that a system's
/// bits do not depend on the form); every order past the SIMD tiles' 256
/// goes to it or, where none was built (complex), to the scalar family.
kernels::cpu::CpuKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n,
                                   CpuFamily family) noexcept;

/// The kernel of a call: cpu_kernel in cpu_family(dtype).
kernels::cpu::CpuKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n) noexcept;

} // namespace tdls::runtime
