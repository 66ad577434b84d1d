// libtdls GPU plugin: what the plan needs to know of each device, read from
// the runtime once per device per process.
#pragma once

#include <string>

#include "common/plan.hpp"

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

} // namespace tdls::gpu_plugin
