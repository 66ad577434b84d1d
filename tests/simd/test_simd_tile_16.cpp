// The SIMD kernels with 16-byte vectors against the cooperative solver.
#define TDLS_SIMD_ISA test_width_16
#define TDLS_SIMD_BYTES 16
#define TDLS_TILE_TEST_WIDTH "16-byte vectors"
#include "simd_tile_cases.hpp"
