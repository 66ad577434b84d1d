// libtdls fuzzing: the memory a strided call (tdls_batched_gesv, getrf,
// getrs) may touch, and shrinking a valid call until that memory and its
// work fit the caps of batch.hpp. Shared by fuzz_gesv_strided and
// fuzz_getrs, whose operands are laid out alike.
#pragma once

#include <algorithm>
#include <cstdint>

#include "batch.hpp"
#include "contract.hpp"
#include "input.hpp"

namespace tdls_fuzz {

/// Elements the contract lets a strided call touch: system s's operand at
/// s*stride, the last one lda*n (ldb*columns, n) long.
inline Footprints strided_footprints(const CallShape& c) {
    Footprints f;
    if (c.batch <= 0) return f;
    const auto span = [&](std::int64_t stride, std::int64_t last) {
        return saturated_add(saturated_mul(c.batch - 1, stride), last);
    };
    f.A = span(c.strideA, saturated_mul(c.lda, c.n));
    f.ipiv = span(c.strideIpiv, c.n);
    f.B = c.has_b() ? span(c.strideB, saturated_mul(c.ldb, c.b_columns())) : 0;
    f.info = c.batch;
    return f;
}

/// Shrinks a valid strided call until its operands and its work fit the
/// caps, keeping it valid: leading dimensions and strides towards their
/// minimum, then nrhs, then the batch.
inline void fit_strided(CallShape& c) {
    c.batch = std::min(c.batch, batch_cap);
    for (;;) {
        const Footprints f = strided_footprints(c);
        const bool too_big = f.A > element_cap || f.B > element_cap || f.ipiv > element_cap ||
                             saturated_mul(c.batch, work_of(c.n, c.has_b() ? c.nrhs : 0)) > work_cap;
        if (!too_big) return;
        // ldb and strideB only where the call has a B: getrf's are not
        // checked, so any value (ldb * columns down to INT64_MIN) is valid
        // there and no footprint depends on them.
        if (shrink_towards(c.lda, c.n) || (c.has_b() && shrink_towards(c.ldb, c.row_major() ? c.nrhs : c.n)))
            continue;
        if (c.batch > 1 &&
            (shrink_towards(c.strideA, saturated_mul(c.lda, c.n)) || shrink_towards(c.strideIpiv, c.n) ||
             (c.has_b() && shrink_towards(c.strideB, saturated_mul(c.ldb, c.b_columns())))))
            continue;
        if (!shrink_nrhs_then_batch(c.nrhs, c.batch)) return; // n <= order_cap: cannot happen
    }
}

} // namespace tdls_fuzz
