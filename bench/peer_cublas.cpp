// Peer: cuBLAS cublas?getrfBatched + cublas?getrsBatched on the GPU, on
// device copies of the column-major batch addressed through device pointer
// arrays. Timed: a cudaEvent pair around the two calls only; the uploads
// (fresh copy of the batch) before and the download of X after are not
// timed. Compiled only where CMake finds the CUDA toolkit
// (TDLS_BENCH_HAVE_CUBLAS); it runs only when cudaGetDeviceCount succeeds
// with a device: any error there (35 on a machine without a driver) means
// "no GPU" and the peer reports itself unavailable.
#include "peers.hpp"

#include <cstdio>

#include "check.hpp"

#ifdef TDLS_BENCH_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

namespace bench {

#ifdef TDLS_BENCH_HAVE_CUBLAS
namespace {

/// Empty when a GPU is usable, else why not.
const std::string& gpu_problem() {
    static const std::string problem = [] {
        int devices = 0;
        const cudaError_t error = cudaGetDeviceCount(&devices);
        if (error != cudaSuccess)
            return std::string("no GPU (cudaGetDeviceCount: ") + cudaGetErrorName(error) + ")";
        if (devices == 0) return std::string("no GPU (no CUDA device)");
        return std::string();
    }();
    return problem;
}

cublasStatus_t getrf(cublasHandle_t h, int n, double* const* A, int* ipiv, int* info, int batch) {
    return cublasDgetrfBatched(h, n, A, n, ipiv, info, batch);
}
cublasStatus_t getrf(cublasHandle_t h, int n, float* const* A, int* ipiv, int* info, int batch) {
    return cublasSgetrfBatched(h, n, A, n, ipiv, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, int nrhs, double* const* A, const int* ipiv, double* const* B,
                     int* info, int batch) {
    return cublasDgetrsBatched(h, CUBLAS_OP_N, n, nrhs, A, n, ipiv, B, n, info, batch);
}
cublasStatus_t getrs(cublasHandle_t h, int n, int nrhs, float* const* A, const int* ipiv, float* const* B,
                     int* info, int batch) {
    return cublasSgetrsBatched(h, CUBLAS_OP_N, n, nrhs, A, n, ipiv, B, n, info, batch);
}

template <typename T>
class CublasSolver final : public Solver {
  public:
    explicit CublasSolver(std::shared_ptr<HostBatch<T>> batch) : batch_(std::move(batch)) {
        if (!gpu_problem().empty()) return;
        const Storage& st = batch_->storage;
        if (st.count > 0x7fffffff) {
            problem_ = "batch above INT_MAX";
            return;
        }
        bool ok = cublasCreate(&handle_) == CUBLAS_STATUS_SUCCESS;
        ok = ok && cudaMalloc(&A_, batch_->A.size() * sizeof(T)) == cudaSuccess;
        ok = ok && cudaMalloc(&B_, batch_->B.size() * sizeof(T)) == cudaSuccess;
        ok = ok && cudaMalloc(&ipiv_, batch_->ipiv.size() * sizeof(int)) == cudaSuccess;
        ok = ok && cudaMalloc(&info_, batch_->info.size() * sizeof(int)) == cudaSuccess;
        ok = ok && cudaMalloc(&A_array_, st.count * sizeof(T*)) == cudaSuccess;
        ok = ok && cudaMalloc(&B_array_, st.count * sizeof(T*)) == cudaSuccess;
        ok = ok && cudaEventCreate(&start_) == cudaSuccess && cudaEventCreate(&stop_) == cudaSuccess;
        if (ok) {
            std::vector<T*> a(std::size_t(st.count)), b(std::size_t(st.count));
            for (std::int64_t s = 0; s < st.count; ++s) {
                a[std::size_t(s)] = A_ + st.a_offset(s);
                b[std::size_t(s)] = B_ + st.b_offset(s, 0);
            }
            ok = cudaMemcpy(A_array_, a.data(), a.size() * sizeof(T*), cudaMemcpyHostToDevice) ==
                     cudaSuccess &&
                 cudaMemcpy(B_array_, b.data(), b.size() * sizeof(T*), cudaMemcpyHostToDevice) == cudaSuccess;
        }
        if (!ok) problem_ = "cuBLAS set-up failed (cublasCreate or cudaMalloc)";
    }
    ~CublasSolver() override {
        cudaFree(A_), cudaFree(B_), cudaFree(ipiv_), cudaFree(info_), cudaFree(A_array_), cudaFree(B_array_);
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
        if (handle_) cublasDestroy(handle_);
    }
    std::string name() const override { return "cublas"; }
    std::string form() const override { return "strided col"; }
    bool threaded() const override { return false; }
    std::string unavailable() const override { return gpu_problem().empty() ? problem_ : gpu_problem(); }
    void reset() override {
        cudaMemcpy(A_, batch_->A.data(), batch_->A.size() * sizeof(T), cudaMemcpyHostToDevice);
        cudaMemcpy(B_, batch_->B.data(), batch_->B.size() * sizeof(T), cudaMemcpyHostToDevice);
        cudaDeviceSynchronize();
    }
    double run(int) override {
        const Storage& st = batch_->storage;
        int getrs_info = 0;
        cudaEventRecord(start_);
        const cublasStatus_t f = getrf(handle_, st.n, A_array_, ipiv_, info_, int(st.count));
        const cublasStatus_t s =
            getrs(handle_, st.n, st.nrhs, A_array_, ipiv_, B_array_, &getrs_info, int(st.count));
        cudaEventRecord(stop_);
        cudaEventSynchronize(stop_);
        float ms = 0;
        cudaEventElapsedTime(&ms, start_, stop_);
        if (f != CUBLAS_STATUS_SUCCESS || s != CUBLAS_STATUS_SUCCESS || getrs_info != 0) {
            std::fprintf(stderr, "tdls-bench: cuBLAS getrf/getrsBatched failed (%d, %d, info %d)\n", int(f),
                         int(s), getrs_info);
            return -1;
        }
        return ms * 1e-3;
    }
    CheckResult check() override {
        // X and the verdicts come back into the shared host working copy.
        cudaMemcpy(batch_->work_B.data(), B_, batch_->B.size() * sizeof(T), cudaMemcpyDeviceToHost);
        cudaMemcpy(batch_->info.data(), info_, batch_->info.size() * sizeof(int), cudaMemcpyDeviceToHost);
        return check_batch(*batch_);
    }
    void perturb() override {
        // The negative control spoils the device solution before check() fetches it.
        T x0 = 0;
        cudaMemcpy(&x0, B_ + batch_->storage.b_offset(batch_->storage.count / 2, 0), sizeof(T),
                   cudaMemcpyDeviceToHost);
        x0 = x0 + T(0.05) * (x0 < 0 ? -x0 + 1 : x0 + 1);
        cudaMemcpy(B_ + batch_->storage.b_offset(batch_->storage.count / 2, 0), &x0, sizeof(T),
                   cudaMemcpyHostToDevice);
    }

  private:
    std::shared_ptr<HostBatch<T>> batch_;
    std::string problem_;
    cublasHandle_t handle_ = nullptr;
    T *A_ = nullptr, *B_ = nullptr;
    int *ipiv_ = nullptr, *info_ = nullptr;
    T **A_array_ = nullptr, **B_array_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

} // namespace

template <typename T>
std::unique_ptr<Solver> make_cublas_solver(std::shared_ptr<HostBatch<T>> batch) {
    return std::make_unique<CublasSolver<T>>(std::move(batch));
}

std::string cublas_description() {
    if (!gpu_problem().empty()) return "cuBLAS compiled in; skipped the GPU peers: " + gpu_problem();
    cudaDeviceProp properties{};
    cudaGetDeviceProperties(&properties, 0);
    int version = 0;
    cudaRuntimeGetVersion(&version);
    return std::string("cuBLAS getrf+getrsBatched on ") + properties.name + ", CUDA runtime " +
           std::to_string(version);
}

#else // no CUDA toolkit at build time

namespace {
template <typename T>
class NoCublas final : public Solver {
  public:
    std::string name() const override { return "cublas"; }
    std::string form() const override { return "strided col"; }
    bool threaded() const override { return false; }
    std::string unavailable() const override { return "not compiled (no CUDA toolkit at build time)"; }
    void reset() override {}
    double run(int) override { return -1; }
    CheckResult check() override { return {}; }
    void perturb() override {}
};
} // namespace

template <typename T>
std::unique_ptr<Solver> make_cublas_solver(std::shared_ptr<HostBatch<T>>) {
    return std::make_unique<NoCublas<T>>();
}

std::string cublas_description() {
    return "cuBLAS not compiled (no CUDA toolkit at build time); skipped the GPU peers";
}

#endif

template std::unique_ptr<Solver> make_cublas_solver<float>(std::shared_ptr<HostBatch<float>>);
template std::unique_ptr<Solver> make_cublas_solver<double>(std::shared_ptr<HostBatch<double>>);

} // namespace bench
