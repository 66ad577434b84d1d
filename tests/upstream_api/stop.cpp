// Run-time stops: a CPU group whose barrier cannot work must stop the program
// with a message rather than spin forever or exchange garbage. argv[1] names
// the case; "clean-..." runs the same program correctly (the control: exit 0).
#include <tdls/tdls.hpp>

#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using Group =
    tdls::CooperativeLUppSolverStatic<double, 4, tdls::CooperativeLUppConfig<double>{.rows_per_thread = 2}>;
using Runtime =
    tdls::CooperativeLUppSolverDynamic<double, tdls::CooperativeLUppConfig<double>{.rows_per_thread = 2}>;

void fill(double* A, double* y) {
    for (int r = 0; r < 4; ++r) {
        y[r] = r + 1;
        for (int c = 0; c < 4; ++c) A[c * 4 + r] = r == c ? 4.0 : 1.0 / (1 + r + c);
    }
}

/// The first two workspace elements hold a counter of 7 for a group of 2: a
/// workspace that was not zeroed. Thread 0 alone is enough: it must stop on
/// entry, before waiting for thread 1.
int dirty_workspace(bool clean) {
    double A[16], y[4], work[Group::workspace_size] = {};
    int piv[4];
    fill(A, y);
    if (!clean) {
        work[0] = 7;
        return Group::solve_inplace<false, false, false>(0, A, 1, piv, 1, y, 1, work) ? 0 : 1;
    }
    std::thread other([&] { (void)Group::solve_inplace<false, false, false>(1, A, 1, piv, 1, y, 1, work); });
    const bool ok = Group::solve_inplace<false, false, false>(0, A, 1, piv, 1, y, 1, work);
    other.join();
    return ok ? 0 : 1;
}

/// The runtime solver with NoSync on n = 5, 2 rows per thread: 3 threads.
int nosync_runtime(bool clean) {
    const int n = clean ? 2 : 5; // n = 2: one thread, where NoSync is valid
    std::vector<double> A(25), y(5), work(Runtime::workspace_size(5), 0.0);
    std::vector<int> piv(5);
    for (int r = 0; r < n; ++r) {
        y[r] = r + 1;
        for (int c = 0; c < n; ++c) A[c * n + r] = r == c ? 4.0 : 1.0 / (1 + r + c);
    }
    return Runtime::solve_inplace(n, 0, A.data(), 1, piv.data(), 1, y.data(), 1, work.data(), tdls::NoSync{})
               ? 0
               : 1;
}

} // namespace

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    const bool clean = std::strncmp(which, "clean-", 6) == 0;
    const char* name = clean ? which + 6 : which;
    if (std::strcmp(name, "dirty_workspace") == 0) return dirty_workspace(clean);
    if (std::strcmp(name, "nosync_runtime") == 0) return nosync_runtime(clean);
    std::fprintf(stderr, "usage: %s [clean-]{dirty_workspace|nosync_runtime}\n", argv[0]);
    return 2;
}
