/*
 * Example (C, MAGMA's API): primal and adjoint solves of many small
 * convection-diffusion problems, as a MAGMA program writes them, served by
 * libtdls_magma on the CPU (host arrays, NULL queue). Linked before libmagma,
 * the same program gets libtdls for these calls on MAGMA's queues too
 * (tdls/magma.h: how to link, what is served).
 *
 * Each of `batch` 1-D cells, n interior points, has its own upwinded
 * convection speed, so A_s = D + C_s is nonsymmetric. A sensitivity study
 * needs x_s from A_s x_s = b (the state) and lambda_s from A_s^T lambda_s = g
 * (the adjoint of the output g^T x): one magma_dgetrf_batched, then
 * magma_dgetrs_batched with MagmaNoTrans and with MagmaTrans on the same
 * factors. The layout is MAGMA's: ldda rounded up to 32, pointer arrays,
 * an info array.
 *
 * Checks: every info is 0; the residuals of both solves are within a small
 * multiple of the rounding error; and the adjoint identity
 * g^T x_s = lambda_s^T b holds to rounding, which a wrong transpose (solving
 * A lambda = g instead) breaks. Exits nonzero otherwise.
 */
#include <tdls/magma.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { n = 20, batch = 500, ldda = (n + 31) / 32 * 32 };

/* A_s(i, j), column-major: -1 2 -1 diffusion plus upwind convection of speed v. */
static double entry(int s, int i, int j) {
    const double v = 0.05 + 1.5 * s / batch;
    if (i == j) return 2.0 + v;
    if (i == j + 1) return -1.0 - v; /* upwind: the cell upstream */
    if (j == i + 1) return -1.0;
    return 0.0;
}

/* max_i |(op(A_s) x - r)_i| / (||A_s||_max * n * ||x||_max + ||r||_max). */
static double residual(int s, int transpose, const double* x, const double* r) {
    double worst = 0, xmax = 0, rmax = 0, amax = 0;
    int i, j;
    for (i = 0; i < n; ++i) {
        double sum = -r[i];
        for (j = 0; j < n; ++j) {
            const double a = transpose ? entry(s, j, i) : entry(s, i, j);
            sum += a * x[j];
            if (fabs(a) > amax) amax = fabs(a);
        }
        if (fabs(sum) > worst) worst = fabs(sum);
        if (fabs(x[i]) > xmax) xmax = fabs(x[i]);
        if (fabs(r[i]) > rmax) rmax = fabs(r[i]);
    }
    return worst / (amax * n * xmax + rmax);
}

int main(void) {
    double* A = malloc(sizeof(double) * ldda * n * batch);
    double* X = malloc(sizeof(double) * ldda * batch);
    double* L = malloc(sizeof(double) * ldda * batch);
    magma_int_t* ipiv = malloc(sizeof(magma_int_t) * n * batch);
    magma_int_t* info = malloc(sizeof(magma_int_t) * batch);
    double** dA_array = malloc(sizeof(double*) * batch);
    double** dX_array = malloc(sizeof(double*) * batch);
    double** dL_array = malloc(sizeof(double*) * batch);
    magma_int_t** dipiv_array = malloc(sizeof(magma_int_t*) * batch);
    double b[n], g[n], worst_residual = 0, worst_identity = 0;
    const double eps = 2.220446049250313e-16;
    magma_int_t code;
    int s, i, j, singular = 0;

    if (!A || !X || !L || !ipiv || !info || !dA_array || !dX_array || !dL_array || !dipiv_array) return 1;
    for (i = 0; i < n; ++i) {
        b[i] = 1.0;                          /* a uniform source */
        g[i] = i >= n / 2 ? 1.0 / n : 0.0;   /* the output: the mean over the downstream half */
    }
    for (s = 0; s < batch; ++s) {
        dA_array[s] = A + (size_t)s * ldda * n;
        dX_array[s] = X + (size_t)s * ldda;
        dL_array[s] = L + (size_t)s * ldda;
        dipiv_array[s] = ipiv + (size_t)s * n;
        for (j = 0; j < n; ++j)
            for (i = 0; i < ldda; ++i) dA_array[s][i + j * ldda] = i < n ? entry(s, i, j) : 0.0;
        for (i = 0; i < n; ++i) {
            dX_array[s][i] = b[i];
            dL_array[s][i] = g[i];
        }
    }

    /* NULL queue: host arrays, solved on the CPU before the call returns. */
    code = magma_dgetrf_batched(n, n, dA_array, ldda, dipiv_array, info, batch, NULL);
    if (code == 0) code = magma_dgetrs_batched(MagmaNoTrans, n, 1, dA_array, ldda, dipiv_array, dX_array, ldda, batch, NULL);
    if (code == 0) code = magma_dgetrs_batched(MagmaTrans, n, 1, dA_array, ldda, dipiv_array, dL_array, ldda, batch, NULL);
    if (code != 0) {
        printf("magma_adjoint: MAGMA code %d\n", (int)code);
        return 1;
    }
    for (s = 0; s < batch; ++s) {
        double output = 0, adjoint_output = 0, scale = 0, r;
        if (info[s] != 0) ++singular;
        r = residual(s, 0, dX_array[s], b);
        if (r > worst_residual) worst_residual = r;
        r = residual(s, 1, dL_array[s], g);
        if (r > worst_residual) worst_residual = r;
        for (i = 0; i < n; ++i) {
            output += g[i] * dX_array[s][i];
            adjoint_output += dL_array[s][i] * b[i];
            scale += fabs(dL_array[s][i] * b[i]) + fabs(g[i] * dX_array[s][i]);
        }
        if (fabs(output - adjoint_output) / scale > worst_identity)
            worst_identity = fabs(output - adjoint_output) / scale;
    }
    /* Control: the identity does notice a wrong transpose (A mu = g for the last cell). */
    {
        double mu[ldda], output = 0, wrong_output = 0, scale = 0;
        double* dmu_array[1];
        double** dA_last = dA_array + batch - 1;
        magma_int_t** dipiv_last = dipiv_array + batch - 1;
        for (i = 0; i < n; ++i) mu[i] = g[i];
        dmu_array[0] = mu;
        if (magma_dgetrs_batched(MagmaNoTrans, n, 1, dA_last, ldda, dipiv_last, dmu_array, ldda, 1, NULL) != 0)
            return 1;
        for (i = 0; i < n; ++i) {
            output += g[i] * dX_array[batch - 1][i];
            wrong_output += mu[i] * b[i];
            scale += fabs(mu[i] * b[i]) + fabs(g[i] * dX_array[batch - 1][i]);
        }
        if (fabs(output - wrong_output) / scale <= 30 * n * eps) {
            printf("magma_adjoint: the identity check cannot tell A^T from A\n");
            return 1;
        }
    }
    printf("magma_adjoint: %d systems of order %d (ldda %d): %d singular, worst residual %.2g eps, "
           "worst |g'x - lambda'b| %.2g eps (relative)\n",
           batch, n, ldda, singular, worst_residual / eps, worst_identity / (n * eps));
    free(A), free(X), free(L), free(ipiv), free(info), free(dA_array), free(dX_array), free(dL_array);
    free(dipiv_array);
    return singular == 0 && worst_residual <= 30 * eps && worst_identity <= 30 * n * eps ? 0 : 1;
}
