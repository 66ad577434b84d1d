// Test support for the C ABI's numerical tests: typed wrappers, the systems a
// batch is made of, builders of the three batch forms (strided, pointer
// arrays, interleaved) with sentinel-filled padding, run through gesv or the
// solve (tdls_batched_solve*, compared with gesv by solve_mismatch), LAPACKE
// as the oracle of each system, and the checking functions the tests apply
// (each one also run on a wrong answer, as its negative control).
//
// A system's matrix is kept as the memory the library reads, packed (lda =
// n): S, read column-major, S[r + c*n]. Under TDLS_COL_MAJOR that is A; under
// TDLS_ROW_MAJOR it is A^T, which is exactly what the library factors (the
// contract: "the factorization is of the memory read column-major"). B is
// kept packed as well: B(i, k) at i + k*n column-major, i*nrhs + k row-major;
// both are an R x C column-major array of memory (R = n, C = nrhs
// column-major; R = nrhs, C = n row-major), and padding widens R to ldb.
#pragma once

#include <lapacke.h>
#include <tdls/tdls.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/scalar_type.hpp"
#include "lapack.hpp"
#include "matrices.hpp"
#include "norms.hpp"

static_assert(sizeof(lapack_int) == sizeof(std::int32_t), "the tests compare tdls' int32 ipiv with LAPACK's");

namespace capi_test {

// ---- types ----------------------------------------------------------------------

template <typename T>
constexpr tdls_dtype_t dtype_of() {
    return tdls::kernels::dtype_of<T>;
}

template <typename T>
const char* type_name() {
    return tdls::kernels::ScalarTraits<T>::info.name;
}

/// The real type under T, and the type the checks compute in (long double,
/// or std::complex of it).
template <typename T>
using real_of = tdls::real_type_t<T>;
template <typename T>
using wide_of = tdls::check::check_wide_t<T>;

/// LAPACK's magnitude (|x|, or |re| + |im| for a complex x), in long double.
template <typename T>
long double mag(T x) {
    return tdls::magnitude(wide_of<T>(x));
}

inline const char* layout_name(tdls_layout_t layout) {
    return layout == TDLS_COL_MAJOR ? "col-major" : "row-major";
}

inline constexpr tdls_layout_t both_layouts[] = {TDLS_COL_MAJOR, TDLS_ROW_MAJOR};

/// Padding values: a NaN with a payload no arithmetic produces, so that a
/// solver reading one poisons its result and a solver writing one is seen.
template <typename T>
T sentinel() {
    T value;
    if constexpr (tdls::is_complex_scalar_v<T>) {
        const real_of<T> part = sentinel<real_of<T>>();
        value = T(part, part);
    } else if constexpr (std::is_same_v<T, float>) {
        const std::uint32_t bits = 0x7FC0BEEFu;
        std::memcpy(&value, &bits, sizeof value);
    } else {
        const std::uint64_t bits = 0x7FF8DEADBEEF0001ull;
        std::memcpy(&value, &bits, sizeof value);
    }
    return value;
}
template <>
inline std::int32_t sentinel<std::int32_t>() {
    return -7777;
}
inline constexpr std::int32_t info_sentinel = -999;

template <typename E>
bool same_bits(const std::vector<E>& a, const std::vector<E>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(E)) == 0);
}

// ---- the systems ----------------------------------------------------------------

enum class Kind {
    Uniform,
    PivotHeavy,
    IllConditioned,
    ZeroColumn,    // exactly singular: column n/2 of S is zero; info = n/2 + 1
    DuplicateRows, // exactly singular: rows n/3 and 2n/3 of S equal; info = n
    ZeroMatrix     // exactly singular: info = 1
};

/// The kinds shared with the solver tests (tests/support/matrices.hpp) map to
/// theirs; the singular kinds exist only here.
inline bool is_regular(Kind k) {
    return k == Kind::Uniform || k == Kind::PivotHeavy || k == Kind::IllConditioned;
}
inline tdls_test::Kind regular_kind(Kind k) {
    return k == Kind::PivotHeavy       ? tdls_test::Kind::PivotHeavy
           : k == Kind::IllConditioned ? tdls_test::Kind::IllConditioned
                                       : tdls_test::Kind::Uniform;
}

inline const char* kind_name(Kind k) {
    if (is_regular(k)) return tdls_test::kind_name(regular_kind(k));
    switch (k) {
    case Kind::ZeroColumn:
        return "zero-column";
    case Kind::DuplicateRows:
        return "duplicate-rows";
    case Kind::ZeroMatrix:
        return "zero-matrix";
    default:
        return "?";
    }
}

/// The stored matrix S of one system, packed column-major. The singular kinds
/// stay exactly singular in any rounding, so that LAPACK and tdls agree on
/// info: a zero column stays zero under elimination; the duplicated rows share
/// the largest entry of column 0, a power of two, so the first step's
/// multiplier is exactly 1 and turns the second copy into an exact zero row,
/// which no later step can pick before the last one.
template <typename T>
std::vector<T> make_stored_matrix(Kind kind, int n, std::uint64_t seed) {
    if (is_regular(kind)) return tdls_test::make_matrix<T>(regular_kind(kind), n, seed);
    switch (kind) {
    case Kind::ZeroColumn: {
        std::vector<T> S = tdls_test::make_matrix<T>(tdls_test::Kind::Uniform, n, seed);
        const int c = n / 2;
        for (int r = 0; r < n; ++r) S[std::size_t(c) * n + r] = T(0);
        return S;
    }
    case Kind::DuplicateRows: {
        std::vector<T> S = tdls_test::make_matrix<T>(tdls_test::Kind::Uniform, n, seed);
        if (n == 1) return {T(0)}; // one row cannot be duplicated: the 1x1 singular matrix
        const int first = n / 3, second = (2 * n) / 3;
        S[first] = T(2);
        for (int c = 0; c < n; ++c) S[std::size_t(c) * n + second] = S[std::size_t(c) * n + first];
        return S;
    }
    case Kind::ZeroMatrix:
        return std::vector<T>(std::size_t(n) * n, T(0));
    default: // the regular kinds returned above
        break;
    }
    return {};
}

/// info that LAPACK and the contract give for a singular kind.
inline int expected_singular_info(Kind k, int n) {
    switch (k) {
    case Kind::ZeroColumn:
        return n / 2 + 1;
    case Kind::DuplicateRows:
        return n == 1 ? 1 : n;
    case Kind::ZeroMatrix:
        return 1;
    default:
        return 0;
    }
}

/// Rows and columns of B's memory read column-major (see the file comment).
inline int b_rows(int n, int nrhs, tdls_layout_t layout) {
    return layout == TDLS_COL_MAJOR ? n : nrhs;
}
inline int b_cols(int n, int nrhs, tdls_layout_t layout) {
    return layout == TDLS_COL_MAJOR ? nrhs : n;
}
/// Index of B(i, k) in packed memory.
inline std::size_t b_index(int i, int k, int n, int nrhs, tdls_layout_t layout) {
    return layout == TDLS_COL_MAJOR ? std::size_t(k) * n + i : std::size_t(i) * nrhs + k;
}

/// One batch: `batch` systems of order n with nrhs right-hand sides.
template <typename T>
struct SystemSet {
    int n = 0;
    int nrhs = 0;
    tdls_layout_t layout = TDLS_COL_MAJOR;
    std::vector<Kind> kinds;
    std::vector<std::vector<T>> A; // S, packed
    std::vector<std::vector<T>> B; // packed (b_rows x b_cols)
    std::int64_t batch() const { return std::int64_t(A.size()); }
};

template <typename T>
SystemSet<T> make_set(int n, int nrhs, tdls_layout_t layout, const std::vector<Kind>& kinds,
                      std::uint64_t seed) {
    SystemSet<T> set;
    set.n = n;
    set.nrhs = nrhs;
    set.layout = layout;
    set.kinds = kinds;
    for (std::size_t s = 0; s < kinds.size(); ++s) {
        const std::uint64_t system_seed = seed * 1000003u + s * 7u + 1u;
        set.A.push_back(make_stored_matrix<T>(kinds[s], n, system_seed));
        set.B.push_back(tdls_test::random_vector<T>(n * nrhs, system_seed ^ 0x5bd1e995u));
    }
    return set;
}

/// What a call left in the operands, per system, packed as SystemSet keeps them.
template <typename T>
struct Outcome {
    tdls_status_t status = TDLS_ERROR_INTERNAL;
    std::string error;
    std::vector<std::vector<T>> A;
    std::vector<std::vector<std::int32_t>> ipiv; // empty when no ipiv was passed
    std::vector<std::vector<T>> B;
    std::vector<std::int32_t> info;
    bool guards_intact = false; // padding, gaps, unused slots and info's tail unchanged
    bool arrays_intact = true;  // pointer form: A_array, ipiv_array, B_array as given (in guards_intact too)
};

template <typename T>
bool same_outcome(const Outcome<T>& a, const Outcome<T>& b, bool compare_ipiv = true) {
    if (a.A.size() != b.A.size() || a.B.size() != b.B.size() || !same_bits(a.info, b.info)) return false;
    for (std::size_t s = 0; s < a.A.size(); ++s)
        if (!same_bits(a.A[s], b.A[s]) || !same_bits(a.B[s], b.B[s])) return false;
    if (compare_ipiv) {
        if (a.ipiv.size() != b.ipiv.size()) return false;
        for (std::size_t s = 0; s < a.ipiv.size(); ++s)
            if (!same_bits(a.ipiv[s], b.ipiv[s])) return false;
    }
    return true;
}

// ---- buffers ----------------------------------------------------------------------

/// `count` arrays of rows x cols, column-major with leading dimension ld, array
/// s at s*stride; everything else is the sentinel.
template <typename E>
class StridedBuffer {
  public:
    StridedBuffer(std::int64_t count, int rows, int cols, std::int64_t ld, std::int64_t stride)
        : count_(count), rows_(rows), cols_(cols), ld_(ld), stride_(stride),
          data_(std::size_t(std::max<std::int64_t>(count * stride, 1)), sentinel<E>()) {}

    E* data() { return data_.data(); }
    std::int64_t ld() const { return ld_; }
    std::int64_t stride() const { return stride_; }

    void put(std::int64_t s, const std::vector<E>& packed) {
        for (int c = 0; c < cols_; ++c)
            for (int r = 0; r < rows_; ++r) data_[at(s, r, c)] = packed[std::size_t(c) * rows_ + r];
    }
    std::vector<E> get(std::int64_t s) const {
        std::vector<E> packed(std::size_t(rows_) * cols_);
        for (int c = 0; c < cols_; ++c)
            for (int r = 0; r < rows_; ++r) packed[std::size_t(c) * rows_ + r] = data_[at(s, r, c)];
        return packed;
    }
    /// Every element outside the arrays still holds the sentinel's bits.
    bool guards_intact() const {
        std::vector<E> copy = data_;
        for (std::int64_t s = 0; s < count_; ++s)
            for (int c = 0; c < cols_; ++c)
                for (int r = 0; r < rows_; ++r) copy[at(s, r, c)] = sentinel<E>();
        return same_bits(copy, std::vector<E>(copy.size(), sentinel<E>()));
    }

  private:
    std::size_t at(std::int64_t s, int r, int c) const { return std::size_t(s * stride_ + c * ld_ + r); }
    std::int64_t count_;
    int rows_, cols_;
    std::int64_t ld_, stride_;
    std::vector<E> data_;
};

/// `count` packed arrays of `elements` each, interleaved in blocks of `block`.
/// `line_offset` < 0: the data start where the vector's storage does (large
/// ones 16 bytes past a page, as glibc's malloc serves them); else that many
/// bytes past a 64-byte boundary (the blocked kernel moves whole lines only
/// from line-aligned blocks), with sentinel slack before and after.
template <typename E>
class InterleavedBuffer {
  public:
    InterleavedBuffer(std::int64_t count, std::int64_t elements, std::int64_t block, int line_offset = -1)
        : count_(count), elements_(elements), block_(block),
          data_(std::size_t(std::max<std::int64_t>((count + block - 1) / block * block * elements, 1)) +
                    (line_offset < 0 ? 0 : 2 * line / sizeof(E)),
                sentinel<E>()) {
        if (line_offset < 0) return;
        const auto address = [&] { return reinterpret_cast<std::uintptr_t>(data_.data() + base_); };
        while (address() % line != std::uintptr_t(line_offset) % line) ++base_;
    }

    E* data() { return data_.data() + base_; }

    void put(std::int64_t s, const std::vector<E>& packed) {
        for (std::int64_t e = 0; e < elements_; ++e) data_[at(s, e)] = packed[std::size_t(e)];
    }
    std::vector<E> get(std::int64_t s) const {
        std::vector<E> packed(static_cast<std::size_t>(elements_));
        for (std::int64_t e = 0; e < elements_; ++e) packed[std::size_t(e)] = data_[at(s, e)];
        return packed;
    }
    /// The slots of the partial last block that no system owns are untouched.
    bool guards_intact() const {
        std::vector<E> copy = data_;
        for (std::int64_t s = 0; s < count_; ++s)
            for (std::int64_t e = 0; e < elements_; ++e) copy[at(s, e)] = sentinel<E>();
        return same_bits(copy, std::vector<E>(copy.size(), sentinel<E>()));
    }

  private:
    static constexpr std::size_t line = 64;
    std::size_t at(std::int64_t s, std::int64_t e) const {
        return base_ + std::size_t((s / block_) * block_ * elements_ + e * block_ + s % block_);
    }
    std::int64_t count_, elements_, block_;
    std::vector<E> data_;
    std::size_t base_ = 0;
};

/// info of `batch` systems followed by two guard entries.
class InfoBuffer {
  public:
    explicit InfoBuffer(std::int64_t batch) : batch_(batch), data_(std::size_t(batch + 2), info_sentinel) {}
    std::int32_t* data() { return data_.data(); }
    std::vector<std::int32_t> values() const { return {data_.begin(), data_.begin() + batch_}; }
    bool guards_intact() const {
        return data_[batch_] == info_sentinel && data_[batch_ + 1] == info_sentinel;
    }

  private:
    std::int64_t batch_;
    std::vector<std::int32_t> data_;
};

// ---- the three batch forms ----------------------------------------------------

/// Extra room around the operands: leading dimensions above the order, gaps
/// between systems above the footprint.
struct Padding {
    int lda_extra = 0;
    int ldb_extra = 0;
    int strideA_extra = 0;
    int strideIpiv_extra = 0;
    int strideB_extra = 0;
};
inline constexpr Padding no_padding{};

/// Which optional operands the call gets.
struct Operands {
    bool ipiv = true; // else ipiv (or ipiv_array) is NULL
    bool B = true;    // else B (or B_array) is NULL; only with nrhs == 0
};

struct StridedLayout {
    std::int64_t lda, strideA, strideIpiv, ldb, strideB;
};

template <typename T>
StridedLayout strided_layout(const SystemSet<T>& set, Padding pad) {
    const int n = set.n;
    StridedLayout l;
    l.lda = n + pad.lda_extra;
    l.strideA = l.lda * n + pad.strideA_extra;
    l.strideIpiv = n + pad.strideIpiv_extra;
    l.ldb = b_rows(n, set.nrhs, set.layout) + pad.ldb_extra;
    l.strideB = l.ldb * b_cols(n, set.nrhs, set.layout) + pad.strideB_extra;
    return l;
}

/// The results of a call on one buffer per operand (strided or interleaved):
/// each system's A, B, pivots (when given), info, and whether every guard
/// held. Without ipiv the whole pivot buffer must be untouched.
template <typename T, typename MatrixBuffer, typename PivotBuffer>
void collect_outcome(Outcome<T>& out, const MatrixBuffer& A, const PivotBuffer& ipiv, const MatrixBuffer& B,
                     const InfoBuffer& info, std::int64_t batch, int n, const Operands& operands) {
    if (out.status != TDLS_SUCCESS) out.error = tdls_last_error();
    for (std::int64_t s = 0; s < batch; ++s) {
        out.A.push_back(A.get(s));
        out.B.push_back(B.get(s));
        if (operands.ipiv) out.ipiv.push_back(ipiv.get(s));
    }
    out.info = info.values();
    out.guards_intact =
        A.guards_intact() && ipiv.guards_intact() && B.guards_intact() && info.guards_intact();
    if (!operands.ipiv)
        for (std::int64_t s = 0; s < batch; ++s)
            out.guards_intact =
                out.guards_intact &&
                same_bits(ipiv.get(s), std::vector<std::int32_t>(n, sentinel<std::int32_t>()));
}

/// The arguments a strided run hands the entry point it calls: its own
/// buffers (NULL where Operands leaves an operand out) and their geometry.
template <typename T>
struct StridedCall {
    tdls_layout_t layout;
    int n, nrhs;
    std::int64_t batch;
    StridedLayout l;
    T* A;
    std::int32_t* ipiv;
    T* B;
    std::int32_t* info;
};

/// The set in strided buffers (sentinel padding), one call of `invoke`
/// (StridedCall -> status), and what it left. The entry point is the
/// caller's: gesv, getrf or the solve, or a negative control's tampering.
template <typename T, typename Invoke>
Outcome<T> run_strided_with(const SystemSet<T>& set, Padding pad, Operands operands, Invoke&& invoke) {
    const int n = set.n, nrhs = set.nrhs;
    const std::int64_t batch = set.batch();
    const StridedLayout l = strided_layout(set, pad);
    StridedBuffer<T> A(batch, n, n, l.lda, l.strideA);
    StridedBuffer<std::int32_t> ipiv(batch, n, 1, n, l.strideIpiv);
    const int R = b_rows(n, nrhs, set.layout), C = b_cols(n, nrhs, set.layout);
    StridedBuffer<T> B(batch, R, C, l.ldb, l.strideB);
    InfoBuffer info(batch);
    for (std::int64_t s = 0; s < batch; ++s) {
        A.put(s, set.A[s]);
        B.put(s, set.B[s]);
    }
    Outcome<T> out;
    out.status =
        invoke(StridedCall<T>{set.layout, n, nrhs, batch, l, A.data(), operands.ipiv ? ipiv.data() : nullptr,
                              operands.B ? B.data() : nullptr, info.data()});
    collect_outcome(out, A, ipiv, B, info, batch, n, operands);
    return out;
}

/// tdls_batched_gesv (or, with factor_only, tdls_batched_getrf) on the set.
template <typename T>
Outcome<T> run_strided(tdls_handle_t handle, const SystemSet<T>& set, Padding pad = no_padding,
                       Operands operands = {}, bool factor_only = false) {
    return run_strided_with(set, pad, operands, [&](const StridedCall<T>& c) {
        return factor_only ? tdls_batched_getrf(handle, dtype_of<T>(), c.layout, c.n, c.A, c.l.lda,
                                                c.l.strideA, c.ipiv, c.l.strideIpiv, c.info, c.batch)
                           : tdls_batched_gesv(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A, c.l.lda,
                                               c.l.strideA, c.ipiv, c.l.strideIpiv, c.B, c.l.ldb, c.l.strideB,
                                               c.info, c.batch);
    });
}

/// tdls_batched_solve on the set (it takes no pivots: the pivot buffer must
/// stay all sentinel, which guards_intact includes).
template <typename T>
Outcome<T> run_solve_strided(tdls_handle_t handle, const SystemSet<T>& set, Padding pad = no_padding,
                             Operands operands = {}) {
    operands.ipiv = false;
    return run_strided_with(set, pad, operands, [&](const StridedCall<T>& c) {
        return tdls_batched_solve(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A, c.l.lda, c.l.strideA,
                                  c.B, c.l.ldb, c.l.strideB, c.info, c.batch);
    });
}

/// The arguments a pointer-array run hands the entry point: the arrays
/// (NULL where Operands leaves an operand out), which the call may not write.
struct PointerCall {
    tdls_layout_t layout;
    int n, nrhs;
    std::int64_t batch;
    StridedLayout l;
    void** A_array;
    std::int32_t** ipiv_array;
    void** B_array;
    std::int32_t* info;
};

/// The set with every system in its own allocation, with a tail guard past
/// its footprint, one call of `invoke` (PointerCall -> status), and what it
/// left; the pointer arrays must still hold what they held (arrays_intact).
template <typename T, typename Invoke>
Outcome<T> run_pointers_with(const SystemSet<T>& set, Padding pad, Operands operands, Invoke&& invoke) {
    const int n = set.n, nrhs = set.nrhs;
    const std::int64_t batch = set.batch();
    const StridedLayout l = strided_layout(set, pad);
    const int R = b_rows(n, nrhs, set.layout), C = b_cols(n, nrhs, set.layout);
    std::vector<StridedBuffer<T>> A, B;
    std::vector<StridedBuffer<std::int32_t>> ipiv;
    std::vector<void*> A_array, B_array;
    std::vector<std::int32_t*> ipiv_array;
    for (std::int64_t s = 0; s < batch; ++s) {
        A.emplace_back(1, n, n, l.lda, l.strideA);
        ipiv.emplace_back(1, n, 1, n, l.strideIpiv);
        B.emplace_back(1, R, C, l.ldb, l.strideB);
        A.back().put(0, set.A[s]);
        B.back().put(0, set.B[s]);
    }
    for (std::int64_t s = 0; s < batch; ++s) {
        A_array.push_back(A[s].data());
        ipiv_array.push_back(ipiv[s].data());
        B_array.push_back(B[s].data());
    }
    const std::vector<void*> A_given = A_array, B_given = B_array;
    const std::vector<std::int32_t*> ipiv_given = ipiv_array;
    InfoBuffer info(batch);
    Outcome<T> out;
    out.status = invoke(PointerCall{set.layout, n, nrhs, batch, l, A_array.data(),
                                    operands.ipiv ? ipiv_array.data() : nullptr,
                                    operands.B ? B_array.data() : nullptr, info.data()});
    if (out.status != TDLS_SUCCESS) out.error = tdls_last_error();
    out.arrays_intact = A_array == A_given && B_array == B_given && ipiv_array == ipiv_given;
    out.guards_intact = out.arrays_intact && info.guards_intact();
    for (std::int64_t s = 0; s < batch; ++s) {
        out.A.push_back(A[s].get(0));
        out.B.push_back(B[s].get(0));
        if (operands.ipiv)
            out.ipiv.push_back(ipiv[s].get(0));
        else
            out.guards_intact =
                out.guards_intact &&
                same_bits(ipiv[s].get(0), std::vector<std::int32_t>(n, sentinel<std::int32_t>()));
        out.guards_intact =
            out.guards_intact && A[s].guards_intact() && ipiv[s].guards_intact() && B[s].guards_intact();
    }
    out.info = info.values();
    return out;
}

/// tdls_batched_gesv_ptr on the set.
template <typename T>
Outcome<T> run_pointers(tdls_handle_t handle, const SystemSet<T>& set, Padding pad = no_padding,
                        Operands operands = {}) {
    return run_pointers_with(set, pad, operands, [&](const PointerCall& c) {
        return tdls_batched_gesv_ptr(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A_array, c.l.lda,
                                     c.ipiv_array, c.B_array, c.l.ldb, c.info, c.batch);
    });
}

/// tdls_batched_solve_ptr on the set (no pivot arrays: every pivot buffer
/// must stay all sentinel).
template <typename T>
Outcome<T> run_solve_pointers(tdls_handle_t handle, const SystemSet<T>& set, Padding pad = no_padding,
                              Operands operands = {}) {
    operands.ipiv = false;
    return run_pointers_with(set, pad, operands, [&](const PointerCall& c) {
        return tdls_batched_solve_ptr(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A_array, c.l.lda,
                                      c.B_array, c.l.ldb, c.info, c.batch);
    });
}

/// The arguments an interleaved run hands the entry point.
template <typename T>
struct InterleavedCall {
    tdls_layout_t layout;
    int n, nrhs;
    std::int64_t batch, block;
    T* A;
    std::int32_t* ipiv;
    T* B;
    std::int32_t* info;
};

/// The set interleaved in blocks of `block` systems, one call of `invoke`
/// (InterleavedCall -> status), and what it left.
template <typename T, typename Invoke>
Outcome<T> run_interleaved_with(const SystemSet<T>& set, std::int64_t block, Operands operands,
                                Invoke&& invoke, int line_offset = -1) {
    const int n = set.n, nrhs = set.nrhs;
    const std::int64_t batch = set.batch();
    InterleavedBuffer<T> A(batch, std::int64_t(n) * n, block, line_offset);
    InterleavedBuffer<std::int32_t> ipiv(batch, n, block, line_offset);
    InterleavedBuffer<T> B(batch, std::int64_t(n) * nrhs, block, line_offset);
    for (std::int64_t s = 0; s < batch; ++s) {
        A.put(s, set.A[s]);
        B.put(s, set.B[s]);
    }
    InfoBuffer info(batch);
    Outcome<T> out;
    out.status = invoke(InterleavedCall<T>{set.layout, n, nrhs, batch, block, A.data(),
                                           operands.ipiv ? ipiv.data() : nullptr,
                                           operands.B ? B.data() : nullptr, info.data()});
    collect_outcome(out, A, ipiv, B, info, batch, n, operands);
    return out;
}

/// tdls_batched_gesv_interleaved on the set, in blocks of `block` systems.
template <typename T>
Outcome<T> run_interleaved(tdls_handle_t handle, const SystemSet<T>& set, std::int64_t block,
                           Operands operands = {}, int line_offset = -1) {
    return run_interleaved_with(
        set, block, operands,
        [&](const InterleavedCall<T>& c) {
            return tdls_batched_gesv_interleaved(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A, c.ipiv, c.B,
                                                 c.info, c.batch, c.block);
        },
        line_offset);
}

/// tdls_batched_solve_interleaved on the set (no pivots).
template <typename T>
Outcome<T> run_solve_interleaved(tdls_handle_t handle, const SystemSet<T>& set, std::int64_t block,
                                 Operands operands = {}, int line_offset = -1) {
    operands.ipiv = false;
    return run_interleaved_with(
        set, block, operands,
        [&](const InterleavedCall<T>& c) {
            return tdls_batched_solve_interleaved(handle, dtype_of<T>(), c.layout, c.n, c.nrhs, c.A, c.B, c.info,
                                                  c.batch, c.block);
        },
        line_offset);
}

/// What a solve call (run_solve_*) left, against the gesv call of the same
/// form on the same operands (capi.md, "Solve without writing the factors"):
/// the same status; X (B) and info bitwise gesv's; A bitwise the set's, as
/// given; no pivot, padding, gap, unused slot, info tail or pointer array
/// written. Empty when all of that holds, else what did not.
template <typename T>
std::string solve_mismatch(const Outcome<T>& solve, const Outcome<T>& gesv, const SystemSet<T>& set) {
    std::string why;
    const auto add = [&](const std::string& what) { why += (why.empty() ? "" : "; ") + what; };
    if (solve.status != gesv.status)
        add(std::string("status ") + tdls_status_name(solve.status) + " (" + solve.error + "), gesv's " +
            tdls_status_name(gesv.status));
    if (!solve.ipiv.empty()) add("the solve run collected pivots");
    if (!solve.arrays_intact)
        add("a pointer array was written");
    else if (!solve.guards_intact)
        add("a guard (padding, gap, unused slot, pivot or info tail) was written");
    if (!same_bits(solve.info, gesv.info)) add("info differs from gesv's");
    if (solve.B.size() != gesv.B.size() || solve.A.size() != set.A.size()) {
        add("a different number of systems");
        return why;
    }
    int first_B = -1, first_A = -1;
    for (std::size_t s = 0; s < solve.B.size(); ++s) {
        if (first_B < 0 && !same_bits(solve.B[s], gesv.B[s])) first_B = int(s);
        if (first_A < 0 && !same_bits(solve.A[s], set.A[s])) first_A = int(s);
    }
    if (first_B >= 0) add("B of system " + std::to_string(first_B) + " differs from gesv's bitwise");
    if (first_A >= 0) add("A of system " + std::to_string(first_A) + " was written");
    return why;
}

/// tdls_batched_getrs on factors, pivots and right-hand sides given per system
/// (factors packed as SystemSet::A, B as SystemSet::B). Returns the solutions;
/// guards_intact also covers A and ipiv, which getrs must leave bitwise alone.
template <typename T>
Outcome<T> run_getrs(tdls_handle_t handle, const SystemSet<T>& set,
                     const std::vector<std::vector<T>>& factors,
                     const std::vector<std::vector<std::int32_t>>& pivots, Padding pad = no_padding) {
    const int n = set.n, nrhs = set.nrhs;
    const std::int64_t batch = set.batch();
    const StridedLayout l = strided_layout(set, pad);
    StridedBuffer<T> A(batch, n, n, l.lda, l.strideA);
    StridedBuffer<std::int32_t> ipiv(batch, n, 1, n, l.strideIpiv);
    const int R = b_rows(n, nrhs, set.layout), C = b_cols(n, nrhs, set.layout);
    StridedBuffer<T> B(batch, R, C, l.ldb, l.strideB);
    for (std::int64_t s = 0; s < batch; ++s) {
        A.put(s, factors[s]);
        ipiv.put(s, pivots[s]);
        B.put(s, set.B[s]);
    }
    Outcome<T> out;
    out.status = tdls_batched_getrs(handle, dtype_of<T>(), set.layout, n, nrhs, A.data(), l.lda, l.strideA,
                                    ipiv.data(), l.strideIpiv, B.data(), l.ldb, l.strideB, batch);
    if (out.status != TDLS_SUCCESS) out.error = tdls_last_error();
    bool operands_kept = true;
    for (std::int64_t s = 0; s < batch; ++s) {
        out.A.push_back(A.get(s));
        out.ipiv.push_back(ipiv.get(s));
        out.B.push_back(B.get(s));
        operands_kept = operands_kept && same_bits(out.A[s], factors[s]) && same_bits(out.ipiv[s], pivots[s]);
    }
    out.guards_intact = operands_kept && A.guards_intact() && ipiv.guards_intact() && B.guards_intact();
    return out;
}

// ---- LAPACK, the oracle ------------------------------------------------------

// LAPACKE_?getrf of a packed n x n matrix and lapack_ptr (std::complex as
// LAPACKE's complex types): the solver tests' own (tests/support/lapack.hpp).
using tdls_test::lapack_getrf;
using tdls_test::lapack_ptr;
inline lapack_int lapack_gesv(int n, int nrhs, std::complex<float>* a, lapack_int* ipiv, std::complex<float>* b) {
    return LAPACKE_cgesv(LAPACK_COL_MAJOR, n, nrhs, lapack_ptr(a), n, ipiv, lapack_ptr(b), n);
}
inline lapack_int lapack_gesv(int n, int nrhs, std::complex<double>* a, lapack_int* ipiv,
                              std::complex<double>* b) {
    return LAPACKE_zgesv(LAPACK_COL_MAJOR, n, nrhs, lapack_ptr(a), n, ipiv, lapack_ptr(b), n);
}
/// transpose: A = S^T, the plain transpose (not the conjugate one) for complex.
inline lapack_int lapack_getrs(bool transpose, int n, int nrhs, const std::complex<float>* lu,
                               const lapack_int* ipiv, std::complex<float>* b) {
    return LAPACKE_cgetrs(LAPACK_COL_MAJOR, transpose ? 'T' : 'N', n, nrhs, lapack_ptr(lu), n, ipiv,
                          lapack_ptr(b), n);
}
inline lapack_int lapack_getrs(bool transpose, int n, int nrhs, const std::complex<double>* lu,
                               const lapack_int* ipiv, std::complex<double>* b) {
    return LAPACKE_zgetrs(LAPACK_COL_MAJOR, transpose ? 'T' : 'N', n, nrhs, lapack_ptr(lu), n, ipiv,
                          lapack_ptr(b), n);
}
inline double lapack_rcond(bool transpose, int n, const std::complex<float>* lu, float norm) {
    float rcond = 0;
    LAPACKE_cgecon(LAPACK_COL_MAJOR, transpose ? 'I' : '1', n, lapack_ptr(lu), n, norm, &rcond);
    return rcond;
}
inline double lapack_rcond(bool transpose, int n, const std::complex<double>* lu, double norm) {
    double rcond = 0;
    LAPACKE_zgecon(LAPACK_COL_MAJOR, transpose ? 'I' : '1', n, lapack_ptr(lu), n, norm, &rcond);
    return rcond;
}
inline lapack_int lapack_gesv(int n, int nrhs, float* a, lapack_int* ipiv, float* b) {
    return LAPACKE_sgesv(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, n);
}
inline lapack_int lapack_gesv(int n, int nrhs, double* a, lapack_int* ipiv, double* b) {
    return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, a, n, ipiv, b, n);
}
/// Solves op(S) X = B from getrf's factors of S; B column-major, ldb = n.
inline lapack_int lapack_getrs(bool transpose, int n, int nrhs, const float* lu, const lapack_int* ipiv,
                               float* b) {
    return LAPACKE_sgetrs(LAPACK_COL_MAJOR, transpose ? 'T' : 'N', n, nrhs, lu, n, ipiv, b, n);
}
inline lapack_int lapack_getrs(bool transpose, int n, int nrhs, const double* lu, const lapack_int* ipiv,
                               double* b) {
    return LAPACKE_dgetrs(LAPACK_COL_MAJOR, transpose ? 'T' : 'N', n, nrhs, lu, n, ipiv, b, n);
}
/// Reciprocal condition number of S in the 1-norm (of S^T: the infinity
/// norm), from getrf's factors.
inline double lapack_rcond(bool transpose, int n, const float* lu, float norm) {
    float rcond = 0;
    LAPACKE_sgecon(LAPACK_COL_MAJOR, transpose ? 'I' : '1', n, lu, n, norm, &rcond);
    return rcond;
}
inline double lapack_rcond(bool transpose, int n, const double* lu, double norm) {
    double rcond = 0;
    LAPACKE_dgecon(LAPACK_COL_MAJOR, transpose ? 'I' : '1', n, lu, n, norm, &rcond);
    return rcond;
}

/// B packed column-major (n x nrhs) from B packed in the set's layout, and back.
template <typename T>
std::vector<T> b_to_col_major(const std::vector<T>& b, int n, int nrhs, tdls_layout_t layout) {
    std::vector<T> out(std::size_t(n) * nrhs);
    for (int k = 0; k < nrhs; ++k)
        for (int i = 0; i < n; ++i) out[std::size_t(k) * n + i] = b[b_index(i, k, n, nrhs, layout)];
    return out;
}
template <typename T>
std::vector<T> b_from_col_major(const std::vector<T>& b, int n, int nrhs, tdls_layout_t layout) {
    std::vector<T> out(std::size_t(n) * nrhs);
    for (int k = 0; k < nrhs; ++k)
        for (int i = 0; i < n; ++i) out[b_index(i, k, n, nrhs, layout)] = b[std::size_t(k) * n + i];
    return out;
}

/// LAPACK's answer for one system: ?getrf of S for the factors, pivots and
/// info (what the contract asks of both layouts); ?gesv's solution
/// (column-major) or ?getrs('T') on S's factors (row-major: A = S^T), packed
/// in the set's layout; empty when info > 0 or nrhs == 0.
template <typename T>
struct Oracle {
    std::vector<T> lu;
    std::vector<std::int32_t> ipiv;
    int info = 0;
    std::vector<T> X;
};

template <typename T>
Oracle<T> lapack_oracle(const std::vector<T>& S, int n, const std::vector<T>& B, int nrhs,
                        tdls_layout_t layout) {
    Oracle<T> o;
    o.lu = S;
    o.ipiv.assign(n, 0);
    if (layout == TDLS_COL_MAJOR && nrhs > 0) {
        std::vector<T> x = B;
        o.info = lapack_gesv(n, nrhs, o.lu.data(), o.ipiv.data(), x.data());
        if (o.info == 0) o.X = x;
        return o;
    }
    o.info = lapack_getrf(n, o.lu.data(), o.ipiv.data());
    if (o.info == 0 && nrhs > 0) {
        std::vector<T> x = b_to_col_major(B, n, nrhs, layout);
        lapack_getrs(true, n, nrhs, o.lu.data(), o.ipiv.data(), x.data());
        o.X = b_from_col_major(x, n, nrhs, layout);
    }
    return o;
}

// ---- the checks ----------------------------------------------------------------

/// Largest backward error ratio (norms.hpp: LAPACK's test ratio, bound 30) of
/// the nrhs solutions X of A X = B, A(i, j) = S[i + j*n] column-major,
/// S[i*n + j] row-major; X and B packed in the layout.
template <typename T>
double solution_ratio(const std::vector<T>& S, int n, tdls_layout_t layout, const std::vector<T>& X,
                      const std::vector<T>& B, int nrhs) {
    double worst = 0;
    std::vector<T> x(n), b(n);
    for (int k = 0; k < nrhs; ++k) {
        for (int i = 0; i < n; ++i) {
            x[i] = X[b_index(i, k, n, nrhs, layout)];
            b[i] = B[b_index(i, k, n, nrhs, layout)];
        }
        const double ratio = tdls_test::backward_error_ratio(S, n, layout == TDLS_ROW_MAJOR, x, b);
        worst = std::isnan(ratio) ? INFINITY : std::max(worst, ratio);
    }
    return worst;
}

/// Distance of factors F from LAPACK's G (both of S, LAPACK format), in units
/// of n*eps times each entry's natural scale: for U (i <= j) the larger of
/// column j of S and of U; for L (i > j) that scale over |U(j, j)|, as a
/// multiplier is an updated entry divided by the pivot. Infinite on NaN.
template <typename T>
double factor_ratio(const std::vector<T>& F, const std::vector<T>& G, const std::vector<T>& S, int n) {
    const long double unit = (long double)n * std::numeric_limits<real_of<T>>::epsilon();
    double worst = 0;
    for (int j = 0; j < n; ++j) {
        long double scale = 0;
        for (int i = 0; i < n; ++i) scale = std::max(scale, mag(S[std::size_t(j) * n + i]));
        for (int i = 0; i <= j; ++i) scale = std::max(scale, mag(G[std::size_t(j) * n + i]));
        const long double pivot = mag(G[std::size_t(j) * n + j]);
        const long double l_scale = pivot > 0 ? std::max(1.0L, scale / pivot) : std::max(1.0L, scale);
        for (int i = 0; i < n; ++i) {
            const std::size_t e = std::size_t(j) * n + i;
            const long double d = tdls::magnitude(wide_of<T>(F[e]) - wide_of<T>(G[e]));
            if (std::isnan((double)d)) return INFINITY;
            if (d == 0) continue;
            const long double s = i <= j ? scale : l_scale;
            if (s == 0) return INFINITY;
            worst = std::max(worst, double(d / (unit * s)));
        }
    }
    return worst;
}

/// Factors within this many units (factor_ratio) of LAPACK's count as close.
inline constexpr double factor_bound = 16.0;

/// Relative distance ||x - y||_inf / ||y||_inf of two solutions over n eps
/// and the condition number (1 / rcond): the forward error two backward
/// stable solvers may differ by.
template <typename T>
double solution_distance(const std::vector<T>& x, const std::vector<T>& y, int n, double rcond) {
    long double d = 0, norm = 0;
    for (std::size_t e = 0; e < x.size(); ++e) {
        d = std::max(d, tdls::magnitude(wide_of<T>(x[e]) - wide_of<T>(y[e])));
        norm = std::max(norm, mag(y[e]));
    }
    if (std::isnan((double)d)) return INFINITY;
    if (d == 0) return 0;
    const long double unit = (long double)n * std::numeric_limits<real_of<T>>::epsilon() / rcond;
    return norm > 0 ? double(d / norm / unit) : INFINITY;
}
inline constexpr double solution_distance_bound = 30.0;

/// Reciprocal condition number of the system's matrix A (S column-major,
/// S^T row-major) in the 1-norm, from LAPACK's factors of S.
template <typename T>
double system_rcond(const std::vector<T>& S, const std::vector<T>& lu, int n, tdls_layout_t layout) {
    // cond_1(S^T) = cond_inf(S): gecon on S's factors with the matching norm of S.
    const bool transpose = layout == TDLS_ROW_MAJOR;
    // LAPACK's complex norms (zlange) add moduli.
    real_of<T> norm = 0;
    for (int outer = 0; outer < n; ++outer) {
        real_of<T> sum = 0;
        for (int inner = 0; inner < n; ++inner)
            sum += std::abs(transpose ? S[std::size_t(inner) * n + outer] : S[std::size_t(outer) * n + inner]);
        norm = std::max(norm, sum);
    }
    return lapack_rcond(transpose, n, lu.data(), norm);
}

template <typename T>
bool all_finite(const std::vector<T>& v) {
    return std::all_of(v.begin(), v.end(), [](T e) {
        if constexpr (tdls::is_complex_scalar_v<T>)
            return std::isfinite(e.real()) && std::isfinite(e.imag());
        else
            return std::isfinite(e);
    });
}

/// A copy of v with its largest-magnitude entry moved by `relative` times its
/// magnitude (at least the smallest normal number): a wrong answer for the
/// negative controls.
template <typename T>
std::vector<T> perturbed(std::vector<T> v, double relative) {
    std::size_t at = 0;
    for (std::size_t e = 0; e < v.size(); ++e)
        if (mag(v[e]) > mag(v[at])) at = e;
    const real_of<T> magnitude = std::max(real_of<T>(mag(v[at])), std::numeric_limits<real_of<T>>::min());
    v[at] = T(v[at] + T(real_of<T>(relative) * magnitude));
    return v;
}

/// v with bit `bit` of its representation flipped: the smallest wrong answer.
template <typename T>
T with_bit_flipped(T v, int bit) {
    // A complex number: a bit of its real part.
    using Bits = std::conditional_t<sizeof(real_of<T>) == 4, std::uint32_t, std::uint64_t>;
    Bits bits;
    std::memcpy(&bits, static_cast<const void*>(&v), sizeof bits);
    bits ^= Bits(1) << bit;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof bits);
    return v;
}

/// The next representable value above v (in the real part of a complex v).
template <typename T>
T next_up(T v) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        return T(std::nextafter(v.real(), real_of<T>(10)), v.imag());
    else
        return std::nextafter(v, T(10));
}

/// A copy of ipiv with one entry changed to another valid pivot (n >= 2).
inline std::vector<std::int32_t> corrupted_pivots(std::vector<std::int32_t> ipiv) {
    const int n = int(ipiv.size());
    ipiv[0] = ipiv[0] == n ? 1 : n;
    return ipiv;
}

} // namespace capi_test
