// MAGMA's queue getters looked up with dlsym(RTLD_DEFAULT): whichever MAGMA
// (CUDA or HIP build) the program loaded answers; none is linked here.
#include "queue.hpp"

#include <dlfcn.h>

namespace tdls::magma {

namespace {

using StreamGetter = void* (*)(magma_queue_t);       // cudaStream_t / hipStream_t are pointers
using DeviceGetter = magma_int_t (*)(magma_queue_t); // magma_device_t is magma_int_t

template <typename Function>
Function find(const char* name) {
    return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
}

} // namespace

QueueTarget read_queue(magma_queue_t queue) {
    QueueTarget target;
    StreamGetter stream = find<StreamGetter>("magma_queue_get_cuda_stream");
    target.backend = TDLS_BACKEND_CUDA;
    if (stream == nullptr) {
        stream = find<StreamGetter>("magma_queue_get_hip_stream");
        target.backend = TDLS_BACKEND_HIP;
    }
    if (stream == nullptr) return QueueTarget{};
    target.readable = true;
    target.stream = stream(queue);
    if (const DeviceGetter device = find<DeviceGetter>("magma_queue_get_device"))
        target.device = int(device(queue));
    target.sync = find<QueueSync>("magma_queue_sync_internal");
    return target;
}

} // namespace tdls::magma
