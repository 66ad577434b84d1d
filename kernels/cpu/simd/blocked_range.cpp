// libtdls: the blocked per-system kernel (blocked_lu.hpp) of one instruction
// set; compiled into each SIMD object library with that ISA's flags.
#include <tdls/generated/instances.hpp>

#include "blocked_lu.hpp"
#include "common/scalar_type.hpp"

using namespace tdls::scalar_names; // the type names of kernels/instances.cmake

// Both layouts of every type the blocked kernel takes (TDLS_BLOCKED_TYPES).
#define TDLS_BLOCKED_BOTH_LAYOUTS(T) TDLS_BLOCKED_INSTANTIATE(T, false) TDLS_BLOCKED_INSTANTIATE(T, true)
TDLS_BLOCKED_TYPES(TDLS_BLOCKED_BOTH_LAYOUTS)
#undef TDLS_BLOCKED_BOTH_LAYOUTS
