// libtdls: portability macros shared by every device-callable header.
#pragma once

#include <cstdint>

#include <tdls/core/target.hpp>

/// Marks a function callable from host and device code.
#if defined(TDLS_COMPILER_GPU)
#define TDLS_HOST_DEVICE __host__ __device__
#define TDLS_DEVICE __device__
#else
#define TDLS_HOST_DEVICE
#define TDLS_DEVICE
#endif

/// Forces inlining on GPU compilers, where the rows of a thread live in
/// registers only if every index into them is a constant after inlining. On the
/// CPU the compiler's own judgement is better, so it is a plain `inline`.
#if defined(TDLS_COMPILER_GPU)
#define TDLS_FORCE_INLINE_GPU __forceinline__
#else
#define TDLS_FORCE_INLINE_GPU inline
#endif

/// No-alias qualifier for operand pointers (never for the shared workspace).
#define TDLS_RESTRICT __restrict__

/// Offset of element `e` of an operand walked with `stride`, in 64-bit
/// arithmetic: batches of many systems overflow 32-bit offsets. `stride` 1 is
/// an array of structures (AoS), the batch size a structure of arrays (SoA), a
/// block width W the AoSoA layout.
#define TDLS_STRIDED(e, stride) (static_cast<std::int64_t>(e) * static_cast<std::int64_t>(stride))

/// Stops the program on a broken precondition that no status can report
/// (a device group straddling a warp): a trap on GPU, abort on the host.
#if defined(TDLS_DEVICE_PASS_CUDA)
#define TDLS_TRAP() __trap()
#elif defined(TDLS_DEVICE_PASS_HIP)
#define TDLS_TRAP() __builtin_trap()
#else
#define TDLS_TRAP() __builtin_trap()
#endif

namespace tdls {

/// Value of a compile-time stride template argument meaning "use the runtime
/// stride argument instead". A zero stride would put every element of an
/// operand at one address, so it can never be a real stride.
inline constexpr std::int64_t dynamic_stride = 0;

} // namespace tdls
