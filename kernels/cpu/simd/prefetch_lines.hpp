// libtdls: software prefetch of a range of cache lines, for reading, for
// writing or for one read: every hint of the vector kernels goes through
// here, the tiles' (prefetch.hpp), the blocked kernel's interchanges, copies
// in and side-by-side moves (blocked_lu.hpp) and its product's C lines
// (packed_product.hpp); in the namespace of the translation unit's
// instruction set (TDLS_SIMD_ISA), like its callers.
#pragma once

#include <cstdint>

#ifndef TDLS_SIMD_ISA
#error "TDLS_SIMD_ISA must name the instruction set of this translation unit"
#endif

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// What a hinted line is for: read, written, or read once and not again in
/// this call (the blocked kernel's copy into its scratch, blocked_lu.hpp).
enum class LineUse { Read, Write, ReadOnce };

/// One line's hint. On x86 an asm statement: GCC 12 deletes loops whose only
/// effect is __builtin_prefetch once they are nested (none of the hints of a
/// two-level loop survived -O3), and the builtin's write hint needs
/// -mprfchw. PREFETCHW (0F 0D /1) lies in the opcode space that x86-64
/// processors without the feature execute as a no-op. On Zen 4 the write
/// hint for operands written back ran up to 3% faster than PREFETCHT0.
/// Read once: PREFETCHNTA, which brings the line close to the core while
/// keeping it out of the outer levels' places for lines in use.
template <LineUse Use>
inline void hint_line(const void* line) noexcept {
    const char* const p = static_cast<const char*>(line);
#if defined(__x86_64__) || defined(__i386__)
    if constexpr (Use == LineUse::Write)
        asm volatile("prefetchw %0" : : "m"(*p));
    else if constexpr (Use == LineUse::ReadOnce)
        asm volatile("prefetchnta %0" : : "m"(*p));
    else
        asm volatile("prefetcht0 %0" : : "m"(*p));
#else
    __builtin_prefetch(p, Use == LineUse::Write ? 1 : 0, Use == LineUse::ReadOnce ? 0 : 3);
#endif
}

/// Hints the `bytes` bytes from `first`, one hint per 64-byte line.
template <LineUse Use>
inline void hint_bytes(const void* first, std::int64_t bytes) noexcept {
    constexpr std::int64_t line = 64;
    const auto begin = reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t(line - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(first) + std::uintptr_t(bytes);
    for (std::uintptr_t p = begin; p < end; p += line) hint_line<Use>(reinterpret_cast<const void*>(p));
}

/// Prefetches the `bytes` bytes from `first` for writing (PREFETCHW where
/// the ISA has it) or reading.
template <bool Write>
inline void prefetch_bytes(const void* first, std::int64_t bytes) noexcept {
    hint_bytes<Write ? LineUse::Write : LineUse::Read>(first, bytes);
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
