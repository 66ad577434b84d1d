// libtdls: the warp kernels (one and two rows per lane) and the block
// kernels, one per type the GPU plugins take
// (TDLS_GPU_TYPES of kernels/instances.cmake) and layout; compiled as CUDA
// here and as HIP through block_kernels.hip.
#include <tdls/generated/instances.hpp>

#include "kernels.cuh"

using namespace tdls::scalar_names; // the type names of kernels/instances.cmake

#define TDLS_GPU_INSTANTIATE_BLOCK(T)                                                                        \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_warp<T, false>(                            \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&); \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_warp<T, true>(                             \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&); \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<T, false>(                           \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&); \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<T, true>(                            \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&);
TDLS_GPU_TYPES(TDLS_GPU_INSTANTIATE_BLOCK)
#undef TDLS_GPU_INSTANTIATE_BLOCK
