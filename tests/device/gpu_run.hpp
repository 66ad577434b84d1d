// Runs a case on the CUDA backend on device copies of its input images, in
// one of the two ways of calling the library, and fetches every buffer back.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include <tdls/tdls.h>

#include "context.hpp"
#include "cuda_support.hpp"
#include "delayed_copy.hpp"
#include "images.hpp"
#include "tdls_calls.hpp"

namespace tdls_device {

enum class Way {
    explicit_handle, // the CUDA handle, on a user stream set by tdls_set_stream
    default_context  // the NULL handle: backend AUTO must see device memory; default stream
};

/// How long the probe kernel waits before writing the operands: far longer
/// than a launch, so work enqueued out of order runs on the poison.
inline constexpr unsigned long long probe_delay_ns = 200000;

struct GpuRun {
    tdls_status_t status = TDLS_SUCCESS;
    std::string error; // tdls_last_error() when status is not TDLS_SUCCESS
};

/// The device side of a case. The operands reach their buffers on `stream`
/// through the delayed copy, after the buffers were poisoned with 0xFF bytes
/// (NaNs) on that stream, so that only a call ordered after them sees the
/// input. Results come back on the same stream (cudaMemcpyAsync, then
/// cudaStreamSynchronize) for the explicit handle, through the synchronous
/// cudaMemcpy for the default context.
template <typename T>
GpuRun run_on_gpu(const Case& c, const Geometry& g, const Images<T>& input, Images<T>& result, Way way,
                  tdls_handle_t cuda, cudaStream_t stream) {
    DeviceMemory a(input.a.size() * sizeof(T)), b(input.b.size() * sizeof(T));
    DeviceMemory ipiv(input.ipiv.size() * 4), info(input.info.size() * 4);
    DeviceMemory staged[] = {to_device(input.a), to_device(input.b), to_device(input.ipiv),
                             to_device(input.info)};
    DeviceMemory* targets[] = {&a, &b, &ipiv, &info};

    Operands operands{a.get(), ipiv.as<std::int32_t>(), b.get(), info.as<std::int32_t>()};
    DeviceMemory a_array, ipiv_array, b_array;
    if (c.form == Form::pointers) {
        const std::size_t bytes = element_bytes(c.dtype);
        a_array = to_device(system_addresses(g.a, a.get(), bytes));
        ipiv_array = to_device(system_addresses(g.ipiv, ipiv.as<std::int32_t>(), 4));
        b_array = to_device(system_addresses(g.b, b.get(), bytes));
        operands.a_array = a_array.as<void* const>();
        operands.ipiv_array = ipiv_array.as<std::int32_t* const>();
        operands.b_array = b_array.as<void* const>();
    }
    // A synchronous cudaMemcpy from pageable memory may return before its DMA
    // ends; the non-blocking stream does not wait for it.
    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());

    const cudaStream_t work = way == Way::explicit_handle ? stream : cudaStream_t(nullptr);
    unsigned long long delay = probe_delay_ns;
    for (std::size_t k = 0; k < 4; ++k) {
        TDLS_DEVICE_CUDA(cudaMemsetAsync(targets[k]->get(), 0xFF, targets[k]->bytes(), work));
        TDLS_DEVICE_CUDA(
            enqueue_delayed_copy(targets[k]->get(), staged[k].get(), targets[k]->bytes(), delay, work));
        delay = 0; // the stream orders the later copies after the first one's wait
    }

    GpuRun run;
    if (way == Way::explicit_handle) {
        run.status = tdls_set_stream(cuda, stream);
        if (run.status == TDLS_SUCCESS) run.status = call_tdls(cuda, c, g, operands);
    } else {
        run.status = call_tdls(nullptr, c, g, operands);
    }
    if (run.status != TDLS_SUCCESS) run.error = last_error_text();

    result.a.resize(input.a.size());
    result.b.resize(input.b.size());
    result.ipiv.resize(input.ipiv.size());
    result.info.resize(input.info.size());
    void* hosts[] = {result.a.data(), result.b.data(), result.ipiv.data(), result.info.data()};
    for (std::size_t k = 0; k < 4; ++k) {
        if (targets[k]->bytes() == 0) continue;
        if (way == Way::explicit_handle)
            TDLS_DEVICE_CUDA(cudaMemcpyAsync(hosts[k], targets[k]->get(), targets[k]->bytes(),
                                             cudaMemcpyDeviceToHost, stream));
        else
            TDLS_DEVICE_CUDA(
                cudaMemcpy(hosts[k], targets[k]->get(), targets[k]->bytes(), cudaMemcpyDeviceToHost));
    }
    if (way == Way::explicit_handle) TDLS_DEVICE_CUDA(cudaStreamSynchronize(stream));
    // An asynchronous fault of the library's kernels surfaces here.
    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
    return run;
}

} // namespace tdls_device
