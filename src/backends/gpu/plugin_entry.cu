// libtdls GPU plugin: the one exported symbol, tdls_plugin_entry, and the
// table behind it (backends/plugin/plugin_abi.h). The same source builds
// libtdls_cuda.so (nvcc, static cudart) and, through plugin_entry.hip,
// libtdls_hip.so.
#include <cstdio>
#include <string>

#include "backends/plugin/plugin_abi.h"
#include "device_info.hpp"
#include "gpu_runtime.hpp"
#include "plugin_solve.hpp"

namespace {

int count_devices(char* reason, size_t reason_size) {
    try {
        std::string why;
        const int devices = tdls::gpu_plugin::device_count(&why);
        if (devices == 0 && reason != nullptr && reason_size > 0) std::snprintf(reason, reason_size, "%s", why.c_str());
        return devices;
    } catch (...) {
        return 0;
    }
}

int locate(const void* pointer, int* device) {
    if (pointer == nullptr || device == nullptr) return 0;
    return tdls::gpu_runtime::locate(pointer, device);
}

int solve(const tdls_plugin_call* call, char* message, size_t message_size) {
    return tdls::gpu_plugin::solve(call, message, message_size);
}

const tdls_plugin_table table = {
    TDLS_PLUGIN_ABI_VERSION, sizeof(tdls_plugin_table), tdls::gpu_runtime::name, count_devices, locate, solve,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const tdls_plugin_table* tdls_plugin_entry(uint32_t abi_version) {
    return abi_version == TDLS_PLUGIN_ABI_VERSION ? &table : nullptr;
}
