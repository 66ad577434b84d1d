// libtdls: the GPU kernels and their launchers: thin shells that compute the
// thread's block and rank and call the host-device drivers. Compiled as CUDA
// (.cu) and as HIP (.hip including the same text).
#pragma once

#include "block_driver.hpp"
#include "launchers.hpp"
#include "register_driver.hpp"

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

/// The barrier of the block kernels' groups, which are whole blocks.
/// Host-device, so that the solver's barrier concept holds in every pass;
/// only device code calls it.
struct BlockBarrier {
    TDLS_HOST_DEVICE void operator()() const {
#if defined(TDLS_DEVICE_PASS)
        __syncthreads();
#endif
    }
};

// The plan never makes a register block larger than target_block_threads.
template <typename T, int N, bool RowMajor>
__global__ void __launch_bounds__(runtime::target_block_threads) register_kernel(GpuLaunch launch) {
    RegisterDriver<T, N, compiled_rows_per_thread<T, N>, RowMajor>::run(launch, linear_block(), int(threadIdx.x),
                                                                        dynamic_shared());
}

// One thread per row, up to TDLS_MAX_ORDER = the largest block of every GPU.
template <typename T, bool RowMajor>
__global__ void __launch_bounds__(1024) block_kernel(GpuLaunch launch) {
    BlockBarrier barrier;
    BlockDriver<T, RowMajor>::run(launch, linear_block(), int(threadIdx.x), dynamic_shared(), barrier);
}

/// Launches kernel over the grid, one launch after the other, each with its
/// first system; raises the kernel's shared-memory limit first when the
/// block needs more than the default 48 KiB.
template <typename Kernel>
gpu_runtime::Error launch_grid(Kernel kernel, GpuLaunch launch, const runtime::Grid& grid, int threads,
                               std::int64_t shared_bytes, gpu_runtime::Stream stream) {
    constexpr std::int64_t default_shared_bytes = 48 * 1024;
    if (shared_bytes > default_shared_bytes) {
        const gpu_runtime::Error e = gpu_runtime::allow_shared_memory(kernel, int(shared_bytes));
        if (e != gpu_runtime::success) return e;
    }
    const dim3 blocks(unsigned(grid.blocks_x), unsigned(grid.blocks_y));
    for (std::int64_t l = 0; l < grid.launches; ++l) {
        launch.first_system = l * grid.systems_per_launch;
        kernel<<<blocks, unsigned(threads), size_t(shared_bytes), stream>>>(launch);
        const gpu_runtime::Error e = gpu_runtime::last_error();
        if (e != gpu_runtime::success) return e;
    }
    return gpu_runtime::success;
}

template <typename T, int N, bool RowMajor>
gpu_runtime::Error launch_register(const GpuLaunch& launch, const runtime::Grid& grid, gpu_runtime::Stream stream) {
    return launch_grid(register_kernel<T, N, RowMajor>, launch, grid, launch.plan.block_size,
                       launch.plan.shared_memory_bytes, stream);
}

template <typename T, bool RowMajor>
gpu_runtime::Error launch_block(const GpuLaunch& launch, const runtime::Grid& grid, gpu_runtime::Stream stream) {
    return launch_grid(block_kernel<T, RowMajor>, launch, grid, launch.block_plan.threads,
                       launch.block_plan.shared_memory_bytes, stream);
}

} // namespace tdls::kernels::gpu

/// One explicit instantiation line of a generated source.
#define TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)                                                                \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_register<T, N, ROW_MAJOR>(                  \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, tdls::gpu_runtime::Stream);
#define TDLS_CUDA_INSTANTIATE(T, N, ROW_MAJOR) TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)
#define TDLS_HIP_INSTANTIATE(T, N, ROW_MAJOR) TDLS_GPU_INSTANTIATE(T, N, ROW_MAJOR)
