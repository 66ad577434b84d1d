// libtdls: the block kernels, one per type and layout (compiled as CUDA here
// and as HIP through block_kernels.hip).
#include "kernels.cuh"

template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<float, false>(
    const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, tdls::gpu_runtime::Stream);
template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<float, true>(
    const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, tdls::gpu_runtime::Stream);
template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<double, false>(
    const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, tdls::gpu_runtime::Stream);
template tdls::gpu_runtime::Error tdls::kernels::gpu::launch_block<double, true>(
    const tdls::kernels::gpu::GpuLaunch&, const tdls::runtime::Grid&, tdls::gpu_runtime::Stream);
