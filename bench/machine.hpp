// This machine's limits for the roofline: FMA peak (float and double) and
// STREAM-like triad bandwidth, for each thread count of the sweep; and the
// facts printed with every run.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace bench {

struct Limits {
    double fma_double = 0, fma_float = 0; // GFLOP/s, best of AVX-512 and AVX2
    std::string fma_detail;               // each ISA's numbers
    double triad = 0;                     // GB/s, 24 bytes per element
};

/// Measures the limits on `threads` threads; triad over 3 arrays of
/// `triad_mib` MiB each.
Limits measure_limits(int threads, double triad_mib);

/// Keeps, for each field, the larger of two measurements (start and end of
/// the run: a shared machine only ever makes a limit look lower).
Limits larger(const Limits& a, const Limits& b);

/// CPU model, SIMD flags, cores, compiler; one "key: value" per line.
std::vector<std::pair<std::string, std::string>> machine_facts();

/// Bytes one system moves at the least (issue 20's traffic model). In place
/// (gesv, every peer): A read and written back as LU, B read and written as
/// X, n pivots and info written: (2 n^2 + 2 n nrhs) element_size + 4 n + 4.
/// Read-only (tdls solve): A read, B read and written, info written:
/// (n^2 + 2 n nrhs) element_size + 4.
double traffic_bytes(int n, int nrhs, std::size_t element_size, bool in_place);

/// Roofline in systems/s for order n, nrhs right-hand sides and type
/// (LAPACK's prefix s, d, c, z): min(peak / flops, triad / traffic_bytes),
/// the peak of the real type under it.
double roofline_systems_per_s(const Limits& limits, char type, int n, int nrhs, bool in_place);

/// Flops of one system as LAPACK counts them: 2/3 n^3 + 2 n^2 per
/// right-hand side, four times that for a complex type (c, z): a complex
/// multiply-add is four real ones.
double flops_per_system(char type, int n, int nrhs);

/// Bytes of one element of type s, d, c or z.
std::size_t type_element_size(char type);

/// "float", "double", "complex float", "complex double".
const char* type_name(char type);

} // namespace bench
