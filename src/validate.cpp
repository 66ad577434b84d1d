// libtdls: argument validation (see validate.hpp and tdls.h for the order).
#include "validate.hpp"

#include <cstdint>

#include <tdls/generated/instances.hpp>

#include "common/pivots.hpp"
#include "common/scalar_type.hpp"
#include "status.hpp"

namespace tdls::runtime {

namespace {

using kernels::BatchCall;
using kernels::BatchForm;
using kernels::BatchOperands;
using kernels::Operation;

/// int64 arithmetic that remembers an overflow instead of wrapping (UB) or
/// saturating (a saturated footprint compares equal to a saturated stride):
/// once a step overflows, the result does not fit, whatever follows.
class Checked {
  public:
    constexpr Checked(std::int64_t value) noexcept : value_(value) {} // NOLINT: implicit on purpose
    bool fits() const noexcept { return fits_; }
    std::int64_t value() const noexcept { return value_; }

    friend Checked operator+(Checked a, Checked b) noexcept {
        std::int64_t r = 0;
        const bool overflow = __builtin_add_overflow(a.value_, b.value_, &r);
        return combine(a, b, overflow, r);
    }
    friend Checked operator-(Checked a, Checked b) noexcept {
        std::int64_t r = 0;
        const bool overflow = __builtin_sub_overflow(a.value_, b.value_, &r);
        return combine(a, b, overflow, r);
    }
    friend Checked operator*(Checked a, Checked b) noexcept {
        std::int64_t r = 0;
        const bool overflow = __builtin_mul_overflow(a.value_, b.value_, &r);
        return combine(a, b, overflow, r);
    }

  private:
    static Checked combine(Checked a, Checked b, bool overflow, std::int64_t r) noexcept {
        Checked c(r);
        c.fits_ = a.fits_ && b.fits_ && !overflow;
        if (!c.fits_) c.value_ = 0;
        return c;
    }
    std::int64_t value_;
    bool fits_ = true;
};

/// Whether `elements` elements of `size` bytes, counted from an operand's
/// base, can be addressed: every byte offset of the footprint, its end
/// included, is an int64 (hence also a ptrdiff_t and no wrap of the address).
bool addressable(Checked elements, std::int64_t size) noexcept {
    return (elements * size).fits();
}

/// Whether this build compiled kernels of the type (kernels/instances.cmake).
bool built(tdls_dtype_t dtype) noexcept {
#define TDLS_IS_BUILT_TYPE(T) dtype == kernels::dtype_of<T> ||
    return TDLS_INSTANCE_TYPES(TDLS_IS_BUILT_TYPE) false;
#undef TDLS_IS_BUILT_TYPE
}

void check_dtype(const char* function, tdls_dtype_t dtype) {
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    if (info == nullptr) fail(TDLS_ERROR_INVALID_VALUE, function, "dtype (", int(dtype), ") is not a tdls_dtype_t");
    if (!built(dtype))
        fail(TDLS_ERROR_NOT_SUPPORTED, function, "dtype (TDLS_", info->name, ") is not supported by this build");
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
    // A product that overflows exceeds every stride.
    const Checked a_footprint = Checked(ops.lda) * ops.n;
    if (!a_footprint.fits() || ops.strideA < a_footprint.value())
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideA (", ops.strideA, ") < lda*n (", ops.lda, "*", ops.n,
             ")");
    if (ops.ipiv != nullptr && ops.strideIpiv < ops.n)
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideIpiv (", ops.strideIpiv, ") < n (", ops.n, ")");
    if (!has_b) return;
    const std::int64_t columns = ops.row_major ? ops.n : ops.nrhs;
    const Checked b_footprint = Checked(ops.ldb) * columns;
    if (!b_footprint.fits() || ops.strideB < b_footprint.value())
        fail(TDLS_ERROR_INVALID_VALUE, function, "strideB (", ops.strideB, ") < ldb*",
             ops.row_major ? "n" : "nrhs", " (", ops.ldb, "*", columns, ")");
}

/// One system's extent in elements: from its first element to the end of
/// its last, rows x columns with leading dimension ld (ld >= rows >= 1).
Checked system_extent(std::int64_t rows, std::int64_t columns, std::int64_t ld) noexcept {
    return (Checked(columns) - 1) * ld + rows;
}

/// The extent of `batch` systems of `elements` elements each, interleaved in
/// blocks: element e of system s at (s / block) * block * E + e * block +
/// s % block (tdls.h), the last system's last element last.
Checked interleaved_extent(std::int64_t batch, std::int64_t block, Checked elements) noexcept {
    const std::int64_t last = batch - 1;
    return Checked(last / block * block) * elements + (elements - 1) * block + (last % block + 1);
}

/// Every byte offset the kernels may form must exist: the end of the last
/// element of the last system of every operand, in bytes, is an int64.
/// Validated here, the kernels' offsets (s * stride, first * n * n,
/// i * ld + j, e * block) are each at most that and cannot overflow. Nothing
/// is addressed when batch or n is 0 (or, for B, nrhs).
void check_footprints(const char* function, const BatchCall& call, std::int64_t size, bool has_b) {
    const BatchOperands& ops = call.operands;
    if (ops.batch == 0 || ops.n == 0) return;
    const std::int64_t n = ops.n;
    const bool uses_b = has_b && ops.nrhs > 0;
    // B's rows and columns as stored: n x nrhs column-major, nrhs per row of n rows row-major.
    const std::int64_t b_rows = ops.row_major ? ops.nrhs : n;
    const std::int64_t b_columns = ops.row_major ? n : ops.nrhs;
    const auto too_large = [&](const char* operand, auto&&... why) {
        fail(TDLS_ERROR_INVALID_VALUE, function, why..., ": the footprint of ", operand, " (", size,
             "-byte elements) has byte offsets beyond INT64_MAX, memory that cannot exist");
    };
    if (ops.form == BatchForm::Interleaved) {
        const Checked a_elements = Checked(n) * n;
        if (!addressable(interleaved_extent(ops.batch, ops.block, a_elements), size))
            too_large("A", "batch (", ops.batch, "), block (", ops.block, ") and n (", n, ")");
        if (ops.ipiv != nullptr && !addressable(interleaved_extent(ops.batch, ops.block, n), 4))
            too_large("ipiv", "batch (", ops.batch, "), block (", ops.block, ") and n (", n, ")");
        if (uses_b && !addressable(interleaved_extent(ops.batch, ops.block, Checked(n) * ops.nrhs), size))
            too_large("B", "batch (", ops.batch, "), block (", ops.block, "), n (", n, ") and nrhs (", ops.nrhs,
                      ")");
    } else {
        // One system first, blamed on its leading dimension; then the batch,
        // blamed on the stride (strided form only: pointer arrays place each
        // system on its own).
        const Checked a_system = system_extent(n, n, ops.lda);
        if (!addressable(a_system, size)) too_large("A", "lda (", ops.lda, ") with n (", n, ")");
        const bool has_ipiv = ops.form == BatchForm::Strided ? ops.ipiv != nullptr : ops.ipiv_array != nullptr;
        if (has_ipiv && !addressable(n, 4)) too_large("ipiv", "n (", n, ")");
        const Checked b_system = system_extent(b_rows, b_columns, ops.ldb);
        if (uses_b && !addressable(b_system, size))
            too_large("B", "ldb (", ops.ldb, ") with ", ops.row_major ? "n (" : "nrhs (", b_columns, ")");
        if (ops.form == BatchForm::Strided) {
            const Checked systems_before_last = ops.batch - 1;
            if (!addressable(systems_before_last * ops.strideA + a_system, size))
                too_large("A", "strideA (", ops.strideA, ") with batch (", ops.batch, ")");
            if (has_ipiv && !addressable(systems_before_last * ops.strideIpiv + n, 4))
                too_large("ipiv", "strideIpiv (", ops.strideIpiv, ") with batch (", ops.batch, ")");
            if (uses_b && !addressable(systems_before_last * ops.strideB + b_system, size))
                too_large("B", "strideB (", ops.strideB, ") with batch (", ops.batch, ")");
        }
    }
    // info[s] and the pointer arrays hold one entry per system.
    const bool has_info = call.operation != Operation::Getrs;
    if (has_info && !addressable(ops.batch, 4)) too_large("info", "batch (", ops.batch, ")");
    if (ops.form == BatchForm::Pointers && !addressable(ops.batch, std::int64_t(sizeof(void*))))
        too_large("the pointer arrays", "batch (", ops.batch, ")");
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
    check_footprints(function, call, kernels::element_bytes(dtype), has_b);
    check_pointers(function, call, has_b, host_readable);
    check_order_supported(function, ops);
    if (call.operation == Operation::Getrs && ops.n > 0 && host_readable) check_pivot_values(function, ops);
}

} // namespace tdls::runtime
