// libtdls fuzzing: tdls_batched_getrs on strided batches, with factors either
// made by tdls_batched_getrf from decoded matrices or taken raw from the
// input, and pivots that may lie outside 1..n. The contract checks every
// pivot of every system before solving any; a solved batch must satisfy
// A X = B for the A = P^T L U its factors stand for, and leave A and ipiv
// (const operands) untouched.
#include <tdls/tdls.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "support/batch.hpp"
#include "support/contract.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"

namespace {

using namespace tdls_fuzz;

struct Call {
    CallShape shape;
    Context context{};
    Contents contents = Contents::Scaled;
    bool factor_first = true; // factors from tdls_batched_getrf, else raw
    bool B_in_A = false;
    std::uint8_t bad_pivot = 0, bad_system = 0, bad_entry = 0;
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    call.context = context(head);
    call.contents = Contents((head >> 2) % std::uint8_t(Contents::Count));
    call.factor_first = (head & 0x20) == 0;
    c.operation = Operation::Getrs;
    c.form = Form::Strided;
    c.dtype = in.enumerator(2);
    c.layout = in.enumerator(2);
    c.n = fold_order(in.size(-2, 40));
    c.nrhs = in.size(-2, 8);
    c.batch = in.size(0, 40);
    c.lda = in.at_least(c.n);
    c.strideA = in.at_least(saturated_mul(c.lda, c.n));
    c.strideIpiv = in.at_least(c.n);
    c.ldb = in.at_least(c.row_major() ? c.nrhs : c.n);
    c.strideB = in.at_least(saturated_mul(c.ldb, c.b_columns()));
    const std::uint8_t flags = in.byte();
    switch (flags & 15) {
    case 11:
        c.A_given = false;
        break;
    case 12:
        c.ipiv_given = false;
        break;
    case 13:
        c.B_given = false;
        break;
    default:
        break;
    }
    call.B_in_A = (flags >> 4) == 15;
    call.bad_pivot = in.byte();
    call.bad_system = in.byte();
    call.bad_entry = in.byte();
    return call;
}

struct Footprints {
    std::int64_t A = 0, ipiv = 0, B = 0;
};

Footprints footprints(const CallShape& c) {
    Footprints f;
    if (c.batch <= 0) return f;
    const auto span = [&](std::int64_t stride, std::int64_t last) {
        return saturated_add(saturated_mul(c.batch - 1, stride), last);
    };
    f.A = span(c.strideA, saturated_mul(c.lda, c.n));
    f.ipiv = span(c.strideIpiv, c.n);
    f.B = span(c.strideB, saturated_mul(c.ldb, c.b_columns()));
    return f;
}

bool shrink(std::int64_t& value, std::int64_t minimum) {
    if (value <= saturated_add(minimum, 8)) return false;
    value = minimum + (value - minimum) % 9;
    return true;
}

void fit(CallShape& c) {
    c.batch = std::min(c.batch, batch_cap);
    for (;;) {
        const Footprints f = footprints(c);
        const bool too_big = f.A > element_cap || f.B > element_cap || f.ipiv > element_cap ||
                             saturated_mul(c.batch, work_of(c.n, c.nrhs)) > work_cap;
        if (!too_big) return;
        if (shrink(c.lda, c.n) || shrink(c.ldb, c.row_major() ? c.nrhs : c.n)) continue;
        if (c.batch > 1 && (shrink(c.strideA, saturated_mul(c.lda, c.n)) || shrink(c.strideIpiv, c.n) ||
                            shrink(c.strideB, saturated_mul(c.ldb, c.b_columns()))))
            continue;
        if (c.nrhs > 8) {
            c.nrhs %= 9;
            continue;
        }
        if (c.batch <= 1) return;
        c.batch /= 2;
    }
}

/// A pivot value from one byte: mostly a valid swap target, sometimes one
/// outside 1..n.
std::int32_t pivot_value(std::uint8_t b, std::int64_t k, std::int64_t n, Input& in) {
    if (b < 0xE0) return std::int32_t(k + 1 + b % (n - k));
    switch (b & 7) {
    case 0:
        return 0;
    case 1:
        return -1;
    case 2:
        return std::int32_t(n + 1);
    case 3:
        return std::numeric_limits<std::int32_t>::min();
    case 4:
        return std::numeric_limits<std::int32_t>::max();
    case 5:
        return std::int32_t(1 + b % n); // valid, possibly upwards
    default:
        return in.raw<std::int32_t>();
    }
}

template <typename T>
struct Operands {
    Operand<T> A, B;
    Operand<std::int32_t> ipiv;
    T* B_ptr = nullptr;
};

/// The matrix the factors of one system stand for, dense: A = P^T L U
/// (column-major), its transpose for row-major (the memory is read
/// column-major, as the factors of A^T).
template <typename T>
Dense matrix_of_factors(Strided<T> factors, const std::int32_t* ipiv, std::int64_t n, bool row_major) {
    Dense lu(std::size_t(n * n), 0);
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) {
            long double sum = 0;
            for (std::int64_t p = 0; p <= std::min(i, j); ++p)
                sum += (p == i ? 1.0L : (long double)factors(i, p)) * factors(p, j);
            lu[std::size_t(i + j * n)] = sum;
        }
    for (std::int64_t k = n - 1; k >= 0; --k) { // undo the interchanges, last first
        const std::int64_t r = ipiv[k] - 1;
        if (r != k)
            for (std::int64_t j = 0; j < n; ++j)
                std::swap(lu[std::size_t(k + j * n)], lu[std::size_t(r + j * n)]);
    }
    if (!row_major) return lu;
    Dense transposed(lu.size());
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) transposed[std::size_t(j + i * n)] = lu[std::size_t(i + j * n)];
    return transposed;
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    Expected expected = expected_status(c);
    Footprints f{refused_elements, refused_elements, refused_elements};
    if (operands_are_read(expected)) {
        fit(c);
        expected = expected_status(c);
        f = footprints(c);
    }
    Operands<T> ops;
    ops.A.allocate(f.A);
    ops.B.allocate(f.B);
    ops.ipiv.allocate(f.ipiv);
    ContentSource<T> contents(in, call.contents);
    contents.fill(ops.A.memory.data(), ops.A.memory.size());
    contents.fill(ops.B.memory.data(), ops.B.memory.size());
    for (std::int32_t& p : ops.ipiv.memory) p = -7; // the gaps between systems' pivots keep this

    const bool full = operands_are_read(expected);
    if (full && c.n > 0 && c.batch > 0) {
        std::vector<std::int32_t> info(std::size_t(c.batch));
        const bool factored =
            call.factor_first &&
            raw_getrf(nullptr, c.dtype, c.layout, c.n, ops.A.memory.data(), c.lda, c.strideA,
                      ops.ipiv.memory.data(), c.strideIpiv, info.data(), c.batch) == TDLS_SUCCESS;
        if (!factored)
            for (std::int64_t s = 0; s < c.batch; ++s)
                for (std::int64_t k = 0; k < c.n; ++k)
                    ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)] = pivot_value(in.byte(), k, c.n, in);
        if (call.bad_pivot >= 0xC0) { // one pivot anywhere in the batch made invalid (or not)
            const std::int64_t s = call.bad_system % c.batch, k = call.bad_entry % c.n;
            ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)] =
                pivot_value(std::uint8_t(call.bad_pivot | 0xE0), k, c.n, in);
        }
    }
    ops.B_ptr = ops.B.memory.data();
    if (call.B_in_A && ops.B.memory.size() <= ops.A.memory.size()) ops.B_ptr = ops.A.memory.data();
    ops.A.keep();
    ops.B.keep();
    ops.ipiv.keep();

    tdls_status_t expected_status_value = expected.status;
    if (expected.stage == Stage::Pivots)
        for (std::int64_t s = 0; s < c.batch; ++s)
            for (std::int64_t k = 0; k < c.n; ++k) {
                const std::int32_t p = ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)];
                if (p < 1 || p > c.n) expected_status_value = TDLS_ERROR_INVALID_VALUE;
            }

    const tdls_status_t status = raw_getrs(call.context.handle, c.dtype, c.layout, c.n, c.nrhs,
                                           c.A_given ? ops.A.memory.data() : nullptr, c.lda, c.strideA,
                                           c.ipiv_given ? ops.ipiv.memory.data() : nullptr, c.strideIpiv,
                                           c.B_given ? ops.B_ptr : nullptr, c.ldb, c.strideB, c.batch);
    const char* where = "tdls_batched_getrs";
    TDLS_FUZZ_CHECK(status == expected_status_value, "%s returned %s, the contract says %s (\"%s\")", where,
                    tdls_status_name(status), tdls_status_name(expected_status_value),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    if (status != TDLS_SUCCESS) {
        check_last_error(where);
        TDLS_FUZZ_CHECK(ops.A.unchanged() && ops.B.unchanged() && ops.ipiv.unchanged(),
                        "%s failed (%s) but changed an operand", where, tdls_status_name(status));
        return;
    }
    if (ops.B_ptr != ops.B.memory.data()) return; // B aliased into A: no crash, no report, nothing more
    TDLS_FUZZ_CHECK(ops.A.unchanged() && ops.ipiv.unchanged(), "%s changed its const operands A or ipiv",
                    where);
    const std::int64_t n = c.n, nrhs = c.nrhs;
    if (c.batch == 0 || n == 0 || nrhs == 0) {
        TDLS_FUZZ_CHECK(ops.B.unchanged(), "%s: nothing to solve, but B changed", where);
        return;
    }
    const bool col = !c.row_major();
    TDLS_FUZZ_CHECK(outside_unchanged(ops.B, c.batch, c.strideB, col ? n : nrhs, col ? nrhs : n, c.ldb),
                    "%s: B changed outside the systems", where);
    for (std::int64_t s = 0; s < c.batch; ++s) {
        if (!residual_sampled(s, c.batch, n)) continue;
        const Strided<T> factors{ops.A.memory.data() + s * c.strideA, 1, c.lda};
        const Strided<T> X{ops.B.memory.data() + s * c.strideB, col ? 1 : c.ldb, col ? c.ldb : 1};
        const Strided<T> B0{ops.B.before.data() + s * c.strideB, X.row, X.col};
        plant_wrong_answer(X, n);
        const std::int32_t* ipiv = ops.ipiv.memory.data() + s * c.strideIpiv;
        check_backward_error(where, s, n, nrhs, matrix_of_factors(factors, ipiv, n, c.row_major()), factors,
                             B0, X);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    Call call = decode(in);
    if (call.shape.dtype == TDLS_FLOAT32)
        run<float>(call, in);
    else
        run<double>(call, in);
    return 0;
}
