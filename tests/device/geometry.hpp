// One case of the sweep, and where each of its operands lies in memory.
//
// Every operand lives in one buffer per case (the pointer-array form's
// systems are slots of one pool, in shuffled order). Each buffer begins and
// ends with guard elements, and every element that belongs to no operand
// (lda and stride padding, the gaps between slots, the unused slots of a
// partial interleaved block, the guards) is padding: no call may change it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tdls/tdls.h>

namespace tdls_device {

enum class Operation { gesv, getrf, getrs };
enum class Form { strided, pointers, interleaved };

struct Case {
    Operation operation = Operation::gesv;
    tdls_dtype_t dtype = TDLS_FLOAT64;
    tdls_layout_t layout = TDLS_COL_MAJOR;
    Form form = Form::strided;
    std::int64_t n = 1;
    std::int64_t nrhs = 1;
    std::int64_t batch = 1;
    std::int64_t pad = 0;   // strided and pointer forms: lda - n, and B's the same way
    std::int64_t block = 1; // interleaved form: systems per block
};

/// E.g. "gesv double row-major n=33 nrhs=3 pointers lda=n+2 batch=401".
std::string describe(const Case& c);

/// Element (i, j) of system s at base[s] + i * row_stride + j * col_stride.
struct OperandMap {
    std::int64_t rows = 0, cols = 0;
    std::int64_t row_stride = 0, col_stride = 0;
    std::vector<std::int64_t> base;   // per system, in elements from the buffer's start
    std::int64_t buffer_elements = 0; // guards and padding included
    std::int64_t origin = 0; // the element handed to the library in the strided and interleaved forms

    std::int64_t at(std::int64_t s, std::int64_t i, std::int64_t j) const {
        return base[std::size_t(s)] + i * row_stride + j * col_stride;
    }
    /// Per buffer element: the system it belongs to, or -1 for padding.
    std::vector<std::int32_t> owners() const;
};

struct Geometry {
    std::int64_t lda = 0, ldb = 0;
    std::int64_t stride_a = 0, stride_ipiv = 0, stride_b = 0;
    OperandMap a, ipiv, b, info;
};

/// Guard elements before and after every operand buffer.
inline constexpr std::int64_t head_guard = 8; // keeps 32-byte alignment of the strided origin
inline constexpr std::int64_t tail_guard = 16;

Geometry make_geometry(const Case& c);

/// Every 7th system is made singular: a zero column at a varying k.
inline bool made_singular(std::int64_t s) {
    return s % 7 == 6;
}
inline std::int64_t zero_column(std::int64_t s, std::int64_t n) {
    return (s / 7) % n;
}

} // namespace tdls_device
