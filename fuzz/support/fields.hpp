// libtdls fuzzing: the argument fields the C ABI compute harnesses decode
// alike, in the order fuzz/README.md gives. One helper per run of fields, so
// that a harness's decode() reads as its input layout: its own head byte,
// these shared fields, then what only it has. The committed corpus depends
// on this order: change it only with a regrown corpus.
#pragma once

#include <cstdint>

#include "batch.hpp"
#include "contract.hpp"
#include "input.hpp"

namespace tdls_fuzz {

/// What a C ABI compute harness decodes besides the call's arguments; each
/// harness's Call adds what only its entry point has.
struct ComputeCall {
    CallShape shape;
    Context context{};
    Contents contents = Contents::Scaled;
};

/// The head byte's context (low bits) and contents mode (bits 2 up).
/// fuzz_gesv_strided spends bit 0 on the operation and passes head >> 1.
inline void decode_head(std::uint8_t head, ComputeCall& call) {
    call.context = context(head);
    call.contents = Contents((head >> 2) % std::uint8_t(Contents::Count));
}

/// The dtype a call runs in (test_one_input's choice): every refused dtype
/// runs as double, its buffers are never read.
inline std::int32_t dtype_of_call(const ComputeCall& call) {
    return call.shape.dtype;
}

/// dtype, layout, n (folded below the scalar kernel's slow orders), nrhs,
/// batch: the fields right after the head byte in every C ABI harness.
inline void decode_scalars(Input& in, CallShape& c) {
    c.dtype = in.enumerator(4); // the four types of tdls.h, or a value that is none
    c.layout = in.enumerator(2);
    c.n = fold_order(in.size(-2, 40));
    c.nrhs = in.size(-2, 8);
    c.batch = in.size(0, 40);
}

/// lda, strideA, strideIpiv, ldb, strideB of a strided call, each around the
/// minimum the contract gives it from the fields decoded before it.
inline void decode_strided_dims(Input& in, CallShape& c) {
    c.lda = in.at_least(c.n);
    c.strideA = in.at_least(saturated_mul(c.lda, c.n));
    c.strideIpiv = in.at_least(c.n);
    c.ldb = in.at_least(c.row_major() ? c.nrhs : c.n);
    c.strideB = in.at_least(saturated_mul(c.ldb, c.b_columns()));
}

/// The flags byte's low nibble as the gesv harnesses share it: 8..10 pass
/// ipiv as NULL (it is optional, so the most frequent), 11 A, 12 B, 13
/// info. Returns false for any other value, which the harness gives a
/// meaning of its own (14, 15) or none (0..7: every operand given).
inline bool decode_null_operand(std::uint8_t low_nibble, CallShape& c) {
    switch (low_nibble) {
    case 8:
    case 9:
    case 10:
        c.ipiv_given = false;
        return true;
    case 11:
        c.A_given = false;
        return true;
    case 12:
        c.B_given = false;
        return true;
    case 13:
        c.info_given = false;
        return true;
    default:
        return false;
    }
}

} // namespace tdls_fuzz
