// CUDA runtime helpers of the suite. Every failing runtime call throws, with
// the call's text and the error's name: a check must never go on with a
// buffer that was not really uploaded or fetched.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/plan.hpp"

namespace tdls_device {

/// Device 0 as the plugin's plan sees it (kernels/gpu/device_properties.hpp).
tdls::runtime::DeviceProperties device0_properties();

/// A CUDA runtime failure outside the library under test.
class CudaFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Throws CudaFailure naming `what` unless status is cudaSuccess.
void cuda_check(cudaError_t status, const char* what);

#define TDLS_DEVICE_CUDA(call) ::tdls_device::cuda_check((call), #call)

/// Device memory of an exact size (never rounded up: compute-sanitizer's
/// memcheck then sees every access past an operand), freed on scope exit.
class DeviceMemory {
  public:
    DeviceMemory() = default;
    explicit DeviceMemory(std::size_t bytes);
    ~DeviceMemory();
    DeviceMemory(DeviceMemory&& other) noexcept;
    DeviceMemory& operator=(DeviceMemory&& other) noexcept;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    void* get() const { return pointer_; }
    std::size_t bytes() const { return bytes_; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(pointer_);
    }

  private:
    void* pointer_ = nullptr;
    std::size_t bytes_ = 0;
};

/// A stream that does not synchronize with the legacy default stream, so
/// that work the library wrongly enqueues elsewhere is not ordered by luck.
class Stream {
  public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }

  private:
    cudaStream_t stream_ = nullptr;
};

class Event {
  public:
    Event();
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }

  private:
    cudaEvent_t event_ = nullptr;
};

/// A device copy of `host`, uploaded synchronously.
template <typename E>
DeviceMemory to_device(const std::vector<E>& host) {
    DeviceMemory memory(host.size() * sizeof(E));
    if (!host.empty())
        TDLS_DEVICE_CUDA(cudaMemcpy(memory.get(), host.data(), memory.bytes(), cudaMemcpyHostToDevice));
    return memory;
}

/// The whole of `memory`, fetched synchronously (legacy default stream).
template <typename E>
std::vector<E> to_host(const DeviceMemory& memory) {
    std::vector<E> host(memory.bytes() / sizeof(E));
    if (!host.empty())
        TDLS_DEVICE_CUDA(cudaMemcpy(host.data(), memory.get(), memory.bytes(), cudaMemcpyDeviceToHost));
    return host;
}

/// Empty when device 0 is usable, else why not (any runtime error counts as
/// "no GPU": without a driver cudaGetDeviceCount answers 35, not 100).
std::string gpu_problem();

} // namespace tdls_device
