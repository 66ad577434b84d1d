// libtdls: the block kernels, one per type and layout (compiled as CUDA here
// and as HIP through block_kernels.hip).
#include "kernels.cuh"

#define TDLS_GPU_INSTANTIATE_BLOCK(T, ROW_MAJOR)                                                             \
    template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<T, ROW_MAJOR>(                       \
        const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, const tdls::kernels::gpu::LaunchSite&);
TDLS_GPU_INSTANTIATE_BLOCK(float, false)
TDLS_GPU_INSTANTIATE_BLOCK(float, true)
TDLS_GPU_INSTANTIATE_BLOCK(double, false)
TDLS_GPU_INSTANTIATE_BLOCK(double, true)
#undef TDLS_GPU_INSTANTIATE_BLOCK
