// The SIMD kernels with 64-byte vectors against the cooperative solver.
#define TDLS_SIMD_ISA test_width_64
#define TDLS_SIMD_BYTES 64
#define TDLS_TILE_TEST_WIDTH "64-byte vectors"
#include "simd_tile_cases.hpp"
