// libtdls GPU plugin: device descriptions (see device_info.hpp).
#include "device_info.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "device_properties.hpp"

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
    info.properties = gpu_runtime::plan_properties(p);
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

} // namespace tdls::gpu_plugin
