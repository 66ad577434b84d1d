// libtdls: argument validation (see validate.hpp and tdls.h for the order).
#include "validate.hpp"

#include <cstdint>
#include <limits>

#include "common/pivots.hpp"
#include "status.hpp"

namespace tdls::runtime {

namespace {

using kernels::BatchCall;
using kernels::BatchForm;
using kernels::BatchOperands;
using kernels::Operation;

/// a * b, saturated at the int64 maximum: a footprint that does not fit is
/// larger than any stride.
std::int64_t saturated_product(std::int64_t a, std::int64_t b) {
    std::int64_t product;
    if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<std::int64_t>::max();
    return product;
}

void check_dtype(const char* function, tdls_dtype_t dtype) {
    switch (dtype) {
    case TDLS_FLOAT32:
    case TDLS_FLOAT64:
        return;
    case TDLS_COMPLEX64:
    case TDLS_COMPLEX128:
        fail(TDLS_ERROR_NOT_SUPPORTED, function, "dtype (", int(dtype),
             ", complex) is not supported by this build; TDLS_FLOAT32 and TDLS_FLOAT64 are");
    }
    fail(TDLS_ERROR_INVALID_VALUE, function, "dtype (", int(dtype), ") is not a tdls_dtype_t");
}

void check_layout(const char* function, tdls_layout_t layout) {
    if (layout != TDLS_COL_MAJOR && layout != TDLS_ROW_MAJOR)
        fail(TDLS_ERROR_INVALID_VALUE, function, "layout (", int(layout), ") is not a tdls_layout_t");
}

void check_signs(const char* function, const BatchOperands& ops, bool has_nrhs) {
    if (ops.n < 0) fail(TDLS_ERROR_INVALID_VALUE, function, "n (", ops.n, ") < 0");
    if (has_nrhs && ops.nrhs < 0) fail(TDLS_ERROR_INVALID_VALUE, function, "nrhs (", ops.nrhs, ") < 0");
    if (ops.batch < 0) fail(TDLS_ERROR_INVALID_VALUE, function, "batch (", ops.batch, ") < 0");
}

void check_leading_dimensions(const char* function, const BatchOperands& ops, bool has_b) {
    if (ops.form == BatchForm::Interleaved) return; // packed by definition
    if (ops.lda < ops.n) fail(TDLS_ERROR_INVALID_VALUE, function, "lda (", ops.lda, ") < n (", ops.n, ")");
    if (!has_b) return;
    if (ops.row_major) {
        if (ops.ldb < ops.nrhs)
            fail(TDLS_ERROR_INVALID_VALUE, function, "ldb (", ops.ldb, ") < nrhs (", ops.nrhs,
                 ") for a row-major B");
    } else if (ops.ldb < ops.n) {
        fail(TDLS_ERROR_INVALID_VALUE, function, "ldb (", ops.ldb, ") < n (", ops.n, ")");
    }
}

void check_strides(const char* function, const BatchOperands& ops, bool has_b) {
    if (ops.form == BatchForm::Interleaved) {
        if (ops.block < 1) fail(TDLS_ERROR_INVALID_VALUE, function, "block (", ops.block, ") < 1");
        return;
    }
    if (ops.form != BatchForm::Strided) return;
    const std::int64_t a_footprint = saturated_product(ops.lda, ops.n);
    if (ops.strideA < a_footprint)
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideA (", ops.strideA, ") < lda*n (", ops.lda, "*", ops.n,
             ")");
    if (ops.ipiv != nullptr && ops.strideIpiv < ops.n)
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideIpiv (", ops.strideIpiv, ") < n (", ops.n, ")");
    if (!has_b) return;
    const std::int64_t columns = ops.row_major ? ops.n : ops.nrhs;
    if (ops.strideB < saturated_product(ops.ldb, columns))
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideB (", ops.strideB, ") < ldb*",
             ops.row_major ? "n" : "nrhs", " (", ops.ldb, "*", columns, ")");
}

void check_pointers(const char* function, const BatchCall& call, bool has_b, bool host_readable) {
    const BatchOperands& ops = call.operands;
    if (ops.batch == 0 || ops.n == 0) return;
    const bool needs_b = has_b && ops.nrhs > 0;
    const bool needs_info = call.operation != Operation::Getrs;
    const bool needs_ipiv = call.operation == Operation::Getrs;
    if (ops.form == BatchForm::Pointers) {
        if (ops.A_array == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "A_array is NULL");
        if (needs_ipiv && ops.ipiv_array == nullptr)
            fail(TDLS_ERROR_INVALID_VALUE, function, "ipiv_array is NULL");
        if (needs_b && ops.B_array == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "B_array is NULL");
    } else {
        if (ops.A == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "A is NULL");
        if (needs_ipiv && ops.ipiv == nullptr)
            fail(TDLS_ERROR_INVALID_VALUE, function, "ipiv is NULL; tdls_batched_getrs needs the pivots");
        if (needs_b && ops.B == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "B is NULL");
    }
    if (needs_info && ops.info == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "info is NULL");
    if (ops.form != BatchForm::Pointers || !host_readable) return;
    for (std::int64_t s = 0; s < ops.batch; ++s) {
        if (ops.A_array[s] == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "A_array[", s, "] is NULL");
        if (ops.ipiv_array != nullptr && ops.ipiv_array[s] == nullptr)
            fail(TDLS_ERROR_INVALID_VALUE, function, "ipiv_array[", s, "] is NULL");
        if (needs_b && ops.B_array[s] == nullptr)
            fail(TDLS_ERROR_INVALID_VALUE, function, "B_array[", s, "] is NULL");
    }
}

void check_order_supported(const char* function, const BatchOperands& ops) {
    if (ops.n > TDLS_MAX_ORDER)
        fail(TDLS_ERROR_NOT_SUPPORTED, function, "n (", ops.n, ") > ", TDLS_MAX_ORDER,
             ", the largest order this build solves");
}

/// getrs reads pivots as row indices: one outside 1..n would address memory
/// outside the system, so every system is checked before any is solved.
void check_pivot_values(const char* function, const BatchOperands& ops) {
    const int n = static_cast<int>(ops.n);
    for (std::int64_t s = 0; s < ops.batch; ++s) {
        const kernels::PivotView pivots = kernels::pivots_of(ops, s);
        const std::int32_t* ipiv = pivots.data;
        const std::int64_t step = pivots.step;
        const int k = kernels::first_invalid_pivot(ipiv, step, n);
        if (k >= 0)
            fail(TDLS_ERROR_INVALID_VALUE, function, "ipiv of system ", s, ": entry ", k, " is ",
                 ipiv[k * step], ", outside 1..n (1..", n, ")");
    }
}

} // namespace

void validate(const char* function, tdls_dtype_t dtype, tdls_layout_t layout, const BatchCall& call,
              bool host_readable) {
    const BatchOperands& ops = call.operands;
    const bool has_b = call.operation != Operation::Getrf;
    check_dtype(function, dtype);
    check_layout(function, layout);
    check_signs(function, ops, has_b);
    check_leading_dimensions(function, ops, has_b);
    check_strides(function, ops, has_b);
    check_pointers(function, call, has_b, host_readable);
    check_order_supported(function, ops);
    if (call.operation == Operation::Getrs && ops.n > 0 && host_readable) check_pivot_values(function, ops);
}

} // namespace tdls::runtime
