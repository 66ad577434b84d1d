// libtdls: where each system of a batch lives. The three batch forms of the C
// ABI (strided, pointer arrays, interleaved) reduce, per system, to base
// pointers and element steps, so that one per-system driver serves them all,
// on the CPU now and in GPU kernels later (hence host-device and plain data).
#pragma once

#include <cstdint>

#include <tdls/core/macros.hpp>

namespace tdls::kernels {

enum class BatchForm { Strided, Pointers, Interleaved };

/// The operands of one call as the C ABI received them, type-erased. Fields of
/// the other forms are unused (null or zero).
struct BatchOperands {
    BatchForm form = BatchForm::Strided;
    bool row_major = false;
    std::int64_t n = 0;
    std::int64_t nrhs = 0;
    std::int64_t batch = 0;
    void* A = nullptr;                         // Strided, Interleaved
    void* const* A_array = nullptr;            // Pointers
    std::int64_t lda = 0;                      // Strided, Pointers
    std::int64_t strideA = 0;                  // Strided
    std::int32_t* ipiv = nullptr;              // Strided, Interleaved; may be null
    std::int32_t* const* ipiv_array = nullptr; // Pointers; may be null
    std::int64_t strideIpiv = 0;               // Strided
    void* B = nullptr;                         // Strided, Interleaved
    void* const* B_array = nullptr;            // Pointers
    std::int64_t ldb = 0;                      // Strided, Pointers
    std::int64_t strideB = 0;                  // Strided
    std::int32_t* info = nullptr;              // info[s], always contiguous; null for getrs
    std::int64_t block = 1;                    // Interleaved
};

/// One system: element (v, c) of the stored matrix read column-major at
/// A[v * a_row + c * a_col]; pivot k at ipiv[k * ipiv_step]; entry (i, k) of
/// B at B[i * b_row + k * b_col].
template <typename T>
struct SystemView {
    T* A;
    std::int64_t a_row;
    std::int64_t a_col;
    std::int32_t* ipiv;
    std::int64_t ipiv_step;
    T* B;
    std::int64_t b_row;
    std::int64_t b_col;

    /// The solver walks the matrix as n x n packed with one element step; any
    /// other leading dimension needs a packed copy.
    TDLS_HOST_DEVICE constexpr bool matrix_is_packed(std::int64_t n) const noexcept {
        return a_col == n * a_row;
    }
};

/// The pivots of one system: pivot k at data[k * step]; data null when the
/// call has none.
struct PivotView {
    std::int32_t* data;
    std::int64_t step;
};

/// The pivots of system s of the batch (validation reads them on their own).
TDLS_HOST_DEVICE constexpr PivotView pivots_of(const BatchOperands& ops, std::int64_t s) noexcept {
    switch (ops.form) {
    case BatchForm::Strided:
        return {ops.ipiv ? ops.ipiv + s * ops.strideIpiv : nullptr, 1};
    case BatchForm::Pointers:
        return {ops.ipiv_array ? ops.ipiv_array[s] : nullptr, 1};
    case BatchForm::Interleaved:
        return {ops.ipiv ? ops.ipiv + (s / ops.block) * ops.block * ops.n + s % ops.block : nullptr,
                ops.block};
    }
    return {nullptr, 1};
}

/// The view of system s of the batch.
template <typename T>
TDLS_HOST_DEVICE constexpr SystemView<T> view_of(const BatchOperands& ops, std::int64_t s) noexcept {
    const std::int64_t n = ops.n;
    // B's steps in a packed system: (i, k) at i + k*ld column-major, i*ld + k row-major.
    const auto b_steps = [&](std::int64_t ld, std::int64_t unit, SystemView<T>& v) {
        v.b_row = ops.row_major ? ld * unit : unit;
        v.b_col = ops.row_major ? unit : ld * unit;
    };
    SystemView<T> v{};
    switch (ops.form) {
    case BatchForm::Strided:
        v.A = static_cast<T*>(ops.A) + s * ops.strideA;
        v.a_row = 1;
        v.a_col = ops.lda;
        v.B = ops.B ? static_cast<T*>(ops.B) + s * ops.strideB : nullptr;
        b_steps(ops.ldb, 1, v);
        break;
    case BatchForm::Pointers:
        v.A = static_cast<T*>(ops.A_array[s]);
        v.a_row = 1;
        v.a_col = ops.lda;
        v.B = ops.B_array ? static_cast<T*>(ops.B_array[s]) : nullptr;
        b_steps(ops.ldb, 1, v);
        break;
    case BatchForm::Interleaved: {
        // Element e of system s at base[(s / block) * block * E + e * block + s % block].
        const std::int64_t block = ops.block;
        const std::int64_t first = (s / block) * block;
        const std::int64_t lane = s % block;
        v.A = static_cast<T*>(ops.A) + first * n * n + lane;
        v.a_row = block;
        v.a_col = n * block;
        v.B = ops.B ? static_cast<T*>(ops.B) + first * n * ops.nrhs + lane : nullptr;
        b_steps(ops.row_major ? ops.nrhs : n, block, v);
        break;
    }
    }
    const PivotView pivots = pivots_of(ops, s);
    v.ipiv = pivots.data;
    v.ipiv_step = pivots.step;
    return v;
}

} // namespace tdls::kernels
