// Compile-only check: the solver headers inside small CUDA kernels, one system
// per group, several groups per warp, workspace in shared memory. Built for
// sm_90 by nvcc and, through solver_kernels.hip, for gfx90a by hipcc; a
// compile error fails the build. Nothing here runs (the build machines have no
// GPU); the kernels exist to be compiled.
#if defined(__HIP__)
#include <hip/hip_runtime.h>
#endif

#include <tdls/solvers.hpp>

namespace tdls_compile_check {

template <typename Solver>
__global__ void solve_external(typename Solver::value_type* A, int* piv, typename Solver::value_type* y,
                               int* info, int batch) {
    using T = typename Solver::value_type;
    constexpr int group = Solver::threads_per_system;
    constexpr int groups_per_block = 128 / group;
    __shared__ T workspace[groups_per_block][Solver::workspace_size];
    const int local_group = threadIdx.x / group;
    const int tx = threadIdx.x % group;
    const int system = blockIdx.x * groups_per_block + local_group;
    if (local_group >= groups_per_block || system >= batch) return;
    // SoA batch: element e of system s at base[e * batch + s].
    const tdls::Verdict verdict = Solver::template solve_inplace<false, false, false>(
        tx, A + system, batch, piv + system, batch, y + system, batch, workspace[local_group]);
    if (tx == 0) info[system] = verdict.info;
}

template <typename Solver>
__global__ void factor_then_substitute_internal(typename Solver::value_type* A,
                                                typename Solver::value_type* y, int batch) {
    using T = typename Solver::value_type;
    constexpr int group = Solver::threads_per_system;
    constexpr int R = Solver::rows_per_thread;
    constexpr int N = Solver::order;
    __shared__ T workspace[32 / group][Solver::workspace_size];
    const int local_group = threadIdx.x / group;
    const int tx = threadIdx.x % group;
    const int system = blockIdx.x * (32 / group) + local_group;
    if (local_group >= 32 / group || system >= batch) return;
    T slice[N * R];
    T rhs[R];
    int pivots[R];
    for (int K = 0; K < R; ++K) {
        const int row = tx + K * group;
        for (int c = 0; c < N; ++c) slice[c * R + K] = row < N ? A[(c * N + row) * batch + system] : T(0);
        rhs[K] = row < N ? y[row * batch + system] : T(0);
    }
    Solver::template factorize<true, true>(tx, slice, 1, pivots, 1, workspace[local_group]);
    Solver::template substitute_inplace<true, true, true, 1, 1, 1>(tx, slice, 1, pivots, 1, rhs, 1,
                                                                   workspace[local_group]);
    for (int K = 0; K < R; ++K) {
        const int row = tx + K * group;
        if (row < N) y[row * batch + system] = rhs[K];
    }
}

/// Upstream TDLS's spelling on the device: factorize, then the group's own
/// barrier from make_sync(work) (found by workspace address) between the
/// caller's writes and substitute_canonical; results used as bool.
template <typename Solver>
__global__ void canonical_columns(typename Solver::value_type* A, typename Solver::value_type* X, int* ok,
                                  int batch) {
    using T = typename Solver::value_type;
    constexpr int group = Solver::threads_per_system;
    constexpr int N = Solver::order;
    __shared__ T workspace[32 / group][Solver::workspace_size];
    __shared__ int pivots[32 / group][N];
    const int local_group = threadIdx.x / group;
    const int tx = threadIdx.x % group;
    const int system = blockIdx.x * (32 / group) + local_group;
    if (local_group >= 32 / group || system >= batch) return;
    T* const work = workspace[local_group];
    auto sync = Solver::make_sync(work);
    const bool factored =
        Solver::template factorize<false, false>(tx, A + system, batch, pivots[local_group], 1, work);
    sync();
    for (int col = 0; col < N; ++col)
        Solver::template substitute_canonical<false, false, false>(
            tx, A + system, batch, pivots[local_group], 1, col, X + (std::int64_t(col) * N) * batch + system,
            batch, work);
    if (tx == 0) ok[system] = factored;
}

template <typename Solver>
__global__ void solve_dynamic(int n, typename Solver::value_type* A, int* piv, typename Solver::value_type* b,
                              typename Solver::value_type* x, int batch) {
    using T = typename Solver::value_type;
    extern __shared__ unsigned char raw[];
    T* workspace = reinterpret_cast<T*>(raw);
    const int group = Solver::threads_per_system(n);
    const int system = blockIdx.x;
    if (int(threadIdx.x) >= group || system >= batch) return;
    // One group per block: the block barrier is the caller's.
    Solver::template solve<false, false, false>(n, int(threadIdx.x), A + std::int64_t(system) * n * n, 1,
                                                piv + std::int64_t(system) * n, 1,
                                                b + std::int64_t(system) * n, x + std::int64_t(system) * n, 1,
                                                workspace, [] __device__() { __syncthreads(); });
}

template <typename T, int N, int R, tdls::RowInterchange I, tdls::MatrixLayout L>
using Static = tdls::CooperativeLUppSolverStatic<
    T, N, tdls::CooperativeLUppConfig<T>{.rows_per_thread = R, .row_interchange = I, .layout = L}>;

constexpr auto logical = tdls::RowInterchange::Logical;
constexpr auto physical = tdls::RowInterchange::Physical;
constexpr auto row_major = tdls::MatrixLayout::RowMajor;
constexpr auto col_major = tdls::MatrixLayout::ColMajor;

// Explicit instantiations: the compiler must generate device code for each.
template __global__ void solve_external<Static<double, 4, 1, logical, row_major>>(double*, int*, double*,
                                                                                  int*, int);
template __global__ void solve_external<Static<double, 8, 2, physical, col_major>>(double*, int*, double*,
                                                                                   int*, int);
template __global__ void solve_external<Static<float, 16, 2, logical, col_major>>(float*, int*, float*, int*,
                                                                                  int);
template __global__ void solve_external<Static<float, 32, 1, physical, row_major>>(float*, int*, float*, int*,
                                                                                   int);
template __global__ void solve_external<Static<float, 7, 3, physical, row_major>>(float*, int*, float*, int*,
                                                                                  int);
template __global__ void
factor_then_substitute_internal<Static<double, 12, 3, logical, row_major>>(double*, double*, int);
template __global__ void
factor_then_substitute_internal<Static<float, 5, 5, physical, col_major>>(float*, float*, int);
template __global__ void canonical_columns<Static<double, 6, 2, physical, row_major>>(double*, double*, int*,
                                                                                      int);
template __global__ void canonical_columns<Static<float, 9, 3, logical, col_major>>(float*, float*, int*,
                                                                                    int);
template __global__ void solve_dynamic<tdls::CooperativeLUppSolverDynamic<double>>(int, double*, int*,
                                                                                   double*, double*, int);
template __global__ void solve_dynamic<tdls::CooperativeLUppSolverDynamic<
    float, tdls::CooperativeLUppConfig<float>{.rows_per_thread = 2,
                                              .row_interchange = tdls::RowInterchange::Physical}>>(
    int, float*, int*, float*, float*, int);

// Complex, in the device-usable pair (tdls/core/complex_pair.hpp): the
// public solvers with both interchange schemes, both layouts, external and
// internal operands, static and dynamic.
using ComplexFloat = tdls::ComplexPair<float>;
using ComplexDouble = tdls::ComplexPair<double>;
template __global__ void solve_external<Static<ComplexDouble, 8, 2, logical, col_major>>(ComplexDouble*, int*,
                                                                                         ComplexDouble*, int*, int);
template __global__ void solve_external<Static<ComplexFloat, 32, 1, physical, row_major>>(ComplexFloat*, int*,
                                                                                          ComplexFloat*, int*, int);
template __global__ void
factor_then_substitute_internal<Static<ComplexFloat, 5, 5, physical, row_major>>(ComplexFloat*, ComplexFloat*, int);
template __global__ void canonical_columns<Static<ComplexDouble, 6, 2, logical, col_major>>(ComplexDouble*,
                                                                                            ComplexDouble*, int*,
                                                                                            int);
template __global__ void solve_dynamic<tdls::CooperativeLUppSolverDynamic<ComplexDouble>>(int, ComplexDouble*, int*,
                                                                                          ComplexDouble*,
                                                                                          ComplexDouble*, int);

} // namespace tdls_compile_check
