// libtdls GPU plugin: what the plan needs to know of each device, read from
// the runtime once per device per process.
#pragma once

#include <string>

#include "plan.hpp"

namespace tdls::gpu_plugin {

struct DeviceInfo {
    runtime::DeviceProperties properties; ///< properties.name points into name
    std::string name;
    bool valid = false;    ///< false: the runtime could not describe the device
    std::string problem;   ///< why not, when !valid
};

/// Devices the runtime sees (0 on any runtime error, with the reason).
int device_count(std::string* reason);

/// device_count, asked once per process: the number of devices does not change.
int devices();

/// The description of device ordinal `device` (0 <= device < device_count()),
/// read on the first call for that device; thread-safe.
const DeviceInfo& device_info(int device);

/// 32-bit registers one thread may address on a device of this runtime: 255
/// on every NVIDIA GPU since Kepler, 512 on CDNA2/CDNA3 (gfx90a, gfx94x:
/// architectural and accumulation registers), 256 on other AMD GPUs. The
/// runtimes do not report it.
int max_registers_per_thread(const std::string& architecture);

} // namespace tdls::gpu_plugin
