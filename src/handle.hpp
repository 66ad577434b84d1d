// libtdls: handles. A handle records the caller's choices (backend, device,
// stream, pivot threshold, CPU threads); the NULL handle is the library's
// default context. Live handles are kept in a table, so that a destroyed or
// invented handle is refused (TDLS_ERROR_INVALID_HANDLE) without being read.
#pragma once

#include <memory>

#include <tdls/tdls.h>

namespace tdls::runtime {

namespace cpu {
class Arena; // src/backends/cpu/arena.hpp
}

/// What a call needs to know of its handle, copied out under the table's lock.
struct Context {
    tdls_backend_t backend = TDLS_BACKEND_AUTO;
    int device = 0;
    void* stream = nullptr;
    double pivot_threshold = 1.0;
    int cpu_threads = 0;         ///< 0: every oneTBB worker
    /// The handle's workers; null: every worker. Shared, so that a call in
    /// flight keeps its arena even if another thread destroys the handle or
    /// changes its thread count meanwhile (a contract violation, but one that
    /// must not free memory under a running call).
    std::shared_ptr<cpu::Arena> arena;
};

/// The context of a compute call: the handle's, or the default one for NULL.
Context context_of(const char* function, tdls_handle_t handle);

/// Creates a handle (backend checked by the caller).
tdls_handle_t create_handle(tdls_backend_t backend, int device);
/// Destroys a live handle; throws INVALID_HANDLE for any other.
void destroy_handle(const char* function, tdls_handle_t handle);

/// Setters: throw INVALID_HANDLE for NULL (the default context is fixed) or a
/// dead handle, INVALID_VALUE / NOT_SUPPORTED for the value.
void set_stream(const char* function, tdls_handle_t handle, void* stream);
void set_pivot_threshold(const char* function, tdls_handle_t handle, double tau);
void set_num_threads(const char* function, tdls_handle_t handle, int threads);

} // namespace tdls::runtime
