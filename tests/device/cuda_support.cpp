// CUDA runtime helpers of the suite (see cuda_support.hpp).
#include "cuda_support.hpp"

#include "device_properties.hpp"

#include <utility>

namespace tdls_device {

void cuda_check(cudaError_t status, const char* what) {
    if (status == cudaSuccess) return;
    throw CudaFailure(std::string(what) + ": " + cudaGetErrorName(status) + " (" +
                      cudaGetErrorString(status) + ")");
}

DeviceMemory::DeviceMemory(std::size_t bytes) : bytes_(bytes) {
    // cudaMalloc(0) may hand back NULL, which the library would rightly
    // refuse as a missing operand; callers always ask for guard elements.
    if (bytes > 0) TDLS_DEVICE_CUDA(cudaMalloc(&pointer_, bytes));
}

DeviceMemory::~DeviceMemory() {
    if (pointer_ != nullptr) (void)cudaFree(pointer_); // a destructor cannot report
}

DeviceMemory::DeviceMemory(DeviceMemory&& other) noexcept
    : pointer_(std::exchange(other.pointer_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept {
    if (this != &other) {
        if (pointer_ != nullptr) (void)cudaFree(pointer_);
        pointer_ = std::exchange(other.pointer_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

Stream::Stream() {
    TDLS_DEVICE_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}
Stream::~Stream() {
    (void)cudaStreamDestroy(stream_);
}

Event::Event() {
    TDLS_DEVICE_CUDA(cudaEventCreate(&event_));
}
Event::~Event() {
    (void)cudaEventDestroy(event_);
}

std::string gpu_problem() {
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess)
        return std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(status) + " (" +
               cudaGetErrorString(status) + ", error " + std::to_string(int(status)) + ")";
    if (devices == 0) return "cudaGetDeviceCount reports no CUDA device";
    return "";
}

tdls::runtime::DeviceProperties device0_properties() {
    cudaDeviceProp p{};
    TDLS_DEVICE_CUDA(cudaGetDeviceProperties(&p, 0));
    return tdls::gpu_runtime::plan_properties(p);
}

} // namespace tdls_device
