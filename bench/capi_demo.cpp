// tdls-demo: the README's main job. Solves batches of small systems through
// the C ABI (tdls_batched_gesv, CPU backend, oneTBB) and, in the same run and
// on the same systems, through a loop of LAPACKE_?gesv calls (OpenBLAS held to
// one thread, the loop split over the same number of threads). Prints
// systems/s, GFLOP/s (2/3 n^3 + 2 n^2 per system), the ratio, and the largest
// backward error of each.
//
// Method (after ../shared/peers): entries uniform in [-1, 1] with +-n on the
// diagonal, rows shuffled so that pivoting really swaps; column-major systems
// back to back, one right-hand side. Both solvers work in place on a fresh
// copy of the batch made before each timed sample (untimed). Each rate is the
// best of --reps samples. The backward error is ||b - A x||inf /
// (||A||inf ||x||inf + ||b||inf), computed in long double.
//
// Usage: tdls-demo [--sizes 2,4,8,16,32,64] [--types d,s] [--mib 32] [--reps 3]
//                  [--threads T] [--csv FILE]
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <tdls/tdls.h>

extern "C" void openblas_set_num_threads(int);

namespace {

struct Options {
    std::vector<int> sizes = {2, 4, 8, 16, 32, 64};
    std::string types = "d,s";
    double mib = 32;
    int reps = 3;
    int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    std::string csv;
};

std::vector<int> parse_list(const std::string& value) {
    std::vector<int> out;
    for (std::size_t pos = 0; pos < value.size();) {
        const std::size_t comma = value.find(',', pos);
        out.push_back(std::atoi(value.substr(pos, comma - pos).c_str()));
        pos = comma == std::string::npos ? value.size() : comma + 1;
    }
    return out;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int a = 1; a < argc; a += 2) {
        const std::string key = argv[a];
        if (a + 1 >= argc) {
            std::fprintf(stderr, "tdls-demo: %s needs a value\n", key.c_str());
            std::exit(2);
        }
        const std::string value = argv[a + 1];
        if (key == "--sizes")
            o.sizes = parse_list(value);
        else if (key == "--types")
            o.types = value;
        else if (key == "--mib")
            o.mib = std::atof(value.c_str());
        else if (key == "--reps")
            o.reps = std::max(1, std::atoi(value.c_str()));
        else if (key == "--threads")
            o.threads = std::max(1, std::atoi(value.c_str()));
        else if (key == "--csv")
            o.csv = value;
        else {
            std::fprintf(stderr, "tdls-demo: unknown option %s\n", key.c_str());
            std::exit(2);
        }
    }
    return o;
}

template <typename T>
struct Batch {
    int n;
    long count;
    std::vector<T> A, b;  // the systems, never modified
    std::vector<T> LU, x; // working copies, overwritten by each sample
    std::vector<int> ipiv, info;
};

template <typename T>
Batch<T> make_batch(int n, double mib) {
    const long bytes_per_system = long(sizeof(T)) * (long(n) * n + 2 * n);
    Batch<T> batch{n, std::max(1L, long(mib * 1048576.0 / double(bytes_per_system))), {}, {}, {}, {}, {}, {}};
    batch.A.resize(std::size_t(batch.count) * n * n);
    batch.b.resize(std::size_t(batch.count) * n);
    batch.ipiv.resize(std::size_t(batch.count) * n);
    batch.info.resize(std::size_t(batch.count));
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<int> order(static_cast<std::size_t>(n));
    for (long s = 0; s < batch.count; ++s) {
        T* A = batch.A.data() + std::size_t(s) * n * n;
        for (int i = 0; i < n; ++i) order[std::size_t(i)] = i;
        std::shuffle(order.begin(), order.end(), rng);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                A[std::size_t(c) * n + order[std::size_t(r)]] =
                    T(u(rng) + (r == c ? (u(rng) < 0 ? -n : n) : 0));
        for (int r = 0; r < n; ++r) batch.b[std::size_t(s) * n + r] = T(u(rng));
    }
    return batch;
}

template <typename T>
void fresh_copy(Batch<T>& batch) {
    batch.LU = batch.A;
    batch.x = batch.b;
}

/// Splits [0, count) over `threads` std::threads.
template <typename Fn>
void parallel(long count, int threads, Fn&& fn) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { fn(count * t / threads, count * (t + 1) / threads); });
    for (auto& th : pool) th.join();
}

constexpr tdls_dtype_t dtype_of(double) {
    return TDLS_FLOAT64;
}
constexpr tdls_dtype_t dtype_of(float) {
    return TDLS_FLOAT32;
}
lapack_int lapack_gesv(int n, double* A, lapack_int* ipiv, double* b) {
    return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
}
lapack_int lapack_gesv(int n, float* A, lapack_int* ipiv, float* b) {
    return LAPACKE_sgesv(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
}

template <typename T>
void solve_tdls(tdls_handle_t handle, Batch<T>& batch) {
    const int n = batch.n;
    const tdls_status_t status = tdls_batched_gesv(handle, dtype_of(T{}), TDLS_COL_MAJOR, n, 1,
                                                   batch.LU.data(), n, std::int64_t(n) * n, batch.ipiv.data(),
                                                   n, batch.x.data(), n, n, batch.info.data(), batch.count);
    if (status != TDLS_SUCCESS) {
        std::fprintf(stderr, "tdls-demo: %s: %s\n", tdls_status_name(status), tdls_last_error());
        std::exit(1);
    }
}

template <typename T>
void solve_lapack(Batch<T>& batch, long begin, long end) {
    const int n = batch.n;
    for (long s = begin; s < end; ++s)
        batch.info[std::size_t(s)] =
            lapack_gesv(n, batch.LU.data() + std::size_t(s) * n * n, batch.ipiv.data() + std::size_t(s) * n,
                        batch.x.data() + std::size_t(s) * n);
}

template <typename T>
double max_backward_error(const Batch<T>& batch) {
    const int n = batch.n;
    double worst = 0;
    for (long s = 0; s < batch.count; ++s) {
        if (batch.info[std::size_t(s)] != 0) return INFINITY; // these systems are all nonsingular
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

/// Best-of-reps time of one solver over a fresh copy of the batch, in seconds.
template <typename T, typename Fn>
double best_time(int reps, Batch<T>& batch, Fn&& fn) {
    double best = INFINITY;
    for (int r = 0; r < reps; ++r) {
        fresh_copy(batch);
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

template <typename T>
void run_size(const Options& o, int n, std::FILE* csv) {
    Batch<T> batch = make_batch<T>(n, o.mib);
    const char* type = sizeof(T) == 8 ? "double" : "float";
    const double flops = 2.0 / 3.0 * n * n * n + 2.0 * n * n;
    tdls_handle_t handle = nullptr;
    if (tdls_create(&handle, TDLS_BACKEND_CPU, 0) != TDLS_SUCCESS) {
        std::fprintf(stderr, "tdls-demo: tdls_create: %s\n", tdls_last_error());
        std::exit(1);
    }
    for (int threads : {1, o.threads}) {
        tdls_set_num_threads(handle, threads);
        const double t_tdls = best_time(o.reps, batch, [&] { solve_tdls(handle, batch); });
        const double err_tdls = max_backward_error(batch);
        const double t_lapack = best_time(o.reps, batch, [&] {
            parallel(batch.count, threads, [&](long b, long e) { solve_lapack(batch, b, e); });
        });
        const double err_lapack = max_backward_error(batch);
        const double rate_tdls = double(batch.count) / t_tdls, rate_lapack = double(batch.count) / t_lapack;
        std::printf("%-6s %4d %8ld %2d | %10.3f %8.2f %9.2e | %10.3f %8.2f %9.2e | %6.2fx\n", type, n,
                    batch.count, threads, rate_tdls / 1e6, rate_tdls * flops / 1e9, err_tdls,
                    rate_lapack / 1e6, rate_lapack * flops / 1e9, err_lapack, rate_tdls / rate_lapack);
        if (csv)
            std::fprintf(csv, "%s,%d,%ld,%d,%.6e,%.6e,%.3e,%.3e\n", type, n, batch.count, threads, rate_tdls,
                         rate_lapack, err_tdls, err_lapack);
        if (threads == o.threads) break;
    }
    tdls_destroy(handle);
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    openblas_set_num_threads(1);
    std::FILE* csv = nullptr;
    if (!o.csv.empty()) {
        csv = std::fopen(o.csv.c_str(), "w");
        if (!csv) {
            std::fprintf(stderr, "tdls-demo: cannot write %s\n", o.csv.c_str());
            return 1;
        }
        std::fprintf(csv,
                     "type,n,systems,threads,tdls_systems_per_s,lapacke_systems_per_s,tdls_backward_error,"
                     "lapacke_backward_error\n");
    }
    int major, minor, patch;
    tdls_get_version(&major, &minor, &patch);
    std::printf("libtdls %d.%d.%d: tdls_batched_gesv (CPU backend, oneTBB) vs a LAPACKE ?gesv loop "
                "(OpenBLAS, 1 thread per call)\n",
                major, minor, patch);
    std::printf("batch ~%.0f MiB per size, best of %d, column-major, one rhs, pivoting systems, in place\n\n",
                o.mib, o.reps);
    std::printf("%-6s %4s %8s %2s | %10s %8s %9s | %10s %8s %9s | %7s\n", "type", "n", "systems", "T",
                "tdls Ms/s", "GFLOP/s", "bwd err", "lapack Ms/s", "GFLOP/s", "bwd err", "ratio");
    for (const char type : o.types) {
        if (type != 'd' && type != 's') continue;
        for (const int n : o.sizes) {
            if (n < 1 || n > TDLS_MAX_ORDER) {
                std::fprintf(stderr, "tdls-demo: n = %d outside 1..%d; skipped\n", n, TDLS_MAX_ORDER);
                continue;
            }
            if (type == 'd')
                run_size<double>(o, n, csv);
            else
                run_size<float>(o, n, csv);
        }
    }
    if (csv) {
        std::fclose(csv);
        std::printf("\nCSV: %s\n", o.csv.c_str());
    }
    return 0;
}
