// Eigen's fixed-size PartialPivLU, compiled once per x86-64 ISA level into
// its own shared library (CMake: tdls_bench_eigen_{base,v3,v4}). Each library
// hides every Eigen symbol, so the AVX-512 copy of a template can never stand
// in for the baseline copy; only these entry points are exported.
#pragma once

#include <cstdint>

namespace bench {

/// Solves systems [begin, end) of a column-major strided batch of order n in
/// place: B_s (n x nrhs, ldb = n) becomes X_s; A is only read.
using EigenRange = void (*)(int nrhs, const void* A, void* B, std::int64_t begin, std::int64_t end);

/// The compiled function for order n, or null when n is not among the
/// compiled sizes. `simd` receives Eigen's version and
/// Eigen::SimdInstructionSetsInUse().
using EigenLookup = EigenRange (*)(int n, const char** simd);

} // namespace bench

#define TDLS_BENCH_EIGEN_DECLARE(isa)                                                                        \
    extern "C" bench::EigenRange tdls_bench_eigen_##isa##_double(int n, const char** simd);                  \
    extern "C" bench::EigenRange tdls_bench_eigen_##isa##_float(int n, const char** simd);                   \
    extern "C" bench::EigenRange tdls_bench_eigen_##isa##_complex_double(int n, const char** simd);          \
    extern "C" bench::EigenRange tdls_bench_eigen_##isa##_complex_float(int n, const char** simd);

// CMake defines TDLS_BENCH_EIGEN_HAVE_<level> for each level it builds.
#ifdef TDLS_BENCH_EIGEN_HAVE_base
TDLS_BENCH_EIGEN_DECLARE(base)
#endif
#ifdef TDLS_BENCH_EIGEN_HAVE_v3
TDLS_BENCH_EIGEN_DECLARE(v3)
#endif
#ifdef TDLS_BENCH_EIGEN_HAVE_v4
TDLS_BENCH_EIGEN_DECLARE(v4)
#endif
