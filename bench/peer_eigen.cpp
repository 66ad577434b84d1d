// Peer: Eigen 3.4 fixed-size PartialPivLU, one system at a time, reading the
// column-major A of the fresh copy and solving into its B (see
// peer_eigen_kernels.cpp). The ISA level is chosen at run time, so that one
// binary runs on any x86-64 and still uses AVX-512 where the CPU has it.
// T threads split the loop (parallel.hpp). Timed: the whole loop.
#include "peer_eigen_kernels.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "check.hpp"
#include "common/scalar_type.hpp"
#include "parallel.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace bench {
namespace {

struct Isa {
    const char* name;
    const char* key;
    EigenLookup lookup_double, lookup_float, lookup_complex_double, lookup_complex_float;

    template <typename T>
    EigenLookup lookup() const {
        if constexpr (std::is_same_v<T, double>)
            return lookup_double;
        else if constexpr (std::is_same_v<T, float>)
            return lookup_float;
        else if constexpr (std::is_same_v<T, tdls::complex_double>)
            return lookup_complex_double;
        else
            return lookup_complex_float;
    }
    bool runs_here;
};

/// The best level that was built and that this CPU runs, or null when no
/// level was built; TDLS_BENCH_EIGEN_ISA=base|v3|v4 forces a built one.
const Isa* chosen_isa() {
    __builtin_cpu_init();
    static const Isa levels[] = {
#ifdef TDLS_BENCH_EIGEN_HAVE_v4
        {"x86-64-v4 (AVX-512)", "v4", &tdls_bench_eigen_v4_double, &tdls_bench_eigen_v4_float,
         &tdls_bench_eigen_v4_complex_double, &tdls_bench_eigen_v4_complex_float,
         bool(__builtin_cpu_supports("x86-64-v4"))},
#endif
#ifdef TDLS_BENCH_EIGEN_HAVE_v3
        {"x86-64-v3 (AVX2, FMA)", "v3", &tdls_bench_eigen_v3_double, &tdls_bench_eigen_v3_float,
         &tdls_bench_eigen_v3_complex_double, &tdls_bench_eigen_v3_complex_float,
         bool(__builtin_cpu_supports("x86-64-v3"))},
#endif
#ifdef TDLS_BENCH_EIGEN_HAVE_base
        {"x86-64 (SSE2)", "base", &tdls_bench_eigen_base_double, &tdls_bench_eigen_base_float,
         &tdls_bench_eigen_base_complex_double, &tdls_bench_eigen_base_complex_float, true},
#endif
        {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, false}};
    static const Isa* chosen = [&]() -> const Isa* {
        const char* forced = std::getenv("TDLS_BENCH_EIGEN_ISA");
        for (const Isa& level : levels)
            if (level.name && (forced ? !std::strcmp(forced, level.key) : level.runs_here)) return &level;
        return nullptr;
    }();
    return chosen;
}

template <typename T>
class EigenSolver final : public Solver {
  public:
    explicit EigenSolver(std::shared_ptr<HostBatch<T>> batch) : batch_(std::move(batch)) {
        if (const Isa* isa = chosen_isa())
            range_ = isa->template lookup<T>()(batch_->storage.n, nullptr);
    }
    std::string name() const override { return "eigen"; }
    std::string form() const override { return "strided col"; }
    std::string unavailable() const override {
        if (!chosen_isa()) return "unavailable: no Eigen build for this CPU (TDLS_BENCH_EIGEN_LEVELS)";
        return range_ ? std::string() : "n = " + std::to_string(batch_->storage.n) + " not compiled";
    }
    void reset() override { batch_->reset(); }
    double run(int threads) override {
        HostBatch<T>& b = *batch_;
        const Storage& st = b.storage;
        return time_once([&] {
            for_systems(st.count, threads, [&](std::int64_t begin, std::int64_t end) {
                range_(st.nrhs, b.work_A.data(), b.work_B.data(), begin, end);
            });
        });
    }
    // Eigen returns no verdict; the backward error covers it.
    CheckResult check() override { return check_batch(*batch_, false); }
    void perturb() override { perturb_batch(*batch_); }

  private:
    std::shared_ptr<HostBatch<T>> batch_;
    EigenRange range_ = nullptr;
};

} // namespace

template <typename T>
std::unique_ptr<Solver> make_eigen_solver(std::shared_ptr<HostBatch<T>> batch) {
    return std::make_unique<EigenSolver<T>>(std::move(batch));
}
template std::unique_ptr<Solver> make_eigen_solver<float>(std::shared_ptr<HostBatch<float>>);
template std::unique_ptr<Solver> make_eigen_solver<double>(std::shared_ptr<HostBatch<double>>);
template std::unique_ptr<Solver> make_eigen_solver<tdls::complex_float>(
    std::shared_ptr<HostBatch<tdls::complex_float>>);
template std::unique_ptr<Solver> make_eigen_solver<tdls::complex_double>(
    std::shared_ptr<HostBatch<tdls::complex_double>>);

std::string eigen_description() {
    const Isa* isa = chosen_isa();
    if (!isa) return "no Eigen build for this CPU among TDLS_BENCH_EIGEN_LEVELS; skipped";
    const char* simd = "";
    isa->lookup_double(2, &simd);
    return std::string(simd) + "; fixed-size PartialPivLU, " + isa->name +
           " build; sizes 2,3,4,5,6,8,12,16,24,32,48,64";
}

} // namespace bench
