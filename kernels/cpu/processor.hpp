// libtdls: facts about the processor that CPUID does not state as a feature
// flag, for the choices the kernels and the runtime make by measurement.
// Declared here, defined in processor.cpp, compiled without any ISA's flags:
// an inline definition would be compiled into every ISA's objects as a weak
// symbol, and the linker could keep the AVX-512 copy for every caller.
#pragma once

namespace tdls::kernels::cpu {

/// Whether this is an AMD family 19h processor (Zen 3, Zen 4). Where it also
/// runs AVX-512 it is a Zen 4, whose 512-bit instructions execute as two
/// 256-bit halves and whose gathers and scatters are slow; CPUID has no flag
/// for either. Read once per process.
bool amd_family_19h() noexcept;

/// Whether this is an AMD family 1Ah processor (Zen 5). Read once per
/// process.
bool amd_family_1ah() noexcept;

/// The L2 cache of one core in bytes, as the C library reads it from CPUID
/// (sysconf), or 1 MiB where it does not say. Read once per process.
long l2_bytes_per_core() noexcept;

} // namespace tdls::kernels::cpu
