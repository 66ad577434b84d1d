// libtdls: the host functions that launch the GPU kernels, declared for the
// plugin's dispatch table; defined in kernels.cuh and instantiated once each
// by the generated sources (register kernels, from kernels/instances.cmake)
// and block_kernels.cu (warp and block kernels).
#pragma once

#include <cstdint>

#include <tdls/core/math.hpp>

#include "gpu_runtime.hpp"
#include "launch.hpp"

namespace tdls::kernels::gpu {

/// Where a launch goes: the stream, its device (current when the launcher
/// runs) and the device's opt-in shared memory per block, to which a kernel's
/// limit is raised once per device when its blocks need more than the default.
struct LaunchSite {
    gpu_runtime::Stream stream;
    int device;
    std::int64_t shared_memory_limit;
};

/// Enqueues the whole grid (one or several launches) on the site's stream;
/// returns the first error of this call's own runtime calls.
using Launcher = gpu_runtime::Error (*)(const GpuLaunch&, const runtime::Grid&, const LaunchSite&);

/// The register kernel of order N (launch.plan sizes it).
template <typename T, int N, bool RowMajor>
gpu_runtime::Error launch_register(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site);

/// The warp kernel of launch.warp_plan's rows per thread (the plan sizes it).
template <typename T, bool RowMajor>
gpu_runtime::Error launch_warp(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site);

/// The block kernel (launch.block_plan sizes it).
template <typename T, bool RowMajor>
gpu_runtime::Error launch_block(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site);

/// Rows per thread compiled into the register kernel of order N for the
/// warp size and register file the plugin was built for (TDLS_GPU_WARP_SIZE,
/// TDLS_GPU_MAX_REGISTERS); the plugin uses a register kernel only where the
/// device's plan picks the same.
template <typename T, int N>
inline constexpr int compiled_rows_per_thread =
    runtime::choose_rows_per_thread(N, int(sizeof(T)), TDLS_GPU_WARP_SIZE, TDLS_GPU_MAX_REGISTERS,
                                    is_complex_scalar_v<T>);

} // namespace tdls::kernels::gpu
