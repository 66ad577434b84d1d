// libtdls: see processor.hpp.
#include "processor.hpp"

#include <cstring>

#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tdls::kernels::cpu {
namespace {

/// The family of an AMD processor as CPUID gives it (base plus extended),
/// or 0 for any other vendor.
unsigned read_amd_family() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    if (std::strcmp(vendor, "AuthenticAMD") != 0 || !__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned base = (a >> 8) & 0xF;
    return base == 0xF ? base + ((a >> 20) & 0xFF) : base;
#else
    return 0;
#endif
}

unsigned amd_family() noexcept {
    static const unsigned family = read_amd_family(); // thread-safe, once
    return family;
}

long read_l2_bytes_per_core() noexcept {
#if defined(_SC_LEVEL2_CACHE_SIZE)
    const long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (bytes > 0) return bytes;
#endif
    return 1L << 20;
}

} // namespace

long l2_bytes_per_core() noexcept {
    static const long bytes = read_l2_bytes_per_core(); // thread-safe, once
    return bytes;
}

bool amd_family_19h() noexcept { return amd_family() == 0x19; }

bool amd_family_1ah() noexcept { return amd_family() == 0x1A; }

} // namespace tdls::kernels::cpu
