// libtdls: the CPU kernels of the gpu_reference family (TDLS_CPU_KERNEL=
// gpu_reference): the one-system-per-thread solver with the GPU plugins'
// arithmetic, fused multiply-adds included, for every type and layout the
// GPU plugins take. It returns the GPU kernels' results bit for bit, which the
// GPU tests compare against (tests/test_gpu_driver.cpp, tests/device/); it
// is not fast (std::fma is a library call where the build does not assume
// FMA hardware) and the library never picks it by itself.
#include <tdls/generated/instances.hpp>

#include "common/scalar_type.hpp"
#include "cpu/solve_range.hpp"

using namespace tdls::scalar_names; // the type names of kernels/instances.cmake

#define TDLS_GPU_REFERENCE_INSTANTIATE(T)                                                                    \
    template void tdls::kernels::cpu::solve_range<T, 0, false, true>(const tdls::kernels::BatchCall&,         \
                                                                      std::int64_t, std::int64_t);           \
    template void tdls::kernels::cpu::solve_range<T, 0, true, true>(const tdls::kernels::BatchCall&,          \
                                                                     std::int64_t, std::int64_t);
TDLS_GPU_TYPES(TDLS_GPU_REFERENCE_INSTANTIATE)
