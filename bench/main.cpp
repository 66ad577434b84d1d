// tdls-bench: the project's benchmark and the README's main command. Sweeps
// n, type, layout, batch form, nrhs, threads and backend; times libtdls
// through its C ABI and, in the same run and on the same systems, the peers
// (LAPACKE loop, Eigen fixed-size, cuBLAS batched on a GPU); checks every
// answer; prints markdown tables and writes a CSV and an SVG plot.
//
// Method (after ../shared/peers, README.md there): see bench/README.md.
// In short: for each (type, n, nrhs) the systems are generated once per
// storage; every timed sample starts from a fresh copy of the pristine
// batch made outside the timed region (the solvers work in place); samples
// go round-robin over all solvers and thread counts of the group, so that a
// disturbance of the shared machine hits all of them alike; each solver is
// checked right after its last sample.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <tdls/check/backward_error.hpp>

#include <tdls/generated/instances.hpp>
#include <tdls/tdls.h>

#include "batch.hpp"
#include "common/scalar_type.hpp"
#include "machine.hpp"
#include "options.hpp"
#include "peers.hpp"
#include "results.hpp"
#include "solver_tdls.hpp"

namespace bench {
namespace {

/// One solver at one thread count, with its row of results.
struct Measurement {
    Solver* solver;
    Row row;
};

struct Backend {
    tdls_handle_t handle = nullptr;
    std::string why; // set when handle is null
    std::string name;
};

// The orders this build of the library compiled (kernels/instances.cmake,
// its instance profile): the SIMD kernels' static orders, the same for every
// type, layout and ISA (listed once, with the generic set built everywhere),
// and each GPU plugin's register kernels.
#define TDLS_BENCH_ORDER_OF(T, N, ROW_MAJOR) N,
constexpr int simd_static_orders[] = {TDLS_SIMD_GENERIC_INSTANCES(TDLS_BENCH_ORDER_OF) 0};
constexpr int cuda_register_orders[] = {TDLS_GPU_CUDA_INSTANCES(TDLS_BENCH_ORDER_OF) 0};
constexpr int hip_register_orders[] = {TDLS_GPU_HIP_INSTANCES(TDLS_BENCH_ORDER_OF) 0};
#undef TDLS_BENCH_ORDER_OF

/// "1-16", "1, 2, 7, 16": the distinct nonzero orders of a list, as ranges.
template <std::size_t Size>
std::string static_orders_text(const int (&orders)[Size]) {
    std::vector<int> distinct;
    for (int n : orders)
        if (n > 0) distinct.push_back(n);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::string text;
    for (std::size_t i = 0; i < distinct.size();) {
        std::size_t j = i;
        while (j + 1 < distinct.size() && distinct[j + 1] == distinct[j] + 1) ++j;
        if (!text.empty()) text += ", ";
        text += std::to_string(distinct[i]);
        if (j > i) text += "-" + std::to_string(distinct[j]);
        i = j + 1;
    }
    return text.empty() ? "none" : text;
}

Backend open_backend(const std::string& name) {
    Backend backend;
    backend.name = name;
    const tdls_backend_t kind = name == "cuda"   ? TDLS_BACKEND_CUDA
                                : name == "hip"  ? TDLS_BACKEND_HIP
                                : name == "auto" ? TDLS_BACKEND_AUTO
                                                 : TDLS_BACKEND_CPU;
    const tdls_status_t status = tdls_create(&backend.handle, kind, 0);
    if (status != TDLS_SUCCESS) {
        backend.handle = nullptr;
        backend.why = std::string("unavailable: ") + tdls_status_name(status) + ": " + tdls_last_error();
    } else if (kind == TDLS_BACKEND_CUDA || kind == TDLS_BACKEND_HIP) {
        // A GPU backend needs device memory, which this bench does not allocate yet.
        tdls_destroy(backend.handle);
        backend.handle = nullptr;
        backend.why = "unavailable: tdls-bench has no device-memory path for the " + name + " backend yet";
    }
    return backend;
}

/// Runs every measurement of one (type, n, nrhs) and appends its rows.
template <typename T>
void run_group(const Options& o, const Backend& backend, int n, int nrhs, bool first_group,
               std::vector<Row>& rows, bool& failed) {
    const std::int64_t count = systems_for(n, nrhs, sizeof(T), o.mib);
    std::map<std::string, std::shared_ptr<HostBatch<T>>> batches; // by storage
    auto batch_for = [&](bool row_major, bool interleaved, bool shuffled = true) {
        const std::string key = std::string(row_major ? "row" : "col") + (interleaved ? " interleaved" : "") +
                                (shuffled ? "" : " unshuffled");
        auto& batch = batches[key];
        if (!batch) {
            Storage st;
            st.n = n, st.nrhs = nrhs, st.count = count, st.row_major = row_major,
            st.interleaved = interleaved;
            st.block = interleaved ? (o.block > 0 ? std::min(o.block, count) : count) : 1;
            batch = std::make_shared<HostBatch<T>>(st, std::size_t(o.offset));
            generate(*batch, 42, shuffled);
        }
        return batch;
    };
    std::vector<std::unique_ptr<Solver>> solvers;
    if (o.wants_peer("lapacke")) solvers.push_back(make_lapacke_solver<T>(batch_for(false, false)));
    if (o.wants_peer("eigen")) solvers.push_back(make_eigen_solver<T>(batch_for(false, false)));
    constexpr bool complex = tdls::is_complex_scalar_v<T>;
    if (o.wants_peer("cublas")) {
        if constexpr (complex)
            solvers.push_back(std::make_unique<NotForType>("cublas", false, "complex not wired in this peer"));
        else
            solvers.push_back(make_cublas_solver<T>(batch_for(false, false)));
    }
    if (o.wants_peer("mkl")) {
        solvers.push_back(make_mkl_batch_solver<T>(batch_for(false, false)));
        if constexpr (complex)
            solvers.push_back(std::make_unique<NotForType>("mkl compact nopiv", true,
                                                           "complex not wired in this peer"));
        else
            solvers.push_back(make_mkl_compact_solver<T>(batch_for(false, false, false)));
    }
    for (const bool row_major : o.row_major)
        for (const Form form : o.forms)
            for (const Op op : o.ops)
                solvers.push_back(make_tdls_solver<T>(backend.handle, backend.why,
                                                      batch_for(row_major, form == Form::interleaved), form, op));

    std::vector<Measurement> measurements;
    for (auto& solver : solvers) {
        const std::vector<int> thread_counts = solver->threaded() ? o.threads : std::vector<int>{0};
        for (const int threads : thread_counts) {
            Measurement m{solver.get(), {}};
            m.row.type = tdls::kernels::ScalarTraits<T>::info.lapack_prefix;
            m.row.n = n, m.row.nrhs = nrhs, m.row.threads = threads, m.row.systems = count;
            m.row.solver = solver->name(), m.row.form = solver->form();
            m.row.in_place = solver->in_place();
            const std::string why = solver->unavailable();
            if (!why.empty()) m.row.status = why;
            measurements.push_back(std::move(m));
        }
    }
    OtherCpu other;
    other.start();
    // The first group also warms up the thread pools and libraries (untimed).
    for (int pass = first_group ? -1 : 0; pass < o.reps; ++pass)
        for (Measurement& m : measurements) {
            if (m.row.status != "ok") continue;
            m.solver->reset();
            const double seconds = m.solver->run(m.row.threads);
            if (seconds < 0) {
                m.row.status = "call failed";
                failed = true;
                continue;
            }
            if (pass < 0) continue;
            m.row.samples.seconds.push_back(seconds);
            if (pass == o.reps - 1) {
                if (o.self_test && m.row.solver == "tdls") m.solver->perturb();
                m.row.check = m.solver->check();
                if (!m.row.check.passed()) m.row.status = "check FAILED";
            }
        }
    const double other_cores = other.cores();
    for (Measurement& m : measurements) {
        m.row.other_cpu = other_cores;
        const char* type = type_name(m.row.type);
        if (m.row.ok()) {
            std::printf(
                "  %-6s n %3d nrhs %d T %d  %-28s %10.4f Ms/s (median %.4f) %8.3f GFLOP/s  bwd %.2f\n", type,
                n, nrhs, m.row.threads, m.row.label().c_str(), m.row.best_rate() * 1e-6,
                m.row.median_rate() * 1e-6, m.row.gflops(), m.row.check.max_ratio);
        } else {
            std::printf("  %-6s n %3d nrhs %d T %d  %-28s %s", type, n, nrhs, m.row.threads,
                        m.row.label().c_str(), m.row.status == "check FAILED" ? "" : m.row.status.c_str());
            if (m.row.status == "check FAILED")
                std::printf("check FAILED: %s: max backward error ratio %.3g (bound %.0f), %lld nonzero info%s",
                            m.row.label().c_str(), m.row.check.max_ratio, tdls::check::backward_error_bound,
                            (long long)m.row.check.nonzero_info,
                            m.row.check.a_intact ? "" : ", the read-only A was written");
            std::printf("\n");
            if (m.row.status == "check FAILED") failed = true;
        }
        rows.push_back(m.row);
    }
    std::fflush(stdout);
}

/// The folder of oneMKL's libmkl_rt.so.3: TDLS_BENCH_MKL's, else that of the
/// Python whose `pip install mkl` put it in <prefix>/lib; empty if neither.
std::string mkl_folder() {
    const char* path = std::getenv("TDLS_BENCH_MKL");
    if (path && *path) {
        const std::string p = path;
        const auto slash = p.rfind('/');
        return slash == std::string::npos ? std::string() : p.substr(0, slash);
    }
    std::string prefix;
    if (std::FILE* python = popen("python3 -c 'import sys; print(sys.prefix)' 2>/dev/null", "r")) {
        char line[4096] = {};
        if (std::fgets(line, sizeof line, python)) prefix = line;
        pclose(python);
    }
    while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.pop_back();
    if (prefix.empty()) return {};
    const std::string folder = prefix + "/lib";
    return access((folder + "/libmkl_rt.so.3").c_str(), R_OK) == 0 ? folder : std::string();
}

/// OpenBLAS reads OPENBLAS_NUM_THREADS when it is loaded, before main, and
/// oneMKL's libmkl_rt finds its sibling libraries through LD_LIBRARY_PATH,
/// which the loader reads at start: set OPENBLAS_NUM_THREADS=1,
/// MKL_THREADING_LAYER=SEQUENTIAL and MKL's folder there, and start again,
/// once, so that neither library starts threads of its own.
void set_library_environment(char** argv) {
    if (const char* done = std::getenv("TDLS_BENCH_ENVIRONMENT"); done && std::strcmp(done, "1") == 0) return;
    setenv("TDLS_BENCH_ENVIRONMENT", "1", 1);
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    setenv("MKL_THREADING_LAYER", "SEQUENTIAL", 1);
    const std::string folder = mkl_folder();
    if (!folder.empty()) {
        const char* path = std::getenv("LD_LIBRARY_PATH");
        setenv("LD_LIBRARY_PATH", (folder + (path && *path ? ":" + std::string(path) : "")).c_str(), 1);
    }
    execv("/proc/self/exe", argv);
    // Without /proc, openblas_set_num_threads(1) and mkl_set_threading_layer
    // still hold both to one thread per call; MKL is then found only on the
    // caller's LD_LIBRARY_PATH.
}

std::string join(const std::string& dir, const std::string& file) {
    return file.empty() || file[0] == '/' || dir.empty() || dir == "." ? file : dir + "/" + file;
}

} // namespace
} // namespace bench

int main(int argc, char** argv) {
    using namespace bench;
    set_library_environment(argv);
    const Options o = parse_options(argc, argv);
    const double start = now_seconds();

    int major = 0, minor = 0, patch = 0;
    tdls_get_version(&major, &minor, &patch);
    std::printf("# tdls-bench\n\ncommand: `%s`\n\n", o.command_line.c_str());
    std::printf("| | |\n|---|---|\n| libtdls | %d.%d.%d, backend %s |\n", major, minor, patch,
                o.backend.c_str());
    std::printf("| instances | profile %s; SIMD static orders %s (per ISA, type and layout; others: the dynamic "
                "kernel); GPU register orders: CUDA %s, HIP %s |\n",
                TDLS_INSTANCE_PROFILE_NAME, static_orders_text(simd_static_orders).c_str(),
                static_orders_text(cuda_register_orders).c_str(), static_orders_text(hip_register_orders).c_str());
    for (const auto& [key, value] : machine_facts()) std::printf("| %s | %s |\n", key.c_str(), value.c_str());
    if (o.wants_peer("lapacke")) std::printf("| LAPACKE peer | %s |\n", lapacke_description().c_str());
    if (o.wants_peer("eigen")) std::printf("| Eigen peer | %s |\n", eigen_description().c_str());
    if (o.wants_peer("cublas")) std::printf("| GPU peer | %s |\n", cublas_description().c_str());
    if (o.wants_peer("mkl")) std::printf("| oneMKL peer | %s |\n", mkl_description().c_str());
    std::printf("| batches | A + B about %g MiB per (type, n, nrhs), starting %d bytes past a 64-byte boundary; "
                "best and median of %d samples |\n",
                o.mib, o.offset, o.reps);

    std::map<int, Limits> limits;
    if (o.machine) {
        for (int threads : o.threads) limits[threads] = measure_limits(threads, o.triad_mib);
    }

    const Backend backend = open_backend(o.backend);
    if (!backend.why.empty()) std::printf("| tdls | %s |\n", backend.why.c_str());
    std::printf("\n## Measurements\n\n");
    std::vector<Row> rows;
    bool failed = false, first = true;
    for (const char type : o.types)
        for (const int nrhs : o.nrhs)
            for (const int n : o.sizes) {
                switch (type) {
                case 's':
                    run_group<float>(o, backend, n, nrhs, first, rows, failed);
                    break;
                case 'c':
                    run_group<tdls::complex_float>(o, backend, n, nrhs, first, rows, failed);
                    break;
                case 'z':
                    run_group<tdls::complex_double>(o, backend, n, nrhs, first, rows, failed);
                    break;
                default:
                    run_group<double>(o, backend, n, nrhs, first, rows, failed);
                }
                first = false;
            }
    if (backend.handle) tdls_destroy(backend.handle);

    if (o.machine) {
        std::printf(
            "\n## Machine limits (larger of start and end of the run)\n\n"
            "| threads | FMA peak double GFLOP/s | FMA peak float GFLOP/s | triad GB/s (3 x %g MiB) | "
            "detail |\n|---|---|---|---|---|\n",
            o.triad_mib);
        for (auto& [threads, at_start] : limits) {
            at_start = larger(at_start, measure_limits(threads, o.triad_mib));
            std::printf("| %d | %.1f | %.1f | %.1f | %s |\n", threads, at_start.fma_double,
                        at_start.fma_float, at_start.triad, at_start.fma_detail.c_str());
        }
        for (Row& row : rows) {
            const auto found = limits.find(row.threads);
            if (found != limits.end())
                row.roofline =
                    roofline_systems_per_s(found->second, row.type, row.n, row.nrhs, row.in_place);
        }
    }
    print_report(rows, o.reps);

    if (!o.out.empty() && o.out != ".") mkdir(o.out.c_str(), 0777);
    const std::string csv = join(o.out, o.csv), svg = join(o.out, o.svg);
    std::printf("\n");
    if (!o.csv.empty()) {
        if (write_csv(rows, csv))
            std::printf("CSV: %s\n", csv.c_str());
        else
            std::fprintf(stderr, "tdls-bench: cannot write %s\n", csv.c_str()), failed = true;
    }
    if (!o.svg.empty()) {
        if (write_svg(rows, svg, "tdls-bench: throughput against n (" + o.command_line + ")"))
            std::printf("SVG: %s\n", svg.c_str());
        else
            std::fprintf(stderr, "tdls-bench: cannot write %s\n", svg.c_str()), failed = true;
    }
    std::printf("wall time %.1f s; %s\n", now_seconds() - start,
                failed ? "FAILED: a check or a call failed (see above)" : "all checks passed");
    return failed ? 1 : 0;
}
