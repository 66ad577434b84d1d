// Peers: oneMKL, loaded at run time (libmkl_rt.so.3, as `pip install mkl`
// ships it; nothing of MKL is needed to build tdls-bench), one thread per
// call (MKL_THREADING_LAYER=SEQUENTIAL, set before the library loads, see
// main.cpp, and mkl_set_threading_layer); T threads split the batch as the
// other peers do (parallel.hpp).
//
// - `mkl batch`: ?getrf_batch_strided then ?getrs_batch_strided on the
//   column-major strided batch, in place (partial pivoting, LAPACK's results).
//   Timed: both calls over the whole batch (per thread: over its share).
// - `mkl compact`: mkl_?getrfnp_compact, then two mkl_?trsm_compact (L unit
//   lower, U upper), on MKL's compact (interleaved) format, packed from the
//   batch before the timing and unpacked after it. **No pivoting**: less work
//   than every other row, and unstable on the peers' row-shuffled systems, so
//   it solves its own batch made by the same recipe without the shuffle
//   (diagonally dominant: no pivoting needed; its rate does not depend on the
//   values). Its per-system info is not reported (getrfnp_compact has one
//   info for the call).
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"
#include "common/scalar_type.hpp"
#include "parallel.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace bench {
namespace {

// The MKL ABI as mkl_lapack.h, mkl_compact.h, mkl_types.h and
// mkl_service.h declare it (LP64 interface: MKL_INT is int).
using MklInt = int;
enum : int { mkl_col_major = 102, mkl_notrans = 111, mkl_upper = 121, mkl_lower = 122 };
enum : int { mkl_nonunit = 131, mkl_unit = 132, mkl_left = 141, mkl_threading_sequential = 1 };
static_assert(sizeof(MklInt) == sizeof(std::int32_t), "ipiv and info are shared with tdls' int32 arrays");

template <typename T>
struct MklRoutines {
    using Getrf = void (*)(const MklInt*, const MklInt*, T*, const MklInt*, const MklInt*, MklInt*,
                           const MklInt*, const MklInt*, MklInt*);
    using Getrs = void (*)(const char*, const MklInt*, const MklInt*, const T*, const MklInt*, const MklInt*,
                           const MklInt*, const MklInt*, T*, const MklInt*, const MklInt*, const MklInt*, MklInt*);
    using Size = MklInt (*)(MklInt, MklInt, int, MklInt);
    using Pack = void (*)(int, MklInt, MklInt, const T* const*, MklInt, T*, MklInt, int, MklInt);
    using Unpack = void (*)(int, MklInt, MklInt, T* const*, MklInt, const T*, MklInt, int, MklInt);
    using Getrfnp = void (*)(int, MklInt, MklInt, T*, MklInt, MklInt*, int, MklInt);
    using Trsm = void (*)(int, int, int, int, int, MklInt, MklInt, T, const T*, MklInt, T*, MklInt, int, MklInt);
    Getrf getrf = nullptr;
    Getrs getrs = nullptr;
    Size size = nullptr;
    Pack pack = nullptr;
    Unpack unpack = nullptr;
    Getrfnp getrfnp = nullptr;
    Trsm trsm = nullptr;
};

/// libmkl_rt.so.3, opened once: its routines, or why there are none.
class Mkl {
  public:
    static const Mkl& get() {
        static const Mkl mkl;
        return mkl;
    }
    std::string why; // empty: loaded
    std::string version;
    int format = 0; // mkl_get_format_compact()
    MklRoutines<double> d;
    MklRoutines<float> s;
    MklRoutines<tdls::complex_double> z; // ?getrf/?getrs_batch_strided only: the compact LU is not wired for complex
    MklRoutines<tdls::complex_float> c;
    template <typename T>
    const MklRoutines<T>& routines() const {
        if constexpr (std::is_same_v<T, double>)
            return d;
        else if constexpr (std::is_same_v<T, float>)
            return s;
        else if constexpr (std::is_same_v<T, tdls::complex_double>)
            return z;
        else
            return c;
    }

  private:
    Mkl() {
        const char* path = std::getenv("TDLS_BENCH_MKL");
        const std::string name = path && *path ? path : "libmkl_rt.so.3";
        // DEEPBIND: MKL's own symbols first, never OpenBLAS's LAPACK of the same names.
        void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!library) {
            const char* error = dlerror();
            why = "unavailable: cannot load " + name + " (" + (error ? error : "?") +
                  "); pip install mkl (scripts/demo.sh --with-mkl), or set TDLS_BENCH_MKL to its path";
            return;
        }
        const auto symbol = [&](const char* what) {
            void* p = dlsym(library, what);
            if (!p && why.empty()) why = std::string("unavailable: ") + name + " has no " + what;
            return p;
        };
        if (auto layer = reinterpret_cast<int (*)(int)>(symbol("MKL_Set_Threading_Layer")))
            layer(mkl_threading_sequential);
        if (auto text = reinterpret_cast<void (*)(char*, int)>(symbol("MKL_Get_Version_String"))) {
            char buffer[256] = {};
            text(buffer, int(sizeof buffer));
            version = buffer;
        }
        if (auto get_format = reinterpret_cast<int (*)()>(symbol("mkl_get_format_compact"))) format = get_format();
        bind(d, symbol, "d");
        bind(s, symbol, "s");
        bind_batch(z, symbol, "z");
        bind_batch(c, symbol, "c");
    }
    /// ?getrf_batch_strided and ?getrs_batch_strided (std::complex is MKL_Complex8/16's layout).
    template <typename T, typename Symbol>
    static void bind_batch(MklRoutines<T>& r, const Symbol& symbol, const std::string& p) {
        using R = MklRoutines<T>;
        r.getrf = reinterpret_cast<typename R::Getrf>(symbol((p + "getrf_batch_strided").c_str()));
        r.getrs = reinterpret_cast<typename R::Getrs>(symbol((p + "getrs_batch_strided").c_str()));
    }
    template <typename T, typename Symbol>
    static void bind(MklRoutines<T>& r, const Symbol& symbol, const std::string& p) {
        using R = MklRoutines<T>;
        bind_batch(r, symbol, p);
        r.size = reinterpret_cast<typename R::Size>(symbol(("mkl_" + p + "get_size_compact").c_str()));
        r.pack = reinterpret_cast<typename R::Pack>(symbol(("mkl_" + p + "gepack_compact").c_str()));
        r.unpack = reinterpret_cast<typename R::Unpack>(symbol(("mkl_" + p + "geunpack_compact").c_str()));
        r.getrfnp = reinterpret_cast<typename R::Getrfnp>(symbol(("mkl_" + p + "getrfnp_compact").c_str()));
        r.trsm = reinterpret_cast<typename R::Trsm>(symbol(("mkl_" + p + "trsm_compact").c_str()));
    }
};

/// [begin, end) of share t of `threads` equal shares of count systems.
std::int64_t share_begin(std::int64_t count, int threads, int t) {
    return count / threads * t + std::min<std::int64_t>(t, count % threads);
}

template <typename T>
class MklBatchSolver final : public Solver {
  public:
    explicit MklBatchSolver(std::shared_ptr<HostBatch<T>> batch)
        : batch_(std::move(batch)), getrs_info_(batch_->info.size()) {}
    std::string name() const override { return "mkl batch"; }
    std::string form() const override { return "strided col"; }
    std::string unavailable() const override { return Mkl::get().why; }
    void reset() override { batch_->reset(); }
    double run(int threads) override {
        const MklRoutines<T>& mkl = Mkl::get().routines<T>();
        HostBatch<T>& b = *batch_;
        const Storage& st = b.storage;
        const MklInt n = st.n, nrhs = st.nrhs, stride_a = n * n, stride_ipiv = n, stride_b = n * nrhs;
        const char trans = 'N';
        return time_once([&] {
            for_shares(st.count, threads, [&](std::int64_t begin, std::int64_t end) {
                const MklInt count = MklInt(end - begin);
                T* A = b.work_A.data() + st.a_offset(begin);
                MklInt* ipiv = b.ipiv.data() + begin * n;
                mkl.getrf(&n, &n, A, &n, &stride_a, ipiv, &stride_ipiv, &count, b.info.data() + begin);
                mkl.getrs(&trans, &n, &nrhs, A, &n, &stride_a, ipiv, &stride_ipiv, b.work_B.data() + st.b_offset(begin, 0),
                          &n, &stride_b, &count, getrs_info_.data() + begin);
            });
        });
    }
    CheckResult check() override { return check_batch(*batch_); }
    void perturb() override { perturb_batch(*batch_); }

  private:
    /// MKL's batch calls take an MklInt batch size: shares of at most INT_MAX / 2 systems.
    template <typename Fn>
    static void for_shares(std::int64_t count, int threads, Fn&& fn) {
        for_systems(count, threads, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t first = begin; first < end; first += 1 << 30)
                fn(first, std::min<std::int64_t>(end, first + (1 << 30)));
        });
    }
    std::shared_ptr<HostBatch<T>> batch_;
    std::vector<MklInt> getrs_info_;
};

template <typename T>
class MklCompactSolver final : public Solver {
  public:
    explicit MklCompactSolver(std::shared_ptr<HostBatch<T>> batch) : batch_(std::move(batch)) {}
    std::string name() const override { return "mkl compact nopiv"; }
    std::string form() const override { return "compact unshuffled rows"; }
    std::string unavailable() const override { return Mkl::get().why; }
    void reset() override { batch_->reset(); }
    double run(int threads) override {
        const Mkl& library = Mkl::get();
        const MklRoutines<T>& mkl = library.routines<T>();
        const int format = library.format;
        HostBatch<T>& b = *batch_;
        const Storage& st = b.storage;
        const MklInt n = st.n, nrhs = st.nrhs;
        // One compact array per thread's share, packed here, outside the timing.
        const int shares = std::max(1, threads);
        std::vector<Share> parts(static_cast<std::size_t>(shares));
        for (int t = 0; t < shares; ++t) {
            Share& p = parts[std::size_t(t)];
            const std::int64_t begin = share_begin(st.count, shares, t), end = share_begin(st.count, shares, t + 1);
            p.count = MklInt(end - begin);
            if (p.count == 0) continue;
            for (std::int64_t s = begin; s < end; ++s) {
                p.A.push_back(b.work_A.data() + st.a_offset(s));
                p.B.push_back(b.work_B.data() + st.b_offset(s, 0));
            }
            p.packed_A.resize(std::size_t(mkl.size(n, n, format, p.count)) / sizeof(T) + 1);
            p.packed_B.resize(std::size_t(mkl.size(n, nrhs, format, p.count)) / sizeof(T) + 1);
            mkl.pack(mkl_col_major, n, n, p.A.data(), n, p.packed_A.data(), n, format, p.count);
            mkl.pack(mkl_col_major, n, nrhs, p.B.data(), n, p.packed_B.data(), n, format, p.count);
        }
        MklInt failures = 0;
        const double seconds = time_once([&] {
            for_systems(shares, shares, [&](std::int64_t first, std::int64_t last) {
                for (std::int64_t t = first; t < last; ++t) {
                    Share& p = parts[std::size_t(t)];
                    if (p.count == 0) continue;
                    MklInt info = 0;
                    mkl.getrfnp(mkl_col_major, n, n, p.packed_A.data(), n, &info, format, p.count);
                    mkl.trsm(mkl_col_major, mkl_left, mkl_lower, mkl_notrans, mkl_unit, n, nrhs, T(1),
                             p.packed_A.data(), n, p.packed_B.data(), n, format, p.count);
                    mkl.trsm(mkl_col_major, mkl_left, mkl_upper, mkl_notrans, mkl_nonunit, n, nrhs, T(1),
                             p.packed_A.data(), n, p.packed_B.data(), n, format, p.count);
                    if (info != 0) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
                }
            });
        });
        // X back into the working batch for the check, outside the timing.
        for (Share& p : parts)
            if (p.count > 0) mkl.unpack(mkl_col_major, n, nrhs, p.B.data(), n, p.packed_B.data(), n, format, p.count);
        std::fill(b.info.begin(), b.info.end(), failures == 0 ? 0 : -1);
        return seconds;
    }
    CheckResult check() override { return check_batch(*batch_); }
    void perturb() override { perturb_batch(*batch_); }

  private:
    struct Share {
        MklInt count = 0;
        std::vector<const T*> A;
        std::vector<T*> B;
        std::vector<T> packed_A, packed_B;
    };
    std::shared_ptr<HostBatch<T>> batch_;
};

} // namespace

template <typename T>
std::unique_ptr<Solver> make_mkl_batch_solver(std::shared_ptr<HostBatch<T>> batch) {
    return std::make_unique<MklBatchSolver<T>>(std::move(batch));
}
template <typename T>
std::unique_ptr<Solver> make_mkl_compact_solver(std::shared_ptr<HostBatch<T>> batch) {
    return std::make_unique<MklCompactSolver<T>>(std::move(batch));
}
template std::unique_ptr<Solver> make_mkl_batch_solver<float>(std::shared_ptr<HostBatch<float>>);
template std::unique_ptr<Solver> make_mkl_batch_solver<double>(std::shared_ptr<HostBatch<double>>);
template std::unique_ptr<Solver> make_mkl_batch_solver<tdls::complex_float>(
    std::shared_ptr<HostBatch<tdls::complex_float>>);
template std::unique_ptr<Solver> make_mkl_batch_solver<tdls::complex_double>(
    std::shared_ptr<HostBatch<tdls::complex_double>>);
template std::unique_ptr<Solver> make_mkl_compact_solver<float>(std::shared_ptr<HostBatch<float>>);
template std::unique_ptr<Solver> make_mkl_compact_solver<double>(std::shared_ptr<HostBatch<double>>);

std::string mkl_description() {
    const Mkl& mkl = Mkl::get();
    if (!mkl.why.empty()) return mkl.why;
    const char* layer = std::getenv("MKL_THREADING_LAYER");
    const char* formats[] = {"SSE", "AVX", "AVX512"};
    const int f = mkl.format - 181;
    return mkl.version + "; MKL_THREADING_LAYER=" + (layer ? layer : "(unset)") +
           " and mkl_set_threading_layer(SEQUENTIAL); compact format " +
           (f >= 0 && f < 3 ? formats[f] : std::to_string(mkl.format));
}

} // namespace bench
