// The four MAGMA routines over libtdls, one template each (T: float,
// double, tdls::complex_float, tdls::complex_double). Each returns a
// Verdict: the MAGMA code of a call libtdls served or refused, or that
// libtdls does not serve it, which the entry point forwards (a queue call)
// or fails (a host call); nothing is touched in that case.
#pragma once

#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "common/scalar_type.hpp"
#include "int_width.hpp"
#include "queue.hpp"

namespace tdls::magma {

struct Verdict {
    magma_int_t code = MAGMA_SUCCESS;
    bool served = true;
    std::string why_not; // when not served
};

inline Verdict answer(magma_int_t code) {
    return {code, true, {}};
}

template <typename... Parts>
Verdict unserved(const Parts&... parts) {
    std::ostringstream why;
    (why << ... << parts);
    return {MAGMA_ERR, false, why.str()};
}

template <typename T>
void* const* untyped(T* const* array) {
    return reinterpret_cast<void* const*>(array);
}

/// A call on MAGMA's queue through a GPU handle on the queue's stream.
/// Anything that stops it before it is enqueued (libtdls_magma64, no MAGMA
/// getters, no plugin / runtime / device, an order the backend does not
/// take) leaves it unserved, to be forwarded; the handle can be destroyed
/// right after the launch, which keeps nothing of it.
/// Whether a served queue call returns after magma_queue_sync, as MAGMA's
/// own routine does (gesv_batched, getrf_batched, getrs_batched) or once
/// enqueued (gesv_batched_small).
enum class Completion { Synced, Enqueued };

template <typename Launch>
Verdict on_queue(magma_queue_t queue, Completion completion, Launch&& launch) {
    if constexpr (!ints_pass_through) {
        return unserved("libtdls_magma64 serves host arrays only (widening int32 pivots on the device needs a "
                        "kernel libtdls does not have)");
    } else {
        const QueueTarget target = read_queue(queue);
        if (!target.readable) return unserved("MAGMA's queue getters are not in this process");
        tdls_handle_t handle = nullptr;
        if (tdls_create(&handle, target.backend, target.device) != TDLS_SUCCESS)
            return unserved("libtdls's GPU backend: ", tdls_last_error());
        tdls_status_t status = tdls_set_stream(handle, target.stream);
        if (status == TDLS_SUCCESS) status = launch(handle);
        const std::string message = status == TDLS_SUCCESS ? std::string() : tdls_last_error();
        tdls_destroy(handle);
        if (status == TDLS_ERROR_NOT_SUPPORTED || status == TDLS_ERROR_BACKEND_UNAVAILABLE)
            return unserved("libtdls's GPU backend: ", message);
        if (status == TDLS_SUCCESS && completion == Completion::Synced && target.sync != nullptr)
            target.sync(queue, "libtdls_magma", __FILE__, __LINE__);
        return answer(code_of(status));
    }
}

/// The process's CPU handle of libtdls for host calls: a NULL handle would
/// be backend AUTO, which sends pointer arrays in managed memory to a GPU,
/// asynchronously, where the contract promises the CPU and a finished call.
/// Created once and kept (handles serve concurrent calls); nullptr when
/// creation failed.
inline tdls_handle_t cpu_handle() {
    static const tdls_handle_t handle = [] {
        tdls_handle_t h = nullptr;
        return tdls_create(&h, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS ? h : nullptr;
    }();
    return handle;
}

/// A host call (Run: tdls_handle_t -> tdls_status_t) on the CPU handle:
/// libtdls's statuses as MAGMA codes, std::bad_alloc from the shim's own
/// scratch as MAGMA_ERR_HOST_ALLOC.
template <typename Run>
Verdict on_host(Run&& run) try {
    const tdls_handle_t cpu = cpu_handle();
    if (cpu == nullptr) return answer(MAGMA_ERR_HOST_ALLOC);
    return answer(code_of(run(cpu)));
} catch (const std::bad_alloc&) {
    return answer(MAGMA_ERR_HOST_ALLOC);
}

/// magma_?gesv_batched and magma_?gesv_batched_small, once their scalars
/// were checked (each routine its own way).
template <typename T>
Verdict gesv(ScalarVerdict scalars, Completion completion, magma_int_t n, magma_int_t nrhs, T** A, magma_int_t ldda,
             magma_int_t** ipiv, T** B, magma_int_t lddb, magma_int_t* info, magma_int_t batch,
             magma_queue_t queue) {
    if (scalars.code != 0 || scalars.quick) return answer(scalars.code);
    constexpr tdls_dtype_t dtype = kernels::dtype_of<T>;
    if (queue != nullptr) {
        // Device pointer arrays cannot be read here: the GPU backend checks them.
        if (n > TDLS_MAX_ORDER) return unserved("n (", n, ") above libtdls's ", TDLS_MAX_ORDER);
        return on_queue(queue, completion, [&](tdls_handle_t handle) {
            return tdls_batched_gesv_ptr(handle, dtype, TDLS_COL_MAJOR, n, nrhs, untyped(A), ldda,
                                         reinterpret_cast<std::int32_t* const*>(ipiv), untyped(B), lddb,
                                         reinterpret_cast<std::int32_t*>(info), batch);
        });
    }
    if (const magma_int_t code = check_host_arrays(gesv_arrays, A, ipiv, B, info, batch)) return answer(code);
    if (n > TDLS_MAX_ORDER) return unserved("n (", n, ") above libtdls's ", TDLS_MAX_ORDER, " on the host");
    return on_host([&](tdls_handle_t cpu) {
        OutputInts ints(n, batch, ipiv, info);
        const tdls_status_t status = tdls_batched_gesv_ptr(cpu, dtype, TDLS_COL_MAJOR, n, nrhs, untyped(A),
                                                           ldda, ints.pivots(), untyped(B), lddb,
                                                           ints.verdicts(), batch);
        if (status == TDLS_SUCCESS) ints.commit();
        return status;
    });
}

/// magma_?getrf_batched: libtdls factors square matrices.
template <typename T>
Verdict getrf(magma_int_t m, magma_int_t n, T** A, magma_int_t ldda, magma_int_t** ipiv, magma_int_t* info,
              magma_int_t batch, magma_queue_t queue) {
    const ScalarVerdict scalars = check_getrf(m, n, ldda, batch);
    if (scalars.code != 0 || scalars.quick) return answer(scalars.code);
    constexpr tdls_dtype_t dtype = kernels::dtype_of<T>;
    if (queue == nullptr) {
        if (const magma_int_t code = check_host_arrays(getrf_arrays, A, ipiv, static_cast<T**>(nullptr), info, batch))
            return answer(code);
    }
    if (m != n) return unserved("a rectangular matrix (m = ", m, ", n = ", n, "): libtdls factors square ones");
    if (n > TDLS_MAX_ORDER) return unserved("n (", n, ") above libtdls's ", TDLS_MAX_ORDER);
    if (queue != nullptr)
        return on_queue(queue, Completion::Synced, [&](tdls_handle_t handle) {
            return tdls_batched_getrf_ptr(handle, dtype, TDLS_COL_MAJOR, n, untyped(A), ldda,
                                          reinterpret_cast<std::int32_t* const*>(ipiv),
                                          reinterpret_cast<std::int32_t*>(info), batch);
        });
    return on_host([&](tdls_handle_t cpu) {
        OutputInts ints(n, batch, ipiv, info);
        const tdls_status_t status = tdls_batched_getrf_ptr(cpu, dtype, TDLS_COL_MAJOR, n, untyped(A), ldda,
                                                            ints.pivots(), ints.verdicts(), batch);
        if (status == TDLS_SUCCESS) ints.commit();
        return status;
    });
}

/// Right-hand sides of a transposed solve in the shim's own row-major
/// scratch (system s: n rows of nrhs, ldb = nrhs), so that libtdls's
/// row-major getrs, which solves with the transpose of the matrix whose
/// column-major factors it reads, solves A^T X = B on MAGMA's column-major
/// B. Conjugated on the way in and out for A^H X = B (conj(A^T conj(X)) =
/// A^H X). The caller's B is written only by commit(), after success.
template <typename T>
class TransposedRhs {
  public:
    TransposedRhs(magma_int_t n, magma_int_t nrhs, T* const* B, magma_int_t lddb, magma_int_t batch, bool conjugate)
        : n_(std::size_t(n)), nrhs_(std::size_t(nrhs)), lddb_(std::size_t(lddb)), conjugate_(conjugate),
          destinations_(B, B + batch) {
        std::size_t per_system = 0, total = 0;
        if (__builtin_mul_overflow(n_, nrhs_, &per_system) ||
            __builtin_mul_overflow(per_system, std::size_t(batch), &total))
            throw std::bad_alloc();
        scratch_.resize(total);
        for (std::size_t s = 0; s < destinations_.size(); ++s) {
            T* to = scratch_.data() + s * per_system;
            arrays_.push_back(to);
            for (std::size_t k = 0; k < nrhs_; ++k)
                for (std::size_t i = 0; i < n_; ++i) to[i * nrhs_ + k] = flip(destinations_[s][i + k * lddb_]);
        }
    }

    void* const* arrays() const { return reinterpret_cast<void* const*>(arrays_.data()); }

    void commit() const {
        for (std::size_t s = 0; s < destinations_.size(); ++s)
            for (std::size_t k = 0; k < nrhs_; ++k)
                for (std::size_t i = 0; i < n_; ++i)
                    destinations_[s][i + k * lddb_] = flip(arrays_[s][i * nrhs_ + k]);
    }

  private:
    T flip(const T& v) const {
        if constexpr (is_complex_scalar_v<T>) return conjugate_ ? std::conj(v) : v;
        return v;
    }

    std::size_t n_, nrhs_, lddb_;
    bool conjugate_;
    std::vector<T*> destinations_; // the caller's B_array, read once
    std::vector<T> scratch_;
    std::vector<T*> arrays_;
};

/// Whether one B of n x nrhs with leading dimension lddb spans fewer bytes
/// than INT64_MAX: ((nrhs - 1) * lddb + n) * sizeof(T), in checked arithmetic.
template <typename T>
bool addressable_b(magma_int_t n, magma_int_t nrhs, magma_int_t lddb) {
    std::int64_t elements = 0, bytes = 0;
    return !__builtin_mul_overflow(std::int64_t(nrhs) - 1, std::int64_t(lddb), &elements) &&
           !__builtin_add_overflow(elements, std::int64_t(n), &elements) &&
           !__builtin_mul_overflow(elements, std::int64_t(sizeof(T)), &bytes);
}

/// magma_?getrs_batched: every trans on the host; MagmaNoTrans on a queue.
template <typename T>
Verdict getrs(magma_trans_t trans, magma_int_t n, magma_int_t nrhs, T** A, magma_int_t ldda, magma_int_t** ipiv,
              T** B, magma_int_t lddb, magma_int_t batch, magma_queue_t queue) {
    const ScalarVerdict scalars = check_getrs(trans, n, nrhs, ldda, lddb, batch);
    if (scalars.code != 0 || scalars.quick) return answer(scalars.code);
    constexpr tdls_dtype_t dtype = kernels::dtype_of<T>;
    const auto factors = reinterpret_cast<const void* const*>(A);
    if (queue != nullptr) {
        if (n > TDLS_MAX_ORDER) return unserved("n (", n, ") above libtdls's ", TDLS_MAX_ORDER);
        if (trans != MagmaNoTrans) return unserved("a transposed solve on the device");
        return on_queue(queue, Completion::Synced, [&](tdls_handle_t handle) {
            return tdls_batched_getrs_ptr(handle, dtype, TDLS_COL_MAJOR, n, nrhs, factors, ldda,
                                          reinterpret_cast<const std::int32_t* const*>(ipiv), untyped(B), lddb,
                                          batch);
        });
    }
    if (const magma_int_t code = check_host_arrays(getrs_arrays, A, ipiv, B, nullptr, batch)) return answer(code);
    if (n > TDLS_MAX_ORDER) return unserved("n (", n, ") above libtdls's ", TDLS_MAX_ORDER, " on the host");
    return on_host([&](tdls_handle_t cpu) {
        const InputPivots pivots(n, batch, ipiv);
        if (trans == MagmaNoTrans)
            return tdls_batched_getrs_ptr(cpu, dtype, TDLS_COL_MAJOR, n, nrhs, factors, ldda, pivots.pivots(),
                                          untyped(B), lddb, batch);
        // libtdls sees the scratch, not lddb: the caller's B footprint is checked here,
        // as libtdls checks it for MagmaNoTrans (an lddb whose last column lies past
        // the address space is refused, not followed).
        if (!addressable_b<T>(n, nrhs, lddb)) return TDLS_ERROR_INVALID_VALUE;
        const TransposedRhs<T> rhs(n, nrhs, B, lddb, batch, trans == MagmaConjTrans);
        const tdls_status_t status = tdls_batched_getrs_ptr(cpu, dtype, TDLS_ROW_MAJOR, n, nrhs, factors, ldda,
                                                            pivots.pivots(), rhs.arrays(), nrhs, batch);
        if (status == TDLS_SUCCESS) rhs.commit();
        return status;
    });
}

} // namespace tdls::magma
