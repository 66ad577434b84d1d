// libtdls fuzzing: the status a compute call must return, worked out from the
// contract's validation rules and their order (capi.md, include/tdls/tdls.h)
// alone, not from the library's code. The harnesses compare it with what the
// library answers.
#pragma once

#include <tdls/tdls.h>

#include <cstdint>

#include "input.hpp"

namespace tdls_fuzz {

enum class Operation { Gesv, Getrf, Getrs };
enum class Form { Strided, Pointers, Interleaved };

/// The validation steps of tdls.h, in order; Valid: all passed.
enum class Stage { Handle, Dtype, Layout, Signs, LeadingDimensions, Strides, Footprints, Pointers, Order, Pivots, Valid };

/// What validation looks at: scalars, and for each operand whether it is
/// given (non-NULL); for pointer arrays whether one of the first `batch`
/// entries is NULL.
struct CallShape {
    Operation operation = Operation::Gesv;
    Form form = Form::Strided;
    bool handle_live = true; // NULL or a live handle
    std::int32_t dtype = TDLS_FLOAT64;
    std::int32_t layout = TDLS_COL_MAJOR;
    std::int64_t n = 0, nrhs = 0, batch = 0;
    std::int64_t lda = 0, ldb = 0;
    std::int64_t strideA = 0, strideIpiv = 0, strideB = 0, block = 1;
    bool A_given = true, ipiv_given = true, B_given = true, info_given = true;
    bool A_entry_null = false, ipiv_entry_null = false, B_entry_null = false;

    bool has_b() const { return operation != Operation::Getrf; }
    bool row_major() const { return layout == TDLS_ROW_MAJOR; }
    /// Columns of one system's B as stored: nrhs column-major, n row-major.
    std::int64_t b_columns() const { return row_major() ? n : nrhs; }
};

/// README "Footprints": the end of the last element of the last system of
/// every operand the call addresses, in bytes, is at most INT64_MAX. Worked
/// out in 128-bit arithmetic with every factor capped at 2^63 (already too
/// large), so that no product of this model overflows either.
inline bool footprints_addressable(const CallShape& c) {
    if (c.batch == 0 || c.n == 0) return true;
    using Wide = __int128;
    constexpr Wide too_large = Wide(1) << 63;
    const auto cap = [&](Wide v) { return v < too_large ? v : too_large; };
    const auto mul = [&](Wide a, Wide b) { return cap(cap(a) * cap(b)); };
    const auto fits = [&](Wide elements, Wide bytes) { return mul(elements, bytes) < too_large; };
    const Wide size = c.dtype == TDLS_FLOAT32 ? 4 : c.dtype == TDLS_COMPLEX128 ? 16 : 8;
    const Wide n = c.n, last = c.batch - 1;
    const bool uses_b = c.has_b() && c.nrhs > 0;
    bool ok = true;
    if (c.form == Form::Interleaved) {
        // Element e of system s at (s / block) * block * E + e * block + s % block.
        const auto span = [&](Wide elements) {
            return mul(last / c.block * c.block, elements) + mul(elements - 1, c.block) + last % c.block + 1;
        };
        ok = fits(span(mul(n, n)), size) && (!c.ipiv_given || fits(span(n), 4)) &&
             (!uses_b || fits(span(mul(n, c.nrhs)), size));
    } else {
        const Wide before = c.form == Form::Strided ? last : 0; // pointer arrays: each system on its own
        const Wide b_rows = c.row_major() ? c.nrhs : c.n;
        const Wide a_system = mul(n - 1, c.lda) + n;
        const Wide b_system = uses_b ? mul(Wide(c.b_columns()) - 1, c.ldb) + b_rows : 0;
        ok = fits(mul(before, c.strideA) + a_system, size) &&
             (!c.ipiv_given || fits(mul(before, c.strideIpiv) + n, 4)) &&
             (!uses_b || fits(mul(before, c.strideB) + b_system, size));
    }
    if (c.operation != Operation::Getrs && !fits(c.batch, 4)) ok = false;      // info
    if (c.form == Form::Pointers && !fits(c.batch, sizeof(void*))) ok = false; // the arrays
    return ok;
}

struct Expected {
    Stage stage;          // the step that fails, or Pivots / Valid
    tdls_status_t status; // for Pivots: the status when every pivot is in 1..n
};

inline Expected expected_status(const CallShape& c) {
    const auto fails = [](Stage stage, tdls_status_t status) { return Expected{stage, status}; };
    if (!c.handle_live) return fails(Stage::Handle, TDLS_ERROR_INVALID_HANDLE);
    if (c.dtype != TDLS_FLOAT32 && c.dtype != TDLS_FLOAT64 && c.dtype != TDLS_COMPLEX64 &&
        c.dtype != TDLS_COMPLEX128)
        return fails(Stage::Dtype, TDLS_ERROR_INVALID_VALUE);
    if (c.layout != TDLS_COL_MAJOR && c.layout != TDLS_ROW_MAJOR)
        return fails(Stage::Layout, TDLS_ERROR_INVALID_VALUE);
    if (c.n < 0 || (c.has_b() && c.nrhs < 0) || c.batch < 0)
        return fails(Stage::Signs, TDLS_ERROR_INVALID_VALUE);

    if (c.form != Form::Interleaved) {
        const std::int64_t b_order = c.row_major() ? c.nrhs : c.n;
        if (c.lda < c.n || (c.has_b() && c.ldb < b_order))
            return fails(Stage::LeadingDimensions, TDLS_ERROR_INVALID_VALUE);
    }
    if (c.form == Form::Strided) {
        // Exact products: one past INT64_MAX exceeds every stride (a
        // saturated one would equal a stride of INT64_MAX).
        using Wide = __int128;
        if (c.strideA < Wide(c.lda) * c.n || (c.ipiv_given && c.strideIpiv < c.n) ||
            (c.has_b() && c.strideB < Wide(c.ldb) * c.b_columns()))
            return fails(Stage::Strides, TDLS_ERROR_INVALID_VALUE);
    }
    if (c.form == Form::Interleaved && c.block < 1) return fails(Stage::Strides, TDLS_ERROR_INVALID_VALUE);
    if (!footprints_addressable(c)) return fails(Stage::Footprints, TDLS_ERROR_INVALID_VALUE);

    if (c.batch > 0 && c.n > 0) {
        const bool needs_b = c.has_b() && c.nrhs > 0;
        const bool needs_ipiv = c.operation == Operation::Getrs;
        const bool needs_info = c.operation != Operation::Getrs;
        if (!c.A_given || (needs_b && !c.B_given) || (needs_ipiv && !c.ipiv_given) ||
            (needs_info && !c.info_given))
            return fails(Stage::Pointers, TDLS_ERROR_INVALID_VALUE);
        if (c.form == Form::Pointers &&
            (c.A_entry_null || (c.ipiv_given && c.ipiv_entry_null) || (needs_b && c.B_entry_null)))
            return fails(Stage::Pointers, TDLS_ERROR_INVALID_VALUE);
    }
    if (c.n > TDLS_MAX_ORDER) return fails(Stage::Order, TDLS_ERROR_NOT_SUPPORTED);
    if (c.operation == Operation::Getrs && c.n > 0 && c.batch > 0)
        return Expected{Stage::Pivots, TDLS_SUCCESS};
    return Expected{Stage::Valid, TDLS_SUCCESS};
}

/// Whether the library may read or write operand memory for this verdict:
/// only then must the buffers span the whole batch (otherwise small real
/// buffers are passed, and touching them beyond is ASan's to catch).
inline bool operands_are_read(const Expected& e) {
    return e.stage == Stage::Valid || e.stage == Stage::Pivots;
}

} // namespace tdls_fuzz
