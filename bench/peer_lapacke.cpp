// Peer: a loop of LAPACKE_?gesv calls, one per system, in place on the fresh
// copy of the column-major batch (A -> LU, B -> X), LAPACK_COL_MAJOR, lda =
// ldb = n. OpenBLAS is held to one thread per call (OPENBLAS_NUM_THREADS=1
// in the environment before the library starts, see main.cpp, and
// openblas_set_num_threads(1)); T threads split the loop (parallel.hpp).
// Timed: the whole loop. LAPACKE's default NaN scan of A and B is part of it,
// as for any user of LAPACKE.
#include <lapacke.h>

#include <cstdlib>

#include "check.hpp"
#include "common/scalar_type.hpp"
#include "parallel.hpp"
#include "peers.hpp"
#include "timing.hpp"

extern "C" void openblas_set_num_threads(int);
extern "C" char* openblas_get_config(void);

namespace bench {
namespace {

lapack_int gesv(int n, int nrhs, double* A, lapack_int* ipiv, double* B) {
    return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, A, n, ipiv, B, n);
}
lapack_int gesv(int n, int nrhs, float* A, lapack_int* ipiv, float* B) {
    return LAPACKE_sgesv(LAPACK_COL_MAJOR, n, nrhs, A, n, ipiv, B, n);
}
// std::complex is laid out as LAPACKE's complex types (two reals).
lapack_int gesv(int n, int nrhs, tdls::complex_double* A, lapack_int* ipiv, tdls::complex_double* B) {
    return LAPACKE_zgesv(LAPACK_COL_MAJOR, n, nrhs, reinterpret_cast<lapack_complex_double*>(A), n, ipiv,
                         reinterpret_cast<lapack_complex_double*>(B), n);
}
lapack_int gesv(int n, int nrhs, tdls::complex_float* A, lapack_int* ipiv, tdls::complex_float* B) {
    return LAPACKE_cgesv(LAPACK_COL_MAJOR, n, nrhs, reinterpret_cast<lapack_complex_float*>(A), n, ipiv,
                         reinterpret_cast<lapack_complex_float*>(B), n);
}

template <typename T>
class LapackeSolver final : public Solver {
  public:
    explicit LapackeSolver(std::shared_ptr<HostBatch<T>> batch) : batch_(std::move(batch)) {
        openblas_set_num_threads(1);
    }
    std::string name() const override { return "lapacke"; }
    std::string form() const override { return "strided col"; }
    void reset() override { batch_->reset(); }
    double run(int threads) override {
        HostBatch<T>& b = *batch_;
        const Storage& st = b.storage;
        return time_once([&] {
            for_systems(st.count, threads, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t s = begin; s < end; ++s)
                    b.info[std::size_t(s)] =
                        gesv(st.n, st.nrhs, b.work_A.data() + st.a_offset(s), b.ipiv.data() + s * st.n,
                             b.work_B.data() + st.b_offset(s, 0));
            });
        });
    }
    CheckResult check() override { return check_batch(*batch_); }
    void perturb() override { perturb_batch(*batch_); }

  private:
    std::shared_ptr<HostBatch<T>> batch_;
};

} // namespace

static_assert(sizeof(lapack_int) == sizeof(std::int32_t), "ipiv is shared with tdls' int32 pivots");

template <typename T>
std::unique_ptr<Solver> make_lapacke_solver(std::shared_ptr<HostBatch<T>> batch) {
    return std::make_unique<LapackeSolver<T>>(std::move(batch));
}
template std::unique_ptr<Solver> make_lapacke_solver<float>(std::shared_ptr<HostBatch<float>>);
template std::unique_ptr<Solver> make_lapacke_solver<double>(std::shared_ptr<HostBatch<double>>);
template std::unique_ptr<Solver> make_lapacke_solver<tdls::complex_float>(
    std::shared_ptr<HostBatch<tdls::complex_float>>);
template std::unique_ptr<Solver> make_lapacke_solver<tdls::complex_double>(
    std::shared_ptr<HostBatch<tdls::complex_double>>);

std::string lapacke_description() {
    const char* coretype = std::getenv("OPENBLAS_CORETYPE");
    const char* threads = std::getenv("OPENBLAS_NUM_THREADS");
    return std::string(openblas_get_config()) + "; OPENBLAS_NUM_THREADS=" + (threads ? threads : "(unset)") +
           ", OPENBLAS_CORETYPE=" + (coretype ? coretype : "(unset)") +
           ". Note: with T > 1 the pthread build of OpenBLAS serialises its buffer allocation, which "
           "costs most at small n.";
}

} // namespace bench
