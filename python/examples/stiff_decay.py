"""Implicit (backward) Euler for many small stiff linear ODE systems at once.

Each of 20 000 cells of a reaction network, say, evolves as dy/dt = J y with
its own 8 x 8 Jacobian J, whose rates span four orders of magnitude (stiff:
explicit Euler would need a step below 2/10^4). Backward Euler is stable at
any step: (I - h J) y_{k+1} = y_k. The matrix is the same at every step, so
each cell's matrix is factored once (tdls.lu_factor) and every step is one
batched triangular solve (tdls.lu_solve) over all cells.

The answer is checked against the exact solution y(T) = expm(J T) y(0),
known here from J's eigendecomposition, to backward Euler's first-order error.
Run: python python/examples/stiff_decay.py
"""
import sys

import numpy as np

import tdls


def make_cells(rng, cells, n):
    """J = -Q diag(rates) Q^T per cell: stable, symmetric, rates 1..10^4."""
    q, _ = np.linalg.qr(rng.standard_normal((cells, n, n)))
    rates = 10.0 ** rng.uniform(0, 4, size=(cells, n))
    jacobian = -(q * rates[:, None, :]) @ np.swapaxes(q, -1, -2)
    return jacobian, q, rates


def integrate(jacobian, y0, t_end, steps):
    h = t_end / steps
    n = jacobian.shape[-1]
    factors = tdls.lu_factor(np.eye(n) - h * jacobian)  # once per cell
    y = y0
    for _ in range(steps):
        y = tdls.lu_solve(factors, y)  # all cells, one call
    return y


def main():
    rng = np.random.default_rng(7)
    cells, n, t_end, steps = 20_000, 8, 0.5, 500
    jacobian, q, rates = make_cells(rng, cells, n)
    y0 = rng.standard_normal((cells, n))
    y = integrate(jacobian, y0, t_end, steps)
    # exact: Q exp(-rates T) Q^T y0
    exact = np.einsum("cij,cj->ci", q, np.exp(-rates * t_end) * np.einsum("cji,cj->ci", q, y0))
    error = np.max(np.abs(y - exact)) / np.max(np.abs(y0))
    # Backward Euler's error for a mode of rate r is about exp(-r T) r^2 h T / 2,
    # at most 2 h / (e^2 T) (at r = 2 / T): 0.27 h / T per unit of y0; allow 2 h / T.
    bound = 2.0 * (t_end / steps) / t_end
    print(f"{cells} cells of order {n}, {steps} backward Euler steps: max error {error:.2e} (bound {bound:.2e})")
    return 0 if error <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
