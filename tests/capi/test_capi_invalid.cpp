// Invalid arguments of every compute entry point of the C ABI, table-driven.
// Each row starts from a valid call on a small padded batch and changes one
// argument (or two, to check which failure wins in the documented order).
// For every row, entry point, layout and type: the status, the message of
// tdls_last_error() (this call's function, the argument and its value), and
// every operand buffer, padding included, bitwise as it was (capi.md:
// "before anything is read or written; on failure no operand is touched").
// The quick returns and a negative control (a valid call does change the
// buffers, so the "unchanged" check can fail) follow the table. The solve
// entry points (tdls_batched_solve, _ptr, _interleaved) take every row their
// gesv counterpart takes, less the pivot ones: same order, own name.
#include <catch2/catch.hpp>

#include <tdls/tdls.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

enum class Entry { Gesv, Ptr, Interleaved, Getrf, Getrs, Solve, SolvePtr, SolveInterleaved, GetrfPtr, GetrsPtr };

const char* function_of(Entry entry) {
    switch (entry) {
    case Entry::Gesv:
        return "tdls_batched_gesv";
    case Entry::Ptr:
        return "tdls_batched_gesv_ptr";
    case Entry::Interleaved:
        return "tdls_batched_gesv_interleaved";
    case Entry::Getrf:
        return "tdls_batched_getrf";
    case Entry::Getrs:
        return "tdls_batched_getrs";
    case Entry::Solve:
        return "tdls_batched_solve";
    case Entry::SolvePtr:
        return "tdls_batched_solve_ptr";
    case Entry::SolveInterleaved:
        return "tdls_batched_solve_interleaved";
    case Entry::GetrfPtr:
        return "tdls_batched_getrf_ptr";
    case Entry::GetrsPtr:
        return "tdls_batched_getrs_ptr";
    }
    return "?";
}

bool is_solve(Entry entry) {
    return entry == Entry::Solve || entry == Entry::SolvePtr || entry == Entry::SolveInterleaved;
}
bool is_pointers(Entry entry) {
    return entry == Entry::Ptr || entry == Entry::SolvePtr || entry == Entry::GetrfPtr || entry == Entry::GetrsPtr;
}
bool is_getrf(Entry entry) {
    return entry == Entry::Getrf || entry == Entry::GetrfPtr;
}
bool is_getrs(Entry entry) {
    return entry == Entry::Getrs || entry == Entry::GetrsPtr;
}
bool is_interleaved(Entry entry) {
    return entry == Entry::Interleaved || entry == Entry::SolveInterleaved;
}
/// The gesv entry point of the same form as a solve one.
Entry gesv_of(Entry solve) {
    return solve == Entry::SolvePtr           ? Entry::Ptr
           : solve == Entry::SolveInterleaved ? Entry::Interleaved
                                              : Entry::Gesv;
}

const std::vector<Entry> all_entries{Entry::Gesv,     Entry::Ptr,   Entry::Interleaved, Entry::Getrf,
                                     Entry::Getrs,    Entry::Solve, Entry::SolvePtr,    Entry::SolveInterleaved,
                                     Entry::GetrfPtr, Entry::GetrsPtr};
const std::vector<Entry> solve_entries{Entry::Solve, Entry::SolvePtr, Entry::SolveInterleaved};
// The entry points that take each argument.
const std::vector<Entry> with_nrhs{Entry::Gesv,  Entry::Ptr,      Entry::Interleaved,     Entry::Getrs,
                                   Entry::Solve, Entry::SolvePtr, Entry::SolveInterleaved, Entry::GetrsPtr};
const std::vector<Entry> with_lda{Entry::Gesv,  Entry::Ptr,   Entry::Getrf,    Entry::Getrs,
                                  Entry::Solve, Entry::SolvePtr, Entry::GetrfPtr, Entry::GetrsPtr};
const std::vector<Entry> with_ldb{Entry::Gesv,     Entry::Ptr, Entry::Getrs, Entry::Solve,
                                  Entry::SolvePtr, Entry::GetrsPtr};
const std::vector<Entry> with_strideA{Entry::Gesv, Entry::Getrf, Entry::Getrs, Entry::Solve};
const std::vector<Entry> with_strideIpiv{Entry::Gesv, Entry::Getrf,
                                         Entry::Getrs}; // the solves take no pivots
const std::vector<Entry> with_strideB{Entry::Gesv, Entry::Getrs, Entry::Solve};
const std::vector<Entry> with_base_A{Entry::Gesv,  Entry::Interleaved, Entry::Getrf,
                                     Entry::Getrs, Entry::Solve,       Entry::SolveInterleaved};
const std::vector<Entry> with_base_B{Entry::Gesv, Entry::Interleaved, Entry::Getrs, Entry::Solve,
                                     Entry::SolveInterleaved};
const std::vector<Entry> with_info{Entry::Gesv,  Entry::Ptr,      Entry::Interleaved,     Entry::Getrf,
                                   Entry::Solve, Entry::SolvePtr, Entry::SolveInterleaved, Entry::GetrfPtr};
const std::vector<Entry> pointer_forms{Entry::Ptr, Entry::SolvePtr, Entry::GetrfPtr, Entry::GetrsPtr};
const std::vector<Entry> pointer_forms_with_B{Entry::Ptr, Entry::SolvePtr, Entry::GetrsPtr};
const std::vector<Entry> pointer_forms_with_info{Entry::Ptr, Entry::SolvePtr, Entry::GetrfPtr};
const std::vector<Entry> interleaved_forms{Entry::Interleaved, Entry::SolveInterleaved};

/// Every argument of every entry point; each call uses the ones it takes.
struct Args {
    Entry entry = Entry::Gesv;
    tdls_handle_t handle = nullptr;
    int dtype = TDLS_FLOAT64;
    int layout = TDLS_COL_MAJOR;
    std::int64_t n = 3;
    std::int64_t nrhs = 2;
    std::int64_t lda = 5;
    std::int64_t ldb = 4;
    std::int64_t strideA = 5 * 3 + 3;
    std::int64_t strideIpiv = 3 + 2;
    std::int64_t strideB = 4 * 3 + 2; // above ldb*nrhs (column-major) and ldb*n (row-major)
    std::int64_t batch = 4;
    std::int64_t block = 3; // the last block is partial
    // NULL operands: the whole operand, or one entry of a pointer array.
    bool null_A = false, null_ipiv = false, null_B = false, null_info = false;
    std::int64_t null_A_entry = -1, null_ipiv_entry = -1, null_B_entry = -1;
    // getrs: a pivot of system bad_pivot_system (entry bad_pivot_entry) set to bad_pivot_value.
    std::int64_t bad_pivot_system = -1;
    std::int64_t bad_pivot_entry = 0;
    std::int32_t bad_pivot_value = 0;

    bool row_major() const { return layout == TDLS_ROW_MAJOR; }
};

/// A baseline near the largest order, for the rows about TDLS_MAX_ORDER.
Args large_baseline() {
    Args a;
    const std::int64_t ld = TDLS_MAX_ORDER + 1;
    a.n = TDLS_MAX_ORDER;
    a.nrhs = 1;
    a.lda = ld;
    a.ldb = ld;
    a.strideA = ld * ld;
    a.strideIpiv = ld;
    a.strideB = ld * ld;
    a.batch = 2;
    a.block = 2;
    return a;
}

/// Element counts that hold the strided (and pointer) and the interleaved
/// forms of a geometry; 0 when the geometry is not one that could be allocated.
struct Footprint {
    std::size_t A = 0, ipiv = 0, B = 0, info = 0;
};

Footprint footprint_of(const Args& a) {
    const std::int64_t limit = std::int64_t(1) << 24;
    const auto sane = [&](std::int64_t v) { return v >= 0 && v < limit; };
    if (!sane(a.n) || !sane(a.nrhs) || !sane(a.lda) || !sane(a.ldb) || !sane(a.strideA) ||
        !sane(a.strideIpiv) || !sane(a.strideB) || a.batch < 0 || a.batch > 64 || a.block < 1 || a.block > 64)
        return {};
    const std::int64_t padded_batch = (a.batch + a.block - 1) / a.block * a.block;
    Footprint f;
    f.A = std::size_t(std::max(a.batch * std::max(a.strideA, a.lda * a.n), padded_batch * a.n * a.n));
    f.ipiv = std::size_t(std::max(a.batch * std::max(a.strideIpiv, a.n), padded_batch * a.n));
    const std::int64_t b_system = std::max(a.strideB, a.ldb * std::max(a.n, a.nrhs));
    f.B = std::size_t(std::max(a.batch * b_system, padded_batch * a.n * a.nrhs));
    f.info = std::size_t(a.batch);
    return f;
}

constexpr std::size_t guard_elements = 16; // after every buffer: must never change
constexpr std::int32_t info_fill = 0x5A5A5A5A;

/// Deterministic values in [-1, 1].
struct Lcg {
    std::uint64_t state;
    double next() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) / double(std::uint64_t(1) << 53) * 2.0 - 1.0;
    }
};

/// The operand buffers of one call, filled with values everywhere (systems,
/// padding and guards), and the pointer arrays of the pointer form.
struct Operands {
    bool single = false;
    std::size_t element_size = 8;
    std::vector<unsigned char> A, B;
    std::vector<std::int32_t> ipiv, info;
    std::vector<void*> A_array, B_array;
    std::vector<std::int32_t*> ipiv_array;

    Operands(const Args& baseline, const Args& used) {
        single = baseline.dtype == TDLS_FLOAT32;
        element_size = single ? sizeof(float) : sizeof(double);
        Footprint f = footprint_of(baseline);
        const Footprint g = footprint_of(used);
        f.A = std::max(f.A, g.A) + guard_elements;
        f.ipiv = std::max(f.ipiv, g.ipiv) + guard_elements;
        f.B = std::max(f.B, g.B) + guard_elements;
        f.info = std::max(f.info, g.info) + guard_elements;
        Lcg lcg{0x243F6A8885A308D3ull};
        fill(A, f.A, lcg);
        fill(B, f.B, lcg);
        // Valid pivots everywhere (getrs reads them): entry k of a system is k + 1, or n.
        ipiv.assign(f.ipiv, std::int32_t(std::max<std::int64_t>(baseline.n, 1)));
        info.assign(f.info, info_fill);
        for (std::int64_t s = 0; s < baseline.batch; ++s) {
            A_array.push_back(A.data() + std::size_t(s * baseline.strideA) * element_size);
            B_array.push_back(B.data() + std::size_t(s * baseline.strideB) * element_size);
            ipiv_array.push_back(ipiv.data() + s * baseline.strideIpiv);
        }
    }

    void fill(std::vector<unsigned char>& bytes, std::size_t count, Lcg& lcg) {
        bytes.resize(count * element_size);
        for (std::size_t e = 0; e < count; ++e) {
            const double v = lcg.next();
            if (single) {
                const float f = float(v);
                std::memcpy(bytes.data() + e * sizeof f, &f, sizeof f);
            } else {
                std::memcpy(bytes.data() + e * sizeof v, &v, sizeof v);
            }
        }
    }

    bool operator==(const Operands& other) const {
        return A == other.A && B == other.B && ipiv == other.ipiv && info == other.info &&
               A_array == other.A_array && B_array == other.B_array && ipiv_array == other.ipiv_array;
    }
};

/// Makes the call that `a` describes on `op` (pivot corruption and NULL
/// entries applied here, so that the snapshot taken after includes them).
tdls_status_t call(const Args& a, Operands& op) {
    void* A = a.null_A ? nullptr : op.A.data();
    void* B = a.null_B ? nullptr : op.B.data();
    std::int32_t* ipiv = a.null_ipiv ? nullptr : op.ipiv.data();
    std::int32_t* info = a.null_info ? nullptr : op.info.data();
    const auto dtype = static_cast<tdls_dtype_t>(a.dtype);
    const auto layout = static_cast<tdls_layout_t>(a.layout);
    switch (a.entry) {
    case Entry::Gesv:
        return tdls_batched_gesv(a.handle, dtype, layout, a.n, a.nrhs, A, a.lda, a.strideA, ipiv,
                                 a.strideIpiv, B, a.ldb, a.strideB, info, a.batch);
    case Entry::Ptr:
        return tdls_batched_gesv_ptr(a.handle, dtype, layout, a.n, a.nrhs,
                                     a.null_A ? nullptr : op.A_array.data(), a.lda,
                                     a.null_ipiv ? nullptr : op.ipiv_array.data(),
                                     a.null_B ? nullptr : op.B_array.data(), a.ldb, info, a.batch);
    case Entry::Interleaved:
        return tdls_batched_gesv_interleaved(a.handle, dtype, layout, a.n, a.nrhs, A, ipiv, B, info, a.batch,
                                             a.block);
    case Entry::Getrf:
        return tdls_batched_getrf(a.handle, dtype, layout, a.n, A, a.lda, a.strideA, ipiv, a.strideIpiv, info,
                                  a.batch);
    case Entry::Getrs:
        return tdls_batched_getrs(a.handle, dtype, layout, a.n, a.nrhs, A, a.lda, a.strideA, ipiv,
                                  a.strideIpiv, B, a.ldb, a.strideB, a.batch);
    case Entry::Solve:
        return tdls_batched_solve(a.handle, dtype, layout, a.n, a.nrhs, A, a.lda, a.strideA, B, a.ldb,
                                  a.strideB, info, a.batch);
    case Entry::SolvePtr:
        return tdls_batched_solve_ptr(a.handle, dtype, layout, a.n, a.nrhs,
                                      a.null_A ? nullptr : op.A_array.data(), a.lda,
                                      a.null_B ? nullptr : op.B_array.data(), a.ldb, info, a.batch);
    case Entry::SolveInterleaved:
        return tdls_batched_solve_interleaved(a.handle, dtype, layout, a.n, a.nrhs, A, B, info, a.batch,
                                              a.block);
    case Entry::GetrfPtr:
        return tdls_batched_getrf_ptr(a.handle, dtype, layout, a.n, a.null_A ? nullptr : op.A_array.data(), a.lda,
                                      a.null_ipiv ? nullptr : op.ipiv_array.data(), info, a.batch);
    case Entry::GetrsPtr: {
        std::vector<const void*> A_array(op.A_array.begin(), op.A_array.end());
        std::vector<const std::int32_t*> ipiv_array(op.ipiv_array.begin(), op.ipiv_array.end());
        return tdls_batched_getrs_ptr(a.handle, dtype, layout, a.n, a.nrhs, a.null_A ? nullptr : A_array.data(),
                                      a.lda, a.null_ipiv ? nullptr : ipiv_array.data(),
                                      a.null_B ? nullptr : op.B_array.data(), a.ldb, a.batch);
    }
    }
    return TDLS_ERROR_INTERNAL;
}

void prepare(const Args& a, Operands& op) {
    if (a.null_A_entry >= 0) op.A_array[std::size_t(a.null_A_entry)] = nullptr;
    if (a.null_B_entry >= 0) op.B_array[std::size_t(a.null_B_entry)] = nullptr;
    if (a.null_ipiv_entry >= 0) op.ipiv_array[std::size_t(a.null_ipiv_entry)] = nullptr;
    if (a.bad_pivot_system >= 0)
        op.ipiv[std::size_t(a.bad_pivot_system * a.strideIpiv + a.bad_pivot_entry)] = a.bad_pivot_value;
}

/// Leaves a message of another function in tdls_last_error(), so that the
/// message read after a call is known to come from that call.
void plant_other_message() {
    int not_a_handle = 0;
    REQUIRE(tdls_destroy(reinterpret_cast<tdls_handle_t>(&not_a_handle)) == TDLS_ERROR_INVALID_HANDLE);
    REQUIRE(std::string(tdls_last_error()).rfind("tdls_destroy", 0) == 0);
}

/// A handle that was created and destroyed: its address is in no live table.
tdls_handle_t destroyed_handle() {
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    REQUIRE(tdls_destroy(handle) == TDLS_SUCCESS);
    return handle;
}

int never_created_storage = 0;

/// A fragment the message must contain; whole_word: not inside a longer name.
struct Fragment {
    std::string text;
    bool whole_word = false;
};

Fragment has(std::string text) {
    return {std::move(text), false};
}
Fragment word(std::string text) {
    return {std::move(text), true};
}

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[';
}

bool contains(const std::string& message, const Fragment& fragment) {
    for (std::size_t at = message.find(fragment.text); at != std::string::npos;
         at = message.find(fragment.text, at + 1)) {
        if (!fragment.whole_word) return true;
        const std::size_t end = at + fragment.text.size();
        const bool starts = at == 0 || !name_char(message[at - 1]);
        const bool ends = end == message.size() || !name_char(message[end]);
        if (starts && ends) return true;
    }
    return false;
}

std::string str(std::int64_t v) {
    return std::to_string(v);
}

struct Row {
    std::string name;
    std::vector<Entry> entries;
    std::function<void(Args&)> change;
    tdls_status_t status;
    std::function<std::vector<Fragment>(const Args&)> message; // of the changed arguments
    bool large = false;                                        // start from large_baseline()
};

std::int32_t as_pivot(std::int64_t v) {
    return static_cast<std::int32_t>(v);
}

std::vector<Row> invalid_rows() {
    using V = std::vector<Fragment>;
    std::vector<Row> rows;
    const auto add = [&](Row row) { rows.push_back(std::move(row)); };

    // 1. handle
    add({"destroyed handle", all_entries, [](Args& a) { a.handle = destroyed_handle(); },
         TDLS_ERROR_INVALID_HANDLE, [](const Args&) { return V{word("handle")}; }});
    add({"never-created handle", all_entries,
         [](Args& a) { a.handle = reinterpret_cast<tdls_handle_t>(&never_created_storage); },
         TDLS_ERROR_INVALID_HANDLE, [](const Args&) { return V{word("handle")}; }});
    // 2. dtype
    add({"dtype 7", all_entries, [](Args& a) { a.dtype = 7; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("dtype (7)")}; }});
    add({"dtype -1", all_entries, [](Args& a) { a.dtype = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("dtype (-1)")}; }});
    // 3. layout
    add({"layout 5", all_entries, [](Args& a) { a.layout = 5; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("layout (5)")}; }});
    add({"layout -1", all_entries, [](Args& a) { a.layout = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("layout (-1)")}; }});
    // 4. signs
    add({"n -1", all_entries, [](Args& a) { a.n = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("n (-1)"), word("n")};
         }});
    add({"nrhs -1", with_nrhs, [](Args& a) { a.nrhs = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("nrhs (-1)")}; }});
    add({"batch -1", all_entries, [](Args& a) { a.batch = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("batch (-1)")}; }});
    // 5. leading dimensions
    add({"lda n-1", with_lda, [](Args& a) { a.lda = a.n - 1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("lda (2)"), has("n (3)")};
         }});
    add({"lda 0", with_lda, [](Args& a) { a.lda = 0; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("lda (0)"), has("n (3)")};
         }});
    add({"ldb below the order of B", with_ldb, [](Args& a) { a.ldb = a.row_major() ? a.nrhs - 1 : a.n - 1; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             return a.row_major() ? V{has("ldb (1)"), has("nrhs (2)")} : V{has("ldb (2)"), has("n (3)")};
         }});
    add({"ldb -1", with_ldb, [](Args& a) { a.ldb = -1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             return V{has("ldb (-1)"), a.row_major() ? has("nrhs (2)") : has("n (3)")};
         }});
    // 6. strides and block
    add({"strideA lda*n-1", with_strideA, [](Args& a) { a.strideA = a.lda * a.n - 1; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideA (14)"), has("lda*n")};
         }});
    add({"strideA 0", with_strideA, [](Args& a) { a.strideA = 0; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideA (0)"), has("lda*n")};
         }});
    add({"strideIpiv n-1", with_strideIpiv, [](Args& a) { a.strideIpiv = a.n - 1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideIpiv (2)"), has("n (3)")};
         }});
    add({"strideB below one system of B", with_strideB,
         [](Args& a) { a.strideB = a.ldb * (a.row_major() ? a.n : a.nrhs) - 1; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             return a.row_major() ? V{has("strideB (11)"), has("ldb*n")}
                                  : V{has("strideB (7)"), has("ldb*nrhs")};
         }});
    add({"strideB = ldb*nrhs: too small for a row-major B only", with_strideB,
         [](Args& a) { a.strideB = a.ldb * (a.row_major() ? a.nrhs : a.n); }, TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             // Column-major this stride (ldb*n) is valid: the row expects success there.
             return a.row_major() ? V{has("strideB (8)"), has("ldb*n")} : V{};
         }});
    add({"block 0", interleaved_forms, [](Args& a) { a.block = 0; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("block (0)")}; }});
    add({"block -3", interleaved_forms, [](Args& a) { a.block = -3; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("block (-3)")}; }});
    add({"lda*n overflows int64", with_strideA,
         [](Args& a) { a.lda = std::numeric_limits<std::int64_t>::max(); }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideA (18)"), has("lda*n")};
         }});
    add({"lda*n overflows int64 (2^62)", with_strideA, [](Args& a) { a.lda = std::int64_t(1) << 62; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideA (18)"), has("lda*n")};
         }});
    add({"ldb*columns overflows int64", with_strideB,
         [](Args& a) { a.ldb = std::numeric_limits<std::int64_t>::max(); }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideB (14)"), has("ldb*")};
         }});
    // 6b. footprints with byte offsets beyond INT64_MAX (test_capi_footprint.cpp
    // sweeps their limits; here one of each, for every entry point that takes the size)
    const std::int64_t two_61 = std::int64_t(1) << 61;
    add({"lda 2^61: one system's A beyond INT64_MAX bytes", with_lda,
         [=](Args& a) {
             a.lda = two_61;
             a.strideA = std::numeric_limits<std::int64_t>::max(); // not below lda*n
         },
         TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("lda (" + str(two_61) + ")"), has("footprint of A")};
         }});
    add({"ldb 2^61: one system's B beyond INT64_MAX bytes", with_ldb,
         [=](Args& a) {
             a.ldb = two_61;
             a.strideB = std::numeric_limits<std::int64_t>::max();
         },
         TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("ldb (" + str(two_61) + ")"), has("footprint of B")};
         }});
    add({"strideA 2^61: the batch's A beyond INT64_MAX bytes", with_strideA,
         [=](Args& a) { a.strideA = two_61; }, TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("strideA (" + str(two_61) + ")"), has("footprint of A")};
         }});
    add({"strideB 2^61: the batch's B beyond INT64_MAX bytes", with_strideB,
         [=](Args& a) { a.strideB = two_61; }, TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("strideB (" + str(two_61) + ")"), has("footprint of B")};
         }});
    add({"block 2^61: the interleaved A beyond INT64_MAX bytes", interleaved_forms,
         [=](Args& a) { a.block = two_61; }, TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("block (" + str(two_61) + ")"), has("footprint of A")};
         }});
    add({"batch 2^61: info beyond INT64_MAX bytes", pointer_forms_with_info, [=](Args& a) { a.batch = two_61; },
         TDLS_ERROR_INVALID_VALUE,
         [=](const Args&) {
             return V{has("batch (" + str(two_61) + ")"), has("footprint of info")};
         }});
    // 7. NULL operands
    add({"NULL A", with_base_A, [](Args& a) { a.null_A = true; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("A"), has("NULL")};
         }});
    add({"NULL A_array", pointer_forms, [](Args& a) { a.null_A = true; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("A_array"), has("NULL")};
         }});
    add({"NULL B", with_base_B, [](Args& a) { a.null_B = true; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("B"), has("NULL")};
         }});
    add({"NULL B_array", pointer_forms_with_B, [](Args& a) { a.null_B = true; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("B_array"), has("NULL")};
         }});
    add({"NULL info", with_info, [](Args& a) { a.null_info = true; }, TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("info"), has("NULL")};
         }});
    add({"NULL ipiv (getrs needs it)",
         {Entry::Getrs},
         [](Args& a) { a.null_ipiv = true; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv"), has("NULL")};
         }});
    add({"NULL ipiv_array (getrs_ptr needs it)",
         {Entry::GetrsPtr},
         [](Args& a) { a.null_ipiv = true; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv_array"), has("NULL")};
         }});
    add({"NULL entry of A_array (the last)", pointer_forms, [](Args& a) { a.null_A_entry = a.batch - 1; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("A_array[3]"), has("NULL")};
         }});
    add({"NULL entry of A_array (the first)", pointer_forms, [](Args& a) { a.null_A_entry = 0; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("A_array[0]"), has("NULL")};
         }});
    add({"NULL entry of B_array", pointer_forms_with_B, [](Args& a) { a.null_B_entry = a.batch - 1; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("B_array[3]"), has("NULL")};
         }});
    add({"NULL entry of ipiv_array",
         {Entry::Ptr, Entry::GetrfPtr, Entry::GetrsPtr},
         [](Args& a) { a.null_ipiv_entry = a.batch - 1; },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("ipiv_array[3]"), has("NULL")};
         }});
    // 8. order above the limit
    add({"n TDLS_MAX_ORDER+1", all_entries, [](Args& a) { a.n = TDLS_MAX_ORDER + 1; },
         TDLS_ERROR_NOT_SUPPORTED,
         [](const Args&) {
             return V{has("n (" + str(TDLS_MAX_ORDER + 1) + ")"), has(str(TDLS_MAX_ORDER))};
         },
         true});
    // 9. getrs's pivots, in the last system
    add({"getrs pivot 0",
         {Entry::Getrs, Entry::GetrsPtr},
         [](Args& a) {
             a.bad_pivot_system = a.batch - 1;
             a.bad_pivot_entry = 1;
             a.bad_pivot_value = 0;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv"), has("system 3"), has("is 0")};
         }});
    add({"getrs pivot n+1",
         {Entry::Getrs, Entry::GetrsPtr},
         [](Args& a) {
             a.bad_pivot_system = a.batch - 1;
             a.bad_pivot_entry = a.n - 1;
             a.bad_pivot_value = as_pivot(a.n + 1);
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv"), has("system 3"), has("is 4")};
         }});
    add({"getrs pivot -1 in the first system",
         {Entry::Getrs, Entry::GetrsPtr},
         [](Args& a) {
             a.bad_pivot_system = 0;
             a.bad_pivot_entry = 0;
             a.bad_pivot_value = -1;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv"), has("system 0"), has("is -1")};
         }});
    return rows;
}

/// Two (or more) arguments wrong at once: the first in tdls.h's order wins.
std::vector<Row> order_rows() {
    using V = std::vector<Fragment>;
    std::vector<Row> rows;
    const auto add = [&](Row row) { rows.push_back(std::move(row)); };
    add({"destroyed handle + dtype 7", all_entries,
         [](Args& a) {
             a.dtype = 7;
             a.handle = destroyed_handle();
         },
         TDLS_ERROR_INVALID_HANDLE, [](const Args&) { return V{word("handle")}; }});
    add({"dtype 7 + n -1", all_entries,
         [](Args& a) {
             a.dtype = 7;
             a.n = -1;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("dtype (7)")}; }});
    // A complex dtype is valid: the checks go on to the next invalid argument.
    add({"complex dtype + layout 5", all_entries,
         [](Args& a) {
             a.dtype = TDLS_COMPLEX128;
             a.layout = 5;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("layout (5)")}; }});
    add({"complex dtype + NULL A", all_entries,
         [](Args& a) {
             a.dtype = TDLS_COMPLEX64;
             a.null_A = true;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("NULL")}; }});
    add({"layout 5 + n -1", all_entries,
         [](Args& a) {
             a.layout = 5;
             a.n = -1;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("layout (5)")}; }});
    add({"n -1 + nrhs -1", with_nrhs,
         [](Args& a) {
             a.n = -1;
             a.nrhs = -1;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("n (-1)"), word("n")};
         }});
    add({"nrhs -1 + batch -1", with_nrhs,
         [](Args& a) {
             a.nrhs = -1;
             a.batch = -1;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("nrhs (-1)")}; }});
    add({"n -1 + lda < n", with_lda,
         [](Args& a) {
             a.n = -1;
             a.lda = -5;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("n (-1)"), word("n")};
         }});
    add({"batch -1 + lda < n", with_lda,
         [](Args& a) {
             a.batch = -1;
             a.lda = 2;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("batch (-1)")}; }});
    add({"lda < n + ldb < n", with_ldb,
         [](Args& a) {
             a.lda = 2;
             a.ldb = -1;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("lda (2)"), has("n (3)")};
         }});
    add({"lda < n + strideA 0", with_strideA,
         [](Args& a) {
             a.lda = 2;
             a.strideA = 0;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("lda (2)"), has("n (3)")};
         }});
    add({"ldb below the order + strideA 0", with_ldb,
         [](Args& a) {
             a.ldb = -1;
             a.strideA = 0;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("ldb (-1)")}; }});
    add({"strideA 0 + NULL A", with_strideA,
         [](Args& a) {
             a.strideA = 0;
             a.null_A = true;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("strideA (0)")}; }});
    add({"strideIpiv 0 + NULL info",
         {Entry::Gesv, Entry::Getrf},
         [](Args& a) {
             a.strideIpiv = 0;
             a.null_info = true;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) { return V{has("strideIpiv (0)")}; }});
    add({"block 0 + NULL A", interleaved_forms,
         [](Args& a) {
             a.block = 0;
             a.null_A = true;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("block (0)")}; }});
    add({"NULL B + getrs pivot 0",
         {Entry::Getrs},
         [](Args& a) {
             a.null_B = true;
             a.bad_pivot_system = a.batch - 1;
             a.bad_pivot_value = 0;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("B"), has("NULL")};
         }});
    add({"NULL info + NULL entry of A_array", pointer_forms_with_info,
         [](Args& a) {
             a.null_info = true;
             a.null_A_entry = 2;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             // Both are step 7; tdls.h names no order inside it, so either message is right.
             return V{has("NULL")};
         }});
    add({"NULL A + n TDLS_MAX_ORDER+1", all_entries,
         [](Args& a) {
             a.n = TDLS_MAX_ORDER + 1;
             a.null_A = true;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             return V{word(is_pointers(a.entry) ? "A_array" : "A"), has("NULL")};
         },
         true});
    add({"n TDLS_MAX_ORDER+1 + getrs pivot 0",
         {Entry::Getrs, Entry::GetrsPtr},
         [](Args& a) {
             a.n = TDLS_MAX_ORDER + 1;
             a.bad_pivot_system = a.batch - 1;
             a.bad_pivot_value = 0;
         },
         TDLS_ERROR_NOT_SUPPORTED,
         [](const Args&) { return V{has("n (" + str(TDLS_MAX_ORDER + 1) + ")")}; },
         true});
    // The footprint (step 6) before the NULL operands (step 7).
    add({"strideA 2^61 + NULL A", with_strideA,
         [](Args& a) {
             a.strideA = std::int64_t(1) << 61;
             a.null_A = true;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("strideA (" + str(std::int64_t(1) << 61) + ")"), has("footprint of A")};
         }});
    add({"block 2^61 + NULL info", interleaved_forms,
         [](Args& a) {
             a.block = std::int64_t(1) << 61;
             a.null_info = true;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("block (" + str(std::int64_t(1) << 61) + ")"), has("footprint of A")};
         }});
    // Validation comes before the quick returns.
    add({"batch 0 + block 0", interleaved_forms,
         [](Args& a) {
             a.batch = 0;
             a.block = 0;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("block (0)")}; }});
    add({"batch 0 + n TDLS_MAX_ORDER+1", all_entries,
         [](Args& a) {
             a.batch = 0;
             a.n = TDLS_MAX_ORDER + 1;
         },
         TDLS_ERROR_NOT_SUPPORTED, [](const Args&) { return V{has("n (" + str(TDLS_MAX_ORDER + 1) + ")")}; },
         true});
    add({"nrhs 0 + ldb -1", with_ldb,
         [](Args& a) {
             a.nrhs = 0;
             a.ldb = -1;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args& a) {
             return V{has("ldb (-1)"), a.row_major() ? has("nrhs (0)") : has("n (3)")};
         }});
    add({"batch 0 + lda < n", with_lda,
         [](Args& a) {
             a.batch = 0;
             a.lda = 2;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{has("lda (2)"), has("n (3)")};
         }});
    add({"n 0 + dtype 7", all_entries,
         [](Args& a) {
             a.n = 0;
             a.dtype = 7;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("dtype (7)")}; }});
    add({"nrhs 0 + strideIpiv 0", with_strideIpiv,
         [](Args& a) {
             a.nrhs = 0;
             a.strideIpiv = 0;
         },
         TDLS_ERROR_INVALID_VALUE, [](const Args&) { return V{has("strideIpiv (0)")}; }});
    // tdls.h: pivots are step 9 of validation, "then the quick returns".
    add({"getrs nrhs 0 + pivot 0",
         {Entry::Getrs, Entry::GetrsPtr},
         [](Args& a) {
             a.nrhs = 0;
             a.bad_pivot_system = a.batch - 1;
             a.bad_pivot_value = 0;
         },
         TDLS_ERROR_INVALID_VALUE,
         [](const Args&) {
             return V{word("ipiv"), has("system 3"), has("is 0")};
         }});
    return rows;
}

struct Variant {
    int dtype;
    int layout;
};
const std::vector<Variant> variants{{TDLS_FLOAT64, TDLS_COL_MAJOR},
                                    {TDLS_FLOAT64, TDLS_ROW_MAJOR},
                                    {TDLS_FLOAT32, TDLS_COL_MAJOR},
                                    {TDLS_FLOAT32, TDLS_ROW_MAJOR}};

/// Runs every row for its entry points and every variant; returns the cases run.
int run_rows(const std::vector<Row>& rows) {
    int cases = 0;
    for (const Row& row : rows) {
        for (Entry entry : row.entries) {
            for (const Variant& variant : variants) {
                Args baseline = row.large ? large_baseline() : Args{};
                baseline.entry = entry;
                baseline.dtype = variant.dtype;
                baseline.layout = variant.layout;
                Args used = baseline;
                row.change(used);
                const std::vector<Fragment> fragments = row.message(used);
                // A row whose message is empty expects this variant to be valid.
                const tdls_status_t expected = fragments.empty() ? TDLS_SUCCESS : row.status;

                Operands operands(baseline, used);
                prepare(used, operands);
                const Operands before = operands;
                plant_other_message();
                const tdls_status_t status = call(used, operands);
                const std::string message = tdls_last_error();

                INFO("row: " << row.name << "; " << function_of(entry) << "; dtype " << variant.dtype
                             << ", layout " << variant.layout);
                INFO("tdls_last_error(): \"" << message << "\"");
                CHECK(tdls_status_name(status) == std::string(tdls_status_name(expected)));
                if (expected != TDLS_SUCCESS) {
                    CHECK(message.rfind(std::string(function_of(entry)) + ": ", 0) == 0);
                    for (const Fragment& fragment : fragments) {
                        INFO("expected in the message: \"" << fragment.text << "\""
                                                           << (fragment.whole_word ? " (a whole word)" : ""));
                        CHECK(contains(message, fragment));
                    }
                    CHECK(operands == before);
                }
                ++cases;
            }
        }
    }
    return cases;
}

/// Which elements belong to the systems of a valid call (the rest is padding).
struct Masks {
    std::vector<bool> A, ipiv, B;
};

Masks masks_of(const Args& a, const Operands& op) {
    Masks m{std::vector<bool>(op.A.size() / op.element_size), std::vector<bool>(op.ipiv.size()),
            std::vector<bool>(op.B.size() / op.element_size)};
    const std::int64_t n = a.n, nrhs = a.nrhs;
    for (std::int64_t s = 0; s < a.batch; ++s) {
        if (is_interleaved(a.entry)) {
            const std::int64_t first = s / a.block * a.block, lane = s % a.block;
            for (std::int64_t e = 0; e < n * n; ++e)
                m.A[std::size_t(first * n * n + e * a.block + lane)] = true;
            for (std::int64_t e = 0; e < n; ++e) m.ipiv[std::size_t(first * n + e * a.block + lane)] = true;
            for (std::int64_t e = 0; e < n * nrhs; ++e)
                m.B[std::size_t(first * n * nrhs + e * a.block + lane)] = true;
            continue;
        }
        for (std::int64_t r = 0; r < n; ++r)
            for (std::int64_t c = 0; c < n; ++c) m.A[std::size_t(s * a.strideA + r * a.lda + c)] = true;
        for (std::int64_t k = 0; k < n; ++k) m.ipiv[std::size_t(s * a.strideIpiv + k)] = true;
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t k = 0; k < nrhs; ++k) {
                const std::int64_t at = a.row_major() ? i * a.ldb + k : i + k * a.ldb;
                m.B[std::size_t(s * a.strideB + at)] = true;
            }
    }
    return m;
}

/// Elements that differ, counted inside and outside the systems.
struct Changes {
    int inside = 0;
    int outside = 0;
};

Changes changes_of(const std::vector<unsigned char>& before, const std::vector<unsigned char>& after,
                   const std::vector<bool>& mask, std::size_t element_size) {
    Changes c;
    for (std::size_t e = 0; e < mask.size(); ++e) {
        const bool differs =
            std::memcmp(before.data() + e * element_size, after.data() + e * element_size, element_size) != 0;
        if (differs) ++(mask[e] ? c.inside : c.outside);
    }
    return c;
}

Changes changes_of(const std::vector<std::int32_t>& before, const std::vector<std::int32_t>& after,
                   const std::vector<bool>& mask) {
    Changes c;
    for (std::size_t e = 0; e < mask.size(); ++e)
        if (before[e] != after[e]) ++(mask[e] ? c.inside : c.outside);
    return c;
}

} // namespace

TEST_CASE("one invalid argument: status, message naming it, no operand touched", "[capi][invalid]") {
    const std::vector<Row> rows = invalid_rows();
    std::size_t expected_cases = 0;
    for (const Row& row : rows) expected_cases += row.entries.size() * variants.size();
    const int cases = run_rows(rows);
    REQUIRE(rows.size() == 44);
    REQUIRE(cases == 928);
    REQUIRE(std::size_t(cases) == expected_cases);
}

TEST_CASE("several invalid arguments: the first in the documented order wins", "[capi][invalid][order]") {
    const std::vector<Row> rows = order_rows();
    const int cases = run_rows(rows);
    REQUIRE(rows.size() == 28);
    REQUIRE(cases == 676);
}

TEST_CASE("negative control: a valid call succeeds and changes its operands", "[capi][invalid][control]") {
    int cases = 0;
    for (Entry entry : all_entries) {
        for (const Variant& variant : variants) {
            Args a;
            a.entry = entry;
            a.dtype = variant.dtype;
            a.layout = variant.layout;
            Operands operands(a, a);
            const Operands before = operands;
            const Masks masks = masks_of(a, operands);
            INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout);
            REQUIRE(call(a, operands) == TDLS_SUCCESS);
            // The check the table applies must fail here.
            CHECK_FALSE(operands == before);

            const Changes A = changes_of(before.A, operands.A, masks.A, operands.element_size);
            const Changes B = changes_of(before.B, operands.B, masks.B, operands.element_size);
            const Changes ipiv = changes_of(before.ipiv, operands.ipiv, masks.ipiv);
            if (is_getrs(entry) || is_solve(entry)) {
                CHECK(A.inside == 0); // getrs reads the factors and pivots only, a solve A only
                CHECK(ipiv.inside == 0);
            } else {
                CHECK(A.inside > 0);
            }
            CHECK((B.inside > 0) == !is_getrf(entry));
            // Padding between and after the systems, and the guards, stay as they were.
            CHECK(A.outside == 0);
            CHECK(B.outside == 0);
            CHECK(ipiv.outside == 0);
            for (std::size_t s = 0; s < operands.info.size(); ++s) {
                const bool written = !is_getrs(entry) && s < std::size_t(a.batch);
                CHECK(operands.info[s] == (written ? 0 : info_fill));
            }
            ++cases;
        }
    }
    REQUIRE(cases == 40);
}

TEST_CASE("quick return: batch 0 touches nothing, even with NULL operands", "[capi][invalid][quick]") {
    int cases = 0;
    for (Entry entry : all_entries) {
        for (const Variant& variant : variants) {
            Args a;
            a.entry = entry;
            a.dtype = variant.dtype;
            a.layout = variant.layout;
            a.batch = 0;
            INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout);
            plant_other_message();
            const std::string planted = tdls_last_error();

            Args all_null = a;
            all_null.null_A = all_null.null_B = all_null.null_ipiv = all_null.null_info = true;
            Operands unused(Args{}, Args{});
            CHECK(call(all_null, unused) == TDLS_SUCCESS);

            Args baseline = a;
            baseline.batch = 4; // buffers of a real batch, of which the call is given 0 systems
            Operands operands(baseline, a);
            const Operands before = operands;
            CHECK(call(a, operands) == TDLS_SUCCESS);
            CHECK(operands == before);
            // A successful call does not clear the last error.
            CHECK(tdls_last_error() == planted);
            ++cases;
        }
    }
    REQUIRE(cases == 40);
}

TEST_CASE("quick return: n 0 sets info to 0 for each system and touches nothing else",
          "[capi][invalid][quick]") {
    int cases = 0;
    for (Entry entry : all_entries) {
        for (const Variant& variant : variants) {
            for (bool null_matrices : {false, true}) {
                Args baseline;
                baseline.entry = entry;
                baseline.dtype = variant.dtype;
                baseline.layout = variant.layout;
                Args a = baseline;
                a.n = 0;
                // With n 0 there is nothing to read: A, ipiv and B may be NULL.
                a.null_A = a.null_B = a.null_ipiv = null_matrices;
                INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout
                                        << (null_matrices ? "; NULL A, ipiv, B" : ""));
                Operands operands(baseline, a);
                const Operands before = operands;
                REQUIRE(call(a, operands) == TDLS_SUCCESS);
                CHECK(operands.A == before.A);
                CHECK(operands.B == before.B);
                CHECK(operands.ipiv == before.ipiv);
                for (std::size_t s = 0; s < operands.info.size(); ++s) {
                    const bool written = !is_getrs(entry) && s < std::size_t(a.batch);
                    CHECK(operands.info[s] == (written ? 0 : info_fill));
                }
                ++cases;
            }
            // info too may be NULL then: tdls.h checks NULL operands only when batch > 0 and n > 0.
            Args all_null;
            all_null.entry = entry;
            all_null.dtype = variant.dtype;
            all_null.layout = variant.layout;
            all_null.n = 0;
            all_null.null_A = all_null.null_B = all_null.null_ipiv = all_null.null_info = true;
            Operands unused(all_null, all_null);
            INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout
                                    << "; n 0, every operand NULL");
            CHECK(call(all_null, unused) == TDLS_SUCCESS);
            ++cases;
        }
    }
    REQUIRE(cases == 120);
}

TEST_CASE("quick return: nrhs 0 factors only (a solve: info only) and leaves B alone (B may be NULL)",
          "[capi][invalid][quick]") {
    int cases = 0;
    for (Entry entry : all_entries) {
        for (const Variant& variant : variants) {
            for (bool null_B : {false, true}) {
                Args with_rhs;
                with_rhs.entry = entry;
                with_rhs.dtype = variant.dtype;
                with_rhs.layout = variant.layout;
                Args a = with_rhs;
                a.nrhs = 0;
                a.null_B = null_B;
                INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout
                                        << (null_B ? "; NULL B" : ""));
                Operands operands(with_rhs, a);
                const Operands before = operands;
                REQUIRE(call(a, operands) == TDLS_SUCCESS);
                CHECK(operands.B == before.B);
                CHECK(operands.B_array == before.B_array);
                if (is_getrs(entry) || is_getrf(entry)) {
                    // getrs: nothing to solve; getrf: takes no nrhs, so this is a plain valid call.
                    if (is_getrs(entry)) CHECK(operands == before);
                    ++cases;
                    continue;
                }
                if (is_solve(entry)) {
                    // info only: A and the pivot buffer as they were; info that of the same solve
                    // with right-hand sides, and of gesv's.
                    CHECK(operands.A == before.A);
                    CHECK(operands.ipiv == before.ipiv);
                    CHECK(operands.A_array == before.A_array);
                    CHECK(operands.info != before.info);
                    Operands reference(with_rhs, with_rhs);
                    REQUIRE(call(with_rhs, reference) == TDLS_SUCCESS);
                    CHECK(operands.info == reference.info);
                    Args gesv = with_rhs;
                    gesv.entry = gesv_of(entry);
                    Operands by_gesv(with_rhs, gesv);
                    REQUIRE(call(gesv, by_gesv) == TDLS_SUCCESS);
                    CHECK(operands.info == by_gesv.info);
                    ++cases;
                    continue;
                }
                // The factors, pivots and verdicts are those of the same call with right-hand sides.
                Operands reference(with_rhs, with_rhs);
                REQUIRE(call(with_rhs, reference) == TDLS_SUCCESS);
                CHECK(operands.A != before.A);
                CHECK(operands.A == reference.A);
                CHECK(operands.ipiv == reference.ipiv);
                CHECK(operands.info == reference.info);
                ++cases;
            }
        }
    }
    REQUIRE(cases == 80);
}

TEST_CASE("ipiv may be NULL except in getrs; its stride is then not checked", "[capi][invalid][quick]") {
    int cases = 0;
    for (Entry entry : {Entry::Gesv, Entry::Ptr, Entry::Interleaved, Entry::Getrf, Entry::GetrfPtr}) {
        for (const Variant& variant : variants) {
            Args with_pivots;
            with_pivots.entry = entry;
            with_pivots.dtype = variant.dtype;
            with_pivots.layout = variant.layout;
            Args a = with_pivots;
            a.null_ipiv = true;
            a.strideIpiv = 0;
            INFO(function_of(entry) << "; dtype " << variant.dtype << ", layout " << variant.layout);
            Operands operands(with_pivots, a);
            const Operands before = operands;
            plant_other_message();
            const tdls_status_t status = call(a, operands);
            INFO("tdls_last_error(): \"" << tdls_last_error() << "\"");
            REQUIRE(status == TDLS_SUCCESS);
            CHECK(operands.ipiv == before.ipiv);
            Operands reference(with_pivots, with_pivots);
            REQUIRE(call(with_pivots, reference) == TDLS_SUCCESS);
            CHECK(operands.A == reference.A);
            CHECK(operands.B == reference.B);
            CHECK(operands.info == reference.info);
            ++cases;
        }
    }
    REQUIRE(cases == 20);
}
