// libtdls: one validated call as the batch drivers receive it.
#pragma once

#include "batch_accessor.hpp"

namespace tdls::kernels {

enum class Operation {
    Gesv,  ///< factor and solve; nrhs == 0 factors only
    Getrf, ///< factor
    Getrs, ///< solve from LAPACK-format factors and pivots
    Solve, ///< gesv's X and info with A read-only: factors in scratch, no pivots
};

/// Whether the operation writes the caller's A (and pivots): gesv and getrf
/// do; getrs and solve only read A.
TDLS_HOST_DEVICE constexpr bool writes_factors(Operation operation) noexcept {
    return operation == Operation::Gesv || operation == Operation::Getrf;
}

struct BatchCall {
    Operation operation = Operation::Gesv;
    BatchOperands operands;
    double pivot_threshold = 1.0; ///< relative threshold tau in (0, 1]
};

} // namespace tdls::kernels
