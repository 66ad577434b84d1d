// libtdls: handing a call to a GPU plugin (see gpu_backend.hpp).
#include "gpu_backend.hpp"

#include "handle.hpp"
#include "loader.hpp"
#include "status.hpp"

namespace tdls::runtime::gpu {

namespace {

int form_of(kernels::BatchForm form) {
    switch (form) {
    case kernels::BatchForm::Pointers:
        return TDLS_PLUGIN_POINTERS;
    case kernels::BatchForm::Interleaved:
        return TDLS_PLUGIN_INTERLEAVED;
    case kernels::BatchForm::Strided:
        break;
    }
    return TDLS_PLUGIN_STRIDED;
}

int operation_of(kernels::Operation operation) {
    switch (operation) {
    case kernels::Operation::Getrf:
        return TDLS_PLUGIN_GETRF;
    case kernels::Operation::Getrs:
        return TDLS_PLUGIN_GETRS;
    case kernels::Operation::Solve:
        return TDLS_PLUGIN_SOLVE;
    case kernels::Operation::Gesv:
        break;
    }
    return TDLS_PLUGIN_GESV;
}

} // namespace

void run(const char* function, tdls_backend_t backend, int device, tdls_dtype_t dtype,
         const kernels::BatchCall& call, const Context& context) {
    const kernels::BatchOperands& o = call.operands;
    tdls_plugin_call c{};
    c.operation = operation_of(call.operation);
    c.dtype = dtype;
    c.row_major = o.row_major ? 1 : 0;
    c.form = form_of(o.form);
    c.n = o.n;
    c.nrhs = o.nrhs;
    c.batch = o.batch;
    c.A = o.A;
    c.A_array = o.A_array;
    c.lda = o.lda;
    c.strideA = o.strideA;
    c.ipiv = o.ipiv;
    c.ipiv_array = o.ipiv_array;
    c.strideIpiv = o.strideIpiv;
    c.B = o.B;
    c.B_array = o.B_array;
    c.ldb = o.ldb;
    c.strideB = o.strideB;
    c.info = o.info;
    c.block = o.block;
    c.pivot_threshold = call.pivot_threshold;
    c.device = device;
    c.stream = context.stream;

    const plugin::Plugin& p = plugin::plugin(backend);
    char message[512] = {};
    const int status = p.table->solve(&c, message, sizeof message);
    message[sizeof message - 1] = '\0';
    if (status == TDLS_SUCCESS) return;
    const bool known = status > TDLS_SUCCESS && status <= TDLS_ERROR_INTERNAL;
    fail(known ? tdls_status_t(status) : TDLS_ERROR_INTERNAL, function, p.table->name, " backend: ",
         message[0] != '\0' ? message : "the plugin gave no reason");
}

} // namespace tdls::runtime::gpu
