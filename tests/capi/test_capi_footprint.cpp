// Footprints and aliases at the C ABI (README "Guarantees": sizes, overlap).
//
// 1. Sizes whose footprint cannot be addressed: for every entry point, both
//    layouts, float and double, each size argument (leading dimensions,
//    strides, block, batch) is set around the exact largest value whose
//    footprint still fits in 64-bit byte offsets (found by bisection on a
//    128-bit model of the footprint written here), and at the extremes the
//    issue reported. One past the limit must be TDLS_ERROR_INVALID_VALUE
//    naming the argument, with every operand bitwise untouched; at the limit
//    the footprint check must pass, which a NULL A then shows (the call stops
//    at the next check, "A is NULL", without touching anything).
// 2. The legitimate extremes (batch 1 with INT64_MAX strides, n = 1 with
//    lda = INT64_MAX, interleaved n = 1 with block = INT64_MAX, ...) are
//    solved in exact-size buffers and give the bits of the same systems
//    solved packed.
// 3. Aliases the contract forbids but must survive: getrs with its pivots
//    inside B, gesv_ptr with its pointer arrays inside B[0].
// 4. The NaN pivot rule, against reference LAPACK's idamax.
// Every buffer ends at a no-access page and has sentinel bytes before it.
#include <catch2/catch.hpp>

#include <tdls/tdls.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using i64 = std::int64_t;
using i128 = __int128;
constexpr i64 max64 = std::numeric_limits<i64>::max();
constexpr unsigned char front_fill = 0xA5;

/// `bytes` bytes whose end touches a no-access page, preceded by `front`
/// sentinel bytes and another no-access page.
class GuardedBuffer {
  public:
    explicit GuardedBuffer(std::size_t bytes, std::size_t front = 64) : bytes_(bytes) {
        const auto page = std::size_t(sysconf(_SC_PAGESIZE));
        const std::size_t body = (bytes + front + page - 1) / page * page;
        total_ = body + 2 * page;
        void* p = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(p != MAP_FAILED);
        base_ = static_cast<unsigned char*>(p);
        REQUIRE(mprotect(base_, page, PROT_NONE) == 0);
        REQUIRE(mprotect(base_ + page + body, page, PROT_NONE) == 0);
        front_ = base_ + page;
        data_ = base_ + page + body - bytes;
        std::memset(front_, front_fill, std::size_t(data_ - front_));
    }
    ~GuardedBuffer() { munmap(base_, total_); }
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    unsigned char* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    bool front_intact() const {
        for (const unsigned char* p = front_; p < data_; ++p)
            if (*p != front_fill) return false;
        return true;
    }
    std::vector<unsigned char> bytes() const { return {data_, data_ + bytes_}; }

  private:
    std::size_t bytes_, total_ = 0;
    unsigned char* base_ = nullptr;
    unsigned char* front_ = nullptr;
    unsigned char* data_ = nullptr;
};

enum class Entry { Gesv, Ptr, Interleaved, Getrf, Getrs };

const char* function_of(Entry e) {
    switch (e) {
    case Entry::Gesv: return "tdls_batched_gesv";
    case Entry::Ptr: return "tdls_batched_gesv_ptr";
    case Entry::Interleaved: return "tdls_batched_gesv_interleaved";
    case Entry::Getrf: return "tdls_batched_getrf";
    case Entry::Getrs: return "tdls_batched_getrs";
    }
    return "?";
}

struct Args {
    Entry entry = Entry::Gesv;
    tdls_dtype_t dtype = TDLS_FLOAT64;
    tdls_layout_t layout = TDLS_COL_MAJOR;
    i64 n = 2, nrhs = 1, lda = 2, ldb = 2, strideA = 4, strideIpiv = 2, strideB = 2, batch = 1, block = 1;

    bool row_major() const { return layout == TDLS_ROW_MAJOR; }
    bool strided() const { return entry == Entry::Gesv || entry == Entry::Getrf || entry == Entry::Getrs; }
    bool has_b() const { return entry != Entry::Getrf; }
    bool has_info() const { return entry != Entry::Getrs; }
    i64 size() const { return dtype == TDLS_FLOAT32 ? 4 : 8; }
    // B as stored: b_rows x b_columns read column-major with leading dimension ldb.
    i64 b_rows() const { return row_major() ? nrhs : n; }
    i64 b_columns() const { return row_major() ? n : nrhs; }
};

/// The operand memory of one call; pointer-array entries for the _ptr form.
struct Memory {
    void* A = nullptr;
    std::int32_t* ipiv = nullptr;
    void* B = nullptr;
    std::int32_t* info = nullptr;
    void* const* A_array = nullptr;
    std::int32_t* const* ipiv_array = nullptr;
    void* const* B_array = nullptr;
};

tdls_status_t call(const Args& a, const Memory& m, tdls_handle_t handle = nullptr) {
    switch (a.entry) {
    case Entry::Gesv:
        return tdls_batched_gesv(handle, a.dtype, a.layout, a.n, a.nrhs, m.A, a.lda, a.strideA, m.ipiv,
                                 a.strideIpiv, m.B, a.ldb, a.strideB, m.info, a.batch);
    case Entry::Ptr:
        return tdls_batched_gesv_ptr(handle, a.dtype, a.layout, a.n, a.nrhs, m.A_array, a.lda, m.ipiv_array,
                                     m.B_array, a.ldb, m.info, a.batch);
    case Entry::Interleaved:
        return tdls_batched_gesv_interleaved(handle, a.dtype, a.layout, a.n, a.nrhs, m.A, m.ipiv, m.B, m.info,
                                             a.batch, a.block);
    case Entry::Getrf:
        return tdls_batched_getrf(handle, a.dtype, a.layout, a.n, m.A, a.lda, a.strideA, m.ipiv, a.strideIpiv,
                                  m.info, a.batch);
    case Entry::Getrs:
        return tdls_batched_getrs(handle, a.dtype, a.layout, a.n, a.nrhs, m.A, a.lda, a.strideA, m.ipiv,
                                  a.strideIpiv, m.B, a.ldb, a.strideB, a.batch);
    }
    return TDLS_ERROR_INTERNAL;
}

// ---- The 128-bit model of the contract's footprints --------------------------------------------

/// Elements from an operand's base to the end of its last element, per
/// form (tdls.h); per system for the pointer form.
struct Extents {
    i128 A = 0, ipiv = 0, B = 0, A_system = 0, B_system = 0;
};

i128 interleaved_extent(const Args& a, i128 elements) {
    const i128 last = a.batch - 1;
    return last / a.block * a.block * elements + (elements - 1) * a.block + last % a.block + 1;
}

Extents extents_of(const Args& a) {
    Extents e;
    if (a.batch == 0 || a.n == 0) return e;
    const bool uses_b = a.has_b() && a.nrhs > 0;
    if (a.entry == Entry::Interleaved) {
        e.A = interleaved_extent(a, i128(a.n) * a.n);
        e.ipiv = interleaved_extent(a, a.n);
        e.B = uses_b ? interleaved_extent(a, i128(a.n) * a.nrhs) : 0;
        return e;
    }
    e.A_system = i128(a.n - 1) * a.lda + a.n;
    e.B_system = uses_b ? i128(a.b_columns() - 1) * a.ldb + a.b_rows() : 0;
    if (a.entry == Entry::Ptr) {
        e.A = e.A_system;
        e.ipiv = a.n;
        e.B = e.B_system;
    } else {
        e.A = i128(a.batch - 1) * a.strideA + e.A_system;
        e.ipiv = i128(a.batch - 1) * a.strideIpiv + a.n;
        e.B = uses_b ? i128(a.batch - 1) * a.strideB + e.B_system : 0;
    }
    return e;
}

/// What the contract says of a call (sizes only; the operands are valid):
/// accepted, or refused with a message that names `argument`.
struct Verdict {
    bool accepted = true;
    std::string argument;
};

Verdict verdict_of(const Args& a) {
    const auto refuse = [](const char* argument) { return Verdict{false, argument}; };
    // Step 6: strides below one system's footprint.
    if (a.strided()) {
        if (a.strideA < i128(a.lda) * a.n) return refuse("strideA");
        if (a.strideIpiv < a.n) return refuse("strideIpiv");
        if (a.has_b() && a.strideB < i128(a.ldb) * a.b_columns()) return refuse("strideB");
    }
    if (a.batch == 0 || a.n == 0) return {};
    // Then every footprint in bytes must be an int64.
    const auto fits = [](i128 elements, i64 size) { return elements * size <= max64; };
    const Extents e = extents_of(a);
    const bool uses_b = a.has_b() && a.nrhs > 0;
    if (a.entry == Entry::Interleaved) {
        if (!fits(e.A, a.size()) || !fits(e.ipiv, 4) || (uses_b && !fits(e.B, a.size()))) return refuse("block");
    } else {
        if (!fits(e.A_system, a.size())) return refuse("lda");
        if (uses_b && !fits(e.B_system, a.size())) return refuse("ldb");
        if (a.strided()) {
            if (!fits(e.A, a.size())) return refuse("strideA");
            if (!fits(e.ipiv, 4)) return refuse("strideIpiv");
            if (uses_b && !fits(e.B, a.size())) return refuse("strideB");
        }
    }
    if (a.has_info() && !fits(a.batch, 4)) return refuse("batch");
    if (a.entry == Entry::Ptr && !fits(a.batch, 8)) return refuse("batch");
    return {};
}

TEST_CASE("the footprint model: the issue's reproducers and the legitimate extremes", "[footprint]") {
    // Fixed expectations, written by hand, so that the model the table trusts is checked itself.
    Args a;
    a.lda = a.strideA = max64; // n = 2, batch 1: lda*n overflows, so strideA is below it
    CHECK(verdict_of(a).argument == "strideA");
    a.entry = Entry::Ptr; // no stride: (n-1)*lda + n overflows
    CHECK(verdict_of(a).argument == "lda");
    a = Args{};
    a.lda = i64(1) << 61, a.strideA = max64; // lda*n fits, not in bytes
    CHECK(verdict_of(a).argument == "lda");
    a = Args{};
    a.layout = TDLS_ROW_MAJOR;
    a.ldb = a.strideB = max64;
    CHECK(verdict_of(a).argument == "strideB");
    a.entry = Entry::Ptr;
    CHECK(verdict_of(a).argument == "ldb");
    a.entry = Entry::Gesv;
    a.layout = TDLS_COL_MAJOR; // one column of B: ldb is never stepped over
    CHECK(verdict_of(a).accepted);
    a = Args{};
    a.n = a.lda = 1, a.nrhs = 1, a.ldb = 1, a.strideIpiv = 1, a.batch = 2;
    a.strideA = (i64(1) << 61) - 2; // system 1 at A - 16 bytes once wrapped
    CHECK(verdict_of(a).argument == "strideA");
    a.dtype = TDLS_FLOAT32;
    CHECK(verdict_of(a).accepted);
    a = Args{};
    a.batch = 2, a.strideA = 4, a.strideB = 2, a.strideIpiv = max64;
    CHECK(verdict_of(a).argument == "strideIpiv");
    a = Args{};
    a.batch = 1, a.strideA = a.strideIpiv = a.strideB = max64;
    CHECK(verdict_of(a).accepted);
    a = Args{};
    a.entry = Entry::Interleaved, a.n = 2, a.batch = 2, a.block = max64;
    CHECK(verdict_of(a).argument == "block");
    a.block = i64(1) << 61;
    CHECK(verdict_of(a).argument == "block");
    a.n = 1, a.nrhs = 1, a.block = max64, a.batch = 5;
    CHECK(verdict_of(a).accepted);
    a.nrhs = 2;
    CHECK(verdict_of(a).argument == "block");
}

// ---- Refused and accepted sizes, without the memory ---------------------------------------------

/// Small real buffers for a call whose sizes make it fail before any access;
/// every byte must stay as it was.
struct SmallOperands {
    GuardedBuffer A{512}, ipiv{256}, B{512}, info{256}, arrays{3 * 8 * 8};
    std::vector<unsigned char> before[5];

    explicit SmallOperands(const Args& a) {
        std::uint32_t state = 12345;
        for (GuardedBuffer* g : {&A, &ipiv, &B, &info})
            for (std::size_t i = 0; i < g->size(); ++i) g->data()[i] = (unsigned char)((state = state * 1103515245u + 12345u) >> 24);
        // Pivots in range for getrs, whatever is read.
        auto* p = reinterpret_cast<std::int32_t*>(ipiv.data());
        for (std::size_t i = 0; i < ipiv.size() / 4; ++i) p[i] = 1;
        auto** entries = reinterpret_cast<void**>(arrays.data());
        const i64 systems = std::min<i64>(a.batch, 8);
        for (i64 s = 0; s < 8; ++s) {
            entries[s] = s < systems ? A.data() : nullptr;
            entries[8 + s] = s < systems ? ipiv.data() : nullptr;
            entries[16 + s] = s < systems ? B.data() : nullptr;
        }
        int k = 0;
        for (GuardedBuffer* g : {&A, &ipiv, &B, &info, &arrays}) before[k++] = g->bytes();
    }
    Memory memory() const {
        auto** entries = reinterpret_cast<void**>(arrays.data());
        return {A.data(), reinterpret_cast<std::int32_t*>(ipiv.data()), B.data(),
                reinterpret_cast<std::int32_t*>(info.data()), entries,
                reinterpret_cast<std::int32_t* const*>(entries + 8), entries + 16};
    }
    bool untouched() const {
        int k = 0;
        for (const GuardedBuffer* g : {&A, &ipiv, &B, &info, &arrays})
            if (g->bytes() != before[k++] || !g->front_intact()) return false;
        return true;
    }
};

std::string describe(const Args& a) {
    return std::string(function_of(a.entry)) + (a.dtype == TDLS_FLOAT32 ? " float" : " double") +
           (a.row_major() ? " row" : " col") + " n " + std::to_string(a.n) + " nrhs " + std::to_string(a.nrhs) +
           " lda " + std::to_string(a.lda) + " ldb " + std::to_string(a.ldb) + " strideA " +
           std::to_string(a.strideA) + " strideIpiv " + std::to_string(a.strideIpiv) + " strideB " +
           std::to_string(a.strideB) + " batch " + std::to_string(a.batch) + " block " + std::to_string(a.block);
}

/// A call whose footprint is too large to allocate: refused as the model
/// says, or accepted by the size checks, which a NULL A then shows.
void check_sizes_only(const Args& a) {
    const Verdict expected = verdict_of(a);
    SmallOperands operands(a);
    Memory m = operands.memory();
    if (expected.accepted) {
        m.A = nullptr;
        m.A_array = nullptr;
    }
    INFO(describe(a));
    const tdls_status_t status = call(a, m);
    const std::string message = tdls_last_error();
    INFO(message);
    CHECK(status == TDLS_ERROR_INVALID_VALUE);
    CHECK(message.rfind(std::string(function_of(a.entry)) + ": ", 0) == 0);
    if (expected.accepted)
        CHECK(message.find(a.entry == Entry::Ptr ? "A_array is NULL" : "A is NULL") != std::string::npos);
    else
        CHECK(message.find(expected.argument + " (") != std::string::npos);
    CHECK(operands.untouched());
}

enum class Knob { lda, ldb, strideA, strideIpiv, strideB, block, batch };

i64& knob_of(Args& a, Knob k) {
    switch (k) {
    case Knob::lda: return a.lda;
    case Knob::ldb: return a.ldb;
    case Knob::strideA: return a.strideA;
    case Knob::strideIpiv: return a.strideIpiv;
    case Knob::strideB: return a.strideB;
    case Knob::block: return a.block;
    case Knob::batch: return a.batch;
    }
    return a.lda;
}

/// The largest value of the knob at or above `low` that the model accepts
/// (it is monotonic in each), or max64.
i64 largest_accepted(Args a, Knob k, i64 low) {
    i64& v = knob_of(a, k);
    v = max64;
    if (verdict_of(a).accepted) return max64;
    i64 lo = low, hi = max64; // verdict(lo) accepted, verdict(hi) refused
    while (hi - lo > 1) {
        v = lo + (hi - lo) / 2;
        (verdict_of(a).accepted ? lo : hi) = v;
    }
    return lo;
}

int cases_run = 0; // every case checked, for the floors of each test case

TEST_CASE("sizes around the largest addressable footprint", "[footprint]") {
    struct Row {
        Entry entry;
        Knob knob;
        i64 n, nrhs, batch, block;
    };
    // Each knob is swept with the other sizes minimal (their strides at
    // max64 when batch is 1, so that only the knob binds).
    const Row rows[] = {
        {Entry::Gesv, Knob::lda, 2, 1, 1, 1},        {Entry::Gesv, Knob::lda, 3, 2, 1, 1},
        {Entry::Gesv, Knob::ldb, 2, 2, 1, 1},        {Entry::Gesv, Knob::strideA, 1, 1, 2, 1},
        {Entry::Gesv, Knob::strideA, 2, 1, 4, 1},    {Entry::Gesv, Knob::strideIpiv, 2, 1, 2, 1},
        {Entry::Gesv, Knob::strideB, 2, 2, 3, 1},    {Entry::Gesv, Knob::batch, 2, 1, 1, 1},
        {Entry::Getrf, Knob::lda, 2, 0, 1, 1},       {Entry::Getrf, Knob::strideA, 2, 0, 2, 1},
        {Entry::Getrf, Knob::strideIpiv, 3, 0, 2, 1}, {Entry::Getrf, Knob::batch, 1, 0, 1, 1},
        {Entry::Getrs, Knob::lda, 2, 1, 1, 1},       {Entry::Getrs, Knob::ldb, 2, 3, 1, 1},
        {Entry::Getrs, Knob::strideA, 2, 1, 2, 1},   {Entry::Getrs, Knob::strideIpiv, 2, 1, 2, 1},
        {Entry::Getrs, Knob::strideB, 2, 1, 2, 1},   {Entry::Getrs, Knob::batch, 2, 2, 1, 1},
        {Entry::Ptr, Knob::lda, 2, 1, 1, 1},         {Entry::Ptr, Knob::lda, 4, 1, 3, 1},
        {Entry::Ptr, Knob::ldb, 2, 2, 2, 1},         {Entry::Ptr, Knob::batch, 1, 1, 1, 1},
        {Entry::Interleaved, Knob::block, 2, 1, 2, 1}, {Entry::Interleaved, Knob::block, 1, 2, 5, 1},
        {Entry::Interleaved, Knob::block, 3, 0, 9, 1}, {Entry::Interleaved, Knob::batch, 2, 1, 1, 1},
        {Entry::Interleaved, Knob::batch, 1, 1, 1, 4},
    };
    const i64 extremes[] = {max64, max64 - 1, (i64(1) << 62) + 1, i64(1) << 62, (i64(1) << 61) + 1,
                            i64(1) << 61, (i64(1) << 61) - 2, (i64(1) << 60) - 1};
    int refused = 0, accepted = 0;
    for (const Row& row : rows)
        for (tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64})
            for (tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
                Args a;
                a.entry = row.entry, a.dtype = dtype, a.layout = layout;
                a.n = row.n, a.nrhs = row.nrhs, a.batch = row.batch, a.block = row.block;
                a.lda = a.n;
                a.ldb = a.b_rows() > 0 ? a.b_rows() : 1;
                const bool one = a.batch == 1 && row.knob != Knob::batch;
                a.strideA = one ? max64 : a.lda * a.n;
                a.strideIpiv = one ? max64 : a.n;
                a.strideB = one ? max64 : a.ldb * a.b_columns();
                if (row.knob == Knob::lda && a.strided()) a.strideA = max64; // lda*n <= strideA while it fits
                if (row.knob == Knob::ldb && a.strided()) a.strideB = max64;
                const i64 low = knob_of(a, row.knob);
                REQUIRE(verdict_of(a).accepted);
                const i64 limit = largest_accepted(a, row.knob, low);
                std::vector<i64> values{limit - 1, limit};
                if (limit < max64) values.push_back(limit + 1);
                for (i64 v : extremes)
                    if (v >= low) values.push_back(v);
                for (i64 v : values) {
                    Args b = a;
                    knob_of(b, row.knob) = v;
                    check_sizes_only(b);
                    ++(verdict_of(b).accepted ? accepted : refused);
                    ++cases_run;
                }
            }
    // Floors: every row sweeps its limit from both sides.
    CHECK(refused >= 300);
    CHECK(accepted >= 100);
}

// ---- The legitimate extremes, solved -------------------------------------------------------------

double value_at(std::uint64_t seed, i64 s, i64 r, i64 c, bool diagonal_boost, i64 n) {
    std::uint64_t x = seed ^ (std::uint64_t(s) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(r) << 20) ^ std::uint64_t(c);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    const double v = double(x >> 11) / double(std::uint64_t(1) << 53) - 0.5;
    return diagonal_boost && r == c ? v + double(n) + 1.0 : v;
}

void put(void* base, i128 index, double v, bool single) {
    if (single)
        static_cast<float*>(base)[std::size_t(index)] = float(v);
    else
        static_cast<double*>(base)[std::size_t(index)] = v;
}

bool same_element(const void* x, i128 i, const void* y, i128 j, i64 size) {
    return std::memcmp(static_cast<const unsigned char*>(x) + std::size_t(i * size),
                       static_cast<const unsigned char*>(y) + std::size_t(j * size), std::size_t(size)) == 0;
}

/// Index of stored element (r, c) (leading dimension ld) of system s, from
/// its operand's base (its own buffer in the pointer form).
i128 index_of(const Args& a, i64 s, i64 r, i64 c, i64 ld, i64 stride, i64 elements, i64 rows) {
    if (a.entry == Entry::Interleaved)
        return i128(s / a.block) * a.block * elements + (i128(r) + i128(c) * rows) * a.block + s % a.block;
    const i128 system = a.entry == Entry::Ptr ? 0 : i128(s) * stride;
    return system + r + i128(c) * ld;
}

/// Solves the call in exact-size buffers and compares every output with the
/// same systems solved packed (strided, lda = n).
void check_solved(const Args& a) {
    INFO(describe(a));
    REQUIRE(verdict_of(a).accepted);
    const Extents e = extents_of(a);
    const bool single = a.dtype == TDLS_FLOAT32;
    const i64 z = a.size(), n = a.n, batch = a.batch;
    const bool uses_b = a.has_b() && a.nrhs > 0;
    const i64 per_system = a.entry == Entry::Ptr ? batch : 1;
    std::vector<std::unique_ptr<GuardedBuffer>> A, ipiv, B;
    for (i64 s = 0; s < per_system; ++s) {
        A.push_back(std::make_unique<GuardedBuffer>(std::size_t(e.A * z)));
        ipiv.push_back(std::make_unique<GuardedBuffer>(std::size_t(e.ipiv * 4)));
        B.push_back(std::make_unique<GuardedBuffer>(std::size_t(uses_b ? e.B * z : z)));
    }
    GuardedBuffer info(std::size_t(batch * 4));
    // The packed twin.
    Args p = a;
    p.entry = a.entry == Entry::Ptr || a.entry == Entry::Interleaved ? Entry::Gesv : a.entry;
    p.lda = n, p.strideA = n * n, p.strideIpiv = n, p.ldb = std::max<i64>(1, a.b_rows());
    p.strideB = p.ldb * a.b_columns(), p.block = 1;
    std::vector<unsigned char> pA(std::size_t(n * n * batch * z)), pB(std::size_t(std::max<i64>(1, p.strideB * batch) * z));
    std::vector<std::int32_t> pipiv(std::size_t(n * batch)), pinfo(std::size_t(batch), -7);
    const auto base = [&](std::vector<std::unique_ptr<GuardedBuffer>>& g, i64 s) { return g[std::size_t(a.entry == Entry::Ptr ? s : 0)]->data(); };
    for (i64 s = 0; s < batch; ++s) {
        for (i64 c = 0; c < n; ++c)
            for (i64 r = 0; r < n; ++r) {
                const double v = value_at(1, s, r, c, true, n);
                put(base(A, s), index_of(a, s, r, c, a.lda, a.strideA, n * n, n), v, single);
                put(pA.data(), s * n * n + r + c * n, v, single);
            }
        for (i64 k = 0; k < n; ++k) {
            const std::int32_t pivot = std::int32_t(k + 1 + (s + k) % (n - k));
            reinterpret_cast<std::int32_t*>(base(ipiv, s))[std::size_t(index_of(a, s, k, 0, 0, a.strideIpiv, n, n))] = pivot;
            pipiv[std::size_t(s * n + k)] = pivot;
        }
        if (uses_b)
            for (i64 c = 0; c < a.b_columns(); ++c)
                for (i64 r = 0; r < a.b_rows(); ++r) {
                    const double v = value_at(2, s, r, c, false, n);
                    put(base(B, s), index_of(a, s, r, c, a.ldb, a.strideB, n * a.nrhs, a.b_rows()), v, single);
                    put(pB.data(), s * p.strideB + r + c * p.ldb, v, single);
                }
    }
    std::vector<void*> A_array, B_array;
    std::vector<std::int32_t*> ipiv_array;
    for (i64 s = 0; s < per_system; ++s) {
        A_array.push_back(A[std::size_t(s)]->data());
        B_array.push_back(B[std::size_t(s)]->data());
        ipiv_array.push_back(reinterpret_cast<std::int32_t*>(ipiv[std::size_t(s)]->data()));
    }
    const Memory m{A[0]->data(), ipiv_array[0], uses_b ? B[0]->data() : nullptr,
                   reinterpret_cast<std::int32_t*>(info.data()), A_array.data(), ipiv_array.data(),
                   B_array.data()};
    REQUIRE(call(a, m) == TDLS_SUCCESS);
    const Memory pm{pA.data(), pipiv.data(), pB.data(), pinfo.data(), nullptr, nullptr, nullptr};
    REQUIRE(call(p, pm) == TDLS_SUCCESS);
    bool same = true;
    for (i64 s = 0; s < batch; ++s) {
        for (i64 c = 0; c < n; ++c)
            for (i64 r = 0; r < n; ++r)
                same = same && same_element(base(A, s), index_of(a, s, r, c, a.lda, a.strideA, n * n, n), pA.data(),
                                            s * n * n + r + c * n, z);
        for (i64 k = 0; k < n; ++k)
            same = same && reinterpret_cast<std::int32_t*>(base(ipiv, s))[std::size_t(index_of(a, s, k, 0, 0, a.strideIpiv, n, n))] ==
                               pipiv[std::size_t(s * n + k)];
        if (uses_b)
            for (i64 c = 0; c < a.b_columns(); ++c)
                for (i64 r = 0; r < a.b_rows(); ++r)
                    same = same && same_element(base(B, s), index_of(a, s, r, c, a.ldb, a.strideB, n * a.nrhs, a.b_rows()),
                                                pB.data(), s * p.strideB + r + c * p.ldb, z);
        if (a.has_info()) same = same && reinterpret_cast<std::int32_t*>(info.data())[s] == pinfo[std::size_t(s)];
    }
    CHECK(same);
    bool fronts = info.front_intact();
    for (auto* g : {&A, &ipiv, &B})
        for (auto& b : *g) fronts = fronts && b->front_intact();
    CHECK(fronts);
    ++cases_run;
}

TEST_CASE("the legitimate extremes are solved in exact-size buffers", "[footprint]") {
    const int before = cases_run;
    for (tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64})
        for (tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
            for (Entry entry : {Entry::Gesv, Entry::Getrf, Entry::Getrs})
                for (i64 n : {1, 3, 9}) {
                    Args a; // batch 1: every stride at INT64_MAX
                    a.entry = entry, a.dtype = dtype, a.layout = layout, a.n = n, a.nrhs = 2, a.lda = n;
                    a.ldb = a.b_rows(), a.batch = 1, a.strideA = a.strideIpiv = a.strideB = max64;
                    check_solved(a);
                    a.lda = n == 1 ? max64 : n; // one column of A: lda never stepped over
                    a.nrhs = 1;
                    a.ldb = a.row_major() ? 1 : (a.b_columns() == 1 ? max64 : n);
                    check_solved(a);
                }
            for (i64 batch : {1, 5, 17, 40}) {
                Args a; // interleaved n = 1: block never multiplies an element index
                a.entry = Entry::Interleaved, a.dtype = dtype, a.layout = layout, a.n = 1, a.batch = batch;
                a.block = max64;
                for (i64 nrhs : {0, 1}) {
                    a.nrhs = nrhs;
                    check_solved(a);
                }
            }
            for (i64 batch : {1, 3, 17}) {
                Args a; // pointer arrays, n = 1 with lda = INT64_MAX; one column of B
                a.entry = Entry::Ptr, a.dtype = dtype, a.layout = layout, a.n = 1, a.nrhs = 1, a.batch = batch;
                a.lda = max64, a.ldb = max64;
                check_solved(a);
                a.n = 4, a.lda = 4, a.ldb = a.row_major() ? 1 : max64; // nrhs = 1: ldb never stepped over
                check_solved(a);
            }
        }
    CHECK(cases_run - before >= 80);
}

// ---- Aliases -------------------------------------------------------------------------------------

/// getrs whose pivots (strideIpiv = n) start n entries before B: every
/// system's pivots but the first lie in earlier systems' B, valid when
/// validated, overwritten by the solves. The library must stay inside the
/// footprints; with one thread and n above the SIMD orders the outcome is
/// known: each system is solved with the pivots it finds, or, when one is
/// outside 1..n, keeps its B.
void check_getrs_pivots_in_b(tdls_dtype_t dtype, tdls_layout_t layout, i64 n, i64 batch) {
    INFO("getrs pivots inside B: n " << n << " batch " << batch << (dtype == TDLS_FLOAT32 ? " float" : " double"));
    const i64 z = dtype == TDLS_FLOAT32 ? 4 : 8;
    const bool single = z == 4;
    Args a;
    a.entry = Entry::Getrs, a.dtype = dtype, a.layout = layout, a.n = n, a.nrhs = 1, a.lda = n;
    a.ldb = a.b_rows(); // one right-hand side: B_s is n packed elements in both layouts
    a.strideA = n * n, a.strideIpiv = n, a.strideB = n, a.batch = batch;
    GuardedBuffer A(std::size_t(n * n * batch * z));
    GuardedBuffer region(std::size_t(n * 4 + n * batch * z)); // n pivots, then B
    auto* ipiv = reinterpret_cast<std::int32_t*>(region.data());
    void* B = region.data() + n * 4;
    for (i64 s = 0; s < batch; ++s)
        for (i64 c = 0; c < n; ++c)
            for (i64 r = 0; r < n; ++r) put(A.data(), s * n * n + r + c * n, value_at(3, s, r, c, true, n), single);
    for (i64 i = 0; i < n * batch; ++i) put(B, i, value_at(4, 0, i, 0, false, n), single);
    for (i64 i = 0; i < n * batch; ++i) ipiv[i] = std::int32_t(i % n + 1); // valid when validated
    const std::vector<unsigned char> start = region.bytes();
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    REQUIRE(tdls_set_num_threads(handle, 1) == TDLS_SUCCESS);
    const tdls_status_t status = call(a, {A.data(), ipiv, B, nullptr, nullptr, nullptr, nullptr}, handle);
    INFO(tdls_last_error());
    REQUIRE(status == TDLS_SUCCESS);
    CHECK(A.front_intact());
    CHECK(region.front_intact());
    if (n > 256) { // past the SIMD tiles: one system after the other
        Args one = a;
        one.batch = 1;
        for (i64 s = 0; s < batch; ++s) {
            // The pivots system s found are in memory as its solve left them:
            // only later systems' B follow them, and those were solved after.
            std::vector<std::int32_t> found(ipiv + s * n, ipiv + s * n + n);
            bool valid = true;
            for (std::int32_t p : found) valid = valid && p >= 1 && p <= n;
            std::vector<unsigned char> b(start.begin() + n * 4 + s * n * z, start.begin() + n * 4 + (s + 1) * n * z);
            if (valid) {
                std::vector<unsigned char> a_copy(A.data() + s * n * n * z, A.data() + (s + 1) * n * n * z);
                REQUIRE(call(one, {a_copy.data(), found.data(), b.data(), nullptr, nullptr, nullptr, nullptr}) == TDLS_SUCCESS);
            }
            CHECK(std::memcmp(b.data(), static_cast<unsigned char*>(B) + s * n * z, std::size_t(n * z)) == 0);
        }
    }
    tdls_destroy(handle);
    ++cases_run;
}

/// gesv_ptr whose A_array, ipiv_array and B_array are stored inside B[0]:
/// read once before B[0] is written, the call must leave exactly what it
/// leaves with the arrays elsewhere.
void check_arrays_in_b(tdls_dtype_t dtype, tdls_layout_t layout, i64 n, i64 batch, bool negative_control = false) {
    INFO("gesv_ptr arrays inside B[0]: n " << n << " batch " << batch << (dtype == TDLS_FLOAT32 ? " float" : " double"));
    const i64 z = dtype == TDLS_FLOAT32 ? 4 : 8;
    const bool single = z == 4;
    const i64 array_bytes = 3 * batch * i64(sizeof(void*));
    i64 nrhs = std::max<i64>(1, (array_bytes + n * z - 1) / (n * z));
    if (n * nrhs * z % 8 != 0) ++nrhs; // B[0] ends at the guard page and must hold aligned pointers
    Args a;
    a.entry = Entry::Ptr, a.dtype = dtype, a.layout = layout, a.n = n, a.nrhs = nrhs, a.lda = n;
    a.ldb = a.b_rows(), a.batch = batch;
    std::vector<std::unique_ptr<GuardedBuffer>> A, ipiv, B;
    for (i64 s = 0; s < batch; ++s) {
        A.push_back(std::make_unique<GuardedBuffer>(std::size_t(n * n * z)));
        ipiv.push_back(std::make_unique<GuardedBuffer>(std::size_t(n * 4)));
        B.push_back(std::make_unique<GuardedBuffer>(std::size_t(n * nrhs * z)));
        for (i64 c = 0; c < n; ++c)
            for (i64 r = 0; r < n; ++r) put(A.back()->data(), r + c * n, value_at(5, s, r, c, true, n), single);
        for (i64 i = 0; i < n * nrhs; ++i) put(B.back()->data(), i, value_at(6, s, i, 0, false, n), single);
    }
    auto** arrays = reinterpret_cast<void**>(B[0]->data());
    for (i64 s = 0; s < batch; ++s) {
        arrays[s] = A[std::size_t(s)]->data();
        arrays[batch + s] = ipiv[std::size_t(s)]->data();
        arrays[2 * batch + s] = B[std::size_t(s)]->data();
    }
    // The twin: the same bytes, arrays of its own.
    std::vector<std::vector<unsigned char>> tA, tB, tipiv;
    std::vector<void*> tA_array, tB_array;
    std::vector<std::int32_t*> tipiv_array;
    for (i64 s = 0; s < batch; ++s) {
        tA.push_back(A[std::size_t(s)]->bytes());
        tB.push_back(B[std::size_t(s)]->bytes());
        tipiv.push_back(std::vector<unsigned char>(std::size_t(n * 4)));
    }
    if (negative_control) tB[std::size_t(batch - 1)][6] ^= 0x10; // a different system must give different bits
    for (i64 s = 0; s < batch; ++s) {
        tA_array.push_back(tA[std::size_t(s)].data());
        tB_array.push_back(tB[std::size_t(s)].data());
        tipiv_array.push_back(reinterpret_cast<std::int32_t*>(tipiv[std::size_t(s)].data()));
    }
    GuardedBuffer info(std::size_t(batch * 4));
    std::vector<std::int32_t> tinfo(static_cast<std::size_t>(batch));
    const Memory m{nullptr, nullptr, nullptr, reinterpret_cast<std::int32_t*>(info.data()), arrays,
                   reinterpret_cast<std::int32_t* const*>(arrays + batch), arrays + 2 * batch};
    REQUIRE(call(a, m) == TDLS_SUCCESS);
    REQUIRE(call(a, {nullptr, nullptr, nullptr, tinfo.data(), tA_array.data(), tipiv_array.data(), tB_array.data()}) ==
            TDLS_SUCCESS);
    bool same = std::memcmp(info.data(), tinfo.data(), std::size_t(batch * 4)) == 0;
    bool fronts = info.front_intact();
    for (i64 s = 0; s < batch; ++s) {
        const auto k = std::size_t(s);
        same = same && A[k]->bytes() == tA[k] && B[k]->bytes() == tB[k] && ipiv[k]->bytes() == tipiv[k];
        fronts = fronts && A[k]->front_intact() && B[k]->front_intact() && ipiv[k]->front_intact();
    }
    CHECK(same != negative_control);
    CHECK(fronts);
    ++cases_run;
}

TEST_CASE("aliased operands stay inside their footprints", "[footprint][alias]") {
    const int before = cases_run;
    for (tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64})
        for (tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
            for (i64 n : {258, 257}) // past the SIMD tiles' 256: one system after the other
                for (i64 batch : {2, 3}) check_getrs_pivots_in_b(dtype, layout, n, batch);
            for (i64 batch : {17, 33}) check_getrs_pivots_in_b(dtype, layout, 2, batch); // SIMD tiles
            check_getrs_pivots_in_b(dtype, layout, 5, 40);
            for (i64 n : {65, 257}) check_arrays_in_b(dtype, layout, n, 2); // the large tiles, blocked
            for (i64 n : {2, 8}) check_arrays_in_b(dtype, layout, n, 17); // SIMD tiles
        }
    CHECK(cases_run - before >= 44);
}

TEST_CASE("negative controls: the checks can fail", "[footprint]") {
    // The twin comparison of the aliased arrays sees a changed system.
    check_arrays_in_b(TDLS_FLOAT64, TDLS_COL_MAJOR, 257, 2, true);
    // The sentinels see a write just before the data.
    GuardedBuffer g(64);
    CHECK(g.front_intact());
    g.data()[-1] ^= 1;
    CHECK_FALSE(g.front_intact());
    // The page after the data is no-access: a child writing there dies of SIGSEGV.
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::signal(SIGSEGV, SIG_DFL); // a sanitizer's handler would exit instead
        volatile unsigned char* past_the_end = g.data() + g.size();
        *past_the_end = 1;
        _exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK_FALSE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    // A refusal leaves the operands as they were; a call that runs does not.
    Args a;
    a.batch = 1, a.strideA = 4, a.strideB = 2, a.strideIpiv = 2;
    SmallOperands operands(a);
    REQUIRE(call(a, operands.memory()) == TDLS_SUCCESS);
    CHECK_FALSE(operands.untouched());
}

// ---- The NaN pivot rule ------------------------------------------------------------------------

/// Reference LAPACK's idamax: the first index whose magnitude is strictly
/// larger than every earlier one; a comparison with a NaN is false, so a NaN
/// first candidate stays, and a NaN after a number is never chosen.
int reference_idamax(const std::vector<double>& column) {
    int best = 0;
    double largest = std::fabs(column[0]);
    for (int i = 1; i < int(column.size()); ++i)
        if (std::fabs(column[i]) > largest) {
            best = i;
            largest = std::fabs(column[i]);
        }
    return best;
}

/// The rule the README used to state ("a NaN is never chosen over a number"):
/// the first largest magnitude among the numbers, the first entry if all are NaN.
int numbers_first(const std::vector<double>& column) {
    int best = -1;
    for (int i = 0; i < int(column.size()); ++i)
        if (!std::isnan(column[i]) && (best < 0 || std::fabs(column[i]) > std::fabs(column[best]))) best = i;
    return best < 0 ? 0 : best;
}

TEST_CASE("the NaN pivot rule is reference LAPACK's idamax", "[footprint][nan]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<std::vector<double>> columns{
        {nan, 5, 1, 2}, {nan, 1, 3, 3}, {5, nan, 1, 2}, {1, nan, 5, 2}, {1, 2, nan, nan}, {nan, nan, nan, nan},
        {-1, 7, nan, -7}, {2, -3, 3, nan}, {nan, 0, 0, 0}, {0, nan, 0, 0},
    };
    // The negative control: the two rules differ on the column, so the check below can tell them apart.
    CHECK(reference_idamax(columns[0]) != numbers_first(columns[0]));
    const int n = 4;
    const int before = cases_run;
    int differing = 0;
    for (const auto& column : columns) {
        differing += reference_idamax(column) != numbers_first(column);
        for (tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64})
            for (Entry entry : {Entry::Gesv, Entry::Interleaved})
                for (int batch : {1, 17}) {
                    // Column 0 of every system's stored matrix is `column`, read column-major
                    // (row-major: the stored memory is what the contract pivots).
                    for (tdls_layout_t layout : {TDLS_COL_MAJOR, TDLS_ROW_MAJOR}) {
                        Args a;
                        a.entry = entry, a.dtype = dtype, a.layout = layout, a.n = n, a.nrhs = 1, a.lda = n;
                        a.ldb = a.b_rows(), a.strideA = n * n, a.strideIpiv = n, a.strideB = a.ldb * a.b_columns();
                        a.batch = batch, a.block = batch;
                        const bool single = dtype == TDLS_FLOAT32;
                        std::vector<double> storage(std::size_t(n * n * batch)), rhs(std::size_t(n * batch), 1.0);
                        std::vector<std::int32_t> ipiv(std::size_t(n * batch), -1), info(std::size_t(batch), -1);
                        std::vector<float> storage32(storage.size()), rhs32(rhs.size(), 1.0f);
                        for (int s = 0; s < batch; ++s)
                            for (int c = 0; c < n; ++c)
                                for (int r = 0; r < n; ++r) {
                                    const double v = c == 0 ? column[std::size_t(r)] : value_at(7, s, r, c, true, n);
                                    const i128 at = index_of(a, s, r, c, n, n * n, n * n, n);
                                    storage[std::size_t(at)] = v;
                                    storage32[std::size_t(at)] = float(v);
                                }
                        void* A = single ? static_cast<void*>(storage32.data()) : storage.data();
                        void* B = single ? static_cast<void*>(rhs32.data()) : rhs.data();
                        REQUIRE(call(a, {A, ipiv.data(), B, info.data(), nullptr, nullptr, nullptr}) == TDLS_SUCCESS);
                        for (int s = 0; s < batch; ++s) {
                            const i128 first = index_of(a, s, 0, 0, 0, n, n, n);
                            CHECK(ipiv[std::size_t(first)] == reference_idamax(column) + 1);
                        }
                        ++cases_run;
                    }
                }
    }
    CHECK(differing >= 3);
    CHECK(cases_run - before >= 140);
}

} // namespace
