// libtdls: the extern "C" shells of include/tdls/tdls.h. Each gathers its
// arguments and forwards to the runtime; its function-try-block turns every
// exception into a status and a message for tdls_last_error(), so that none
// crosses the C ABI.
#include <tdls/tdls.h>

#include "common/batch_call.hpp"
#include "handle.hpp"
#include "registry.hpp"
#include "solve.hpp"
#include "status.hpp"

static_assert(TDLS_VERSION_MAJOR == TDLS_PROJECT_VERSION_MAJOR &&
                  TDLS_VERSION_MINOR == TDLS_PROJECT_VERSION_MINOR &&
                  TDLS_VERSION_PATCH == TDLS_PROJECT_VERSION_PATCH,
              "tdls.h and CMakeLists.txt disagree on the version");

namespace rt = tdls::runtime;
using tdls::kernels::BatchCall;
using tdls::kernels::BatchForm;
using tdls::kernels::Operation;

#define TDLS_GUARD(function)                                                                                 \
    catch (...) {                                                                                            \
        return rt::status_of_current_exception(function);                                                    \
    }

extern "C" {

void tdls_get_version(int* major, int* minor, int* patch) {
    if (major) *major = TDLS_VERSION_MAJOR;
    if (minor) *minor = TDLS_VERSION_MINOR;
    if (patch) *patch = TDLS_VERSION_PATCH;
}

int tdls_backend_available(tdls_backend_t backend) {
    return rt::backend_available(backend) ? 1 : 0;
}

const char* tdls_status_name(tdls_status_t s) {
    return rt::status_name(s);
}
const char* tdls_status_string(tdls_status_t s) {
    return rt::status_string(s);
}
const char* tdls_last_error(void) {
    return rt::last_error();
}

tdls_status_t tdls_create(tdls_handle_t* handle, tdls_backend_t backend, int device) try {
    static const char* const function = "tdls_create";
    if (handle == nullptr) rt::fail(TDLS_ERROR_INVALID_VALUE, function, "handle is NULL");
    if (backend < TDLS_BACKEND_AUTO || backend > TDLS_BACKEND_HIP)
        rt::fail(TDLS_ERROR_INVALID_VALUE, function, "backend (", int(backend), ") is not a tdls_backend_t");
    if (device < 0) rt::fail(TDLS_ERROR_INVALID_VALUE, function, "device (", device, ") < 0");
    if (!rt::backend_available(backend))
        rt::fail(TDLS_ERROR_BACKEND_UNAVAILABLE, function, "backend (", int(backend), ") is unavailable: ",
                 rt::unavailable_reason(backend));
    if ((backend == TDLS_BACKEND_CPU || backend == TDLS_BACKEND_AUTO) && device != 0)
        rt::fail(TDLS_ERROR_INVALID_VALUE, function, "device (", device, ") != 0 for the ",
                 backend == TDLS_BACKEND_CPU ? "CPU" : "AUTO", " backend, which has one device, 0");
    const int devices = rt::device_count(backend);
    if ((backend == TDLS_BACKEND_CUDA || backend == TDLS_BACKEND_HIP) && device >= devices)
        rt::fail(TDLS_ERROR_INVALID_VALUE, function, "device (", device, ") >= the ", devices,
                 " device(s) of backend (", int(backend), ")");
    *handle = rt::create_handle(backend, device);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_create")

tdls_status_t tdls_destroy(tdls_handle_t handle) try {
    rt::destroy_handle("tdls_destroy", handle);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_destroy")

tdls_status_t tdls_set_stream(tdls_handle_t handle, void* stream) try {
    rt::set_stream("tdls_set_stream", handle, stream);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_set_stream")

tdls_status_t tdls_get_backend(tdls_handle_t handle, tdls_backend_t* backend) try {
    static const char* const function = "tdls_get_backend";
    const rt::Context context = rt::context_of(function, handle);
    if (backend == nullptr) rt::fail(TDLS_ERROR_INVALID_VALUE, function, "backend is NULL");
    *backend = context.backend;
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_get_backend")

tdls_status_t tdls_set_pivot_threshold(tdls_handle_t handle, double tau) try {
    rt::set_pivot_threshold("tdls_set_pivot_threshold", handle, tau);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_set_pivot_threshold")

tdls_status_t tdls_set_num_threads(tdls_handle_t handle, int threads) try {
    rt::set_num_threads("tdls_set_num_threads", handle, threads);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_set_num_threads")

tdls_status_t tdls_batched_gesv(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                int64_t nrhs, void* A, int64_t lda, int64_t strideA, int32_t* ipiv,
                                int64_t strideIpiv, void* B, int64_t ldb, int64_t strideB, int32_t* info,
                                int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Gesv;
    call.operands = {.form = BatchForm::Strided,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A = A,
                     .lda = lda,
                     .strideA = strideA,
                     .ipiv = ipiv,
                     .strideIpiv = strideIpiv,
                     .B = B,
                     .ldb = ldb,
                     .strideB = strideB,
                     .info = info};
    rt::solve("tdls_batched_gesv", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_gesv")

tdls_status_t tdls_batched_gesv_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                    int64_t nrhs, void* const* A_array, int64_t lda,
                                    int32_t* const* ipiv_array, void* const* B_array, int64_t ldb,
                                    int32_t* info, int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Gesv;
    call.operands = {.form = BatchForm::Pointers,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A_array = A_array,
                     .lda = lda,
                     .ipiv_array = ipiv_array,
                     .B_array = B_array,
                     .ldb = ldb,
                     .info = info};
    rt::solve("tdls_batched_gesv_ptr", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_gesv_ptr")

tdls_status_t tdls_batched_gesv_interleaved(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                            int64_t n, int64_t nrhs, void* A, int32_t* ipiv, void* B,
                                            int32_t* info, int64_t batch, int64_t block) try {
    BatchCall call;
    call.operation = Operation::Gesv;
    call.operands = {.form = BatchForm::Interleaved,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A = A,
                     .ipiv = ipiv,
                     .B = B,
                     .info = info,
                     .block = block};
    rt::solve("tdls_batched_gesv_interleaved", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_gesv_interleaved")

// The solve shells: the kernels never write A under Operation::Solve, so the
// const of the signature is cast away only to fit the shared operand record.
tdls_status_t tdls_batched_solve(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                 int64_t nrhs, const void* A, int64_t lda, int64_t strideA, void* B, int64_t ldb,
                                 int64_t strideB, int32_t* info, int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Solve;
    call.operands = {.form = BatchForm::Strided,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A = const_cast<void*>(A),
                     .lda = lda,
                     .strideA = strideA,
                     .B = B,
                     .ldb = ldb,
                     .strideB = strideB,
                     .info = info};
    rt::solve("tdls_batched_solve", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_solve")

tdls_status_t tdls_batched_solve_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                     int64_t nrhs, const void* const* A_array, int64_t lda, void* const* B_array,
                                     int64_t ldb, int32_t* info, int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Solve;
    call.operands = {.form = BatchForm::Pointers,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A_array = const_cast<void* const*>(A_array),
                     .lda = lda,
                     .B_array = B_array,
                     .ldb = ldb,
                     .info = info};
    rt::solve("tdls_batched_solve_ptr", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_solve_ptr")

tdls_status_t tdls_batched_solve_interleaved(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                             int64_t n, int64_t nrhs, const void* A, void* B, int32_t* info,
                                             int64_t batch, int64_t block) try {
    BatchCall call;
    call.operation = Operation::Solve;
    call.operands = {.form = BatchForm::Interleaved,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A = const_cast<void*>(A),
                     .B = B,
                     .info = info,
                     .block = block};
    rt::solve("tdls_batched_solve_interleaved", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_solve_interleaved")

tdls_status_t tdls_batched_getrf(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                 void* A, int64_t lda, int64_t strideA, int32_t* ipiv, int64_t strideIpiv,
                                 int32_t* info, int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Getrf;
    call.operands = {.form = BatchForm::Strided,
                     .n = n,
                     .batch = batch,
                     .A = A,
                     .lda = lda,
                     .strideA = strideA,
                     .ipiv = ipiv,
                     .strideIpiv = strideIpiv,
                     .info = info};
    rt::solve("tdls_batched_getrf", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_getrf")

tdls_status_t tdls_batched_getrs(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                 int64_t nrhs, const void* A, int64_t lda, int64_t strideA,
                                 const int32_t* ipiv, int64_t strideIpiv, void* B, int64_t ldb,
                                 int64_t strideB, int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Getrs;
    // getrs never writes A or ipiv: the kernels take them as const.
    call.operands = {.form = BatchForm::Strided,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A = const_cast<void*>(A),
                     .lda = lda,
                     .strideA = strideA,
                     .ipiv = const_cast<int32_t*>(ipiv),
                     .strideIpiv = strideIpiv,
                     .B = B,
                     .ldb = ldb,
                     .strideB = strideB};
    rt::solve("tdls_batched_getrs", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_getrs")

tdls_status_t tdls_batched_getrf_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                     void* const* A_array, int64_t lda, int32_t* const* ipiv_array, int32_t* info,
                                     int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Getrf;
    call.operands = {.form = BatchForm::Pointers,
                     .n = n,
                     .batch = batch,
                     .A_array = A_array,
                     .lda = lda,
                     .ipiv_array = ipiv_array,
                     .info = info};
    rt::solve("tdls_batched_getrf_ptr", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_getrf_ptr")

tdls_status_t tdls_batched_getrs_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout, int64_t n,
                                     int64_t nrhs, const void* const* A_array, int64_t lda,
                                     const int32_t* const* ipiv_array, void* const* B_array, int64_t ldb,
                                     int64_t batch) try {
    BatchCall call;
    call.operation = Operation::Getrs;
    // getrs never writes A or the pivots: the kernels take them as const.
    call.operands = {.form = BatchForm::Pointers,
                     .n = n,
                     .nrhs = nrhs,
                     .batch = batch,
                     .A_array = const_cast<void* const*>(A_array),
                     .lda = lda,
                     .ipiv_array = const_cast<std::int32_t* const*>(ipiv_array),
                     .B_array = B_array,
                     .ldb = ldb};
    rt::solve("tdls_batched_getrs_ptr", handle, dtype, layout, call);
    return TDLS_SUCCESS;
}
TDLS_GUARD("tdls_batched_getrs_ptr")

} // extern "C"
