// Negative control of the ThreadSanitizer build: a group of 4 threads runs the
// solver with a "barrier" that does not wait. The threads then race on the
// workspace, ThreadSanitizer must report it, and ctest expects this binary to
// fail. If it passes, the sanitizer build would not see a real race either.
#include <thread>
#include <vector>

#include <tdls/solvers.hpp>

int main() {
    using Solver =
        tdls::CooperativeLUppSolverStatic<double, 8,
                                          tdls::CooperativeLUppConfig<double>{.rows_per_thread = 2}>;
    std::vector<double> A(64), y(8), work(Solver::workspace_size, 0.0);
    std::vector<int> piv(8);
    for (int r = 0; r < 8; ++r) {
        y[r] = r;
        for (int c = 0; c < 8; ++c) A[c * 8 + r] = r == c ? 10.0 : 1.0 / (1 + r + c);
    }
    auto broken_barrier = [] {};
    std::vector<std::thread> group;
    for (int tx = 0; tx < Solver::threads_per_system; ++tx)
        group.emplace_back([&, tx] {
            Solver::solve_inplace<false, false, false>(tx, A.data(), 1, piv.data(), 1, y.data(), 1,
                                                       work.data(), broken_barrier);
        });
    for (auto& t : group) t.join();
    return 0;
}
