// Where each system of a batch lives (kernels/common/batch_accessor.hpp),
// checked against the formulas of capi.md written out independently.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "common/batch_accessor.hpp"

namespace {

using tdls::kernels::BatchForm;
using tdls::kernels::BatchOperands;
using tdls::kernels::view_of;

/// capi.md's interleaved addressing: element e of system s.
std::int64_t interleaved_offset(std::int64_t s, std::int64_t e, std::int64_t elements, std::int64_t block) {
    return (s / block) * block * elements + e * block + s % block;
}

} // namespace

TEST_CASE("interleaved views address elements as capi.md says, both layouts", "[accessor]") {
    int checked = 0;
    for (const bool row_major : {false, true}) {
        for (const std::int64_t n : {1, 2, 5}) {
            for (const std::int64_t nrhs : {1, 3}) {
                for (const std::int64_t block : {1, 3, 4, 7}) {
                    const std::int64_t batch = 10; // partial last block for 3, 4, 7
                    std::vector<double> A(std::size_t(((batch + block - 1) / block) * block * n * n));
                    std::vector<double> B(std::size_t(((batch + block - 1) / block) * block * n * nrhs));
                    std::vector<std::int32_t> ipiv(std::size_t(((batch + block - 1) / block) * block * n));
                    BatchOperands ops{.form = BatchForm::Interleaved,
                                      .row_major = row_major,
                                      .n = n,
                                      .nrhs = nrhs,
                                      .batch = batch,
                                      .A = A.data(),
                                      .ipiv = ipiv.data(),
                                      .B = B.data(),
                                      .block = block};
                    for (std::int64_t s = 0; s < batch; ++s) {
                        const auto v = view_of<double>(ops, s);
                        for (std::int64_t r = 0; r < n; ++r) {
                            for (std::int64_t c = 0; c < n; ++c) {
                                // Element (r, c) of the stored matrix read column-major: e = r + c*n.
                                REQUIRE(&v.A[r * v.a_row + c * v.a_col] ==
                                        &A[std::size_t(interleaved_offset(s, r + c * n, n * n, block))]);
                            }
                            REQUIRE(&v.ipiv[r * v.ipiv_step] ==
                                    &ipiv[std::size_t(interleaved_offset(s, r, n, block))]);
                            for (std::int64_t k = 0; k < nrhs; ++k) {
                                const std::int64_t e = row_major ? r * nrhs + k : r + k * n;
                                REQUIRE(&v.B[r * v.b_row + k * v.b_col] ==
                                        &B[std::size_t(interleaved_offset(s, e, n * nrhs, block))]);
                            }
                        }
                        REQUIRE(v.matrix_is_packed(n));
                        ++checked;
                    }
                }
            }
        }
    }
    REQUIRE(checked == 2 * 3 * 2 * 4 * 10);
}

TEST_CASE("strided and pointer-array views honour lda, ldb and the strides", "[accessor]") {
    const std::int64_t n = 3, nrhs = 2, lda = 5, ldb_col = 4, ldb_row = 3, batch = 4;
    std::vector<float> A(std::size_t(batch * 20)), B(std::size_t(batch * 16));
    std::vector<std::int32_t> ipiv(std::size_t(batch * 4));
    std::vector<void*> A_array, B_array;
    std::vector<std::int32_t*> ipiv_array;
    for (std::int64_t s = 0; s < batch; ++s) {
        A_array.push_back(&A[std::size_t(s * 20)]);
        B_array.push_back(&B[std::size_t(s * 16)]);
        ipiv_array.push_back(&ipiv[std::size_t(s * 4)]);
    }
    int checked = 0;
    for (const bool row_major : {false, true}) {
        const std::int64_t ldb = row_major ? ldb_row : ldb_col;
        const BatchOperands strided{.form = BatchForm::Strided,
                                    .row_major = row_major,
                                    .n = n,
                                    .nrhs = nrhs,
                                    .batch = batch,
                                    .A = A.data(),
                                    .lda = lda,
                                    .strideA = 20,
                                    .ipiv = ipiv.data(),
                                    .strideIpiv = 4,
                                    .B = B.data(),
                                    .ldb = ldb,
                                    .strideB = 16};
        const BatchOperands pointers{.form = BatchForm::Pointers,
                                     .row_major = row_major,
                                     .n = n,
                                     .nrhs = nrhs,
                                     .batch = batch,
                                     .A_array = A_array.data(),
                                     .lda = lda,
                                     .ipiv_array = ipiv_array.data(),
                                     .B_array = B_array.data(),
                                     .ldb = ldb};
        for (const BatchOperands& ops : {strided, pointers}) {
            for (std::int64_t s = 0; s < batch; ++s) {
                const auto v = view_of<float>(ops, s);
                for (std::int64_t r = 0; r < n; ++r) {
                    for (std::int64_t c = 0; c < n; ++c)
                        REQUIRE(&v.A[r * v.a_row + c * v.a_col] == &A[std::size_t(s * 20 + r + c * lda)]);
                    REQUIRE(&v.ipiv[r * v.ipiv_step] == &ipiv[std::size_t(s * 4 + r)]);
                    for (std::int64_t k = 0; k < nrhs; ++k) {
                        // capi.md: B_s(i, k) at B_s[i + k*ldb] column-major, B_s[i*ldb + k] row-major.
                        const std::int64_t e = row_major ? r * ldb + k : r + k * ldb;
                        REQUIRE(&v.B[r * v.b_row + k * v.b_col] == &B[std::size_t(s * 16 + e)]);
                    }
                }
                // lda 5 > n 3: the solver needs a packed copy.
                REQUIRE_FALSE(v.matrix_is_packed(n));
                ++checked;
            }
        }
    }
    REQUIRE(checked == 2 * 2 * batch);
}

TEST_CASE("null ipiv and B stay null in every form", "[accessor]") {
    std::vector<double> A(8);
    void* A_array[2] = {A.data(), A.data() + 4};
    const BatchOperands strided{
        .form = BatchForm::Strided, .n = 2, .batch = 2, .A = A.data(), .lda = 2, .strideA = 4};
    const BatchOperands pointers{
        .form = BatchForm::Pointers, .n = 2, .batch = 2, .A_array = A_array, .lda = 2};
    const BatchOperands interleaved{
        .form = BatchForm::Interleaved, .n = 2, .batch = 2, .A = A.data(), .block = 2};
    int checked = 0;
    for (const BatchOperands& ops : {strided, pointers, interleaved}) {
        const auto v = view_of<double>(ops, 1);
        REQUIRE(v.ipiv == nullptr);
        REQUIRE(v.B == nullptr);
        ++checked;
    }
    REQUIRE(checked == 3);
}
