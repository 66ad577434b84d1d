/* libtdls fuzzing: see raw_enums.h. In C an enum argument holds any int. */
#include "raw_enums.h"

tdls_status_t raw_gesv(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs, void* A,
                       int64_t lda, int64_t strideA, int32_t* ipiv, int64_t strideIpiv, void* B, int64_t ldb,
                       int64_t strideB, int32_t* info, int64_t batch) {
    return tdls_batched_gesv(handle, (tdls_dtype_t)dtype, (tdls_layout_t)layout, n, nrhs, A, lda, strideA,
                             ipiv, strideIpiv, B, ldb, strideB, info, batch);
}

tdls_status_t raw_gesv_ptr(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs,
                           void* const* A_array, int64_t lda, int32_t* const* ipiv_array,
                           void* const* B_array, int64_t ldb, int32_t* info, int64_t batch) {
    return tdls_batched_gesv_ptr(handle, (tdls_dtype_t)dtype, (tdls_layout_t)layout, n, nrhs, A_array, lda,
                                 ipiv_array, B_array, ldb, info, batch);
}

tdls_status_t raw_gesv_interleaved(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n,
                                   int64_t nrhs, void* A, int32_t* ipiv, void* B, int32_t* info,
                                   int64_t batch, int64_t block) {
    return tdls_batched_gesv_interleaved(handle, (tdls_dtype_t)dtype, (tdls_layout_t)layout, n, nrhs, A, ipiv,
                                         B, info, batch, block);
}

tdls_status_t raw_getrf(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, void* A, int64_t lda,
                        int64_t strideA, int32_t* ipiv, int64_t strideIpiv, int32_t* info, int64_t batch) {
    return tdls_batched_getrf(handle, (tdls_dtype_t)dtype, (tdls_layout_t)layout, n, A, lda, strideA, ipiv,
                              strideIpiv, info, batch);
}

tdls_status_t raw_getrs(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs,
                        const void* A, int64_t lda, int64_t strideA, const int32_t* ipiv, int64_t strideIpiv,
                        void* B, int64_t ldb, int64_t strideB, int64_t batch) {
    return tdls_batched_getrs(handle, (tdls_dtype_t)dtype, (tdls_layout_t)layout, n, nrhs, A, lda, strideA,
                              ipiv, strideIpiv, B, ldb, strideB, batch);
}

tdls_status_t raw_create(tdls_handle_t* handle, int32_t backend, int device) {
    return tdls_create(handle, (tdls_backend_t)backend, device);
}

int raw_backend_available(int32_t backend) {
    return tdls_backend_available((tdls_backend_t)backend);
}

const char* raw_status_name(int32_t status) {
    return tdls_status_name((tdls_status_t)status);
}

const char* raw_status_string(int32_t status) {
    return tdls_status_string((tdls_status_t)status);
}
