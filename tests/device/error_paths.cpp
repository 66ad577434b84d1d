// The error paths on the device (see error_paths.hpp).
#include "error_paths.hpp"

#include "error_fixture.hpp"

namespace tdls_device {

std::string ErrorPathTotals::summary() const {
    return "error paths: " + std::to_string(passed) + "/" + std::to_string(run) + " passed; " +
           (all_passed() ? "PASS" : "FAIL");
}

ErrorPathTotals run_error_paths(const Context& context) {
    ErrorPathTotals totals;
    Checker checker(totals);
    std::printf("error paths:\n");
    Fixture f;
    const Case& c = f.c;
    const Geometry& g = f.g;
    const auto host_before = f.host;
    auto host_unchanged = [&] {
        std::string why;
        if (auto m = compare_bits("host A", host_before.a, f.host.a, g.a.owners())) why += explain(*m) + "; ";
        if (auto m = compare_bits("host B", host_before.b, f.host.b, g.b.owners())) why += explain(*m) + "; ";
        if (auto m = compare_bits("host ipiv", host_before.ipiv, f.host.ipiv, g.ipiv.owners()))
            why += explain(*m) + "; ";
        if (auto m = compare_bits("host info", host_before.info, f.host.info, g.info.owners()))
            why += explain(*m) + "; ";
        return why;
    };
    auto both_unchanged = [&] { return f.device_unchanged() + host_unchanged(); };
    auto gesv = [&](tdls_handle_t h, void* a, std::int64_t lda, std::int32_t* ipiv, void* b,
                    std::int32_t* info, std::int64_t n, std::int64_t batch) {
        forget_last_error();
        return tdls_batched_gesv(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, c.nrhs, a, lda, g.stride_a, ipiv,
                                 g.stride_ipiv, b, g.ldb, g.stride_b, info, batch);
    };
    const std::int64_t n = c.n, batch = c.batch;

    // (a) Operands in different places, through the default context.
    checker.expect("NULL handle, A on the device, B on the host -> INVALID_VALUE",
                   gesv(nullptr, f.dev_a(), g.lda, f.dev_ipiv(), f.host_b(), f.dev_info(), n, batch),
                   TDLS_ERROR_INVALID_VALUE, both_unchanged);
    checker.expect("NULL handle, A on the device, info on the host -> INVALID_VALUE",
                   gesv(nullptr, f.dev_a(), g.lda, f.dev_ipiv(), f.dev_b(), f.host_info(), n, batch),
                   TDLS_ERROR_INVALID_VALUE, both_unchanged);
    checker.expect("NULL handle, A on the host, B on the device -> INVALID_VALUE",
                   gesv(nullptr, f.host_a(), g.lda, f.host_ipiv(), f.dev_b(), f.host_info(), n, batch),
                   TDLS_ERROR_INVALID_VALUE, both_unchanged);

    // (b) Host memory given to the CUDA handle.
    checker.expect("CUDA handle, every operand on the host -> INVALID_VALUE",
                   gesv(context.cuda, f.host_a(), g.lda, f.host_ipiv(), f.host_b(), f.host_info(), n, batch),
                   TDLS_ERROR_INVALID_VALUE, host_unchanged);
    checker.expect("CPU handle, every operand on the device -> INVALID_VALUE",
                   gesv(context.cpu, f.dev_a(), g.lda, f.dev_ipiv(), f.dev_b(), f.dev_info(), n, batch),
                   TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });

    // (c) An invalid argument with device operands, through each entry point.
    for (tdls_handle_t h : {context.cuda, tdls_handle_t(nullptr)}) {
        const std::string who = h ? "CUDA handle" : "NULL handle";
        checker.expect(who + ", gesv with lda = n - 1 -> INVALID_VALUE",
                       gesv(h, f.dev_a(), n - 1, f.dev_ipiv(), f.dev_b(), f.dev_info(), n, batch),
                       TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });
        forget_last_error();
        checker.expect(who + ", getrf with lda = n - 1 -> INVALID_VALUE",
                       tdls_batched_getrf(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, f.dev_a(), n - 1, g.stride_a,
                                          f.dev_ipiv(), g.stride_ipiv, f.dev_info(), batch),
                       TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });
        forget_last_error();
        checker.expect(who + ", getrs with lda = n - 1 -> INVALID_VALUE",
                       tdls_batched_getrs(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, c.nrhs, f.dev_a(), n - 1,
                                          g.stride_a, f.dev_ipiv(), g.stride_ipiv, f.dev_b(), g.ldb,
                                          g.stride_b, batch),
                       TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });
        forget_last_error();
        checker.expect(who + ", interleaved with block = 0 -> INVALID_VALUE",
                       tdls_batched_gesv_interleaved(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, c.nrhs, f.dev_a(),
                                                     f.dev_ipiv(), f.dev_b(), f.dev_info(), batch, 0),
                       TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });
        {
            const DeviceMemory a_array = to_device(system_addresses(g.a, f.a.get(), 8));
            const DeviceMemory ipiv_array = to_device(system_addresses(g.ipiv, f.ipiv.as<std::int32_t>(), 4));
            const DeviceMemory b_array = to_device(system_addresses(g.b, f.b.get(), 8));
            forget_last_error();
            checker.expect(who + ", pointer arrays with lda = n - 1 -> INVALID_VALUE",
                           tdls_batched_gesv_ptr(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, c.nrhs,
                                                 a_array.as<void* const>(), n - 1,
                                                 ipiv_array.as<std::int32_t* const>(),
                                                 b_array.as<void* const>(), g.ldb, f.dev_info(), batch),
                           TDLS_ERROR_INVALID_VALUE, [&] { return f.device_unchanged(); });
        }
    }

    // (d) The quick returns on the device.
    for (tdls_handle_t h : {context.cuda, tdls_handle_t(nullptr)}) {
        const std::string who = h ? "CUDA handle" : "NULL handle";
        if (h) (void)tdls_set_stream(h, context.streams[0]);
        checker.expect(who + ", n = 0, batch = " + std::to_string(batch) + " -> SUCCESS, every info 0",
                       gesv(h, f.dev_a(), 1, f.dev_ipiv(), f.dev_b(), f.dev_info(), 0, batch), TDLS_SUCCESS,
                       [&] {
                           if (h) TDLS_DEVICE_CUDA(cudaStreamSynchronize(context.streams[0]));
                           std::vector<std::int32_t> info = to_host<std::int32_t>(f.info);
                           for (std::int64_t s = 0; s < batch; ++s)
                               if (info[std::size_t(g.info.at(s, 0, 0))] != 0)
                                   return "info[" + std::to_string(s) +
                                          "] = " + std::to_string(info[std::size_t(g.info.at(s, 0, 0))]) +
                                          ", expected 0";
                           // Put the input back for the checks that follow.
                           f.info = to_device(f.host.info);
                           return std::string();
                       });
        checker.expect(who + ", batch = 0 -> SUCCESS, nothing touched",
                       gesv(h, f.dev_a(), g.lda, f.dev_ipiv(), f.dev_b(), f.dev_info(), n, 0), TDLS_SUCCESS,
                       [&] { return f.device_unchanged(); });
    }

    // (e) Faults only the device can see, one verdict per system.
    check_device_side_verdicts(context, checker);

    // The handle calls around a stream.
    forget_last_error();
    checker.expect("tdls_set_stream on the NULL handle -> INVALID_HANDLE",
                   tdls_set_stream(nullptr, context.streams[0]), TDLS_ERROR_INVALID_HANDLE);
    tdls_backend_t backend = TDLS_BACKEND_AUTO;
    const tdls_status_t got = tdls_get_backend(context.cuda, &backend);
    checker.expect(
        "tdls_get_backend on the CUDA handle -> SUCCESS, TDLS_BACKEND_CUDA", got, TDLS_SUCCESS, [&] {
            return backend == TDLS_BACKEND_CUDA ? std::string() : "backend " + std::to_string(int(backend));
        });
    return totals;
}

} // namespace tdls_device
