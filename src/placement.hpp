// libtdls: where a compute call runs, decided from the handle's backend and
// from where its operands live (the residency rule of tdls.h): CUDA device or
// managed memory -> CUDA, HIP device memory -> HIP, anything else -> CPU.
// Each usable GPU plugin is asked about each operand's base address (its
// table's locate entry); nothing is dereferenced.
#pragma once

#include <string>

#include <tdls/tdls.h>

#include "common/batch_accessor.hpp"
#include "common/batch_call.hpp"

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

/// For a call placed on the CPU with pointer arrays (host memory, validated:
/// every entry read and non-NULL): why it must be refused when an entry
/// points to GPU memory, empty otherwise. A host array of device pointers is
/// a GPU call spelled wrong; run on the CPU it would fault on the first
/// device address. Entries 0 and batch - 1 of each array are asked (two
/// runtime queries per array, not batch); an array mixing host and device
/// entries elsewhere is outside the contract and not detected.
std::string misplaced_entry(const kernels::BatchCall& call);

} // namespace tdls::runtime
