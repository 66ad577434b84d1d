// Machine limits after ../shared/peers: the FMA peak is a register-resident
// loop of 16 independent FMA chains (enough to hide the FMA latency on both
// pipes), built for AVX-512 and for AVX2 with target attributes and run only
// where __builtin_cpu_supports says the CPU has them, so the binary itself
// stays plain x86-64. The bandwidth is a = b + s*c over three arrays well
// beyond the last-level cache, counted as 24 bytes per element (the write
// allocate of a is not counted). Each is the best of several repetitions on
// `threads` std::threads that start together.
#include "machine.hpp"

#include <immintrin.h>
#include <sys/utsname.h>

#include <algorithm>
#include <barrier>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "timing.hpp"

namespace bench {
namespace {

constexpr long fma_iterations = 4'000'000; // ~20-40 ms per run at 3-4 GHz

// Each returns the number of flops it performed; `sink` keeps the result alive.
__attribute__((target("avx512f"))) double fma_avx512_double(double* sink) {
    __m512d acc[16];
    for (int c = 0; c < 16; ++c) acc[c] = _mm512_set1_pd(1.0 + c * 1e-3);
    const __m512d mul = _mm512_set1_pd(0.9999999), add = _mm512_set1_pd(1e-7);
    for (long i = 0; i < fma_iterations; ++i)
        for (int c = 0; c < 16; ++c) acc[c] = _mm512_fmadd_pd(acc[c], mul, add);
    double lanes[8];
    __m512d total = acc[0];
    for (int c = 1; c < 16; ++c) total = _mm512_add_pd(total, acc[c]);
    _mm512_storeu_pd(lanes, total);
    *sink = lanes[0] + lanes[7];
    return 2.0 * 8 * 16 * fma_iterations;
}
__attribute__((target("avx512f"))) double fma_avx512_float(double* sink) {
    __m512 acc[16];
    for (int c = 0; c < 16; ++c) acc[c] = _mm512_set1_ps(1.0f + c * 1e-3f);
    const __m512 mul = _mm512_set1_ps(0.9999999f), add = _mm512_set1_ps(1e-7f);
    for (long i = 0; i < fma_iterations; ++i)
        for (int c = 0; c < 16; ++c) acc[c] = _mm512_fmadd_ps(acc[c], mul, add);
    float lanes[16];
    __m512 total = acc[0];
    for (int c = 1; c < 16; ++c) total = _mm512_add_ps(total, acc[c]);
    _mm512_storeu_ps(lanes, total);
    *sink = lanes[0] + lanes[15];
    return 2.0 * 16 * 16 * fma_iterations;
}
__attribute__((target("avx2,fma"))) double fma_avx2_double(double* sink) {
    __m256d acc[16];
    for (int c = 0; c < 16; ++c) acc[c] = _mm256_set1_pd(1.0 + c * 1e-3);
    const __m256d mul = _mm256_set1_pd(0.9999999), add = _mm256_set1_pd(1e-7);
    for (long i = 0; i < fma_iterations; ++i)
        for (int c = 0; c < 16; ++c) acc[c] = _mm256_fmadd_pd(acc[c], mul, add);
    double lanes[4];
    __m256d total = acc[0];
    for (int c = 1; c < 16; ++c) total = _mm256_add_pd(total, acc[c]);
    _mm256_storeu_pd(lanes, total);
    *sink = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    return 2.0 * 4 * 16 * fma_iterations;
}
__attribute__((target("avx2,fma"))) double fma_avx2_float(double* sink) {
    __m256 acc[16];
    for (int c = 0; c < 16; ++c) acc[c] = _mm256_set1_ps(1.0f + c * 1e-3f);
    const __m256 mul = _mm256_set1_ps(0.9999999f), add = _mm256_set1_ps(1e-7f);
    for (long i = 0; i < fma_iterations; ++i)
        for (int c = 0; c < 16; ++c) acc[c] = _mm256_fmadd_ps(acc[c], mul, add);
    float lanes[8];
    __m256 total = acc[0];
    for (int c = 1; c < 16; ++c) total = _mm256_add_ps(total, acc[c]);
    _mm256_storeu_ps(lanes, total);
    *sink = lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7];
    return 2.0 * 8 * 16 * fma_iterations;
}

/// Runs body(t) on `threads` threads released together; returns the seconds
/// from the release to the last one's end.
template <typename Body>
double run_together(int threads, Body&& body) {
    std::barrier start(threads + 1);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            start.arrive_and_wait();
            body(t);
        });
    const double t0 = now_seconds();
    start.arrive_and_wait();
    for (auto& thread : pool) thread.join();
    return now_seconds() - t0;
}

/// GFLOP/s of `kernel` on `threads` threads, best of 3.
double fma_rate(double (*kernel)(double*), int threads) {
    double best = 0;
    std::vector<double> sinks(std::size_t(threads) * 8);
    for (int rep = 0; rep < 3; ++rep) {
        double flops = 0;
        const double seconds = run_together(threads, [&](int t) {
            const double f = kernel(&sinks[std::size_t(t) * 8]); // sinks 64 bytes apart
            if (t == 0) flops = f * threads;
        });
        best = std::max(best, flops / seconds * 1e-9);
    }
    return best;
}

/// Triad GB/s on `threads` threads over 3 arrays of `mib` MiB, best of 5;
/// each thread first-touches the part it later streams.
double triad_rate(int threads, double mib) {
    const std::size_t count = std::size_t(mib * 1048576.0 / sizeof(double));
    std::unique_ptr<double[]> a(new double[count]), b(new double[count]), c(new double[count]);
    auto part = [&](int t, std::size_t& begin, std::size_t& end) {
        begin = count * std::size_t(t) / std::size_t(threads);
        end = count * std::size_t(t + 1) / std::size_t(threads);
    };
    run_together(threads, [&](int t) {
        std::size_t begin, end;
        part(t, begin, end);
        for (std::size_t i = begin; i < end; ++i) a[i] = 0, b[i] = 1.0, c[i] = 2.0;
    });
    double best = 0;
    const double s = 0.5;
    for (int rep = 0; rep < 5; ++rep) {
        const double seconds = run_together(threads, [&](int t) {
            std::size_t begin, end;
            part(t, begin, end);
            double* __restrict__ pa = a.get();
            const double* __restrict__ pb = b.get();
            const double* __restrict__ pc = c.get();
            for (std::size_t i = begin; i < end; ++i) pa[i] = pb[i] + s * pc[i];
        });
        best = std::max(best, 24.0 * double(count) / seconds * 1e-9);
    }
    volatile double keep = a[count / 2];
    (void)keep;
    return best;
}

std::string cpuinfo_field(const std::string& key) {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key, 0) == 0) {
            const std::size_t colon = line.find(':');
            return colon == std::string::npos ? "" : line.substr(std::min(line.size(), colon + 2));
        }
    return "";
}

} // namespace

Limits measure_limits(int threads, double triad_mib) {
    __builtin_cpu_init();
    Limits limits;
    std::ostringstream detail;
    detail.precision(4);
    if (__builtin_cpu_supports("avx512f")) {
        const double d = fma_rate(fma_avx512_double, threads), f = fma_rate(fma_avx512_float, threads);
        limits.fma_double = std::max(limits.fma_double, d);
        limits.fma_float = std::max(limits.fma_float, f);
        detail << "AVX-512 " << d << " / " << f << "; ";
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        const double d = fma_rate(fma_avx2_double, threads), f = fma_rate(fma_avx2_float, threads);
        limits.fma_double = std::max(limits.fma_double, d);
        limits.fma_float = std::max(limits.fma_float, f);
        detail << "AVX2 " << d << " / " << f << " GFLOP/s (double / float)";
    }
    limits.fma_detail = detail.str();
    limits.triad = triad_rate(threads, triad_mib);
    return limits;
}

Limits larger(const Limits& a, const Limits& b) {
    Limits out = a;
    out.fma_double = std::max(a.fma_double, b.fma_double);
    out.fma_float = std::max(a.fma_float, b.fma_float);
    out.triad = std::max(a.triad, b.triad);
    out.fma_detail = "start: " + a.fma_detail + "; end: " + b.fma_detail;
    return out;
}

std::vector<std::pair<std::string, std::string>> machine_facts() {
    std::vector<std::pair<std::string, std::string>> facts;
    facts.emplace_back("CPU", cpuinfo_field("model name") + " (family " + cpuinfo_field("cpu family") +
                                  ", model " + cpuinfo_field("model") + ")");
    std::istringstream flags(cpuinfo_field("flags"));
    std::string simd;
    for (std::string flag; flags >> flag;)
        if (flag == "sse4_2" || flag == "avx" || flag == "avx2" || flag == "fma" ||
            flag.rfind("avx512", 0) == 0)
            simd += (simd.empty() ? "" : " ") + flag;
    facts.emplace_back("SIMD flags", simd);
    facts.emplace_back("logical CPUs", std::to_string(std::thread::hardware_concurrency()));
    facts.emplace_back("L3 (cpuinfo cache size)", cpuinfo_field("cache size"));
    utsname names{};
    if (uname(&names) == 0) facts.emplace_back("kernel", std::string(names.sysname) + " " + names.release);
    facts.emplace_back("compiler",
                       std::string("g++ ") + __VERSION__ + " (tdls-bench itself: -O3, no -march)");
    return facts;
}

double flops_per_system(char type, int n, int nrhs) {
    const double real = 2.0 / 3.0 * double(n) * n * n + 2.0 * double(n) * n * nrhs;
    return type == 'c' || type == 'z' ? 4.0 * real : real;
}

std::size_t type_element_size(char type) {
    return type == 's' ? 4 : type == 'z' ? 16 : 8;
}

const char* type_name(char type) {
    switch (type) {
    case 's':
        return "float";
    case 'c':
        return "complex float";
    case 'z':
        return "complex double";
    default:
        return "double";
    }
}

double traffic_bytes(int n, int nrhs, std::size_t element_size, bool in_place) {
    const double a = double(n) * n, b = 2.0 * n * nrhs, size = double(element_size);
    return in_place ? (2.0 * a + b) * size + 4.0 * n + 4.0 : (a + b) * size + 4.0;
}

double roofline_systems_per_s(const Limits& limits, char type, int n, int nrhs, bool in_place) {
    const bool single = type == 's' || type == 'c';
    const double peak = (single ? limits.fma_float : limits.fma_double) * 1e9;
    return std::min(peak / flops_per_system(type, n, nrhs),
                    limits.triad * 1e9 / traffic_bytes(n, nrhs, type_element_size(type), in_place));
}

} // namespace bench
