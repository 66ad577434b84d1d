// libtdls GPU plugin: the compute entry of the plugin table (plugin_abi.h).
#pragma once

#include <cstddef>

#include "backends/plugin/plugin_abi.h"

namespace tdls::gpu_plugin {

/// tdls_plugin_table::solve: enqueues the call, returns a tdls_status_t value.
int solve(const tdls_plugin_call* call, char* message, std::size_t message_size) noexcept;

} // namespace tdls::gpu_plugin
