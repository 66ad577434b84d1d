// The stream-ordering probe's kernel (see delayed_copy.hpp). The only device
// code of the suite: everything else is host code calling the runtime.
#include "delayed_copy.hpp"

#include <cstdint>

namespace tdls_device {

namespace {

__device__ unsigned long long global_nanoseconds() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

__global__ void delayed_copy_kernel(std::uint32_t* destination, const std::uint32_t* source,
                                    std::size_t words, unsigned long long delay_ns) {
    // Each block waits from its own start, so the copy ends at least
    // delay_ns after the kernel began, however the blocks are scheduled.
    if (delay_ns > 0) {
        if (threadIdx.x == 0) {
            const unsigned long long until = global_nanoseconds() + delay_ns;
            while (global_nanoseconds() < until) __nanosleep(1000);
        }
        __syncthreads();
    }
    const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t w = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; w < words; w += step)
        destination[w] = source[w];
}

} // namespace

cudaError_t enqueue_delayed_copy(void* destination, const void* source, std::size_t bytes,
                                 unsigned long long delay_ns, cudaStream_t stream) {
    const std::size_t words = bytes / 4;
    if (words == 0 && delay_ns == 0) return cudaSuccess;
    constexpr unsigned threads = 256;
    const std::size_t wanted = (words + threads - 1) / threads;
    const unsigned blocks = unsigned(wanted < 2048 ? (wanted > 0 ? wanted : 1) : 2048);
    delayed_copy_kernel<<<blocks, threads, 0, stream>>>(
        static_cast<std::uint32_t*>(destination), static_cast<const std::uint32_t*>(source), words, delay_ns);
    return cudaGetLastError();
}

} // namespace tdls_device
