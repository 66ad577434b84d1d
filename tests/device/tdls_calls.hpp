// Issues a case's call to libtdls, wherever its buffers live: the same
// function runs the CPU backend on host images and the CUDA backend on
// device copies, so both see the identical argument list.
#pragma once

#include <cstdint>
#include <vector>

#include <tdls/tdls.h>

#include "dtypes.hpp"

#include "geometry.hpp"

namespace tdls_device {

/// A case's buffers in one address space (host or device): their starts,
/// and for the pointer form the arrays of system addresses, which must live
/// in that same space.
struct Operands {
    void* a = nullptr;
    std::int32_t* ipiv = nullptr;
    void* b = nullptr;
    std::int32_t* info = nullptr;
    void* const* a_array = nullptr;
    std::int32_t* const* ipiv_array = nullptr;
    void* const* b_array = nullptr;
};

/// The addresses of every system of `map` in a buffer starting at `buffer`.
template <typename P>
std::vector<P*> system_addresses(const OperandMap& map, P* buffer, std::size_t element_bytes) {
    std::vector<P*> addresses(map.base.size());
    for (std::size_t s = 0; s < map.base.size(); ++s)
        addresses[s] =
            reinterpret_cast<P*>(reinterpret_cast<char*>(buffer) + std::size_t(map.base[s]) * element_bytes);
    return addresses;
}

/// Calls the case's entry point with handle h (NULL: the default context).
tdls_status_t call_tdls(tdls_handle_t h, const Case& c, const Geometry& g, const Operands& o);

/// tdls_batched_getrf on the strided geometry of c: how getrs cases get
/// their factors, from the CPU backend.
tdls_status_t call_getrf(tdls_handle_t h, const Case& c, const Geometry& g, const Operands& o);

} // namespace tdls_device
