// libtdls: where a compute call runs, decided from the handle's backend and
// from where its operands live (the residency rule of tdls.h): CUDA device or
// managed memory -> CUDA, HIP device memory -> HIP, anything else -> CPU.
// Each usable GPU plugin is asked about each operand's base address (its
// table's locate entry); nothing is dereferenced.
#pragma once

#include <string>

#include <tdls/tdls.h>

#include "common/batch_accessor.hpp"

namespace tdls::runtime {

struct Context;

struct Placement {
    tdls_backend_t backend = TDLS_BACKEND_CPU; ///< CPU, CUDA or HIP
    int device = 0;                            ///< device ordinal of a GPU backend
    /// A failure found on the way (operands in different places, a GPU
    /// backend unavailable, host memory for a GPU handle); raised by the
    /// caller after the argument checks, so that those keep their order.
    tdls_status_t problem = TDLS_SUCCESS;
    std::string why;
};

/// The placement of a call on `context` with these operands.
Placement place(const Context& context, const kernels::BatchOperands& ops);

} // namespace tdls::runtime
