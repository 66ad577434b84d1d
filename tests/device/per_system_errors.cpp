// Faults the library can only find on the device (tdls.h: the host never
// reads device operands): a NULL entry of a device pointer array, and a getrs
// pivot outside 1..n. Each is a verdict of its own system: that system is
// left untouched (info = -1 for the pointer array), and every other system of
// the batch is solved exactly as the CPU backend solves it.
#include <initializer_list>

#include "error_fixture.hpp"

namespace tdls_device {

namespace {

std::vector<std::uint8_t> marked(std::int64_t batch, std::initializer_list<std::int64_t> systems) {
    std::vector<std::uint8_t> mark(std::size_t(batch), 0);
    for (std::int64_t s : systems) mark[std::size_t(s)] = 1;
    return mark;
}

std::vector<std::uint8_t> others(const std::vector<std::uint8_t>& mark) {
    std::vector<std::uint8_t> rest(mark.size());
    for (std::size_t s = 0; s < mark.size(); ++s) rest[s] = !mark[s];
    return rest;
}

/// Appends to `why` unless the buffer fetched from `memory` holds `before`
/// in the faulty systems and the padding, and `solved` in the others.
template <typename E>
void expect_systems(std::string& why, const char* name, const DeviceMemory& memory, const OperandMap& map,
                    const std::vector<E>& before, const std::vector<E>& solved,
                    const std::vector<std::uint8_t>& faulty,
                    const std::vector<std::uint8_t>* nan_equal = nullptr) {
    const std::vector<E> after = to_host<E>(memory);
    const std::vector<std::int32_t> owners = map.owners();
    const std::vector<std::uint8_t> regular = others(faulty);
    Scope untouched;
    untouched.systems = &faulty;
    Scope as_cpu;
    as_cpu.padding = false;
    as_cpu.systems = &regular;
    as_cpu.nan_equal = nan_equal;
    if (auto m = compare_bits(name, before, after, owners, untouched))
        why += "untouched part: " + explain(*m) + "; ";
    if (auto m = compare_bits(name, solved, after, owners, as_cpu))
        why += "solved part: " + explain(*m) + "; ";
}

} // namespace

void check_device_side_verdicts(const Context& context, Checker& checker) {
    for (tdls_handle_t h : {context.cuda, tdls_handle_t(nullptr)}) {
        const std::string who = h ? "CUDA handle" : "NULL handle";
        if (h) (void)tdls_set_stream(h, context.streams[1]);

        // NULL entries of device pointer arrays, one per array.
        {
            Fixture f;
            const Case& c = f.c;
            const Geometry& g = f.g;
            constexpr std::int64_t null_a = 2, null_ipiv = 3, null_b = 4;
            Images<double> reference = f.host;
            const tdls_status_t cpu_status = tdls_batched_gesv(
                context.cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, c.n, c.nrhs, reference.a.data() + g.a.origin,
                g.lda, g.stride_a, reference.ipiv.data() + g.ipiv.origin, g.stride_ipiv,
                reference.b.data() + g.b.origin, g.ldb, g.stride_b, reference.info.data() + g.info.origin,
                c.batch);
            std::vector<void*> a_entries = system_addresses(g.a, f.a.get(), 8);
            std::vector<std::int32_t*> ipiv_entries = system_addresses(g.ipiv, f.ipiv.as<std::int32_t>(), 4);
            std::vector<void*> b_entries = system_addresses(g.b, f.b.get(), 8);
            a_entries[null_a] = nullptr;
            ipiv_entries[null_ipiv] = nullptr;
            b_entries[null_b] = nullptr;
            const DeviceMemory a_array = to_device(a_entries), ipiv_array = to_device(ipiv_entries);
            const DeviceMemory b_array = to_device(b_entries);
            TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
            forget_last_error();
            const tdls_status_t status =
                tdls_batched_gesv_ptr(h, TDLS_FLOAT64, TDLS_COL_MAJOR, c.n, c.nrhs, a_array.as<void* const>(),
                                      g.lda, ipiv_array.as<std::int32_t* const>(), b_array.as<void* const>(),
                                      g.ldb, f.dev_info(), c.batch);
            checker.expect(
                who + ", pointer arrays with a NULL entry for A, ipiv and B (systems 2, 3, 4) -> "
                      "SUCCESS, info -1 and nothing touched there, the other systems solved",
                status, TDLS_SUCCESS, [&] {
                    if (cpu_status != TDLS_SUCCESS) return "the CPU reference failed: " + last_error_text();
                    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
                    const std::vector<std::uint8_t> faulty = marked(c.batch, {null_a, null_ipiv, null_b});
                    std::string why;
                    const std::vector<std::int32_t> info = to_host<std::int32_t>(f.info);
                    for (std::int64_t s : {null_a, null_ipiv, null_b})
                        if (info[std::size_t(g.info.at(s, 0, 0))] != -1)
                            why += "info[" + std::to_string(s) +
                                   "] = " + std::to_string(info[std::size_t(g.info.at(s, 0, 0))]) +
                                   ", expected -1; ";
                    expect_systems(why, "A", f.a, g.a, f.host.a, reference.a, faulty);
                    expect_systems(why, "ipiv", f.ipiv, g.ipiv, f.host.ipiv, reference.ipiv, faulty);
                    expect_systems(why, "B", f.b, g.b, f.host.b, reference.b, faulty);
                    // info of the faulty systems was checked above.
                    std::vector<std::int32_t> expected_info = reference.info;
                    for (std::int64_t s : {null_a, null_ipiv, null_b})
                        expected_info[std::size_t(g.info.at(s, 0, 0))] = -1;
                    expect_systems(why, "info", f.info, g.info, expected_info, reference.info, faulty);
                    return why;
                });
        }

        // getrs with pivots outside 1..n in two systems.
        {
            Fixture f;
            const Case& c = f.c;
            const Geometry& g = f.g;
            constexpr std::int64_t low_pivot = 1, high_pivot = 5;
            Images<double> factored = f.host;
            tdls_status_t cpu_status = tdls_batched_getrf(context.cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, c.n,
                                                          factored.a.data() + g.a.origin, g.lda, g.stride_a,
                                                          factored.ipiv.data() + g.ipiv.origin, g.stride_ipiv,
                                                          factored.info.data() + g.info.origin, c.batch);
            Images<double> reference = factored;
            if (cpu_status == TDLS_SUCCESS)
                cpu_status = tdls_batched_getrs(context.cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, c.n, c.nrhs,
                                                reference.a.data() + g.a.origin, g.lda, g.stride_a,
                                                reference.ipiv.data() + g.ipiv.origin, g.stride_ipiv,
                                                reference.b.data() + g.b.origin, g.ldb, g.stride_b, c.batch);
            factored.ipiv[std::size_t(g.ipiv.at(low_pivot, 0, 0))] = 0;
            factored.ipiv[std::size_t(g.ipiv.at(high_pivot, c.n - 1, 0))] = std::int32_t(c.n + 1);
            f.host = factored;
            f.a = to_device(f.host.a);
            f.ipiv = to_device(f.host.ipiv);
            f.b = to_device(f.host.b);
            TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
            forget_last_error();
            const tdls_status_t status =
                tdls_batched_getrs(h, TDLS_FLOAT64, TDLS_COL_MAJOR, c.n, c.nrhs, f.dev_a(), g.lda, g.stride_a,
                                   f.dev_ipiv(), g.stride_ipiv, f.dev_b(), g.ldb, g.stride_b, c.batch);
            checker.expect(
                who + ", getrs with a pivot 0 (system 1) and n + 1 (system 5) -> SUCCESS, those "
                      "systems untouched, the others solved",
                status, TDLS_SUCCESS, [&] {
                    if (cpu_status != TDLS_SUCCESS) return "the CPU reference failed: " + last_error_text();
                    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
                    const std::vector<std::uint8_t> faulty = marked(c.batch, {low_pivot, high_pivot});
                    // System 6 is singular: its solution holds
                    // infinities or NaNs, whose payloads differ.
                    const std::vector<std::uint8_t> singular = marked(c.batch, {6});
                    std::string why;
                    if (auto m = compare_bits("A", f.host.a, to_host<double>(f.a), g.a.owners()))
                        why += "getrs changed A: " + explain(*m) + "; ";
                    if (auto m =
                            compare_bits("ipiv", f.host.ipiv, to_host<std::int32_t>(f.ipiv), g.ipiv.owners()))
                        why += "getrs changed ipiv: " + explain(*m) + "; ";
                    expect_systems(why, "B", f.b, g.b, f.host.b, reference.b, faulty, &singular);
                    return why;
                });
        }
    }
}

} // namespace tdls_device
