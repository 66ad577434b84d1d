// libtdls GPU plugin: device descriptions (see device_info.hpp).
#include "device_info.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "gpu_runtime.hpp"

namespace tdls::gpu_plugin {

namespace {

DeviceInfo describe(int device) {
    DeviceInfo info;
    gpu_runtime::DeviceProp p{};
    const gpu_runtime::Error e = gpu_runtime::properties(&p, device);
    if (e != gpu_runtime::success) {
        (void)gpu_runtime::last_error();
        info.problem = std::string(gpu_runtime::error_name(e)) + ": " + gpu_runtime::error_string(e);
        return info;
    }
    info.name = p.name;
    runtime::DeviceProperties& d = info.properties;
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
    info.valid = true;
    return info;
}

struct Slot {
    std::once_flag once;
    DeviceInfo info;
};

} // namespace

int device_count(std::string* reason) {
    int count = 0;
    const gpu_runtime::Error e = gpu_runtime::device_count(&count);
    if (e != gpu_runtime::success) {
        (void)gpu_runtime::last_error();
        // Any error means no usable GPU: without a driver CUDA says 35, HIP 100.
        *reason = std::string(gpu_runtime::runtime_name) + " device count: " + gpu_runtime::error_name(e) + " (" +
                  std::to_string(int(e)) + "): " + gpu_runtime::error_string(e);
        return 0;
    }
    if (count <= 0) *reason = std::string(gpu_runtime::runtime_name) + " reports no device";
    return count > 0 ? count : 0;
}

int devices() {
    static const int count = [] {
        std::string ignored;
        return device_count(&ignored);
    }();
    return count;
}

const DeviceInfo& device_info(int device) {
    static const std::unique_ptr<Slot[]> slots(new Slot[std::size_t(std::max(1, devices()))]);
    Slot& slot = slots[std::size_t(device)];
    std::call_once(slot.once, [&] {
        slot.info = describe(device);
        slot.info.properties.name = slot.info.name.c_str();
    });
    return slot.info;
}

int max_registers_per_thread(const std::string& architecture) {
#if defined(TDLS_COMPILER_HIP)
    const bool cdna_unified = architecture.rfind("gfx90a", 0) == 0 || architecture.rfind("gfx94", 0) == 0;
    return cdna_unified ? 512 : 256;
#else
    (void)architecture;
    return 255;
#endif
}

} // namespace tdls::gpu_plugin
