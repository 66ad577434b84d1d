// libtdls: argument validation of the compute calls, in the order tdls.h
// documents (after the handle): dtype, layout, signs, leading dimensions,
// strides and block, NULL operands, supported order, getrs's pivots. The
// first failure throws its status and a message naming the argument and its
// value. Nothing is written; only host pointer arrays and getrs's host pivots
// are read.
#pragma once

#include <tdls/tdls.h>

#include "common/batch_call.hpp"

namespace tdls::runtime {

/// Validates a call whose operands were gathered from the C arguments.
/// host_readable: the operands are host memory, so the entries of pointer
/// arrays and getrs's pivots are checked too; device operands are not read
/// (the GPU kernels handle those cases per system, see tdls.h).
void validate(const char* function, tdls_dtype_t dtype, tdls_layout_t layout, const kernels::BatchCall& call,
              bool host_readable);

} // namespace tdls::runtime
