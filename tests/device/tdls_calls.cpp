// Issues a case's call to libtdls (see tdls_calls.hpp).
#include "tdls_calls.hpp"

namespace tdls_device {

namespace {

/// The element the strided and interleaved forms are handed.
template <typename P>
P* at_origin(P* buffer, const OperandMap& map, std::size_t bytes) {
    return reinterpret_cast<P*>(reinterpret_cast<char*>(buffer) + std::size_t(map.origin) * bytes);
}

} // namespace

tdls_status_t call_getrf(tdls_handle_t h, const Case& c, const Geometry& g, const Operands& o) {
    const std::size_t bytes = element_bytes(c.dtype);
    if (c.form == Form::pointers)
        return tdls_batched_getrf_ptr(h, c.dtype, c.layout, c.n, o.a_array, g.lda, o.ipiv_array,
                                      at_origin(o.info, g.info, 4), c.batch);
    return tdls_batched_getrf(h, c.dtype, c.layout, c.n, at_origin(o.a, g.a, bytes), g.lda, g.stride_a,
                              at_origin(o.ipiv, g.ipiv, 4), g.stride_ipiv, at_origin(o.info, g.info, 4),
                              c.batch);
}

tdls_status_t call_tdls(tdls_handle_t h, const Case& c, const Geometry& g, const Operands& o) {
    const std::size_t bytes = element_bytes(c.dtype);
    std::int32_t* info = at_origin(o.info, g.info, 4);
    switch (c.operation) {
    case Operation::getrf:
        return call_getrf(h, c, g, o);
    case Operation::getrs:
        if (c.form == Form::pointers)
            return tdls_batched_getrs_ptr(h, c.dtype, c.layout, c.n, c.nrhs,
                                          reinterpret_cast<const void* const*>(o.a_array), g.lda,
                                          reinterpret_cast<const std::int32_t* const*>(o.ipiv_array), o.b_array,
                                          g.ldb, c.batch);
        return tdls_batched_getrs(h, c.dtype, c.layout, c.n, c.nrhs, at_origin(o.a, g.a, bytes), g.lda,
                                  g.stride_a, at_origin(o.ipiv, g.ipiv, 4), g.stride_ipiv,
                                  at_origin(o.b, g.b, bytes), g.ldb, g.stride_b, c.batch);
    case Operation::gesv:
        break;
    }
    switch (c.form) {
    case Form::strided:
        return tdls_batched_gesv(h, c.dtype, c.layout, c.n, c.nrhs, at_origin(o.a, g.a, bytes), g.lda,
                                 g.stride_a, at_origin(o.ipiv, g.ipiv, 4), g.stride_ipiv,
                                 at_origin(o.b, g.b, bytes), g.ldb, g.stride_b, info, c.batch);
    case Form::pointers:
        return tdls_batched_gesv_ptr(h, c.dtype, c.layout, c.n, c.nrhs, o.a_array, g.lda, o.ipiv_array,
                                     o.b_array, g.ldb, info, c.batch);
    case Form::interleaved:
        return tdls_batched_gesv_interleaved(h, c.dtype, c.layout, c.n, c.nrhs, at_origin(o.a, g.a, bytes),
                                             at_origin(o.ipiv, g.ipiv, 4), at_origin(o.b, g.b, bytes), info,
                                             c.batch, c.block);
    }
    return TDLS_ERROR_INTERNAL;
}

} // namespace tdls_device
