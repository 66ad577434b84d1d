// The stream-ordering probe: operands reach their buffers through a kernel
// that first waits, enqueued on the stream the library is told to use. A
// library that runs on another stream, or does not wait for the caller's
// earlier work, then reads the poison left in the buffers instead of the
// input, and its results differ from the CPU backend's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace tdls_device {

/// Enqueues on `stream`: every block waits `delay_ns` nanoseconds, then the
/// kernel copies `bytes` (a multiple of 4) from `source` to `destination`.
/// Returns the launch status.
cudaError_t enqueue_delayed_copy(void* destination, const void* source, std::size_t bytes,
                                 unsigned long long delay_ns, cudaStream_t stream);

} // namespace tdls_device
