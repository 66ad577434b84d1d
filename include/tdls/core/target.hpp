// libtdls: compilation target detection.
//
// The solver headers compile as plain C++ (g++, clang++), as CUDA (nvcc, which
// runs a host pass and one device pass per architecture) and as HIP (hipcc,
// clang with host and device passes). Everything target-specific in the library
// keys off the few macros defined here, so that no other header tests compiler
// macros directly.
#pragma once

// Compilers.
#if defined(__CUDACC__) && !defined(__HIP__)
#define TDLS_COMPILER_CUDA 1
#endif
#if defined(__HIP__) || defined(__HIPCC__)
#define TDLS_COMPILER_HIP 1
#endif
#if defined(TDLS_COMPILER_CUDA) || defined(TDLS_COMPILER_HIP)
#define TDLS_COMPILER_GPU 1
#endif
// nvcc brings in the CUDA runtime's declarations (__host__, threadIdx, ...)
// by itself; hipcc does not, so the headers bring in HIP's.
#if defined(TDLS_COMPILER_HIP)
#include <hip/hip_runtime.h>
#endif

// Device passes: code between #if TDLS_DEVICE_PASS and #endif runs on the GPU.
#if defined(__CUDA_ARCH__)
#define TDLS_DEVICE_PASS_CUDA 1
#endif
#if defined(__HIP_DEVICE_COMPILE__)
#define TDLS_DEVICE_PASS_HIP 1
#endif
#if defined(TDLS_DEVICE_PASS_CUDA) || defined(TDLS_DEVICE_PASS_HIP)
#define TDLS_DEVICE_PASS 1
#endif

namespace tdls::target {

/// Where the code being compiled runs.
enum class Kind { Host, CudaDevice, HipDevice };

/// The target of the current compilation pass.
#if defined(TDLS_DEVICE_PASS_CUDA)
inline constexpr Kind current = Kind::CudaDevice;
#elif defined(TDLS_DEVICE_PASS_HIP)
inline constexpr Kind current = Kind::HipDevice;
#else
inline constexpr Kind current = Kind::Host;
#endif

/// Lanes of one warp (CUDA) or wavefront (HIP) on the device being compiled
/// for; 1 on the host, where a "warp" is one thread.
#if defined(TDLS_DEVICE_PASS_CUDA)
inline constexpr int warp_size = 32;
#elif defined(TDLS_DEVICE_PASS_HIP)
#if defined(__AMDGCN_WAVEFRONT_SIZE__)
inline constexpr int warp_size = __AMDGCN_WAVEFRONT_SIZE__;
#elif defined(__AMDGCN_WAVEFRONT_SIZE)
inline constexpr int warp_size = __AMDGCN_WAVEFRONT_SIZE;
#else
inline constexpr int warp_size = 64;
#endif
#else
inline constexpr int warp_size = 1;
#endif

} // namespace tdls::target
