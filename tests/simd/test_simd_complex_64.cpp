// The complex SIMD kernel with 64-byte vectors (see test_simd_complex.cpp).
#include <complex>

#define TDLS_TILE_TEST_TYPES std::complex<float>, std::complex<double>

#define TDLS_SIMD_ISA test_complex_64
#define TDLS_SIMD_BYTES 64
#define TDLS_TILE_TEST_WIDTH "64-byte vectors, complex"
#include "simd_tile_cases.hpp"
