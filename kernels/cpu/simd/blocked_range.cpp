// libtdls: the blocked per-system kernel (blocked_lu.hpp) of one instruction
// set; compiled into each SIMD object library with that ISA's flags.
#include "blocked_lu.hpp"

TDLS_BLOCKED_INSTANTIATE(float, false)
TDLS_BLOCKED_INSTANTIATE(float, true)
TDLS_BLOCKED_INSTANTIATE(double, false)
TDLS_BLOCKED_INSTANTIATE(double, true)
