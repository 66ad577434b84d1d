// One (ISA level, scalar type) of the Eigen peer; CMake compiles this file
// with TDLS_BENCH_EIGEN_ISA (base, v3, v4), TDLS_BENCH_EIGEN_TYPE (double,
// float, complex_double, complex_float) and the matching -march. Per system: Map the column-major A,
// PartialPivLU<Matrix<T, N, N>> (a copy of A on the stack, factored there),
// then for each right-hand side solve into a fixed-size vector and store it
// back into B. The sizes are the peers' compiled sizes: each one is a
// template instance, and instances are what make this file slow to build.
#include "peer_eigen_kernels.hpp"

#include <Eigen/Dense>

#include <complex>
#include <string>

namespace {

// The type names of kernels/instances.cmake, one identifier each (they name the entry point).
using complex_double = std::complex<double>;
using complex_float = std::complex<float>;
using T = TDLS_BENCH_EIGEN_TYPE;

template <int N>
void solve_range(int nrhs, const void* A_void, void* B_void, std::int64_t begin, std::int64_t end) {
    const T* A = static_cast<const T*>(A_void);
    T* B = static_cast<T*>(B_void);
    for (std::int64_t s = begin; s < end; ++s) {
        const Eigen::Map<const Eigen::Matrix<T, N, N>> a(A + s * N * N);
        const Eigen::PartialPivLU<Eigen::Matrix<T, N, N>> lu(a);
        for (int k = 0; k < nrhs; ++k) {
            Eigen::Map<Eigen::Matrix<T, N, 1>> b(B + (s * nrhs + k) * N);
            const Eigen::Matrix<T, N, 1> x = lu.solve(b);
            b = x;
        }
    }
}

template <int... Ns>
bench::EigenRange find(int n, std::integer_sequence<int, Ns...>) {
    bench::EigenRange found = nullptr;
    ((found = n == Ns ? &solve_range<Ns> : found), ...);
    return found;
}

} // namespace

#define TDLS_BENCH_CONCAT2(a, b, c) a##b##_##c
#define TDLS_BENCH_CONCAT(a, b, c) TDLS_BENCH_CONCAT2(a, b, c)

extern "C" __attribute__((visibility("default"))) bench::EigenRange
TDLS_BENCH_CONCAT(tdls_bench_eigen_, TDLS_BENCH_EIGEN_ISA, TDLS_BENCH_EIGEN_TYPE)(int n, const char** simd) {
    static const std::string description =
        "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
        std::to_string(EIGEN_MINOR_VERSION) + ", SIMD in use: " + Eigen::SimdInstructionSetsInUse();
    if (simd) *simd = description.c_str();
    return find(n, std::integer_sequence<int, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64>{});
}
