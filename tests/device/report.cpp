// The markdown section --out appends (see report.hpp).
#include "report.hpp"

#include <cuda_runtime.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

#include <tdls/tdls.h>

namespace tdls_device {

namespace {

std::string cuda_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

} // namespace

std::string device_description() {
    std::string text;
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess) {
        char details[128];
        std::snprintf(details, sizeof details, " (compute capability %d.%d, %d SMs, %.1f GiB)",
                      properties.major, properties.minor, properties.multiProcessorCount,
                      double(properties.totalGlobalMem) / double(1ull << 30));
        text = std::string(properties.name) + details;
    } else {
        text = "no CUDA device";
    }
    int driver = 0, runtime = 0;
    text += cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0
                ? ", driver CUDA " + cuda_version(driver)
                : ", no CUDA driver";
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) text += ", runtime CUDA " + cuda_version(runtime);
    return text;
}

bool append_report(const std::string& path, const Report& report) {
    std::ofstream out(path, std::ios::app);
    if (!out) {
        std::fprintf(stderr, "tdls_device_suite: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    char when[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
    int major = 0, minor = 0, patch = 0;
    tdls_get_version(&major, &minor, &patch);
    out << "\n### tdls_device_suite, " << when << "\n\n";
    out << "- command: `" << report.command_line << "`\n";
    out << "- device: " << device_description() << "\n";
    out << "- libtdls " << major << "." << minor << "." << patch
        << ", CPU reference backend with TDLS_CPU_KERNEL=gpu_reference\n";
    out << "- result: **" << report.verdict << "**\n";
    for (const std::string& line : report.summary) out << "- " << line << "\n";
    if (!report.failures.empty()) {
        out << "\nFirst failures:\n\n```\n";
        for (const std::string& line : report.failures) out << line << "\n";
        out << "```\n";
    }
    if (!report.bench_table.empty()) out << "\n" << report.bench_table;
    return bool(out);
}

} // namespace tdls_device
