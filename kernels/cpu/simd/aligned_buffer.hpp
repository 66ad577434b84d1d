// libtdls: a heap array of T on a 64-byte boundary, for the blocked LU's
// matrix and packed operands (blocked_lu.hpp, packed_product.hpp). A
// std::vector of doubles is 16-byte aligned once glibc serves it from the
// heap rather than a fresh mapping (its mapping threshold rises as large
// blocks are freed), and then every vector load of a column or a packed
// panel spans two cache lines: the same binary ran n = 257 in double at 15
// GFLOP/s or 22 depending on the sizes of the small allocations made
// before it. In the ISA's namespace like all the kernels' code (lanes.hpp
// says why).
#pragma once

#include <cstddef>
#include <new>

#ifndef TDLS_SIMD_ISA
#error "TDLS_SIMD_ISA must name the instruction set of this translation unit"
#endif

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

template <typename T>
class AlignedBuffer {
  public:
    static constexpr std::size_t alignment = 64;

    /// `size` elements, uninitialised: every user writes before it reads,
    /// and zeroing the blocked LU's scratch (about 10 MiB at n = 1024, per
    /// call of the range kernel) cost as much as its stores.
    explicit AlignedBuffer(std::size_t size)
        : data_(static_cast<T*>(::operator new(size * sizeof(T), std::align_val_t(alignment)))) {}
    ~AlignedBuffer() { ::operator delete(data_, std::align_val_t(alignment)); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;

    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }

  private:
    T* data_;
};

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
