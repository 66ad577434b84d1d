// libtdls: one validated call as the batch drivers receive it.
#pragma once

#include "batch_accessor.hpp"

namespace tdls::kernels {

enum class Operation {
    Gesv,  ///< factor and solve; nrhs == 0 factors only
    Getrf, ///< factor
    Getrs, ///< solve from LAPACK-format factors and pivots
};

struct BatchCall {
    Operation operation = Operation::Gesv;
    BatchOperands operands;
    double pivot_threshold = 1.0; ///< relative threshold tau in (0, 1]
};

} // namespace tdls::kernels
