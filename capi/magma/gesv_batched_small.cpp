// magma_{s,d,c,z}gesv_batched_small over
// tdls_batched_gesv_ptr. Compiled twice: magma_int_t = int (libtdls_magma)
// and = long long (libtdls_magma64, MAGMA_ILP64). libtdls stores int32
// pivots and verdicts: the 32-bit build hands the caller's arrays through,
// the ILP64 build solves into int32 scratch and widens on success.
#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

#include "arguments.hpp"
#include "common/scalar_type.hpp"
#include "queue.hpp"

namespace tdls::magma {

namespace {

constexpr bool pivots_pass_through = std::is_same_v<magma_int_t, std::int32_t>;

/// Host arrays, checked: the CPU backend through the default context.
template <typename T>
magma_int_t solve_on_host(magma_int_t n, magma_int_t nrhs, T** A, magma_int_t ldda, magma_int_t** ipiv, T** B,
                          magma_int_t lddb, magma_int_t* info, magma_int_t batch) {
    void* const* A_array = reinterpret_cast<void* const*>(A);
    void* const* B_array = reinterpret_cast<void* const*>(B);
    if constexpr (pivots_pass_through) {
        return code_of(tdls_batched_gesv_ptr(nullptr, kernels::dtype_of<T>, TDLS_COL_MAJOR, n, nrhs, A_array, ldda,
                                             reinterpret_cast<std::int32_t* const*>(ipiv), B_array, lddb,
                                             reinterpret_cast<std::int32_t*>(info), batch));
    } else {
        // Scratch first: running out of memory leaves the operands untouched.
        // n * batch in checked arithmetic: a wrapped product would size the
        // scratch below what the solve writes.
        std::size_t pivot_count = 0;
        if (ipiv != nullptr && __builtin_mul_overflow(std::size_t(n), std::size_t(batch), &pivot_count))
            throw std::bad_alloc();
        std::vector<std::int32_t> pivots(pivot_count);
        std::vector<std::int32_t*> pivot_array(ipiv != nullptr ? std::size_t(batch) : 0);
        std::vector<std::int32_t> verdicts(static_cast<std::size_t>(batch));
        // The caller's pivot arrays are read once, now: the solve may write
        // over them (stored inside a B, which the contract forbids), and the
        // widening below would then follow garbage addresses.
        const std::vector<magma_int_t*> destinations(ipiv, ipiv != nullptr ? ipiv + batch : ipiv);
        for (std::size_t s = 0; s < pivot_array.size(); ++s)
            pivot_array[s] = pivots.data() + s * std::size_t(n);
        const tdls_status_t status = tdls_batched_gesv_ptr(
            nullptr, kernels::dtype_of<T>, TDLS_COL_MAJOR, n, nrhs, A_array, ldda,
            ipiv != nullptr ? pivot_array.data() : nullptr, B_array, lddb, verdicts.data(), batch);
        if (status != TDLS_SUCCESS) return code_of(status);
        for (magma_int_t s = 0; s < batch; ++s) {
            info[s] = verdicts[std::size_t(s)];
            if (ipiv != nullptr)
                for (magma_int_t i = 0; i < n; ++i) destinations[std::size_t(s)][i] = pivot_array[std::size_t(s)][i];
        }
        return MAGMA_SUCCESS;
    }
}

/// Device arrays of a MAGMA queue: on the queue's stream through a GPU
/// handle (the CUDA or HIP plugin). Where that backend is unavailable
/// tdls_create refuses (with its message) and nothing is touched. The call is
/// asynchronous, as MAGMA's; destroying the handle right after it is safe,
/// since a launch keeps nothing of the handle (its kernel argument is a copy
/// of the call).
template <typename T>
magma_int_t solve_on_queue(magma_int_t n, magma_int_t nrhs, T** A, magma_int_t ldda, magma_int_t** ipiv,
                           T** B, magma_int_t lddb, magma_int_t* info, magma_int_t batch,
                           magma_queue_t queue) {
    const QueueTarget target = read_queue(queue);
    if (!target.readable) return MAGMA_ERR;
    tdls_handle_t handle = nullptr;
    if (tdls_create(&handle, target.backend, target.device) != TDLS_SUCCESS) return MAGMA_ERR;
    tdls_status_t status = tdls_set_stream(handle, target.stream);
    if constexpr (pivots_pass_through) {
        if (status == TDLS_SUCCESS)
            status = tdls_batched_gesv_ptr(
                handle, kernels::dtype_of<T>, TDLS_COL_MAJOR, n, nrhs, reinterpret_cast<void* const*>(A), ldda,
                reinterpret_cast<std::int32_t* const*>(ipiv), reinterpret_cast<void* const*>(B), lddb,
                reinterpret_cast<std::int32_t*>(info), batch);
    } else {
        // Widening int32 pivots in device memory needs a kernel of the GPU
        // backend; the ILP64 shim refuses device arrays until it has one.
        if (status == TDLS_SUCCESS) status = TDLS_ERROR_NOT_SUPPORTED;
    }
    tdls_destroy(handle);
    return code_of(status);
}

template <typename T>
magma_int_t gesv_batched_small(magma_int_t n, magma_int_t nrhs, T** A, magma_int_t ldda, magma_int_t** ipiv,
                               T** B, magma_int_t lddb, magma_int_t* info, magma_int_t batch,
                               magma_queue_t queue) try {
    const ScalarVerdict scalars = check_scalars(n, nrhs, ldda, lddb, batch);
    if (scalars.code != 0 || scalars.quick) return scalars.code;
    // Device pointer arrays cannot be read here: the GPU backend checks them.
    if (queue != nullptr) return solve_on_queue(n, nrhs, A, ldda, ipiv, B, lddb, info, batch, queue);
    if (const magma_int_t code = check_host_arrays(A, ipiv, B, info, batch)) return code;
    if (n > TDLS_MAX_ORDER) return MAGMA_ERR;
    return solve_on_host(n, nrhs, A, ldda, ipiv, B, lddb, info, batch);
} catch (const std::bad_alloc&) {
    return MAGMA_ERR_HOST_ALLOC;
} catch (...) {
    return MAGMA_ERR;
}

} // namespace

} // namespace tdls::magma

extern "C" {

magma_int_t magma_sgesv_batched_small(magma_int_t n, magma_int_t nrhs, float** dA_array, magma_int_t ldda,
                                      magma_int_t** dipiv_array, float** dB_array, magma_int_t lddb,
                                      magma_int_t* dinfo_array, magma_int_t batchCount, magma_queue_t queue) {
    return tdls::magma::gesv_batched_small(n, nrhs, dA_array, ldda, dipiv_array, dB_array, lddb, dinfo_array,
                                           batchCount, queue);
}

magma_int_t magma_dgesv_batched_small(magma_int_t n, magma_int_t nrhs, double** dA_array, magma_int_t ldda,
                                      magma_int_t** dipiv_array, double** dB_array, magma_int_t lddb,
                                      magma_int_t* dinfo_array, magma_int_t batchCount, magma_queue_t queue) {
    return tdls::magma::gesv_batched_small(n, nrhs, dA_array, ldda, dipiv_array, dB_array, lddb, dinfo_array,
                                           batchCount, queue);
}

// MAGMA's complex types are two consecutive reals, as std::complex.
static_assert(sizeof(magmaFloatComplex) == sizeof(tdls::complex_float) &&
              sizeof(magmaDoubleComplex) == sizeof(tdls::complex_double));

magma_int_t magma_cgesv_batched_small(magma_int_t n, magma_int_t nrhs, magmaFloatComplex** dA_array,
                                      magma_int_t ldda, magma_int_t** dipiv_array, magmaFloatComplex** dB_array,
                                      magma_int_t lddb, magma_int_t* dinfo_array, magma_int_t batchCount,
                                      magma_queue_t queue) {
    return tdls::magma::gesv_batched_small(n, nrhs, reinterpret_cast<tdls::complex_float**>(dA_array), ldda,
                                           dipiv_array, reinterpret_cast<tdls::complex_float**>(dB_array), lddb,
                                           dinfo_array, batchCount, queue);
}

magma_int_t magma_zgesv_batched_small(magma_int_t n, magma_int_t nrhs, magmaDoubleComplex** dA_array,
                                      magma_int_t ldda, magma_int_t** dipiv_array, magmaDoubleComplex** dB_array,
                                      magma_int_t lddb, magma_int_t* dinfo_array, magma_int_t batchCount,
                                      magma_queue_t queue) {
    return tdls::magma::gesv_batched_small(n, nrhs, reinterpret_cast<tdls::complex_double**>(dA_array), ldda,
                                           dipiv_array, reinterpret_cast<tdls::complex_double**>(dB_array), lddb,
                                           dinfo_array, batchCount, queue);
}

} // extern "C"
