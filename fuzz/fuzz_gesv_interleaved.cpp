// libtdls fuzzing: tdls_batched_gesv_interleaved (SoA / AoSoA batches), and
// the batch accessor of kernels/common/batch_accessor.hpp on its own: the
// element offsets it gives must be those of the contract's formula
//   base[(s / block) * block * E + e * block + s % block].
// Buffers end exactly at the last system's last element (a partial last
// block is not padded), so ASan sees any access to a system that does not
// exist.
#include <tdls/tdls.h>

#include <cstdint>
#include <vector>

#include "common/batch_accessor.hpp"
#include "support/batch.hpp"
#include "support/contiguous.hpp"
#include "support/contract.hpp"
#include "support/entry.hpp"
#include "support/fields.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

struct Call : ComputeCall {
    ContiguousAlias alias = ContiguousAlias::None;
};

std::int64_t decode_block(Input& in) {
    const std::uint8_t b = in.byte();
    if (b < 0xE0) return 1 + b % 42;
    switch (b & 7) {
    case 0:
        return 0;
    case 1:
        return -1;
    case 2:
        return int64_max;
    case 3:
        return int64_min;
    case 4:
        return std::int64_t(1) << 31;
    case 5:
        return std::int64_t(1) << 40;
    default:
        return in.raw<std::int64_t>();
    }
}

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    decode_head(head, call);
    c.operation = Operation::Gesv;
    c.form = Form::Interleaved;
    decode_scalars(in, c);
    c.block = decode_block(in);
    const std::uint8_t flags = in.byte();
    if (!decode_null_operand(flags & 15, c) && (flags & 15) == 14) c.A_given = c.B_given = false;
    if ((flags >> 5) == 6) call.alias = ContiguousAlias::BInA;
    if ((flags >> 5) == 7) call.alias = ContiguousAlias::IpivInInfo;
    return call;
}

/// Offset of element e of system s in an operand of E elements per system.
std::int64_t offset_of(std::int64_t s, std::int64_t e, std::int64_t E, std::int64_t block) {
    return (s / block) * block * E + e * block + s % block;
}

/// Elements up to the last system's last one (0 for an empty operand).
std::int64_t footprint(std::int64_t batch, std::int64_t E, std::int64_t block) {
    if (batch <= 0 || E <= 0) return 0;
    const std::int64_t last = batch - 1;
    const std::int64_t first_of_block = saturated_mul(last / block, block);
    return saturated_add(saturated_add(saturated_mul(first_of_block, E), saturated_mul(E - 1, block)),
                         last % block + 1);
}

Footprints footprints(const CallShape& c) {
    return {footprint(c.batch, saturated_mul(c.n, c.n), c.block), footprint(c.batch, c.n, c.block),
            footprint(c.batch, saturated_mul(c.n, c.nrhs), c.block), std::max<std::int64_t>(c.batch, 0)};
}

void fit(CallShape& c) {
    c.batch = std::min(c.batch, batch_cap);
    for (;;) {
        const Footprints f = footprints(c);
        const bool too_big =
            f.A > element_cap || f.B > element_cap || saturated_mul(c.batch, work_of(c.n, c.nrhs)) > work_cap;
        if (!too_big) return;
        if (c.block > c.batch + 3) {
            c.block = 1 + c.block % (c.batch + 3);
            continue;
        }
        if (!shrink_nrhs_then_batch(c.nrhs, c.batch)) return;
    }
}

/// The accessor against the formula, element by element, for a sample of
/// the systems (pure address arithmetic: nothing is read).
template <typename T>
void check_accessor(const CallShape& c, T* A, std::int32_t* ipiv, T* B) {
    using namespace tdls::kernels;
    BatchOperands ops;
    ops.form = BatchForm::Interleaved;
    ops.row_major = c.row_major();
    ops.n = c.n;
    ops.nrhs = c.nrhs;
    ops.batch = c.batch;
    ops.A = A;
    ops.ipiv = ipiv;
    ops.B = B;
    ops.block = c.block;
    const std::int64_t n = c.n, nrhs = c.nrhs;
    for (std::int64_t s = 0; s < c.batch; s += 1 + c.batch / 8) {
        const SystemView<T> v = view_of<T>(ops, s);
        const std::int64_t a_base = v.A - A;
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < n; ++i)
                TDLS_FUZZ_CHECK(a_base + i * v.a_row + j * v.a_col == offset_of(s, i + j * n, n * n, c.block),
                                "batch accessor: A element (%lld, %lld) of system %lld (n %lld, block %lld)",
                                (long long)i, (long long)j, (long long)s, (long long)n, (long long)c.block);
        if (B != nullptr) {
            const std::int64_t b_base = v.B - B;
            for (std::int64_t k = 0; k < nrhs; ++k)
                for (std::int64_t i = 0; i < n; ++i) {
                    const std::int64_t e = c.row_major() ? i * nrhs + k : i + k * n;
                    TDLS_FUZZ_CHECK(
                        b_base + i * v.b_row + k * v.b_col == offset_of(s, e, n * nrhs, c.block),
                        "batch accessor: B element (%lld, %lld) of system %lld (n %lld, nrhs %lld, "
                        "block %lld)",
                        (long long)i, (long long)k, (long long)s, (long long)n, (long long)nrhs,
                        (long long)c.block);
                }
        }
        const PivotView pivots = pivots_of(ops, s);
        TDLS_FUZZ_CHECK((pivots.data == nullptr) == (ipiv == nullptr),
                        "batch accessor: pivots of system %lld", (long long)s);
        if (ipiv != nullptr)
            for (std::int64_t k = 0; k < n; ++k)
                TDLS_FUZZ_CHECK((pivots.data - ipiv) + k * pivots.step == offset_of(s, k, n, c.block),
                                "batch accessor: pivot %lld of system %lld (n %lld, block %lld)",
                                (long long)k, (long long)s, (long long)n, (long long)c.block);
    }
}

/// Every element that belongs to no system (lanes past the batch in the
/// last block) still holds its old bits.
template <typename E>
bool outside_unchanged(const Operand<E>& operand, std::int64_t batch, std::int64_t elements,
                       std::int64_t block) {
    std::vector<E> expected = operand.before;
    for (std::int64_t s = 0; s < batch; ++s)
        for (std::int64_t e = 0; e < elements; ++e) {
            const std::size_t at = std::size_t(offset_of(s, e, elements, block));
            expected[at] = operand.memory[at];
        }
    return same_bits(expected, operand.memory);
}

template <typename T>
void check_solved(const Call& call, ContiguousOperands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = "tdls_batched_gesv_interleaved";
    const std::int64_t n = c.n, nrhs = c.nrhs, block = c.block;
    if (c.batch == 0 || n == 0) {
        check_empty_batch(where, c.batch, n, ops.A.unchanged() && ops.B.unchanged() && ops.ipiv.unchanged(),
                          c.info_given ? ops.info.memory.data() : nullptr);
        return;
    }
    TDLS_FUZZ_CHECK(outside_unchanged(ops.A, c.batch, n * n, block), "%s: A changed outside the systems",
                    where);
    if (c.ipiv_given)
        TDLS_FUZZ_CHECK(outside_unchanged(ops.ipiv, c.batch, n, block),
                        "%s: ipiv changed outside the systems", where);
    if (nrhs == 0)
        TDLS_FUZZ_CHECK(ops.B.unchanged(), "%s: nrhs = 0 but B changed", where);
    else
        TDLS_FUZZ_CHECK(outside_unchanged(ops.B, c.batch, n * nrhs, block),
                        "%s: B changed outside the systems", where);
    const bool col = !c.row_major();
    for (std::int64_t s = 0; s < c.batch; ++s) {
        const std::int64_t a_at = offset_of(s, 0, n * n, block), b_at = offset_of(s, 0, n * nrhs, block);
        const Strided<T> factors{ops.A.memory.data() + a_at, block, n * block};
        const std::int32_t info = ops.info.memory[std::size_t(s)];
        const std::int32_t* ipiv =
            c.ipiv_given ? ops.ipiv.memory.data() + offset_of(s, 0, n, block) : nullptr;
        check_factor_verdict(where, s, n, info, ipiv, block, factors, call.context.tau == 1.0);
        if (nrhs == 0) continue;
        // B(i, k) is element i + k*n (column-major) or i*nrhs + k (row-major).
        const Strided<T> X{ops.B.memory.data() + b_at, col ? block : nrhs * block, col ? n * block : block};
        const Strided<T> B0{ops.B.before.data() + b_at, X.row, X.col};
        const Strided<T> A0{ops.A.before.data() + a_at, col ? block : n * block, col ? n * block : block};
        check_solution(where, s, c.batch, n, nrhs, info, factors, B0, X, [&] { return dense(A0, n); });
    }
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    Expected expected = expected_status(c);
    const Footprints f = footprints_for(c, expected, fit, footprints);
    ContiguousOperands<T> ops = allocate_contiguous<T>(f, call.contents, in);
    aim_and_keep(ops, c, call.alias, 0); // B at A's start: the lanes of both line up
    if (operands_are_read(expected) && c.A_given && c.n > 0)
        check_accessor<T>(c, ops.A.memory.data(), c.ipiv_given ? ops.ipiv.memory.data() : nullptr,
                          c.B_given && c.nrhs > 0 ? ops.B.memory.data() : nullptr);
    const tdls_status_t status =
        raw_gesv_interleaved(call.context.handle, c.dtype, c.layout, c.n, c.nrhs, ops.A_ptr, ops.ipiv_ptr,
                             ops.B_ptr, ops.info_ptr, c.batch, c.block);
    if (!check_status("tdls_batched_gesv_interleaved", status, expected.status,
                      [&] { return ops.unchanged(); }))
        return;
    if (call.alias != ContiguousAlias::None) return;
    check_solved(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(data, size, decode, dtype_of_call,
                          [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
