// libtdls: the table of live handles.
#include "handle.hpp"

#include <cmath>
#include <mutex>
#include <unordered_set>

#include "backends/cpu/arena.hpp"
#include "status.hpp"

struct tdls_handle_st {
    tdls::runtime::Context context; // context.arena holds the handle's workers
};

namespace tdls::runtime {

namespace {

/// Handles are looked up by address, never dereferenced before they are found
/// here, so a dangling handle is detected instead of read.
struct HandleTable {
    std::mutex mutex;
    std::unordered_set<tdls_handle_t> live;
};

HandleTable& table() {
    static HandleTable instance; // constructed on first use, thread-safe
    return instance;
}

[[noreturn]] void invalid_handle(const char* function, tdls_handle_t handle) {
    fail(TDLS_ERROR_INVALID_HANDLE, function, "handle (", static_cast<const void*>(handle),
         ") was destroyed or never created");
}

/// Runs change(handle) under the table's lock, after checking the handle.
template <typename Change>
void modify(const char* function, tdls_handle_t handle, Change&& change) {
    if (handle == nullptr)
        fail(TDLS_ERROR_INVALID_HANDLE, function,
             "the default context (NULL handle) cannot be changed; create a handle with tdls_create");
    HandleTable& handles = table();
    std::lock_guard lock(handles.mutex);
    if (!handles.live.count(handle)) invalid_handle(function, handle);
    change(*handle);
}

} // namespace

Context context_of(const char* function, tdls_handle_t handle) {
    if (handle == nullptr) return Context{};
    HandleTable& handles = table();
    std::lock_guard lock(handles.mutex);
    if (!handles.live.count(handle)) invalid_handle(function, handle);
    return handle->context;
}

tdls_handle_t create_handle(tdls_backend_t backend, int device) {
    auto handle = std::make_unique<tdls_handle_st>();
    handle->context.backend = backend;
    handle->context.device = device;
    HandleTable& handles = table();
    std::lock_guard lock(handles.mutex);
    handles.live.insert(handle.get());
    return handle.release();
}

void destroy_handle(const char* function, tdls_handle_t handle) {
    if (handle == nullptr) return;
    {
        HandleTable& handles = table();
        std::lock_guard lock(handles.mutex);
        if (!handles.live.erase(handle)) invalid_handle(function, handle);
    }
    delete handle;
}

void set_stream(const char* function, tdls_handle_t handle, void* stream) {
    modify(function, handle, [&](tdls_handle_st& h) {
        // AUTO keeps the stream for the calls it sends to a GPU backend.
        if (stream != nullptr && h.context.backend == TDLS_BACKEND_CPU)
            fail(TDLS_ERROR_NOT_SUPPORTED, function, "stream (", stream,
                 ") given to a CPU handle, which has no streams; only NULL is accepted");
        h.context.stream = stream;
    });
}

void set_pivot_threshold(const char* function, tdls_handle_t handle, double tau) {
    modify(function, handle, [&](tdls_handle_st& h) {
        if (!(tau > 0.0 && tau <= 1.0))
            fail(TDLS_ERROR_INVALID_VALUE, function, "tau (", tau, ") outside (0, 1]");
        h.context.pivot_threshold = tau;
    });
}

void set_num_threads(const char* function, tdls_handle_t handle, int threads) {
    modify(function, handle, [&](tdls_handle_st& h) {
        if (threads < 0) fail(TDLS_ERROR_INVALID_VALUE, function, "threads (", threads, ") < 0");
        std::shared_ptr<cpu::Arena>& arena = h.context.arena;
        if (threads == 0) {
            arena.reset();
        } else if (!arena || arena->threads() != threads) {
            arena = std::make_shared<cpu::Arena>(threads);
        }
        h.context.cpu_threads = threads;
    });
}

} // namespace tdls::runtime
