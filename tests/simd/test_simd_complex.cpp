// The complex SIMD kernel (kernels/cpu/simd/complex_lu.hpp) against the
// cooperative solver on std::complex, bit for bit, with 16- and 64-byte
// vectors: the same cases as the real tiles (simd_tile_cases.hpp).
#include <complex>

#define TDLS_TILE_TEST_TYPES std::complex<float>, std::complex<double>

#define TDLS_SIMD_ISA test_complex_16
#define TDLS_SIMD_BYTES 16
#define TDLS_TILE_TEST_WIDTH "16-byte vectors, complex"
#include "simd_tile_cases.hpp"
