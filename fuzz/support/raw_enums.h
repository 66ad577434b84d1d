/*
 * libtdls fuzzing: the C ABI's entry points that take enums, with the enum
 * arguments as plain int32. A C caller may pass any int where tdls.h has an
 * enum; these wrappers are C, so that the harnesses (C++, where an
 * out-of-range enum value is itself undefined) pass arbitrary values exactly
 * as such a caller does.
 */
#ifndef TDLS_FUZZ_RAW_ENUMS_H
#define TDLS_FUZZ_RAW_ENUMS_H

#include <tdls/tdls.h>

#ifdef __cplusplus
extern "C" {
#endif

tdls_status_t raw_gesv(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs, void* A,
                       int64_t lda, int64_t strideA, int32_t* ipiv, int64_t strideIpiv, void* B, int64_t ldb,
                       int64_t strideB, int32_t* info, int64_t batch);
tdls_status_t raw_gesv_ptr(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs,
                           void* const* A_array, int64_t lda, int32_t* const* ipiv_array,
                           void* const* B_array, int64_t ldb, int32_t* info, int64_t batch);
tdls_status_t raw_gesv_interleaved(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n,
                                   int64_t nrhs, void* A, int32_t* ipiv, void* B, int32_t* info,
                                   int64_t batch, int64_t block);
tdls_status_t raw_getrf(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, void* A, int64_t lda,
                        int64_t strideA, int32_t* ipiv, int64_t strideIpiv, int32_t* info, int64_t batch);
tdls_status_t raw_getrs(tdls_handle_t handle, int32_t dtype, int32_t layout, int64_t n, int64_t nrhs,
                        const void* A, int64_t lda, int64_t strideA, const int32_t* ipiv, int64_t strideIpiv,
                        void* B, int64_t ldb, int64_t strideB, int64_t batch);
tdls_status_t raw_create(tdls_handle_t* handle, int32_t backend, int device);
int raw_backend_available(int32_t backend);
const char* raw_status_name(int32_t status);
const char* raw_status_string(int32_t status);

#ifdef __cplusplus
}
#endif

#endif /* TDLS_FUZZ_RAW_ENUMS_H */
