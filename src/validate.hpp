// libtdls: argument validation of the compute calls, in the order tdls.h
// documents (after the handle): dtype, layout, signs, leading dimensions,
// strides and block, NULL operands, supported order, getrs's pivots. The
// first failure throws its status and a message naming the argument and its
// value. Nothing is written; only pointer arrays and getrs's pivots are read.
#pragma once

#include <tdls/tdls.h>

#include "common/batch_call.hpp"

namespace tdls::runtime {

/// Validates a call whose operands were gathered from the C arguments.
void validate(const char* function, tdls_dtype_t dtype, tdls_layout_t layout, const kernels::BatchCall& call);

} // namespace tdls::runtime
