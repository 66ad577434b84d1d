// libtdls through its C ABI. Timed: the one library call that solves the
// whole batch, in place (gesv: A -> LU, B -> X) or with A read-only (solve:
// B -> X), after tdls_set_num_threads on the handle; the fresh copy of the
// batch and the pointer arrays are made outside the timed region.
#include "solver_tdls.hpp"

#include <cstdio>
#include <cstring>

#include "check.hpp"
#include "common/scalar_type.hpp"
#include "timing.hpp"

namespace bench {
namespace {

template <typename T>
class TdlsSolver final : public Solver {
  public:
    TdlsSolver(tdls_handle_t handle, std::string why, std::shared_ptr<HostBatch<T>> batch, Form form, Op op)
        : handle_(handle), why_(std::move(why)), batch_(std::move(batch)), form_(form), op_(op) {
        const Storage& st = batch_->storage;
        if (form_ == Form::ptr) {
            // The arrays point into the working buffers, which never move.
            for (std::int64_t s = 0; s < st.count; ++s) {
                a_array_.push_back(batch_->work_A.data() + st.a_offset(s));
                b_array_.push_back(batch_->work_B.data() + st.b_offset(s, 0));
                ipiv_array_.push_back(batch_->ipiv.data() + s * st.n);
            }
        }
    }
    std::string name() const override { return "tdls"; }
    std::string form() const override {
        std::string text = std::string(op_ == Op::solve ? "solve " : "") + form_name(form_) +
                           (batch_->storage.row_major ? " row" : " col");
        if (form_ == Form::interleaved && batch_->storage.block != batch_->storage.count)
            text += " b" + std::to_string(batch_->storage.block);
        return text;
    }
    std::string unavailable() const override { return handle_ ? std::string() : why_; }
    bool in_place() const override { return op_ == Op::gesv; }
    void reset() override { batch_->reset(); }
    double run(int threads) override {
        tdls_set_num_threads(handle_, threads);
        const Storage& st = batch_->storage;
        const tdls_dtype_t dtype = tdls::kernels::dtype_of<T>;
        const tdls_layout_t layout = st.row_major ? TDLS_ROW_MAJOR : TDLS_COL_MAJOR;
        const std::int64_t n = st.n, ldb = st.row_major ? st.nrhs : n;
        tdls_status_t status = TDLS_SUCCESS;
        const double seconds = time_once([&] {
            if (op_ == Op::solve) {
                status = solve(dtype, layout, n, ldb);
                return;
            }
            switch (form_) {
            case Form::strided:
                status = tdls_batched_gesv(handle_, dtype, layout, n, st.nrhs, batch_->work_A.data(), n,
                                           n * n, batch_->ipiv.data(), n, batch_->work_B.data(), ldb,
                                           n * st.nrhs, batch_->info.data(), st.count);
                break;
            case Form::ptr:
                status = tdls_batched_gesv_ptr(handle_, dtype, layout, n, st.nrhs, a_array_.data(), n,
                                               ipiv_array_.data(), b_array_.data(), ldb, batch_->info.data(),
                                               st.count);
                break;
            case Form::interleaved:
                status = tdls_batched_gesv_interleaved(
                    handle_, dtype, layout, n, st.nrhs, batch_->work_A.data(), batch_->ipiv.data(),
                    batch_->work_B.data(), batch_->info.data(), st.count, st.block);
                break;
            }
        });
        if (status != TDLS_SUCCESS) {
            std::fprintf(stderr, "tdls-bench: tdls %s: %s: %s\n", form().c_str(), tdls_status_name(status),
                         tdls_last_error());
            return -1;
        }
        return seconds;
    }
    CheckResult check() override {
        CheckResult result = check_batch(*batch_);
        // The read-only contract, checked on every element (bitwise).
        if (op_ == Op::solve)
            result.a_intact = std::memcmp(batch_->work_A.data(), batch_->A.data(), batch_->A.size() * sizeof(T)) == 0;
        return result;
    }
    /// gesv: one solution element; solve: one element of the read-only A
    /// only (X stays right), so that the A check alone must catch it.
    void perturb() override {
        if (op_ == Op::solve)
            batch_->work_A[batch_->work_A.size() / 2] += T(1);
        else
            perturb_batch(*batch_);
    }

  private:
    tdls_status_t solve(tdls_dtype_t dtype, tdls_layout_t layout, std::int64_t n, std::int64_t ldb) {
        const Storage& st = batch_->storage;
        switch (form_) {
        case Form::strided:
            return tdls_batched_solve(handle_, dtype, layout, n, st.nrhs, batch_->work_A.data(), n, n * n,
                                      batch_->work_B.data(), ldb, n * st.nrhs, batch_->info.data(), st.count);
        case Form::ptr:
            return tdls_batched_solve_ptr(handle_, dtype, layout, n, st.nrhs, a_array_.data(), n,
                                          b_array_.data(), ldb, batch_->info.data(), st.count);
        case Form::interleaved:
            return tdls_batched_solve_interleaved(handle_, dtype, layout, n, st.nrhs, batch_->work_A.data(),
                                                  batch_->work_B.data(), batch_->info.data(), st.count, st.block);
        }
        return TDLS_ERROR_INTERNAL;
    }

    tdls_handle_t handle_;
    std::string why_;
    std::shared_ptr<HostBatch<T>> batch_;
    Form form_;
    Op op_;
    std::vector<void*> a_array_, b_array_;
    std::vector<std::int32_t*> ipiv_array_;
};

} // namespace

template <typename T>
std::unique_ptr<Solver> make_tdls_solver(tdls_handle_t handle, const std::string& why,
                                         std::shared_ptr<HostBatch<T>> batch, Form form, Op op) {
    return std::make_unique<TdlsSolver<T>>(handle, why, std::move(batch), form, op);
}

template std::unique_ptr<Solver> make_tdls_solver<float>(tdls_handle_t, const std::string&,
                                                         std::shared_ptr<HostBatch<float>>, Form, Op);
template std::unique_ptr<Solver> make_tdls_solver<double>(tdls_handle_t, const std::string&,
                                                          std::shared_ptr<HostBatch<double>>, Form, Op);
template std::unique_ptr<Solver> make_tdls_solver<tdls::complex_float>(tdls_handle_t, const std::string&,
                                                          std::shared_ptr<HostBatch<tdls::complex_float>>, Form, Op);
template std::unique_ptr<Solver> make_tdls_solver<tdls::complex_double>(tdls_handle_t, const std::string&,
                                                          std::shared_ptr<HostBatch<tdls::complex_double>>, Form, Op);

} // namespace bench
