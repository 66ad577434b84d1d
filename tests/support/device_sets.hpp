// Test support: the properties of real devices, as their vendors publish them
// and as cudaGetDeviceProperties / hipGetDeviceProperties report them, for
// testing the plan without the devices.
//
// Sources:
// - NVIDIA: CUDA C++ Programming Guide, "Compute Capabilities" (technical
//   specifications per compute capability: 32 lanes, 1024 threads per block,
//   65536 32-bit registers per SM, 255 registers per thread, grid x 2^31 - 1,
//   grid y 65535; shared memory opt-in per block 163 KiB on 8.0, 227 KiB on
//   9.0, out of 164 KiB / 228 KiB per SM); NVIDIA A100 and H100 / H200
//   datasheets and the Hopper tuning guide (108 SMs on A100, 132 SMs on
//   H100 SXM5 and H200).
// - AMD: ROCm documentation, "GPU hardware specifications" (MI250X: CDNA2
//   gfx90a, 110 CUs per GCD, wavefront 64, 64 KiB LDS, 512 KiB VGPR file per
//   CU; RX 7900 XTX: RDNA3 gfx1100, 96 CUs, wave32, 128 KiB LDS per work-group
//   processor of two CUs, 384 KiB VGPR file per CU); AMD Instinct MI200 ISA
//   (512 VGPRs per lane, architectural and accumulation registers unified);
//   RDNA3 ISA (v0..v255 addressable per lane); rocminfo (work-group at most
//   1024 work-items; a grid dimension at most 2^32 - 1 work-items).
#pragma once

#include <array>
#include <cstdint>

#include "common/plan.hpp"

namespace tdls_test::devices {

using tdls::runtime::DeviceProperties;
using tdls::runtime::Vendor;

inline constexpr std::int64_t cuda_max_grid_x = 2147483647; // 2^31 - 1 blocks
inline constexpr std::int64_t cuda_max_grid_y = 65535;
// HSA counts a grid dimension in work-items, at most 2^32 - 1; in blocks of up
// to 1024 work-items that is 4194303 blocks whatever the block size.
inline constexpr std::int64_t hip_max_grid_x = 4294967295 / 1024;
// HSA allows more along y; 65535 keeps one conservative value for both vendors.
inline constexpr std::int64_t hip_max_grid_y = 65535;

/// H100 SXM5, compute capability 9.0.
inline constexpr DeviceProperties h100_sxm{.vendor = Vendor::Nvidia,
                                           .name = "NVIDIA H100 SXM5",
                                           .warp_size = 32,
                                           .max_threads_per_block = 1024,
                                           .shared_memory_per_block = 232448,          // 227 KiB opt-in
                                           .shared_memory_per_multiprocessor = 233472, // 228 KiB
                                           .registers_per_multiprocessor = 65536,
                                           .max_registers_per_thread = 255,
                                           .multiprocessors = 132,
                                           .max_grid_x = cuda_max_grid_x,
                                           .max_grid_y = cuda_max_grid_y,
                                           .cpu_threads = 0};

/// H200 (SXM), compute capability 9.0: the H100's SM and SM count, more memory.
inline constexpr DeviceProperties h200{.vendor = Vendor::Nvidia,
                                       .name = "NVIDIA H200",
                                       .warp_size = 32,
                                       .max_threads_per_block = 1024,
                                       .shared_memory_per_block = 232448,
                                       .shared_memory_per_multiprocessor = 233472,
                                       .registers_per_multiprocessor = 65536,
                                       .max_registers_per_thread = 255,
                                       .multiprocessors = 132,
                                       .max_grid_x = cuda_max_grid_x,
                                       .max_grid_y = cuda_max_grid_y,
                                       .cpu_threads = 0};

/// A100 (SXM4 or PCIe), compute capability 8.0.
inline constexpr DeviceProperties a100{.vendor = Vendor::Nvidia,
                                       .name = "NVIDIA A100",
                                       .warp_size = 32,
                                       .max_threads_per_block = 1024,
                                       .shared_memory_per_block = 166912,          // 163 KiB opt-in
                                       .shared_memory_per_multiprocessor = 167936, // 164 KiB
                                       .registers_per_multiprocessor = 65536,
                                       .max_registers_per_thread = 255,
                                       .multiprocessors = 108,
                                       .max_grid_x = cuda_max_grid_x,
                                       .max_grid_y = cuda_max_grid_y,
                                       .cpu_threads = 0};

/// One GCD of an MI250X (gfx90a), which HIP reports as a device of its own.
inline constexpr DeviceProperties mi250x_gcd{.vendor = Vendor::Amd,
                                             .name = "AMD Instinct MI250X (one GCD)",
                                             .warp_size = 64,
                                             .max_threads_per_block = 1024,
                                             .shared_memory_per_block = 65536,
                                             .shared_memory_per_multiprocessor = 65536,
                                             .registers_per_multiprocessor = 131072, // 512 KiB VGPR file
                                             .max_registers_per_thread = 512,
                                             .multiprocessors = 110,
                                             .max_grid_x = hip_max_grid_x,
                                             .max_grid_y = hip_max_grid_y,
                                             .cpu_threads = 0};

/// RX 7900 XTX (gfx1100) in wave32, the mode HIP compiles compute kernels in.
/// A work-group gets at most 64 KiB of the 128 KiB LDS that a work-group
/// processor shares between its two CUs.
inline constexpr DeviceProperties rx7900xtx{.vendor = Vendor::Amd,
                                            .name = "AMD Radeon RX 7900 XTX",
                                            .warp_size = 32,
                                            .max_threads_per_block = 1024,
                                            .shared_memory_per_block = 65536,
                                            .shared_memory_per_multiprocessor = 65536,
                                            .registers_per_multiprocessor = 98304, // 384 KiB VGPR file
                                            .max_registers_per_thread = 256,
                                            .multiprocessors = 96,
                                            .max_grid_x = hip_max_grid_x,
                                            .max_grid_y = hip_max_grid_y,
                                            .cpu_threads = 0};

/// Every GPU set, for tests that sweep them.
inline constexpr std::array<DeviceProperties, 5> all_gpus{h100_sxm, h200, a100, mi250x_gcd, rx7900xtx};

} // namespace tdls_test::devices
