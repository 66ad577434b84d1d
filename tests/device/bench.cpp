// The benchmark (see bench.hpp).
//
// Method: per (n, type) one strided column-major packed batch, A about
// 128 MiB (at most 2^22 systems, fewer when the device lacks the memory),
// one right-hand side. Each solver works in place, so every run starts from
// a device-to-device copy of the pristine batch, outside the timed region;
// a cudaEvent pair on the stream times the solver's calls alone. One warm-up
// run, then the median of five. The pointer arrays cuBLAS needs are built
// once, outside any timing. After its last run each solver's verdicts must
// all be 0 and a sample of its solutions must pass the backward error bound.
#include "bench.hpp"

#include <cuda_runtime.h>
#if TDLS_DEVICE_CUBLAS
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <functional>

#include <tdls/check/backward_error.hpp>

#include "cuda_support.hpp"
#include "dtypes.hpp"
#include "parallel.hpp"
#include "random.hpp"
#include "roofline.hpp"

namespace tdls_device {

namespace {

constexpr std::int64_t orders[] = {2, 4, 8, 16, 32, 64, 128};
constexpr std::size_t target_a_bytes = std::size_t(128) << 20;
constexpr std::int64_t max_batch = std::int64_t(1) << 22;
constexpr int timed_runs = 5;
constexpr std::int64_t sampled_systems = 64;

#if TDLS_DEVICE_CUBLAS
cublasStatus_t getrf(cublasHandle_t h, int n, float* const* a, int* ipiv, int* info, int batch) {
    return cublasSgetrfBatched(h, n, a, n, ipiv, info, batch);
}
cublasStatus_t getrf(cublasHandle_t h, int n, double* const* a, int* ipiv, int* info, int batch) {
    return cublasDgetrfBatched(h, n, a, n, ipiv, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, float* const* a, const int* ipiv, float* const* b, int* info,
                     int batch) {
    return cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, a, n, ipiv, b, n, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, double* const* a, const int* ipiv, double* const* b, int* info,
                     int batch) {
    return cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, a, n, ipiv, b, n, info, batch);
}
// Complex: cuComplex and cuDoubleComplex are two consecutive reals, as
// std::complex is (their 8- and 16-byte alignment holds for cudaMalloc'd
// systems of whole elements).
cublasStatus_t getrf(cublasHandle_t h, int n, std::complex<float>* const* a, int* ipiv, int* info, int batch) {
    return cublasCgetrfBatched(h, n, reinterpret_cast<cuComplex* const*>(a), n, ipiv, info, batch);
}
cublasStatus_t getrf(cublasHandle_t h, int n, std::complex<double>* const* a, int* ipiv, int* info, int batch) {
    return cublasZgetrfBatched(h, n, reinterpret_cast<cuDoubleComplex* const*>(a), n, ipiv, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, std::complex<float>* const* a, const int* ipiv,
                     std::complex<float>* const* b, int* info, int batch) {
    return cublasCgetrsBatched(h, CUBLAS_OP_N, n, 1, reinterpret_cast<const cuComplex* const*>(a), n, ipiv,
                               reinterpret_cast<cuComplex* const*>(b), n, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, std::complex<double>* const* a, const int* ipiv,
                     std::complex<double>* const* b, int* info, int batch) {
    return cublasZgetrsBatched(h, CUBLAS_OP_N, n, 1, reinterpret_cast<const cuDoubleComplex* const*>(a), n, ipiv,
                               reinterpret_cast<cuDoubleComplex* const*>(b), n, info, batch);
}

class Cublas {
  public:
    Cublas() {
        if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) throw CudaFailure("cublasCreate failed");
    }
    ~Cublas() { (void)cublasDestroy(handle_); }
    Cublas(const Cublas&) = delete;
    Cublas& operator=(const Cublas&) = delete;
    cublasHandle_t get() const { return handle_; }

  private:
    cublasHandle_t handle_ = nullptr;
};
#else
/// Built without cuBLAS (its development files were absent): libtdls alone
/// is timed, and the table says so.
class Cublas {};
#endif

/// The batch for A of about target_a_bytes, halved until the buffers the
/// run holds fit in most of the device's free memory.
std::int64_t batch_size(std::int64_t n, std::size_t element) {
    std::int64_t batch = std::min<std::int64_t>(max_batch, std::int64_t(target_a_bytes / (n * n * element)));
    std::size_t free = 0, total = 0;
    TDLS_DEVICE_CUDA(cudaMemGetInfo(&free, &total));
    // A and B twice (work, pristine), ipiv, info, two pointer arrays.
    const std::size_t per_system = 2 * n * n * element + 2 * n * element + 4 * n + 4 + 2 * sizeof(void*);
    while (batch > 1 && std::size_t(batch) * per_system > free / 10 * 8) batch /= 2;
    return batch;
}

/// Median time of timed_runs runs of `solve` after one warm-up, each run
/// preceded by `restore` (not timed). `solve` returns "" or what went wrong.
double median_seconds(cudaStream_t stream, const std::function<void()>& restore,
                      const std::function<std::string()>& solve, std::string& problem) {
    Event start, stop;
    std::vector<double> seconds;
    for (int run = -1; run < timed_runs && problem.empty(); ++run) {
        restore();
        TDLS_DEVICE_CUDA(cudaEventRecord(start.get(), stream));
        problem = solve();
        TDLS_DEVICE_CUDA(cudaEventRecord(stop.get(), stream));
        TDLS_DEVICE_CUDA(cudaEventSynchronize(stop.get()));
        float milliseconds = 0;
        TDLS_DEVICE_CUDA(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
        if (run >= 0) seconds.push_back(milliseconds * 1e-3);
    }
    TDLS_DEVICE_CUDA(cudaStreamSynchronize(stream));
    if (seconds.empty()) return 0;
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
}

/// "" when every info is 0 and the sampled solutions pass the bound; the
/// worst sampled ratio goes to `worst`.
template <typename T>
std::string check_answers(std::int64_t n, std::int64_t batch, const std::vector<T>& a,
                          const std::vector<T>& b, const DeviceMemory& x_device,
                          const DeviceMemory& info_device, double& worst) {
    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
    const std::vector<std::int32_t> info = to_host<std::int32_t>(info_device);
    for (std::int64_t s = 0; s < batch; ++s)
        if (info[std::size_t(s)] != 0)
            return "info[" + std::to_string(s) + "] = " + std::to_string(info[std::size_t(s)]) +
                   " on a random system";
    const std::vector<T> x = to_host<T>(x_device);
    const std::int64_t samples = std::min(batch, sampled_systems);
    for (std::int64_t k = 0; k < samples; ++k) {
        const std::int64_t s = samples == 1 ? 0 : k * (batch - 1) / (samples - 1);
        const double ratio = tdls::check::backward_error_ratio<T>(int(n), a.data() + s * n * n, 1, n,
                                                                  x.data() + s * n, 1, b.data() + s * n, 1);
        worst = std::max(worst, ratio);
        if (!(ratio <= tdls::check::backward_error_bound))
            return "system " + std::to_string(s) + ": backward error ratio " + std::to_string(ratio);
    }
    return "";
}

template <typename T>
BenchRow bench_one(const Context& context, const Cublas& cublas, std::int64_t n) {
    BenchRow row;
    row.n = n;
    const tdls_dtype_t dtype = tdls::kernels::dtype_of<T>;
    row.dtype = dtype;
    row.type = type_name(dtype);
    const std::int64_t batch = batch_size(n, sizeof(T));
    row.batch = batch;
    const KernelModel predicted = model(n, dtype, context.device, h200_peaks, built_register_orders());
    row.predicted = predicted.bound;
    row.kernel = predicted.kernel;

    std::vector<T> a(std::size_t(batch * n * n)), b(std::size_t(batch * n));
    const std::uint64_t seed = mix(std::uint64_t(n) * 31 + sizeof(T));
    parallel_for(std::int64_t(a.size()), 1 << 16, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t e = begin; e < end; ++e) a[std::size_t(e)] = value_pm1<T>(seed, std::uint64_t(e));
    });
    parallel_for(std::int64_t(b.size()), 1 << 16, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t e = begin; e < end; ++e)
            b[std::size_t(e)] = value_pm1<T>(~seed, std::uint64_t(e));
    });
    const DeviceMemory a_pristine = to_device(a), b_pristine = to_device(b);
    DeviceMemory a_work(a_pristine.bytes()), b_work(b_pristine.bytes());
    DeviceMemory ipiv(std::size_t(batch * n) * 4), info(std::size_t(batch) * 4);
    std::vector<T*> a_systems(static_cast<std::size_t>(batch)), b_systems(static_cast<std::size_t>(batch));
    for (std::int64_t s = 0; s < batch; ++s) {
        a_systems[std::size_t(s)] = a_work.as<T>() + s * n * n;
        b_systems[std::size_t(s)] = b_work.as<T>() + s * n;
    }
    const DeviceMemory a_array = to_device(a_systems), b_array = to_device(b_systems);
    TDLS_DEVICE_CUDA(cudaDeviceSynchronize());

    const cudaStream_t stream = context.streams[0];
    auto restore = [&] {
        TDLS_DEVICE_CUDA(cudaMemcpyAsync(a_work.get(), a_pristine.get(), a_work.bytes(),
                                         cudaMemcpyDeviceToDevice, stream));
        TDLS_DEVICE_CUDA(cudaMemcpyAsync(b_work.get(), b_pristine.get(), b_work.bytes(),
                                         cudaMemcpyDeviceToDevice, stream));
        TDLS_DEVICE_CUDA(
            cudaMemsetAsync(info.get(), 0xFF, info.bytes(), stream)); // a verdict must be written
    };

    std::string tdls_problem;
    if (tdls_set_stream(context.cuda, stream) != TDLS_SUCCESS)
        tdls_problem = "tdls_set_stream: " + last_error_text();
    row.tdls_seconds = median_seconds(
        stream, restore,
        [&] {
            const tdls_status_t status = tdls_batched_gesv(
                context.cuda, dtype, TDLS_COL_MAJOR, n, 1, a_work.get(), n, n * n, ipiv.as<std::int32_t>(), n,
                b_work.get(), n, n, info.as<std::int32_t>(), batch);
            return status == TDLS_SUCCESS ? std::string()
                                          : std::string("tdls_batched_gesv: ") + tdls_status_name(status) +
                                                " " + last_error_text();
        },
        tdls_problem);
    if (tdls_problem.empty())
        tdls_problem = check_answers(n, batch, a, b, b_work, info, row.tdls_worst_ratio);

    std::string cublas_problem;
#if TDLS_DEVICE_CUBLAS
    if (cublasSetStream(cublas.get(), stream) != CUBLAS_STATUS_SUCCESS)
        cublas_problem = "cublasSetStream failed";
    row.cublas_seconds = median_seconds(
        stream, restore,
        [&] {
            int argument_error = 0;
            if (getrf(cublas.get(), int(n), a_array.as<T* const>(), ipiv.as<int>(), info.as<int>(),
                      int(batch)) != CUBLAS_STATUS_SUCCESS)
                return std::string("cublas getrfBatched failed");
            if (getrs(cublas.get(), int(n), a_array.as<T* const>(), ipiv.as<int>(), b_array.as<T* const>(),
                      &argument_error, int(batch)) != CUBLAS_STATUS_SUCCESS ||
                argument_error != 0)
                return "cublas getrsBatched failed (info " + std::to_string(argument_error) + ")";
            return std::string();
        },
        cublas_problem);
    if (cublas_problem.empty())
        cublas_problem = check_answers(n, batch, a, b, b_work, info, row.cublas_worst_ratio);
#else
    (void)cublas;
    (void)a_array;
    (void)b_array;
#endif

    if (!tdls_problem.empty()) row.problem += "tdls: " + tdls_problem + ". ";
    if (!cublas_problem.empty()) row.problem += "cuBLAS: " + cublas_problem + ".";
    return row;
}

} // namespace

std::string BenchTotals::table() const {
    std::string text =
        "| n | type | batch | kernel | tdls systems/s | predicted (roofline) | measured/predicted | cuBLAS "
        "systems/s | tdls/cuBLAS | tdls GB/s | tdls GFLOP/s | worst ratio tdls / cuBLAS (sample) | check |\n"
        "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
    for (const BenchRow& r : rows) {
        const double tdls_rate = r.tdls_seconds > 0 ? double(r.batch) / r.tdls_seconds : 0;
        const double cublas_rate = r.cublas_seconds > 0 ? double(r.batch) / r.cublas_seconds : 0;
        const std::size_t element = element_bytes(r.dtype);
        char line[640];
        std::snprintf(line, sizeof line,
                      "| %lld | %s | %lld | %s | %.4g | %.4g | %.3g | %.4g | %.3g | %.4g | %.4g | %.2g / %.2g | %s |\n",
                      (long long)r.n, r.type, (long long)r.batch, r.kernel.c_str(), tdls_rate, r.predicted,
                      r.predicted > 0 ? tdls_rate / r.predicted : 0.0, cublas_rate,
                      cublas_rate > 0 ? tdls_rate / cublas_rate : 0.0,
                      tdls_rate * bytes_per_system(r.n, element) * 1e-9,
                      tdls_rate * flops_per_system(r.n, r.dtype) * 1e-9,
                      r.tdls_worst_ratio, r.cublas_worst_ratio, r.problem.empty() ? "ok" : r.problem.c_str());
        text += line;
    }
    return text;
}

BenchTotals run_bench(const Context& context) {
    const auto start = std::chrono::steady_clock::now();
    BenchTotals totals;
    const Cublas cublas;
#if TDLS_DEVICE_CUBLAS
    std::printf("benchmark: tdls (CUDA backend) against cuBLAS getrfBatched + getrsBatched, nrhs = 1\n");
#else
    std::printf("benchmark: tdls (CUDA backend) alone, nrhs = 1 (built without cuBLAS: its development files "
                "were absent; the cuBLAS columns read 0)\n");
#endif
    for (std::int64_t n : orders)
        for (tdls_dtype_t type : {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128}) {
            BenchRow row = type == TDLS_FLOAT32   ? bench_one<float>(context, cublas, n)
                           : type == TDLS_FLOAT64 ? bench_one<double>(context, cublas, n)
                           : type == TDLS_COMPLEX64
                               ? bench_one<std::complex<float>>(context, cublas, n)
                               : bench_one<std::complex<double>>(context, cublas, n);
            std::printf("  n=%lld %s batch=%lld: tdls %.3f ms, cuBLAS %.3f ms%s%s\n", (long long)row.n,
                        row.type, (long long)row.batch, row.tdls_seconds * 1e3, row.cublas_seconds * 1e3,
                        row.problem.empty() ? "" : "; ", row.problem.c_str());
            std::fflush(stdout);
            if (!row.problem.empty())
                totals.failures.add("bench n=" + std::to_string(n) + " " + row.type + ": " + row.problem);
            totals.rows.push_back(std::move(row));
        }
    totals.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return totals;
}

} // namespace tdls_device
