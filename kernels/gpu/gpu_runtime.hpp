// libtdls: the few GPU runtime calls the plugins make, under one spelling for
// CUDA and HIP, so that the plugin sources compile as both (style rule 1).
// Nothing else in the plugins names a cuda* or hip* function.
#pragma once

#include <tdls/core/target.hpp>

#if defined(TDLS_COMPILER_HIP)
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

namespace tdls::gpu_runtime {

#if defined(TDLS_COMPILER_HIP)
using Error = hipError_t;
using Stream = hipStream_t;
using DeviceProp = hipDeviceProp_t;
inline constexpr Error success = hipSuccess;
inline constexpr Error out_of_memory = hipErrorOutOfMemory;
inline constexpr Error invalid_value = hipErrorInvalidValue;
inline constexpr const char* name = "hip";
inline constexpr const char* runtime_name = "HIP";
inline Error device_count(int* count) { return hipGetDeviceCount(count); }
inline Error get_device(int* device) { return hipGetDevice(device); }
inline Error set_device(int device) { return hipSetDevice(device); }
inline Error properties(DeviceProp* p, int device) { return hipGetDeviceProperties(p, device); }
inline Error last_error() { return hipGetLastError(); }
inline const char* error_name(Error e) { return hipGetErrorName(e); }
inline const char* error_string(Error e) { return hipGetErrorString(e); }
inline Error memset_async(void* p, int value, size_t bytes, Stream s) { return hipMemsetAsync(p, value, bytes, s); }
/// Stream-ordered device memory of the plugin's own (the device's default pool).
inline Error malloc_async(void** p, size_t bytes, Stream s) { return hipMallocAsync(p, bytes, s); }
inline Error free_async(void* p, Stream s) { return hipFreeAsync(p, s); }
/// A copy between any two places the runtime knows (device, managed, host).
inline Error copy_async(void* to, const void* from, size_t bytes, Stream s) {
    return hipMemcpyAsync(to, from, bytes, hipMemcpyDefault, s);
}
/// One launch; the error is this launch's own, not an earlier one of the caller's.
inline Error launch_kernel(const void* kernel, dim3 blocks, dim3 threads, void** args, size_t shared_bytes,
                           Stream s) {
    return hipLaunchKernel(kernel, blocks, threads, args, shared_bytes, s);
}
/// 1 and the device for device or managed memory; 0 otherwise.
inline int locate(const void* p, int* device) {
    hipPointerAttribute_t a{};
    if (hipPointerGetAttributes(&a, p) != hipSuccess) {
        (void)hipGetLastError(); // host memory unknown to HIP reports an error: clear it
        return 0;
    }
#if HIP_VERSION_MAJOR >= 6
    const bool on_device = a.type == hipMemoryTypeDevice || a.type == hipMemoryTypeManaged;
#else
    const bool on_device = a.memoryType == hipMemoryTypeDevice || a.isManaged;
#endif
    if (!on_device) return 0;
    *device = a.device;
    return 1;
}
inline Error allow_shared_memory(const void* kernel, int bytes) {
    return hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
#else
using Error = cudaError_t;
using Stream = cudaStream_t;
using DeviceProp = cudaDeviceProp;
inline constexpr Error success = cudaSuccess;
inline constexpr Error out_of_memory = cudaErrorMemoryAllocation;
inline constexpr Error invalid_value = cudaErrorInvalidValue;
inline constexpr const char* name = "cuda";
inline constexpr const char* runtime_name = "CUDA";
inline Error device_count(int* count) { return cudaGetDeviceCount(count); }
inline Error get_device(int* device) { return cudaGetDevice(device); }
inline Error set_device(int device) { return cudaSetDevice(device); }
inline Error properties(DeviceProp* p, int device) { return cudaGetDeviceProperties(p, device); }
inline Error last_error() { return cudaGetLastError(); }
inline const char* error_name(Error e) { return cudaGetErrorName(e); }
inline const char* error_string(Error e) { return cudaGetErrorString(e); }
inline Error memset_async(void* p, int value, size_t bytes, Stream s) { return cudaMemsetAsync(p, value, bytes, s); }
/// Stream-ordered device memory of the plugin's own (the device's default pool).
inline Error malloc_async(void** p, size_t bytes, Stream s) { return cudaMallocAsync(p, bytes, s); }
inline Error free_async(void* p, Stream s) { return cudaFreeAsync(p, s); }
/// A copy between any two places the runtime knows (device, managed, host).
inline Error copy_async(void* to, const void* from, size_t bytes, Stream s) {
    return cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, s);
}
/// One launch; the error is this launch's own, not an earlier one of the caller's.
inline Error launch_kernel(const void* kernel, dim3 blocks, dim3 threads, void** args, size_t shared_bytes,
                           Stream s) {
    return cudaLaunchKernel(kernel, blocks, threads, args, shared_bytes, s);
}
/// 1 and the device for device or managed memory; 0 otherwise.
inline int locate(const void* p, int* device) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError(); // leave no error for the caller's next check
        return 0;
    }
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged) return 0;
    *device = a.device;
    return 1;
}
inline Error allow_shared_memory(const void* kernel, int bytes) {
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
#endif

} // namespace tdls::gpu_runtime
