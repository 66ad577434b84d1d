// tdls_device_suite: the GPU-side tests and benchmark of libtdls (README.md
// here). It needs a CUDA device and the CUDA plugin beside libtdls.so; on a
// machine without them it says why and exits 2, never 0.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include <tdls/tdls.h>

#include "bench.hpp"
#include "context.hpp"
#include "cuda_support.hpp"
#include "device_sets.hpp"
#include "error_paths.hpp"
#include "options.hpp"
#include "report.hpp"
#include "roofline.hpp"
#include "sweep.hpp"

namespace {

using namespace tdls_device;

constexpr int exit_passed = 0, exit_failed = 1, exit_no_gpu = 2, exit_usage = 3;

/// The reason the CUDA backend cannot run here, or "" with *cuda created.
std::string open_cuda(tdls_handle_t* cuda) {
    const std::string gpu = gpu_problem();
    const int available = tdls_backend_available(TDLS_BACKEND_CUDA);
    const tdls_status_t status = tdls_create(cuda, TDLS_BACKEND_CUDA, 0);
    if (gpu.empty() && available == 1 && status == TDLS_SUCCESS) return "";
    if (status == TDLS_SUCCESS) {
        (void)tdls_destroy(*cuda);
        *cuda = nullptr;
    }
    std::string why = gpu.empty() ? "" : gpu + "; ";
    why += "tdls_backend_available(TDLS_BACKEND_CUDA) = " + std::to_string(available) + "; ";
    why += std::string("tdls_create(TDLS_BACKEND_CUDA) returned ") + tdls_status_name(status);
    if (status != TDLS_SUCCESS) why += ": " + last_error_text();
    return why;
}

int run(const Options& options) {
    Report report;
    report.command_line = options.command_line;
    auto finish = [&](int code) {
        if (!options.out.empty() && !append_report(options.out, report) && code == exit_passed)
            code = exit_failed;
        return code;
    };

    tdls_handle_t cuda = nullptr;
    if (const std::string why = open_cuda(&cuda); !why.empty()) {
        std::printf("tdls_device_suite: NOT RUN, no usable GPU: %s\n", why.c_str());
        report.verdict = "NOT RUN (no usable GPU)";
        report.summary.push_back(why);
        return finish(exit_no_gpu);
    }
    // Declared before the handles, so that they outlive them: a handle may
    // still refer to the stream it was given when it is destroyed.
    std::unique_ptr<Stream> first, second;
    std::unique_ptr<tdls_handle_st, decltype(&tdls_destroy)> cuda_owner(cuda, &tdls_destroy);
    tdls_handle_t cpu = nullptr;
    if (tdls_create(&cpu, TDLS_BACKEND_CPU, 0) != TDLS_SUCCESS) {
        std::printf("tdls_device_suite: FAIL, tdls_create(TDLS_BACKEND_CPU): %s\n",
                    last_error_text().c_str());
        report.verdict = "FAIL";
        report.summary.push_back("tdls_create(TDLS_BACKEND_CPU) failed: " + last_error_text());
        return finish(exit_failed);
    }
    std::unique_ptr<tdls_handle_st, decltype(&tdls_destroy)> cpu_owner(cpu, &tdls_destroy);
    std::printf("tdls_device_suite on %s\n", device_description().c_str());

    bool passed = true;
    auto keep_failures = [&](const FailureLog& log) {
        for (const std::string& line : log.lines) report.failures.push_back(line);
        if (log.count > std::int64_t(log.lines.size()))
            report.failures.push_back("... and " +
                                      std::to_string(log.count - std::int64_t(log.lines.size())) + " more");
    };
    try {
        first = std::make_unique<Stream>();
        second = std::make_unique<Stream>();
        const Context context{cpu, cuda, {first->get(), second->get()}, device0_properties()};
        if (options.sweep) {
            const SweepTotals sweep = run_sweep(context, options.sweep_size);
            std::printf("%s\n", sweep.summary().c_str());
            report.summary.push_back(sweep.summary());
            keep_failures(sweep.failures);
            passed = passed && sweep.passed();

            const ErrorPathTotals errors = run_error_paths(context);
            std::printf("%s\n", errors.summary().c_str());
            report.summary.push_back(errors.summary());
            keep_failures(errors.failures);
            passed = passed && errors.all_passed();
        }
        if (options.bench) {
            const BenchTotals bench = run_bench(context);
            report.bench_table = bench.table();
            const std::string line = "bench: " + std::to_string(bench.rows.size()) + " rows, " +
                                     std::to_string(bench.failures.count) + " with a failed check, " +
                                     std::to_string(int(bench.seconds)) + " s; " +
                                     (bench.passed() ? "PASS" : "FAIL");
            std::printf("\n%s\n%s\n", report.bench_table.c_str(), line.c_str());
            report.summary.push_back(line);
            keep_failures(bench.failures);
            passed = passed && bench.passed();
        }
    } catch (const std::exception& failure) {
        const std::string line = std::string("aborted: ") + failure.what();
        report.failures.push_back(line);
        report.summary.push_back(line);
        passed = false;
    }
    (void)tdls_set_stream(cuda, nullptr);
    if (!report.failures.empty()) {
        std::printf("failures:\n");
        for (const std::string& line : report.failures) std::printf("  %s\n", line.c_str());
    }
    report.verdict = passed ? "PASS" : "FAIL";
    std::printf("tdls_device_suite: RESULT %s\n", report.verdict.c_str());
    return finish(passed ? exit_passed : exit_failed);
}

} // namespace

int main(int argc, char** argv) {
    // Before any libtdls call: the CPU backend then runs the one-system-per-
    // thread cooperative solver with the GPU kernels' explicit fused
    // multiply-adds and nothing else contracted (nvcc --fmad=false), so that
    // the results agree bit for bit.
    setenv("TDLS_CPU_KERNEL", "gpu_reference", 1);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    std::string error;
    const std::optional<Options> options = parse_options(argc, argv, error);
    if (!options) {
        std::fprintf(stderr, "tdls_device_suite: %s\n%s", error.c_str(), usage);
        return exit_usage;
    }
    if (options->help) {
        std::printf("%s", usage);
        return exit_passed;
    }
    if (options->model) {
        std::printf("%s", model_table(tdls_test::devices::h200, h200_peaks).c_str());
        return exit_passed;
    }
    try {
        return run(*options);
    } catch (const std::exception& failure) {
        std::printf("tdls_device_suite: RESULT FAIL (%s)\n", failure.what());
        return exit_failed;
    }
}
