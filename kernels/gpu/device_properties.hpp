// libtdls: a GPU's properties as the plan reads them (kernels/common/plan.hpp), from the
// runtime's device description. One conversion for the plugins
// (src/backends/gpu/device_info.cu) and for the device suite, which predicts
// from the same plan which of its cases the plugin refuses by design.
#pragma once

#include <cstdint>
#include <string>

#include "gpu_runtime.hpp"
#include "common/plan.hpp"

namespace tdls::gpu_runtime {

/// 32-bit registers one thread may address on a device of this runtime: 255
/// on every NVIDIA GPU since Kepler, 512 on CDNA2/CDNA3 (gfx90a, gfx94x:
/// architectural and accumulation registers), 256 on other AMD GPUs. The
/// runtimes do not report it.
inline int max_registers_per_thread(const std::string& architecture) {
#if defined(TDLS_COMPILER_HIP)
    const bool cdna_unified = architecture.rfind("gfx90a", 0) == 0 || architecture.rfind("gfx94", 0) == 0;
    return cdna_unified ? 512 : 256;
#else
    (void)architecture;
    return 255;
#endif
}

/// The plan's view of a device; `name` stays null (the caller owns the name).
inline runtime::DeviceProperties plan_properties(const DeviceProp& p) {
    runtime::DeviceProperties d{};
    d.warp_size = p.warpSize;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.multiprocessors = p.multiProcessorCount;
    d.max_grid_x = p.maxGridSize[0];
    d.max_grid_y = p.maxGridSize[1];
#if defined(TDLS_COMPILER_HIP)
    d.vendor = runtime::Vendor::Amd;
    d.shared_memory_per_block = std::int64_t(p.sharedMemPerBlock);
    d.shared_memory_per_multiprocessor = std::int64_t(p.maxSharedMemoryPerMultiProcessor);
    d.registers_per_multiprocessor = p.regsPerBlock; // HIP 5 reports the register file per block only
    d.max_registers_per_thread = max_registers_per_thread(p.gcnArchName);
#else
    d.vendor = runtime::Vendor::Nvidia;
    // The opt-in limit: the launcher raises each kernel's limit when a block needs it.
    d.shared_memory_per_block = std::int64_t(p.sharedMemPerBlockOptin);
    d.shared_memory_per_multiprocessor = std::int64_t(p.sharedMemPerMultiprocessor);
    d.registers_per_multiprocessor = p.regsPerMultiprocessor;
    d.max_registers_per_thread = max_registers_per_thread("");
#endif
    d.cpu_threads = 0;
    return d;
}

} // namespace tdls::gpu_runtime
