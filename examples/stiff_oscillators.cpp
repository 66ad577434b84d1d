// Example (C++): implicit integration of many stiff damped oscillators.
//
// Each of `batch` oscillators x'' + 2 zeta w x' + w^2 x = 0, as a first-order
// system y = (x, v), y' = J y with J = [0 1; -w^2 -2 zeta w], takes backward
// Euler steps (I - h_k J) y_{k+1} = y_k with a step size that changes every
// step, so every step is a fresh batched solve (tdls_batched_gesv). With
// h w^2 > 1 (the stiff ones) partial pivoting swaps the rows.
//
// Check: the same steps with the closed-form inverse of the 2 x 2 matrix in
// long double, an independent oracle; and backward Euler's damping: no
// oscillator's energy grows. Exits nonzero on a mismatch.
#include <tdls/tdls.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

struct Oscillator {
    double w, zeta;
};

/// I - h J, column-major.
std::array<double, 4> step_matrix(const Oscillator& o, double h) {
    return {1.0, h * o.w * o.w, -h, 1.0 + 2.0 * h * o.zeta * o.w};
}

double energy(const Oscillator& o, double x, double v) {
    return 0.5 * (v * v + o.w * o.w * x * x);
}

} // namespace

int main() {
    constexpr int n = 2, batch = 20000, steps = 40;
    std::vector<Oscillator> oscillators(batch);
    for (int s = 0; s < batch; ++s) // w from 1 to 1e4: stiff beyond w ~ 30 at h = 1e-3
        oscillators[s] = {std::pow(10.0, 4.0 * s / (batch - 1)), 0.05 + 0.9 * (s % 7) / 6.0};

    std::vector<double> y(std::size_t(n) * batch), A(std::size_t(n) * n * batch);
    std::vector<long double> oracle(std::size_t(n) * batch);
    std::vector<std::int32_t> ipiv(std::size_t(n) * batch), info(batch);
    for (int s = 0; s < batch; ++s) {
        y[2 * s] = oracle[2 * s] = 1.0; // x = 1, v = 0
        y[2 * s + 1] = oracle[2 * s + 1] = 0.0;
    }

    int swapped = 0;
    for (int k = 0; k < steps; ++k) {
        const double h = 1e-3 * (1.0 + 0.5 * (k % 3)); // a step size control would vary h like this
        for (int s = 0; s < batch; ++s) {
            const auto M = step_matrix(oscillators[s], h);
            std::copy(M.begin(), M.end(), A.begin() + 4 * s);
            // Oracle: y <- M^{-1} y by the 2 x 2 closed form, in long double.
            const long double a = M[0], c = M[1], b = M[2], d = M[3], det = a * d - b * c;
            const long double x = oracle[2 * s], v = oracle[2 * s + 1];
            oracle[2 * s] = (d * x - b * v) / det;
            oracle[2 * s + 1] = (a * v - c * x) / det;
        }
        const tdls_status_t status =
            tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A.data(), n, n * n, ipiv.data(), n,
                              y.data(), n, n, info.data(), batch);
        if (status != TDLS_SUCCESS) {
            std::fprintf(stderr, "stiff_oscillators: %s\n", tdls_last_error());
            return 1;
        }
        for (int s = 0; s < batch; ++s) {
            if (info[s] != 0) {
                std::fprintf(stderr, "stiff_oscillators: oscillator %d singular at step %d\n", s, k);
                return 1;
            }
            swapped += ipiv[2 * s] == 2;
        }
    }

    double worst = 0;
    int grew = 0;
    for (int s = 0; s < batch; ++s) {
        // In the energy norm (w x, v), where each step's matrix is well conditioned.
        const long double w = oscillators[s].w;
        const long double scale =
            std::max(std::fabs(w * oracle[2 * s]), std::fabs(oracle[2 * s + 1])) + 1e-300L;
        worst = std::max(worst, double(std::fabs(w * (y[2 * s] - oracle[2 * s])) / scale));
        worst = std::max(worst, double(std::fabs(y[2 * s + 1] - oracle[2 * s + 1]) / scale));
        grew += energy(oscillators[s], y[2 * s], y[2 * s + 1]) > energy(oscillators[s], 1.0, 0.0);
    }
    std::printf("stiff_oscillators: %d oscillators, %d steps, %d pivoted solves: max relative error %.2e, "
                "%d energies grew\n",
                batch, steps, swapped, worst, grew);
    // 40 steps of a backward stable 2 x 2 solve: a few hundred ulps at most.
    if (!(worst <= 1e-12) || grew != 0 || swapped == 0) {
        std::fprintf(stderr, "stiff_oscillators: check failed\n");
        return 1;
    }
    return 0;
}
