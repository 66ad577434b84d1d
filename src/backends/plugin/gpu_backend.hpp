// libtdls: a compute call handed to a GPU plugin (plugin_abi.h): the call
// translated into the plugin's C structure, the plugin's status and sentence
// turned into the library's error.
#pragma once

#include <tdls/tdls.h>

#include "common/batch_call.hpp"

namespace tdls::runtime {
struct Context;
}

namespace tdls::runtime::gpu {

/// Enqueues the validated call (pivot threshold included) on the device's
/// stream (context.stream) of backend CUDA or HIP; returns once enqueued.
/// Throws Error on failure.
void run(const char* function, tdls_backend_t backend, int device, tdls_dtype_t dtype,
         const kernels::BatchCall& call, const Context& context);

} // namespace tdls::runtime::gpu
