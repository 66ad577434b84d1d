// libtdls: the GPU plugins, loaded once per process at first use. Each
// backend's plugin is looked for beside libtdls.so (or in the directory named
// by the environment variable TDLS_PLUGIN_DIR), opened with dlopen, asked for
// its table (plugin_abi.h) and for its devices. Whatever fails on the way (no
// file, a missing runtime library, no entry point, another ABI version, no
// device) leaves the backend unavailable with a sentence saying why; the CPU
// backend works the same either way.
#pragma once

#include <string>

#include <tdls/tdls.h>

#include "plugin_abi.h"

namespace tdls::runtime::plugin {

/// What loading a backend's plugin found; fixed after the first call.
struct Plugin {
    const tdls_plugin_table* table = nullptr; ///< null: not loaded
    int devices = 0;                              ///< devices the plugin's runtime sees
    std::string path;                             ///< where the plugin was looked for
    std::string reason;                           ///< why it is unavailable; empty when usable
    bool usable() const noexcept { return table != nullptr && devices > 0; }
};

/// The plugin of TDLS_BACKEND_CUDA or TDLS_BACKEND_HIP, loaded on the first
/// call for that backend (thread-safe: concurrent first calls wait for one load).
const Plugin& plugin(tdls_backend_t backend);

/// The file name of a backend's plugin: libtdls_cuda.so, libtdls_hip.so.
const char* file_name(tdls_backend_t backend) noexcept;

} // namespace tdls::runtime::plugin
