// tdls-coop-bench: the header-only cooperative LU-pp solver on the CPU, against
// a loop of LAPACKE_dgesv / sgesv calls (OpenBLAS held to one thread), in the
// same run, on the same systems.
//
// Method (after ../shared/peers): entries uniform in [-1, 1] with +-n on the
// diagonal, rows shuffled so that pivoting really swaps; column-major systems
// back to back; A and b read-only, x written; each solver copies a system into
// its own scratch (the solver: its register slice) inside the timed region.
// Each measurement is the best of `--reps` samples; every sample solves the
// whole batch. The largest backward error ||b - A x|| / (||A|| ||x|| + ||b||)
// of the last sample is reported for both solvers.
//
// Usage: tdls-coop-bench [--sizes 2,4,8,16,32] [--mib 32] [--reps 3] [--threads T]
// (sizes among 2 3 4 5 8 12 16 24 32; threads defaults to every core)
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <tdls/solvers.hpp>

extern "C" void openblas_set_num_threads(int);

namespace {

struct Options {
    std::vector<int> sizes = {2, 4, 8, 16, 32};
    double mib = 32;
    int reps = 3;
    int threads = int(std::max(1u, std::thread::hardware_concurrency()));
};

Options parse(int argc, char** argv) {
    Options o;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string key = argv[a], value = argv[a + 1];
        if (key == "--sizes") {
            o.sizes.clear();
            for (std::size_t pos = 0; pos < value.size();) {
                const std::size_t comma = value.find(',', pos);
                o.sizes.push_back(std::atoi(value.substr(pos, comma - pos).c_str()));
                pos = comma == std::string::npos ? value.size() : comma + 1;
            }
        } else if (key == "--mib") {
            o.mib = std::atof(value.c_str());
        } else if (key == "--reps") {
            o.reps = std::max(1, std::atoi(value.c_str()));
        } else if (key == "--threads") {
            o.threads = std::max(1, std::atoi(value.c_str()));
        } else {
            std::fprintf(stderr, "unknown option %s\n", key.c_str());
            std::exit(2);
        }
    }
    return o;
}

template <typename T>
struct Batch {
    int n;
    long count;
    std::vector<T> A, b, x;
};

template <typename T>
Batch<T> make_batch(int n, double mib) {
    const long bytes_per_system = long(sizeof(T)) * (long(n) * n + 2 * n);
    Batch<T> batch{n, std::max(1L, long(mib * 1048576.0 / bytes_per_system)), {}, {}, {}};
    batch.A.resize(std::size_t(batch.count) * n * n);
    batch.b.resize(std::size_t(batch.count) * n);
    batch.x.resize(std::size_t(batch.count) * n);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<int> order(n);
    for (long s = 0; s < batch.count; ++s) {
        T* A = batch.A.data() + std::size_t(s) * n * n;
        for (int i = 0; i < n; ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                A[std::size_t(c) * n + order[r]] = T(u(rng) + (r == c ? (u(rng) < 0 ? -n : n) : 0));
        for (int r = 0; r < n; ++r) batch.b[std::size_t(s) * n + r] = T(u(rng));
    }
    return batch;
}

/// Splits [0, count) over `threads` std::threads.
template <typename Fn>
void parallel(long count, int threads, Fn&& fn) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { fn(count * t / threads, count * (t + 1) / threads); });
    for (auto& th : pool) th.join();
}

/// The solver with one thread per system: every row in that thread's slice.
template <typename T, int N>
void solve_tdls(Batch<T>& batch, long begin, long end) {
    using Solver =
        tdls::CooperativeLUppSolverStatic<T, N,
                                          tdls::CooperativeLUppConfig<T>{.rows_per_thread = N,
                                                                         .unroll_loops = false,
                                                                         .layout = tdls::Layout::ColMajor}>;
    T slice[N * N], rhs[N], work[Solver::workspace_size];
    int piv[N];
    for (long s = begin; s < end; ++s) {
        std::memcpy(slice, batch.A.data() + std::size_t(s) * N * N, sizeof slice);
        std::memcpy(rhs, batch.b.data() + std::size_t(s) * N, sizeof rhs);
        Solver::template solve_inplace<true, true, true>(0, slice, 1, piv, 1, rhs, 1, work);
        std::memcpy(batch.x.data() + std::size_t(s) * N, rhs, sizeof rhs);
    }
}

lapack_int lapack_gesv(int n, double* A, lapack_int* ipiv, double* b) {
    return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
}
lapack_int lapack_gesv(int n, float* A, lapack_int* ipiv, float* b) {
    return LAPACKE_sgesv(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
}

template <typename T>
void solve_lapack(Batch<T>& batch, long begin, long end) {
    const int n = batch.n;
    std::vector<T> A(std::size_t(n) * n);
    std::vector<lapack_int> ipiv(n);
    for (long s = begin; s < end; ++s) {
        std::memcpy(A.data(), batch.A.data() + std::size_t(s) * n * n, A.size() * sizeof(T));
        T* x = batch.x.data() + std::size_t(s) * n;
        std::memcpy(x, batch.b.data() + std::size_t(s) * n, n * sizeof(T));
        lapack_gesv(n, A.data(), ipiv.data(), x);
    }
}

template <typename T>
double max_backward_error(const Batch<T>& batch) {
    const int n = batch.n;
    double worst = 0;
    for (long s = 0; s < batch.count; ++s) {
        const T* A = batch.A.data() + std::size_t(s) * n * n;
        const T* b = batch.b.data() + std::size_t(s) * n;
        const T* x = batch.x.data() + std::size_t(s) * n;
        long double r_norm = 0, a_norm = 0, x_norm = 0, b_norm = 0;
        for (int i = 0; i < n; ++i) {
            long double r = b[i], row = 0;
            for (int j = 0; j < n; ++j) {
                r -= (long double)A[std::size_t(j) * n + i] * x[j];
                row += std::fabs((long double)A[std::size_t(j) * n + i]);
            }
            r_norm = std::max(r_norm, std::fabs(r));
            a_norm = std::max(a_norm, row);
            x_norm = std::max(x_norm, std::fabs((long double)x[i]));
            b_norm = std::max(b_norm, std::fabs((long double)b[i]));
        }
        const double e = double(r_norm / (a_norm * x_norm + b_norm));
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
    }
    return worst;
}

/// Best-of-reps time of one solver over the batch, in seconds.
template <typename Fn>
double best_time(int reps, Fn&& fn) {
    double best = INFINITY;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

template <typename T, int N>
void run_size(const Options& o, std::FILE* csv) {
    Batch<T> batch = make_batch<T>(N, o.mib);
    const char* type = sizeof(T) == 8 ? "double" : "float";
    const double flops = 2.0 / 3.0 * N * N * N + 2.0 * N * N;
    for (int threads : {1, o.threads}) {
        const double t_tdls = best_time(o.reps, [&] {
            parallel(batch.count, threads, [&](long b, long e) { solve_tdls<T, N>(batch, b, e); });
        });
        const double err_tdls = max_backward_error(batch);
        const double t_lapack = best_time(o.reps, [&] {
            parallel(batch.count, threads, [&](long b, long e) { solve_lapack(batch, b, e); });
        });
        const double err_lapack = max_backward_error(batch);
        const double rate_tdls = batch.count / t_tdls, rate_lapack = batch.count / t_lapack;
        std::printf("%-6s %3d %7ld %2d | %10.3f %8.2f %9.2e | %10.3f %8.2f %9.2e | %6.2fx\n", type, N,
                    batch.count, threads, rate_tdls / 1e6, rate_tdls * flops / 1e9, err_tdls,
                    rate_lapack / 1e6, rate_lapack * flops / 1e9, err_lapack, rate_tdls / rate_lapack);
        std::fprintf(csv, "%s,%d,%ld,%d,%.6e,%.6e,%.3e,%.3e\n", type, N, batch.count, threads, rate_tdls,
                     rate_lapack, err_tdls, err_lapack);
        if (threads == o.threads) break;
    }
}

/// The orders compiled into the benchmark (the peers' sweep); --sizes picks among them.
using CompiledOrders = std::integer_sequence<int, 2, 3, 4, 5, 8, 12, 16, 24, 32>;

template <typename T, int... Ns>
void run_sizes(const Options& o, std::FILE* csv, std::integer_sequence<int, Ns...>) {
    auto one = [&](auto size) {
        constexpr int N = decltype(size)::value;
        if (std::find(o.sizes.begin(), o.sizes.end(), N) != o.sizes.end()) run_size<T, N>(o, csv);
    };
    (one(std::integral_constant<int, Ns>{}), ...);
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    openblas_set_num_threads(1);
    std::FILE* csv = std::fopen("tdls-coop-bench.csv", "w");
    if (!csv) return 1;
    std::fprintf(csv, "type,n,systems,threads,tdls_systems_per_s,lapacke_systems_per_s,tdls_backward_error,"
                      "lapacke_backward_error\n");
    std::printf("tdls cooperative LU-pp (header-only, one CPU thread per system) vs LAPACKE ?gesv loop\n");
    std::printf("batch ~%.0f MiB per size, best of %d, column-major, pivot-heavy systems\n\n", o.mib, o.reps);
    std::printf("%-6s %3s %7s %2s | %10s %8s %9s | %10s %8s %9s | %7s\n", "type", "n", "systems", "T",
                "tdls Ms/s", "GFLOP/s", "bwd err", "lapack Ms/s", "GFLOP/s", "bwd err", "ratio");
    for (int n : o.sizes)
        if (n != 2 && n != 3 && n != 4 && n != 5 && n != 8 && n != 12 && n != 16 && n != 24 && n != 32)
            std::fprintf(stderr, "n = %d is not compiled in (2 3 4 5 8 12 16 24 32); skipped\n", n);
    run_sizes<double>(o, csv, CompiledOrders{});
    run_sizes<float>(o, csv, CompiledOrders{});
    std::fclose(csv);
    std::printf("\nCSV: tdls-coop-bench.csv\n");
    return 0;
}
