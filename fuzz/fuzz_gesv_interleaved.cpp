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
#include "support/contract.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"

namespace {

using namespace tdls_fuzz;

enum class Alias { None, BInA, IpivInInfo };

struct Call {
    CallShape shape;
    Context context{};
    Contents contents = Contents::Scaled;
    Alias alias = Alias::None;
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
    call.context = context(head);
    call.contents = Contents((head >> 2) % std::uint8_t(Contents::Count));
    c.operation = Operation::Gesv;
    c.form = Form::Interleaved;
    c.dtype = in.enumerator(2);
    c.layout = in.enumerator(2);
    c.n = fold_order(in.size(-2, 40));
    c.nrhs = in.size(-2, 8);
    c.batch = in.size(0, 40);
    c.block = decode_block(in);
    const std::uint8_t flags = in.byte();
    switch (flags & 15) {
    case 8:
    case 9:
    case 10:
        c.ipiv_given = false;
        break;
    case 11:
        c.A_given = false;
        break;
    case 12:
        c.B_given = false;
        break;
    case 13:
        c.info_given = false;
        break;
    case 14:
        c.A_given = c.B_given = false;
        break;
    default:
        break;
    }
    switch (flags >> 5) {
    case 6:
        call.alias = Alias::BInA;
        break;
    case 7:
        call.alias = Alias::IpivInInfo;
        break;
    default:
        break;
    }
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

struct Footprints {
    std::int64_t A, ipiv, B, info;
};

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
        if (c.nrhs > 8) {
            c.nrhs %= 9;
            continue;
        }
        if (c.batch <= 1) return;
        c.batch /= 2;
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

template <typename T>
struct Operands {
    Operand<T> A, B;
    Operand<std::int32_t> ipiv, info;
    T* A_ptr = nullptr;
    T* B_ptr = nullptr;
    std::int32_t* ipiv_ptr = nullptr;
    std::int32_t* info_ptr = nullptr;

    bool unchanged() const { return A.unchanged() && B.unchanged() && ipiv.unchanged() && info.unchanged(); }
};

template <typename T>
Operands<T> allocate(const Call& call, const Footprints& f, Input& in) {
    const CallShape& c = call.shape;
    Operands<T> ops;
    ops.A.allocate(f.A);
    ops.B.allocate(f.B);
    ops.ipiv.allocate(f.ipiv);
    ops.info.allocate(f.info);
    ContentSource<T> contents(in, call.contents);
    contents.fill(ops.A.memory.data(), ops.A.memory.size());
    contents.fill(ops.B.memory.data(), ops.B.memory.size());
    for (std::int32_t& p : ops.ipiv.memory) p = -7;
    for (std::int32_t& v : ops.info.memory) v = -9;
    ops.A_ptr = ops.A.memory.data();
    ops.B_ptr = ops.B.memory.data();
    ops.ipiv_ptr = ops.ipiv.memory.data();
    ops.info_ptr = ops.info.memory.data();
    if (call.alias == Alias::BInA && ops.B.memory.size() <= ops.A.memory.size()) ops.B_ptr = ops.A_ptr;
    if (call.alias == Alias::IpivInInfo) {
        if (ops.ipiv.memory.size() <= ops.info.memory.size())
            ops.ipiv_ptr = ops.info_ptr;
        else
            ops.info_ptr = ops.ipiv_ptr;
    }
    if (!c.A_given) ops.A_ptr = nullptr;
    if (!c.B_given) ops.B_ptr = nullptr;
    if (!c.ipiv_given) ops.ipiv_ptr = nullptr;
    if (!c.info_given) ops.info_ptr = nullptr;
    ops.A.keep();
    ops.B.keep();
    ops.ipiv.keep();
    ops.info.keep();
    return ops;
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
void check_solved(const Call& call, Operands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = "tdls_batched_gesv_interleaved";
    const std::int64_t n = c.n, nrhs = c.nrhs, block = c.block;
    if (c.batch == 0 || n == 0) {
        TDLS_FUZZ_CHECK(ops.A.unchanged() && ops.B.unchanged() && ops.ipiv.unchanged(),
                        "%s: an empty batch changed an operand", where);
        for (std::int64_t s = 0; s < c.batch && c.info_given; ++s)
            TDLS_FUZZ_CHECK(ops.info.memory[std::size_t(s)] == 0, "%s: n = 0 but info[%lld] = %d", where,
                            (long long)s, ops.info.memory[std::size_t(s)]);
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
        if (info > 0) {
            TDLS_FUZZ_CHECK(same_bits(X, B0, n, nrhs), "%s: system %lld is singular (info %d) but B changed",
                            where, (long long)s, info);
            continue;
        }
        if (!residual_sampled(s, c.batch, n)) continue;
        plant_wrong_answer(X, n);
        const Strided<T> A0{ops.A.before.data() + a_at, col ? block : n * block, col ? n * block : block};
        check_backward_error(where, s, n, nrhs, dense(A0, n), factors, B0, X);
    }
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    Expected expected = expected_status(c);
    Footprints f{refused_elements, refused_elements, refused_elements, refused_elements};
    if (operands_are_read(expected)) {
        fit(c);
        expected = expected_status(c);
        f = footprints(c);
    }
    Operands<T> ops = allocate<T>(call, f, in);
    if (operands_are_read(expected) && c.A_given && c.n > 0)
        check_accessor<T>(c, ops.A.memory.data(), c.ipiv_given ? ops.ipiv.memory.data() : nullptr,
                          c.B_given && c.nrhs > 0 ? ops.B.memory.data() : nullptr);
    const tdls_status_t status =
        raw_gesv_interleaved(call.context.handle, c.dtype, c.layout, c.n, c.nrhs, ops.A_ptr, ops.ipiv_ptr,
                             ops.B_ptr, ops.info_ptr, c.batch, c.block);
    const char* function = "tdls_batched_gesv_interleaved";
    TDLS_FUZZ_CHECK(status == expected.status, "%s returned %s, the contract says %s (\"%s\")", function,
                    tdls_status_name(status), tdls_status_name(expected.status),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    if (status != TDLS_SUCCESS) {
        check_last_error(function);
        TDLS_FUZZ_CHECK(ops.unchanged(), "%s failed (%s) but changed an operand", function,
                        tdls_status_name(status));
        return;
    }
    if (call.alias != Alias::None) return;
    check_solved(call, ops);
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
