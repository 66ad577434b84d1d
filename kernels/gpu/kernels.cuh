// libtdls: the GPU kernels and their launchers: thin shells that compute the
// thread's block and rank and call the host-device drivers. Compiled as CUDA
// (.cu) and as HIP (.hip including the same text).
#pragma once

#include "../common/scalar_type.hpp"
#include "block_driver.hpp"
#include "launchers.hpp"
#include "once_per_device.hpp"
#include "pivot_search.hpp"
#include "register_driver.hpp"
#include "warp_driver.hpp"

namespace tdls::kernels::gpu {

/// The block's dynamic shared memory, on a 16-byte boundary (plan.hpp's
/// workspace_alignment_bytes).
TDLS_DEVICE inline unsigned char* dynamic_shared() {
    extern __shared__ __align__(16) unsigned char tdls_dynamic_shared[];
    return tdls_dynamic_shared;
}

/// Index of this block in the launch, x fastest (make_grid's convention).
TDLS_DEVICE inline std::int64_t linear_block() {
    return std::int64_t(blockIdx.y) * std::int64_t(gridDim.x) + std::int64_t(blockIdx.x);
}

/// The lanes of the block kernels' groups, which are whole blocks: the block
/// barrier and the warp shuffle of pivot_search.hpp. Host-device, so that the
/// solver's barrier concept holds in every pass; only device code calls it.
struct DeviceLanes {
    unsigned mask; ///< the lanes of this thread's warp that exist (the block's last warp may be short)

    TDLS_HOST_DEVICE void barrier() const {
#if defined(TDLS_DEVICE_PASS)
        __syncthreads();
#endif
    }
    template <typename V>
    TDLS_HOST_DEVICE V shuffle_down(V value, int delta) const {
#if defined(TDLS_DEVICE_PASS_CUDA)
        return __shfl_down_sync(mask, value, unsigned(delta));
#elif defined(TDLS_DEVICE_PASS_HIP)
        return __shfl_down(value, unsigned(delta)); // a wavefront has no mask
#else
        (void)delta;
        return value;
#endif
    }
};

/// The mask of the lanes of this thread's warp in a block of `threads`.
TDLS_DEVICE inline unsigned lanes_of_my_warp(int threads) {
    const int first = int(threadIdx.x) / target::warp_size * target::warp_size;
    const int lanes = threads - first;
    return lanes >= 32 ? ~0u : (1u << lanes) - 1u; // CUDA's 32-lane masks; HIP ignores it
}

// Launch bounds: the largest block each kernel's plan makes, and at least one
// resident block per multiprocessor. Without the second bound ptxas aims at
// an occupancy of its own choosing and spills to reach it: on sm_90 the
// block kernel (bound 1024) came out at 32 registers with 192 bytes of spill
// stores (double, row-major), the two-row warp kernel at 80 registers with
// 112 bytes; with it, 64 and 108 registers and no spill (nvcc 13 -Xptxas -v,
// docs/gpu.md). Occupancy is then the plan's: its blocks, registers and
// shared memory (tests/device/roofline.cpp estimates it per instance).
inline constexpr int min_resident_blocks = 1;

// The plan never makes a register block larger than target_block_threads.
template <typename T, int N, bool RowMajor>
__global__ void __launch_bounds__(runtime::target_block_threads, min_resident_blocks)
    register_kernel(GpuLaunch launch) {
    RegisterDriver<T, N, compiled_rows_per_thread<T, N>, RowMajor>::run(launch, linear_block(), int(threadIdx.x),
                                                                        dynamic_shared());
}

// Groups inside warps, R rows per lane in shared memory; blocks of at most
// target_block_threads (runtime::make_warp_plan).
template <typename T, int R, bool RowMajor>
__global__ void __launch_bounds__(runtime::target_block_threads, min_resident_blocks) warp_kernel(GpuLaunch launch) {
    WarpDriver<T, R, RowMajor>::run(launch, linear_block(), int(threadIdx.x), dynamic_shared());
}

// R rows per thread (runtime::make_block_plan): one up to the type's bound
// (runtime::block_kernel_threads: 1024 = TDLS_MAX_ORDER, the largest block of
// every GPU; 512 for complex double, whose rows need more than 64 registers),
// two past it.
template <typename T, int R, bool RowMajor>
__global__ void __launch_bounds__(runtime::block_kernel_threads(int(sizeof(T))), min_resident_blocks)
    block_kernel(GpuLaunch launch) {
    BlockGroupBarrier<target::warp_size, DeviceLanes> barrier{DeviceLanes{lanes_of_my_warp(int(blockDim.x))}};
    BlockDriver<T, R, RowMajor>::run(launch, linear_block(), int(threadIdx.x), dynamic_shared(), barrier);
}

/// Launches Kernel over the grid, one launch after the other, each with its
/// first system. A block that needs more than the default 48 KiB of dynamic
/// shared memory needs the kernel's limit raised on the device: done once per
/// device and kernel, to the device's opt-in maximum (once_per_device.hpp).
/// Each launch goes through the runtime's launch call, whose status is that
/// launch's own: reading the last error after a `<<<>>>` launch could report
/// an earlier, unchecked error of the caller's work as ours.
template <auto Kernel>
gpu_runtime::Error launch_grid(GpuLaunch launch, const runtime::Grid& grid, int threads, std::int64_t shared_bytes,
                               const LaunchSite& site) {
    constexpr std::int64_t default_shared_bytes = 48 * 1024;
    const void* const kernel = reinterpret_cast<const void*>(Kernel);
    if (shared_bytes > default_shared_bytes) {
        static OncePerDevice raised;
        gpu_runtime::Error e = gpu_runtime::success;
        const bool done = raised.ensure(site.device, [&] {
            e = gpu_runtime::allow_shared_memory(kernel, int(site.shared_memory_limit));
            return e == gpu_runtime::success;
        });
        if (!done) {
            (void)gpu_runtime::last_error(); // the failure is reported as ours: leave no error behind
            return e;
        }
    }
    const dim3 blocks(unsigned(grid.blocks_x), unsigned(grid.blocks_y));
    void* arguments[] = {&launch};
    for (std::int64_t l = 0; l < grid.launches; ++l) {
        launch.first_system = l * grid.systems_per_launch;
        const gpu_runtime::Error e =
            gpu_runtime::launch_kernel(kernel, blocks, dim3(unsigned(threads)), arguments, size_t(shared_bytes),
                                       site.stream);
        if (e != gpu_runtime::success) {
            (void)gpu_runtime::last_error();
            return e;
        }
    }
    return gpu_runtime::success;
}

// The launchers take the plugin's table type T; the kernels compute in its
// device type (ComplexPair for std::complex, scalar_type.hpp).
template <typename T, int N, bool RowMajor>
gpu_runtime::Error launch_register(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site) {
    if constexpr (compiled_rows_per_thread<T, N> == 0) {
        // No rows per thread fit the register budget (complex double past 16 on NVIDIA): the plan never
        // picks this order's register kernel (the table's rows_per_thread 0 matches no plan), so none is
        // compiled; the warp kernel serves the order.
        (void)launch, (void)grid, (void)site;
        return gpu_runtime::invalid_value;
    } else {
        return launch_grid<register_kernel<device_scalar_t<T>, N, RowMajor>>(launch, grid, launch.plan.block_size,
                                                                             launch.plan.shared_memory_bytes, site);
    }
}

template <typename T, bool RowMajor>
gpu_runtime::Error launch_block(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site) {
    using D = device_scalar_t<T>;
    const runtime::BlockPlan& plan = launch.block_plan;
    if (plan.rows_per_thread == 1)
        return launch_grid<block_kernel<D, 1, RowMajor>>(launch, grid, plan.threads, plan.shared_memory_bytes, site);
    // Two rows per thread only past the kernel's bound, which is below
    // TDLS_MAX_ORDER for complex double alone: the other types compile no
    // such kernel.
    if constexpr (runtime::block_kernel_threads(int(sizeof(D))) < TDLS_MAX_ORDER) {
        if (plan.rows_per_thread == 2)
            return launch_grid<block_kernel<D, 2, RowMajor>>(launch, grid, plan.threads, plan.shared_memory_bytes,
                                                             site);
    }
    return gpu_runtime::invalid_value;
}

template <typename T, bool RowMajor>
gpu_runtime::Error launch_warp(const GpuLaunch& launch, const runtime::Grid& grid, const LaunchSite& site) {
    const runtime::Plan& groups = launch.warp_plan.groups;
    if (groups.rows_per_thread == 1)
        return launch_grid<warp_kernel<device_scalar_t<T>, 1, RowMajor>>(launch, grid, groups.block_size,
                                                                         groups.shared_memory_bytes, site);
    return launch_grid<warp_kernel<device_scalar_t<T>, 2, RowMajor>>(launch, grid, groups.block_size,
                                                                     groups.shared_memory_bytes, site);
}

} // namespace tdls::kernels::gpu

/// One explicit instantiation line of a generated source.
#define TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)                                                                \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_register<T, N, ROW_MAJOR>(                  \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&);
#define TDLS_CUDA_INSTANTIATE(T, N, ROW_MAJOR) TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)
#define TDLS_HIP_INSTANTIATE(T, N, ROW_MAJOR) TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)
