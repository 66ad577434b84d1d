// Where each operand of a case lies (see geometry.hpp).
#include "geometry.hpp"

#include <algorithm>
#include <numeric>

#include "dtypes.hpp"
#include "random.hpp"

namespace tdls_device {

namespace {

const char* name(Operation op) {
    switch (op) {
    case Operation::gesv:
        return "gesv";
    case Operation::getrf:
        return "getrf";
    case Operation::getrs:
        return "getrs";
    }
    return "?";
}

/// A fixed shuffle of 0..count-1, different per salt: the pointer form's
/// systems must not lie in order, or a driver that ignored the pointer array
/// and assumed a stride could pass.
std::vector<std::int64_t> shuffled(std::int64_t count, std::uint64_t salt) {
    std::vector<std::int64_t> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), std::int64_t(0));
    for (std::int64_t i = count - 1; i > 0; --i) {
        const auto j = std::int64_t(mix(salt ^ std::uint64_t(i)) % std::uint64_t(i + 1));
        std::swap(order[std::size_t(i)], order[std::size_t(j)]);
    }
    return order;
}

/// Strides of element (i, j) in a matrix stored with leading dimension ld.
void set_strides(OperandMap& m, tdls_layout_t layout, std::int64_t ld) {
    m.row_stride = layout == TDLS_COL_MAJOR ? 1 : ld;
    m.col_stride = layout == TDLS_COL_MAJOR ? ld : 1;
}

/// Systems at a constant stride after the head guard.
void place_strided(OperandMap& m, std::int64_t batch, std::int64_t stride) {
    m.origin = head_guard;
    m.base.resize(std::size_t(batch));
    for (std::int64_t s = 0; s < batch; ++s) m.base[std::size_t(s)] = head_guard + s * stride;
    m.buffer_elements = head_guard + batch * stride + tail_guard;
}

/// Systems in shuffled slots of `slot` elements.
void place_shuffled(OperandMap& m, std::int64_t batch, std::int64_t slot, std::uint64_t salt) {
    const std::vector<std::int64_t> order = shuffled(batch, salt);
    m.base.resize(std::size_t(batch));
    for (std::int64_t s = 0; s < batch; ++s)
        m.base[std::size_t(s)] = head_guard + order[std::size_t(s)] * slot;
    m.buffer_elements = head_guard + batch * slot + tail_guard;
}

/// The interleaved formula of capi.md: element e of system s at
/// (s / block) * block * E + e * block + s % block.
void place_interleaved(OperandMap& m, std::int64_t batch, std::int64_t block, std::int64_t elements) {
    const std::int64_t blocks = (batch + block - 1) / block;
    m.origin = head_guard;
    m.base.resize(std::size_t(batch));
    for (std::int64_t s = 0; s < batch; ++s)
        m.base[std::size_t(s)] = head_guard + (s / block) * block * elements + s % block;
    m.buffer_elements = head_guard + blocks * block * elements + tail_guard;
}

} // namespace

std::string describe(const Case& c) {
    std::string text = name(c.operation);
    text += ' ';
    text += type_name(c.dtype);
    text += c.layout == TDLS_COL_MAJOR ? " col-major" : " row-major";
    text += " n=" + std::to_string(c.n);
    if (c.operation != Operation::getrf) text += " nrhs=" + std::to_string(c.nrhs);
    switch (c.form) {
    case Form::strided:
        text += c.pad == 0 ? " strided lda=n" : " strided lda=n+" + std::to_string(c.pad);
        break;
    case Form::pointers:
        text += " pointers lda=n+" + std::to_string(c.pad);
        break;
    case Form::interleaved:
        text += " interleaved block=" + std::to_string(c.block);
        break;
    }
    return text + " batch=" + std::to_string(c.batch);
}

std::vector<std::int32_t> OperandMap::owners() const {
    std::vector<std::int32_t> owner(std::size_t(buffer_elements), -1);
    for (std::size_t s = 0; s < base.size(); ++s)
        for (std::int64_t j = 0; j < cols; ++j)
            for (std::int64_t i = 0; i < rows; ++i)
                owner[std::size_t(at(std::int64_t(s), i, j))] = std::int32_t(s);
    return owner;
}

Geometry make_geometry(const Case& c) {
    Geometry g;
    const std::int64_t n = c.n, nrhs = c.operation == Operation::getrf ? 0 : c.nrhs;
    g.a.rows = g.a.cols = n;
    g.ipiv.rows = n;
    g.ipiv.cols = 1;
    g.b.rows = n;
    g.b.cols = nrhs;
    g.info.rows = g.info.cols = 1;
    place_strided(g.info, c.batch, 1);

    if (c.form == Form::interleaved) {
        // The packed system: lda = n; ldb = n column-major, nrhs row-major.
        g.lda = n;
        g.ldb = c.layout == TDLS_COL_MAJOR ? n : nrhs;
        place_interleaved(g.a, c.batch, c.block, n * n);
        place_interleaved(g.ipiv, c.batch, c.block, n);
        place_interleaved(g.b, c.batch, c.block, n * nrhs);
        g.a.row_stride = c.layout == TDLS_COL_MAJOR ? c.block : n * c.block;
        g.a.col_stride = c.layout == TDLS_COL_MAJOR ? n * c.block : c.block;
        g.ipiv.row_stride = c.block;
        g.b.row_stride = c.layout == TDLS_COL_MAJOR ? c.block : nrhs * c.block;
        g.b.col_stride = c.layout == TDLS_COL_MAJOR ? n * c.block : c.block;
        return g;
    }

    g.lda = n + c.pad;
    // ldb >= n column-major, >= nrhs row-major; at least 1 as LAPACK asks.
    g.ldb = c.layout == TDLS_COL_MAJOR ? n + c.pad : std::max<std::int64_t>(1, nrhs + c.pad);
    const std::int64_t footprint_a = g.lda * n;
    const std::int64_t footprint_b = c.layout == TDLS_COL_MAJOR ? g.ldb * nrhs : g.ldb * n;
    set_strides(g.a, c.layout, g.lda);
    set_strides(g.b, c.layout, g.ldb);
    g.ipiv.row_stride = 1;

    if (c.form == Form::pointers) {
        // Slots a few elements longer than a system, so gaps lie between them.
        const auto salt = std::uint64_t(n * 1000003 + c.batch);
        place_shuffled(g.a, c.batch, footprint_a + 7, salt ^ 0xA);
        place_shuffled(g.ipiv, c.batch, n + 3, salt ^ 0x1);
        place_shuffled(g.b, c.batch, footprint_b + 5, salt ^ 0xB);
        return g;
    }

    // Strided: packed when pad is 0, else strides padded by a few elements.
    const bool padded = c.pad != 0;
    g.stride_a = footprint_a + (padded ? 5 : 0);
    g.stride_ipiv = n + (padded ? 1 : 0);
    g.stride_b = footprint_b + (padded ? 2 : 0);
    place_strided(g.a, c.batch, g.stride_a);
    place_strided(g.ipiv, c.batch, g.stride_ipiv);
    place_strided(g.b, c.batch, g.stride_b);
    return g;
}

} // namespace tdls_device
