// libtdls through its C ABI, one adapter per batch form.
#pragma once

#include <memory>

#include <tdls/tdls.h>

#include "batch.hpp"
#include "options.hpp"
#include "solver.hpp"

namespace bench {

/// tdls_batched_gesv (strided), _ptr (pointer arrays into the same strided
/// storage) or _interleaved (batch->storage.interleaved) on `batch`, in place;
/// or the same form of tdls_batched_solve (op solve), A read-only.
/// `handle` may be null, with `why` saying why the backend is unavailable.
template <typename T>
std::unique_ptr<Solver> make_tdls_solver(tdls_handle_t handle, const std::string& why,
                                         std::shared_ptr<HostBatch<T>> batch, Form form, Op op);

} // namespace bench
