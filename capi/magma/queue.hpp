// What a MAGMA queue means to libtdls: which GPU backend, which device and
// which stream. MAGMA's queue is opaque, so it is read through MAGMA's own
// getters, found in the process at run time: libtdls_magma never links MAGMA
// and works without it for host arrays.
#pragma once

#include <tdls/magma.h>
#include <tdls/tdls.h>

namespace tdls::magma {

/// MAGMA's magma_queue_sync is a macro over this function (magma_v2.h).
using QueueSync = void (*)(magma_queue_t, const char* func, const char* file, int line);

struct QueueTarget {
    bool readable = false; // MAGMA's getters were found in the process
    tdls_backend_t backend = TDLS_BACKEND_AUTO;
    int device = 0;
    void* stream = nullptr;    // cudaStream_t or hipStream_t
    QueueSync sync = nullptr;  // magma_queue_sync_internal, when the process has it
};

/// Reads a non-NULL queue with magma_queue_get_cuda_stream (CUDA) or
/// magma_queue_get_hip_stream (HIP) and magma_queue_get_device, and finds
/// magma_queue_sync_internal; `readable` is false when the process holds
/// neither stream getter.
QueueTarget read_queue(magma_queue_t queue);

} // namespace tdls::magma
