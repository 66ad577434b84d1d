// The cases of the correctness sweep (see sweep_plan.hpp).
#include "sweep_plan.hpp"

#include <iterator>

namespace tdls_device {

namespace {

std::vector<std::int64_t> orders(SweepSize size) {
    std::vector<std::int64_t> n;
    if (size == SweepSize::quick) {
        for (std::int64_t k = 1; k <= 17; ++k) n.push_back(k);
        for (std::int64_t k : {32, 33, 64, 100, 128}) n.push_back(k);
        return n;
    }
    for (std::int64_t k = 1; k <= 33; ++k) n.push_back(k);
    for (std::int64_t k : {40, 48, 63, 64, 65, 96, 100, 128, 129, 160, 200, 256}) n.push_back(k);
    return n;
}

/// Complex cases run at these orders: every order of the full sweep; in the
/// quick one the register kernels' extremes, an odd order, the warp boundary
/// (16/17, 32/33) and the block kernel, since a complex system costs the CPU
/// reference 4 times a real one's arithmetic.
std::vector<std::int64_t> complex_orders(SweepSize size) {
    if (size == SweepSize::quick) return {1, 2, 7, 16, 17, 32, 33, 64, 100};
    return orders(size);
}

constexpr tdls_dtype_t real_types[] = {TDLS_FLOAT32, TDLS_FLOAT64};
constexpr tdls_dtype_t complex_types[] = {TDLS_COMPLEX64, TDLS_COMPLEX128};
constexpr tdls_dtype_t types[] = {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128};

/// The types of the cases of order n.
std::vector<tdls_dtype_t> types_at(SweepSize size, std::int64_t n) {
    std::vector<tdls_dtype_t> t(std::begin(real_types), std::end(real_types));
    for (std::int64_t k : complex_orders(size))
        if (k == n) t.insert(t.end(), std::begin(complex_types), std::end(complex_types));
    return t;
}
constexpr tdls_layout_t layouts[] = {TDLS_COL_MAJOR, TDLS_ROW_MAJOR};
constexpr std::int64_t rhs_counts[] = {0, 1, 3};
constexpr std::int64_t strided_pads[] = {0, 3};
constexpr std::int64_t pointer_pad = 2;
constexpr std::int64_t interleaved_block = 32; // with a partial last block: no batch_for is a multiple

// Variants per (n, type, layout): gesv in every form (2 strided, pointers,
// 2 interleaved) x nrhs; getrf strided; getrs strided x nrhs.
constexpr std::int64_t gesv_forms = 5;
constexpr std::int64_t variants = gesv_forms * std::size(rhs_counts) + std::size(strided_pads) +
                                  std::size(strided_pads) * std::size(rhs_counts);
static_assert(variants % 2 == 1, "the GPU ways alternate per case: an odd group covers both");

void append_variants(std::vector<Case>& cases, Case c) {
    c.operation = Operation::gesv;
    for (std::int64_t nrhs : rhs_counts) {
        c.nrhs = nrhs;
        for (std::int64_t pad : strided_pads) {
            c.form = Form::strided;
            c.pad = pad;
            cases.push_back(c);
        }
        c.form = Form::pointers;
        c.pad = pointer_pad;
        cases.push_back(c);
        c.form = Form::interleaved;
        c.pad = 0;
        for (std::int64_t block : {interleaved_block, c.batch}) {
            c.block = block;
            cases.push_back(c);
        }
    }
    c.form = Form::strided;
    c.operation = Operation::getrf;
    c.nrhs = 0;
    for (std::int64_t pad : strided_pads) {
        c.pad = pad;
        cases.push_back(c);
    }
    c.operation = Operation::getrs;
    for (std::int64_t nrhs : rhs_counts)
        for (std::int64_t pad : strided_pads) {
            c.nrhs = nrhs;
            c.pad = pad;
            cases.push_back(c);
        }
}

/// The compute-sanitizer sweep: each form, operation and layout once per
/// type, at orders on both sides of the warp size and of 64.
std::vector<Case> small_cases() {
    constexpr std::int64_t batch = 45; // a partial block of 32
    std::vector<Case> cases;
    for (tdls_dtype_t dtype : types) {
        auto add = [&](Operation op, tdls_layout_t layout, Form form, std::int64_t n, std::int64_t nrhs,
                       std::int64_t pad, std::int64_t block) {
            cases.push_back(Case{op, dtype, layout, form, n, nrhs, batch, pad, block});
        };
        add(Operation::gesv, TDLS_COL_MAJOR, Form::strided, 5, 3, 3, 1);
        add(Operation::gesv, TDLS_ROW_MAJOR, Form::pointers, 33, 1, pointer_pad, 1);
        add(Operation::gesv, TDLS_COL_MAJOR, Form::interleaved, 17, 3, 0, interleaved_block);
        add(Operation::gesv, TDLS_ROW_MAJOR, Form::interleaved, 8, 0, 0, batch);
        add(Operation::getrf, TDLS_ROW_MAJOR, Form::strided, 64, 0, 0, 1);
        add(Operation::getrs, TDLS_COL_MAJOR, Form::strided, 65, 3, 3, 1);
        add(Operation::gesv, TDLS_ROW_MAJOR, Form::strided, 128, 1, 0, 1);
        // The factor-once pair on pointer arrays (MAGMA's getrf/getrs_batched on a queue).
        add(Operation::getrf, TDLS_COL_MAJOR, Form::pointers, 20, 0, pointer_pad, 1);
        add(Operation::getrs, TDLS_ROW_MAJOR, Form::pointers, 33, 2, pointer_pad, 1);
    }
    return cases;
}

constexpr std::int64_t small_case_count = std::size(types) * 9;

} // namespace

const char* name(SweepSize size) {
    switch (size) {
    case SweepSize::full:
        return "full";
    case SweepSize::quick:
        return "quick";
    case SweepSize::small:
        return "small";
    }
    return "?";
}

std::int64_t batch_for(std::int64_t n) {
    // Odd counts: the last interleaved block of 32 is always partial. Fewer
    // systems as n grows: the CPU reference (one system per thread) costs
    // n^3 per system, and the whole device check must stay under 10 minutes.
    if (n <= 16) return 997;
    if (n <= 64) return 401;
    if (n <= 100) return 203;
    if (n <= 129) return 101;
    return 45;
}

std::vector<Case> sweep_cases(SweepSize size) {
    if (size == SweepSize::small) return small_cases();
    std::vector<Case> cases;
    for (std::int64_t n : orders(size))
        for (tdls_dtype_t dtype : types_at(size, n))
            for (tdls_layout_t layout : layouts) {
                Case c;
                c.dtype = dtype;
                c.layout = layout;
                c.n = n;
                c.batch = batch_for(n);
                append_variants(cases, c);
            }
    return cases;
}

bool refused_by_design(const Case& c, const tdls::runtime::DeviceProperties& device) {
    const bool packed = c.form == Form::interleaved || (c.form == Form::strided && c.pad == 0);
    return !tdls::runtime::make_block_plan(c.n, c.dtype, device, packed).supported;
}

std::int64_t expected_case_count(SweepSize size) {
    if (size == SweepSize::small) return small_case_count;
    const std::int64_t per_order_and_type = std::int64_t(std::size(layouts)) * variants;
    return (std::int64_t(orders(size).size()) * std::int64_t(std::size(real_types)) +
            std::int64_t(complex_orders(size).size()) * std::int64_t(std::size(complex_types))) *
           per_order_and_type;
}

} // namespace tdls_device
