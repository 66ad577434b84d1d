// One case of the sweep: the CPU backend on host images, the CUDA backend on
// device copies of the identical input, then every comparison and check.
// The checks are a pure function of the images (check_case), so that they
// can be tried on a machine without a GPU by handing them a second CPU run.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "checks.hpp"
#include "compare.hpp"
#include "context.hpp"
#include "gpu_run.hpp"
#include "images.hpp"
#include "negative_control.hpp"
#include "sweep_plan.hpp"
#include "tdls_calls.hpp"

namespace tdls_device {

/// Everything a case's checks look at.
template <typename T>
struct CaseData {
    Geometry g;
    Images<T> input;                    // what both backends were given
    std::vector<T> original_a;          // A before factoring: input.a, or for getrs the matrix it factored
    std::vector<std::uint8_t> singular; // per system: info > 0 expected (getrs: the factors' verdict)
    Images<T> cpu, gpu;                 // what each backend left
};

/// What one case leaves for the totals.
struct CaseOutcome {
    bool passed = true;
    bool refused = false; // refused by design (refused_by_design), as predicted
    BackwardErrors backward;
    NegativeControls controls; // run only when asked
};

using FailFunction = std::function<void(const std::string&)>;

/// The CPU backend's run of a case on host images: the reference.
template <typename T>
tdls_status_t run_on_cpu(tdls_handle_t cpu, const Case& c, const Geometry& g, Images<T>& image) {
    Operands operands{image.a.data(), image.ipiv.data(), image.b.data(), image.info.data()};
    const std::size_t bytes = element_bytes(c.dtype);
    const std::vector<void*> a_array = system_addresses(g.a, static_cast<void*>(image.a.data()), bytes);
    const std::vector<std::int32_t*> ipiv_array = system_addresses(g.ipiv, image.ipiv.data(), 4);
    const std::vector<void*> b_array = system_addresses(g.b, static_cast<void*>(image.b.data()), bytes);
    operands.a_array = a_array.data();
    operands.ipiv_array = ipiv_array.data();
    operands.b_array = b_array.data();
    return call_tdls(cpu, c, g, operands);
}

/// The input of a case and the CPU backend's results; false after `fail`.
/// getrs gets its factors and pivots from the CPU backend's getrf.
template <typename T>
bool prepare_case(tdls_handle_t cpu, const Case& c, std::uint64_t seed, CaseData<T>& data,
                  const FailFunction& fail) {
    data.g = make_geometry(c);
    const Geometry& g = data.g;
    data.input = make_input<T>(c, g, seed);
    data.original_a = data.input.a;
    data.singular.assign(std::size_t(c.batch), 0);
    if (c.operation == Operation::getrs) {
        std::vector<std::int32_t> verdicts = data.input.info;
        Operands host{data.input.a.data(), data.input.ipiv.data(), nullptr, verdicts.data()};
        const std::vector<void*> a_array =
            system_addresses(g.a, static_cast<void*>(data.input.a.data()), element_bytes(c.dtype));
        const std::vector<std::int32_t*> ipiv_array = system_addresses(g.ipiv, data.input.ipiv.data(), 4);
        host.a_array = a_array.data();
        host.ipiv_array = ipiv_array.data();
        if (call_getrf(cpu, c, g, host) != TDLS_SUCCESS) {
            fail("CPU getrf for the factors failed: " + last_error_text());
            return false;
        }
        for (std::int64_t s = 0; s < c.batch; ++s)
            data.singular[std::size_t(s)] = verdicts[std::size_t(g.info.at(s, 0, 0))] > 0;
    } else {
        for (std::int64_t s = 0; s < c.batch; ++s) data.singular[std::size_t(s)] = made_singular(s);
    }
    data.cpu = data.input;
    if (run_on_cpu(cpu, c, g, data.cpu) != TDLS_SUCCESS) {
        fail("CPU backend failed: " + last_error_text());
        return false;
    }
    return true;
}

/// Every check of a case on data.gpu; each failure goes to `fail`.
template <typename T>
CaseOutcome check_case(const Case& c, const CaseData<T>& data, bool with_negative_controls,
                       const FailFunction& fail) {
    CaseOutcome outcome;
    auto failed = [&](const std::string& what) {
        outcome.passed = false;
        fail(what);
    };
    const Geometry& g = data.g;
    const Images<T>&input = data.input, &cpu = data.cpu, &gpu = data.gpu;
    const std::vector<std::int32_t> owners_a = g.a.owners(), owners_ipiv = g.ipiv.owners();
    const std::vector<std::int32_t> owners_b = g.b.owners(), owners_info = g.info.owners();
    auto expect_none = [&](const std::optional<Mismatch>& m, const char* what) {
        if (m) failed(std::string(what) + ": " + explain(*m));
    };

    // The CUDA backend against the CPU backend, bit for bit, whole buffers.
    Scope b_scope;
    if (c.operation == Operation::getrs) b_scope.nan_equal = &data.singular;
    expect_none(compare_bits("A", cpu.a, gpu.a, owners_a), "GPU != CPU");
    expect_none(compare_bits("ipiv", cpu.ipiv, gpu.ipiv, owners_ipiv), "GPU != CPU");
    expect_none(compare_bits("B", cpu.b, gpu.b, owners_b, b_scope), "GPU != CPU");
    expect_none(compare_bits("info", cpu.info, gpu.info, owners_info), "GPU != CPU");

    // Independently of the CPU backend: padding and guards as they were.
    expect_none(compare_bits("A", input.a, gpu.a, owners_a, padding_only()), "padding changed");
    expect_none(compare_bits("ipiv", input.ipiv, gpu.ipiv, owners_ipiv, padding_only()), "padding changed");
    expect_none(compare_bits("B", input.b, gpu.b, owners_b, padding_only()), "padding changed");
    expect_none(compare_bits("info", input.info, gpu.info, owners_info, padding_only()), "padding changed");

    if (c.operation == Operation::getrs) {
        // getrs reads A and ipiv only and has no verdict to write.
        expect_none(compare_bits("A", input.a, gpu.a, owners_a), "getrs changed its input");
        expect_none(compare_bits("ipiv", input.ipiv, gpu.ipiv, owners_ipiv), "getrs changed its input");
        expect_none(compare_bits("info", input.info, gpu.info, owners_info), "getrs wrote info");
    } else {
        if (std::string why = check_verdicts(c, g, gpu.info); !why.empty()) failed(why);
        if (std::string why = check_pivot_range(c, g, gpu.ipiv); !why.empty()) failed(why);
        Scope singular_only;
        singular_only.padding = false;
        singular_only.systems = &data.singular;
        expect_none(compare_bits("B", input.b, gpu.b, owners_b, singular_only),
                    "B of a singular system changed");
    }

    if (c.operation != Operation::getrf && c.nrhs > 0) {
        std::vector<std::uint8_t> regular(data.singular.size());
        for (std::size_t s = 0; s < regular.size(); ++s) regular[s] = !data.singular[s];
        outcome.backward = backward_errors(c, g, data.original_a, input.b, gpu.b, regular);
        if (outcome.backward.failed > 0)
            failed(std::to_string(outcome.backward.failed) + " backward error ratio(s) above " +
                   std::to_string(tdls::check::backward_error_bound) + ", first system " +
                   std::to_string(outcome.backward.first_failed) + ": " +
                   std::to_string(outcome.backward.first_ratio));
    }

    if (with_negative_controls)
        outcome.controls = run_negative_controls(c, g, input, cpu, gpu, data.singular);
    return outcome;
}

/// A whole case: prepare, run on the GPU in the given way, check.
template <typename T>
CaseOutcome run_case(const Context& context, const Case& c, std::uint64_t seed, Way way, cudaStream_t stream,
                     bool with_negative_controls, FailureLog& log) {
    const std::string label = describe(c) + (way == Way::explicit_handle ? " [CUDA handle, user stream]"
                                                                         : " [NULL handle, default stream]");
    const FailFunction fail = [&](const std::string& what) { log.add(label + ": " + what); };
    CaseData<T> data;
    CaseOutcome outcome;
    outcome.passed = prepare_case(context.cpu, c, seed, data, fail);
    if (!outcome.passed) return outcome;
    const GpuRun run = run_on_gpu(c, data.g, data.input, data.gpu, way, context.cuda, stream);
    if (refused_by_design(c, context.device)) {
        // Expected: the refusal, with every operand as it was.
        outcome.refused = true;
        if (run.status != TDLS_ERROR_NOT_SUPPORTED) {
            fail(std::string("the plan predicts TDLS_ERROR_NOT_SUPPORTED (no kernel fits the device), the CUDA "
                             "backend returned ") +
                 tdls_status_name(run.status) + (run.error.empty() ? "" : ": " + run.error));
            outcome.passed = false;
            return outcome;
        }
        const auto unchanged = [&](const char* what, const auto& before, const auto& after) {
            // Bitwise: the images hold NaN guards, which never compare equal.
            if (before.size() != after.size() ||
                (!before.empty() && std::memcmp(before.data(), after.data(), before.size() * sizeof(before[0])) != 0)) {
                fail(std::string("refused, but ") + what + " changed");
                outcome.passed = false;
            }
        };
        unchanged("A", data.input.a, data.gpu.a);
        unchanged("ipiv", data.input.ipiv, data.gpu.ipiv);
        unchanged("B", data.input.b, data.gpu.b);
        unchanged("info", data.input.info, data.gpu.info);
        return outcome;
    }
    if (run.status != TDLS_SUCCESS) {
        fail(std::string("CUDA backend returned ") + tdls_status_name(run.status) + ": " + run.error);
        outcome.passed = false;
        return outcome;
    }
    return check_case(c, data, with_negative_controls, fail);
}

} // namespace tdls_device
