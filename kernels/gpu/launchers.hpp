// libtdls: the host functions that launch the GPU kernels, declared for the
// plugin's dispatch table; defined in kernels.cuh and instantiated once each
// by the generated sources (register kernels, from kernels/instances.cmake)
// and block_kernels.cu (block kernels).
#pragma once

#include "gpu_runtime.hpp"
#include "launch.hpp"

namespace tdls::kernels::gpu {

/// Enqueues the whole grid (one or several launches) on the stream; returns
/// the runtime's first error.
using Launcher = gpu_runtime::Error (*)(const GpuLaunch&, const runtime::Grid&, gpu_runtime::Stream);

/// The register kernel of order N (launch.plan sizes it).
template <typename T, int N, bool RowMajor>
gpu_runtime::Error launch_register(const GpuLaunch& launch, const runtime::Grid& grid, gpu_runtime::Stream stream);

/// The block kernel (launch.block_plan sizes it).
template <typename T, bool RowMajor>
gpu_runtime::Error launch_block(const GpuLaunch& launch, const runtime::Grid& grid, gpu_runtime::Stream stream);

/// Rows per thread compiled into the register kernel of order N for the
/// warp size and register file the plugin was built for (TDLS_GPU_WARP_SIZE,
/// TDLS_GPU_MAX_REGISTERS); the plugin uses a register kernel only where the
/// device's plan picks the same.
template <typename T, int N>
inline constexpr int compiled_rows_per_thread =
    runtime::choose_rows_per_thread(N, int(sizeof(T)), TDLS_GPU_WARP_SIZE, TDLS_GPU_MAX_REGISTERS);

} // namespace tdls::kernels::gpu
