/*
 * The C ABI from strict C99 (gcc -std=c99 -pedantic -Wall -Wextra -Werror):
 * tdls.h compiles as C, and small batches with known exact answers solve
 * through tdls_batched_gesv (column- and row-major) and tdls_batched_getrf /
 * tdls_batched_getrs. Every matrix has power-of-two pivots and dyadic
 * multipliers, so every factor and solution is exact in floating point and
 * compared with ==; complex systems through C99's _Complex types too. Prints each failure and how many checks passed; returns
 * nonzero unless all EXPECTED_CHECKS checks ran and passed.
 */
#include <tdls/tdls.h>

#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define EXPECTED_CHECKS 96

static int passed = 0;
static int failed = 0;

#define CHECK(condition, ...)                                                                                \
    do {                                                                                                     \
        if (condition) {                                                                                     \
            ++passed;                                                                                        \
        } else {                                                                                             \
            ++failed;                                                                                        \
            printf("FAILED %s:%d: %s: ", __FILE__, __LINE__, #condition);                                    \
            printf(__VA_ARGS__);                                                                             \
            printf("\n");                                                                                    \
        }                                                                                                    \
    } while (0)

/* The systems, row by row as written on paper. */
static const double A1[3][3] = {{-3, 8, -7}, {7, 4, 1}, {8, 0, 8}};
static const double A2[3][3] = {{0, 0, -4}, {4, 4, 2}, {-3, 5, 3}};
static const double A3[3][3] = {{1, 0, 0}, {-4, 0, -2}, {-4, -2, -4}};
static const double SINGULAR[3][3] = {{2, 4, 1}, {1, 2, 3}, {4, 8, 5}}; /* column 2 vanishes: info = 2 */
/* The two solutions of every 3x3 system, by column. */
static const double X3[2][3] = {{1, -2, 3}, {0.5, 0, -1}};

/* LAPACK's factors (column-major, packed) and pivots of A and of A^T. */
static const double LU_A1[9] = {8.0, -0.375, 0.875, 0.0, 8.0, 0.5, 8.0, -4.0, -4.0};
static const int IPIV_A1[3] = {3, 3, 3};
static const double LU_A2[9] = {4.0, -0.75, 0.0, 4.0, 8.0, 0.0, 2.0, 4.5, -4.0};
static const int IPIV_A2[3] = {2, 3, 3};
static const double LU_SINGULAR[9] = {4.0, 0.25, 0.5, 8.0, 0.0, 0.0, 5.0, 1.75, -1.5};
static const int IPIV_SINGULAR[3] = {3, 2, 3};
static const double LU_A2T[9] = {-4.0, 0.0, 0.0, 2.0, 4.0, 1.0, 3.0, 5.0, -8.0};
static const int IPIV_A2T[3] = {3, 2, 3};
static const double LU_A3T[9] = {1.0, 0.0, 0.0, -4.0, -2.0, 0.0, -4.0, -4.0, -2.0};
static const int IPIV_A3T[3] = {1, 3, 3};

#define PAD (-99.0)

/* b = A x for one 3x3 system. */
static double product_row(const double A[3][3], int row, const double* x) {
    return A[row][0] * x[0] + A[row][1] * x[1] + A[row][2] * x[2];
}

/* Column-major gesv of {A1, A2, SINGULAR}, padded: lda 4, ldb 5, and gaps between systems. */
static void gesv_column_major(void) {
    enum { n = 3, nrhs = 2, lda = 4, ldb = 5, strideA = 13, strideIpiv = 4, strideB = 11, batch = 3 };
    const double(*systems[batch])[3] = {A1, A2, SINGULAR};
    const double* factors[batch] = {LU_A1, LU_A2, LU_SINGULAR};
    const int* pivots[batch] = {IPIV_A1, IPIV_A2, IPIV_SINGULAR};
    const int expected_info[batch] = {0, 0, 2};
    double A[strideA * batch], B[strideB * batch], B_before[strideB * batch];
    int32_t ipiv[strideIpiv * batch], info[batch];
    int s, i, j, k;
    tdls_status_t status;

    for (i = 0; i < strideA * batch; ++i) A[i] = PAD;
    for (i = 0; i < strideB * batch; ++i) B[i] = PAD;
    for (i = 0; i < strideIpiv * batch; ++i) ipiv[i] = -7;
    for (s = 0; s < batch; ++s) {
        info[s] = -1;
        for (i = 0; i < n; ++i) {
            for (j = 0; j < n; ++j) A[s * strideA + i + j * lda] = systems[s][i][j];
            for (k = 0; k < nrhs; ++k) B[s * strideB + i + k * ldb] = product_row(systems[s], i, X3[k]);
        }
    }
    memcpy(B_before, B, sizeof B);

    status = tdls_batched_gesv(NULL, TDLS_FLOAT64, TDLS_COL_MAJOR, n, nrhs, A, lda, strideA, ipiv, strideIpiv,
                               B, ldb, strideB, info, batch);
    CHECK(status == TDLS_SUCCESS, "column-major gesv: %s: %s", tdls_status_name(status), tdls_last_error());
    for (s = 0; s < batch; ++s) {
        int factors_exact = 1, padding_kept = 1, pivots_exact = 1;
        CHECK(info[s] == expected_info[s], "column-major gesv, system %d: info %d", s, (int)info[s]);
        for (j = 0; j < n; ++j) {
            for (i = 0; i < n; ++i) factors_exact &= A[s * strideA + i + j * lda] == factors[s][i + j * n];
            padding_kept &= A[s * strideA + n + j * lda] == PAD;
            pivots_exact &= ipiv[s * strideIpiv + j] == pivots[s][j];
        }
        padding_kept &= A[s * strideA + strideA - 1] == PAD && ipiv[s * strideIpiv + n] == -7;
        CHECK(factors_exact, "column-major gesv, system %d: the LU factors differ from LAPACK's", s);
        CHECK(pivots_exact, "column-major gesv, system %d: ipiv (%d, %d, %d)", s, (int)ipiv[s * strideIpiv],
              (int)ipiv[s * strideIpiv + 1], (int)ipiv[s * strideIpiv + 2]);
        CHECK(padding_kept, "column-major gesv, system %d: padding of A or ipiv was written", s);
        for (k = 0; k < nrhs; ++k) {
            for (i = 0; i < n; ++i) {
                const int at = s * strideB + i + k * ldb;
                if (expected_info[s] == 0)
                    CHECK(B[at] == X3[k][i], "column-major gesv, system %d: x(%d,%d) = %.17g, expected %g", s,
                          i, k, B[at], X3[k][i]);
                else /* singular: B exactly as it was */
                    CHECK(memcmp(&B[at], &B_before[at], sizeof(double)) == 0,
                          "column-major gesv, singular system %d: B(%d,%d) changed to %.17g", s, i, k, B[at]);
            }
        }
        CHECK(B[s * strideB + n] == PAD && B[s * strideB + strideB - 1] == PAD,
              "column-major gesv, system %d: padding of B was written", s);
    }
}

/* Row-major gesv of {A2, A3}: the memory ends as LAPACK's factors of A^T; X solves A X = B. */
static void gesv_row_major(void) {
    enum { n = 3, nrhs = 2, lda = 4, ldb = 3, strideA = 12, strideIpiv = 3, strideB = 9, batch = 2 };
    const double(*systems[batch])[3] = {A2, A3};
    const double* factors[batch] = {LU_A2T, LU_A3T};
    const int* pivots[batch] = {IPIV_A2T, IPIV_A3T};
    double A[strideA * batch], B[strideB * batch];
    int32_t ipiv[strideIpiv * batch], info[batch];
    int s, i, j, k;
    tdls_status_t status;

    for (i = 0; i < strideA * batch; ++i) A[i] = PAD;
    for (i = 0; i < strideB * batch; ++i) B[i] = PAD;
    for (s = 0; s < batch; ++s) {
        info[s] = -1;
        for (i = 0; i < n; ++i) {
            ipiv[s * strideIpiv + i] = -7;
            for (j = 0; j < n; ++j) A[s * strideA + i * lda + j] = systems[s][i][j];
            for (k = 0; k < nrhs; ++k) B[s * strideB + i * ldb + k] = product_row(systems[s], i, X3[k]);
        }
    }

    status = tdls_batched_gesv(NULL, TDLS_FLOAT64, TDLS_ROW_MAJOR, n, nrhs, A, lda, strideA, ipiv, strideIpiv,
                               B, ldb, strideB, info, batch);
    CHECK(status == TDLS_SUCCESS, "row-major gesv: %s: %s", tdls_status_name(status), tdls_last_error());
    for (s = 0; s < batch; ++s) {
        int factors_exact = 1, pivots_exact = 1, solution_exact = 1;
        CHECK(info[s] == 0, "row-major gesv, system %d: info %d", s, (int)info[s]);
        for (j = 0; j < n; ++j) {
            /* Memory read column-major with leading dimension lda holds the factors of A^T. */
            for (i = 0; i < n; ++i) factors_exact &= A[s * strideA + i + j * lda] == factors[s][i + j * n];
            pivots_exact &= ipiv[s * strideIpiv + j] == pivots[s][j];
            for (k = 0; k < nrhs; ++k) solution_exact &= B[s * strideB + j * ldb + k] == X3[k][j];
        }
        CHECK(factors_exact, "row-major gesv, system %d: the factors differ from LAPACK's of A^T", s);
        CHECK(pivots_exact, "row-major gesv, system %d: ipiv (%d, %d, %d)", s, (int)ipiv[s * strideIpiv],
              (int)ipiv[s * strideIpiv + 1], (int)ipiv[s * strideIpiv + 2]);
        CHECK(solution_exact, "row-major gesv, system %d: X differs from the exact solution", s);
        CHECK(A[s * strideA + 3] == PAD && A[s * strideA + 7] == PAD && A[s * strideA + 11] == PAD &&
                  B[s * strideB + 2] == PAD && B[s * strideB + 8] == PAD,
              "row-major gesv, system %d: padding was written", s);
    }
}

/* getrf then getrs, column-major 2x2: [[2, 1], [1, 2.5]] (no interchange) and [[1, 2], [4, 4]]. */
static void getrf_getrs_column_major(void) {
    enum { n = 2, batch = 2 };
    double A[8] = {2, 1, 1, 2.5, 1, 4, 2, 4};
    const double factors[8] = {2, 0.5, 1, 2, 4, 0.25, 4, 1};
    const int pivots[4] = {1, 2, 2, 2};
    const double x[4] = {1, 2, 1, 1};
    double B[4] = {4, 6, 3, 8}; /* A x */
    int32_t ipiv[4] = {-7, -7, -7, -7}, info[2] = {-1, -1};
    tdls_status_t status;
    int i;

    status = tdls_batched_getrf(NULL, TDLS_FLOAT64, TDLS_COL_MAJOR, n, A, n, n * n, ipiv, n, info, batch);
    CHECK(status == TDLS_SUCCESS, "getrf: %s: %s", tdls_status_name(status), tdls_last_error());
    CHECK(info[0] == 0 && info[1] == 0, "getrf: info (%d, %d)", (int)info[0], (int)info[1]);
    for (i = 0; i < 8; ++i)
        CHECK(A[i] == factors[i], "getrf: A[%d] = %.17g, expected %g", i, A[i], factors[i]);
    for (i = 0; i < 4; ++i)
        CHECK(ipiv[i] == pivots[i], "getrf: ipiv[%d] = %d, expected %d", i, (int)ipiv[i], pivots[i]);

    status =
        tdls_batched_getrs(NULL, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A, n, n * n, ipiv, n, B, n, n, batch);
    CHECK(status == TDLS_SUCCESS, "getrs: %s: %s", tdls_status_name(status), tdls_last_error());
    for (i = 0; i < 4; ++i) CHECK(B[i] == x[i], "getrs: x[%d] = %.17g, expected %g", i, B[i], x[i]);
    /* getrs reads the factors only. */
    for (i = 0; i < 8; ++i) CHECK(A[i] == factors[i], "getrs wrote A[%d]", i);
}

/* getrf then getrs, row-major A3, two right-hand sides. */
static void getrf_getrs_row_major(void) {
    enum { n = 3, nrhs = 2 };
    double A[9], B[6];
    int32_t ipiv[3] = {-7, -7, -7}, info = -1;
    int i, j, k, factors_exact = 1, solution_exact = 1;
    tdls_status_t status;

    for (i = 0; i < n; ++i) {
        for (j = 0; j < n; ++j) A[i * n + j] = A3[i][j];
        for (k = 0; k < nrhs; ++k) B[i * nrhs + k] = product_row(A3, i, X3[k]);
    }
    status = tdls_batched_getrf(NULL, TDLS_FLOAT64, TDLS_ROW_MAJOR, n, A, n, n * n, ipiv, n, &info, 1);
    CHECK(status == TDLS_SUCCESS, "row-major getrf: %s: %s", tdls_status_name(status), tdls_last_error());
    CHECK(info == 0, "row-major getrf: info %d", (int)info);
    for (i = 0; i < n * n; ++i) factors_exact &= A[i] == LU_A3T[i];
    CHECK(factors_exact, "row-major getrf: the factors differ from LAPACK's of A^T");
    CHECK(ipiv[0] == IPIV_A3T[0] && ipiv[1] == IPIV_A3T[1] && ipiv[2] == IPIV_A3T[2],
          "row-major getrf: ipiv (%d, %d, %d)", (int)ipiv[0], (int)ipiv[1], (int)ipiv[2]);

    status = tdls_batched_getrs(NULL, TDLS_FLOAT64, TDLS_ROW_MAJOR, n, nrhs, A, n, n * n, ipiv, n, B, nrhs,
                                n * nrhs, 1);
    CHECK(status == TDLS_SUCCESS, "row-major getrs: %s: %s", tdls_status_name(status), tdls_last_error());
    for (i = 0; i < n; ++i)
        for (k = 0; k < nrhs; ++k) solution_exact &= B[i * nrhs + k] == X3[k][i];
    CHECK(solution_exact, "row-major getrs: X differs from the exact solution");
}

/* Single precision, column-major, with an interchange: [[1, 2], [4, 4]] x = (1, 1). */
static void gesv_single(void) {
    float A[4] = {1, 4, 2, 4}, B[2] = {3, 8};
    int32_t ipiv[2] = {-7, -7}, info = -1;
    const tdls_status_t status =
        tdls_batched_gesv(NULL, TDLS_FLOAT32, TDLS_COL_MAJOR, 2, 1, A, 2, 4, ipiv, 2, B, 2, 2, &info, 1);
    CHECK(status == TDLS_SUCCESS, "float gesv: %s: %s", tdls_status_name(status), tdls_last_error());
    CHECK(info == 0, "float gesv: info %d", (int)info);
    CHECK(ipiv[0] == 2 && ipiv[1] == 2, "float gesv: ipiv (%d, %d)", (int)ipiv[0], (int)ipiv[1]);
    CHECK(A[0] == 4.0f && A[1] == 0.25f && A[2] == 4.0f && A[3] == 1.0f,
          "float gesv: factors (%g, %g, %g, %g)", (double)A[0], (double)A[1], (double)A[2], (double)A[3]);
    CHECK(B[0] == 1.0f && B[1] == 1.0f, "float gesv: x (%.9g, %.9g)", (double)B[0], (double)B[1]);
}

/* An invalid call: its status, its message, and every operand as it was. */
static void invalid_call(void) {
    double A[9], B[3], A_before[9], B_before[3];
    int32_t ipiv[3] = {-7, -7, -7}, info = -1;
    const char* message;
    tdls_status_t status;
    int i;
    for (i = 0; i < 9; ++i) A[i] = A1[i % 3][i / 3];
    for (i = 0; i < 3; ++i) B[i] = i + 1;
    memcpy(A_before, A, sizeof A);
    memcpy(B_before, B, sizeof B);

    status = tdls_batched_gesv(NULL, TDLS_FLOAT64, TDLS_COL_MAJOR, 3, 1, A, 2, 9, ipiv, 3, B, 3, 3, &info, 1);
    message = tdls_last_error();
    CHECK(status == TDLS_ERROR_INVALID_VALUE, "lda < n: status %s", tdls_status_name(status));
    CHECK(strcmp(tdls_status_name(status), "TDLS_ERROR_INVALID_VALUE") == 0, "status name %s",
          tdls_status_name(status));
    CHECK(message != NULL && strncmp(message, "tdls_batched_gesv: ", 19) == 0, "message \"%s\"",
          message ? message : "(null)");
    CHECK(message != NULL && strstr(message, "lda (2)") != NULL && strstr(message, "n (3)") != NULL,
          "message \"%s\" does not name lda (2) and n (3)", message ? message : "(null)");
    CHECK(memcmp(A, A_before, sizeof A) == 0 && memcmp(B, B_before, sizeof B) == 0 && ipiv[0] == -7 &&
              ipiv[1] == -7 && ipiv[2] == -7 && info == -1,
          "lda < n: an operand was written");
}

/* Complex through C99's double _Complex and float _Complex (TDLS_COMPLEX128
 * and TDLS_COMPLEX64): A = [0 2; 1+i 0], b = (6i, 2), x = (1 - i, 3i), every
 * step exact (the pivots 2 and 1 + i, whose reciprocal (1 - i) / 2 is exact).
 * Column-major: the pivot of column 0 is row 2 (|1| + |1| = 2 against 0). */
static void gesv_complex(void) {
    double _Complex A[4] = {0, 1 + I, 2, 0}, B[2] = {6 * I, 2};
    double _Complex At[4] = {0, 2, 1 + I, 0}, Bt[2] = {6 * I, 2}; /* row-major: the same system */
    float _Complex Af[4] = {0, 1 + I, 2, 0}, Bf[2] = {6 * I, 2};
    int32_t ipiv[2] = {-7, -7}, info = -1;
    tdls_status_t status =
        tdls_batched_gesv(NULL, TDLS_COMPLEX128, TDLS_COL_MAJOR, 2, 1, A, 2, 4, ipiv, 2, B, 2, 2, &info, 1);
    CHECK(status == TDLS_SUCCESS && info == 0, "complex double: status %d, info %d", (int)status, (int)info);
    CHECK(B[0] == 1 - I && B[1] == 3 * I, "complex double: x = (%g%+gi, %g%+gi)", creal(B[0]), cimag(B[0]),
          creal(B[1]), cimag(B[1]));
    CHECK(ipiv[0] == 2 && ipiv[1] == 2, "complex double: pivots %d %d", (int)ipiv[0], (int)ipiv[1]);
    CHECK(A[0] == 1 + I && A[2] == 0 && A[3] == 2, "complex double: U = [%g%+gi %g; . %g]", creal(A[0]),
          cimag(A[0]), creal(A[2]), creal(A[3]));
    info = -1;
    status = tdls_batched_gesv(NULL, TDLS_COMPLEX128, TDLS_ROW_MAJOR, 2, 1, At, 2, 4, NULL, 2, Bt, 1, 2, &info, 1);
    CHECK(status == TDLS_SUCCESS && info == 0 && Bt[0] == 1 - I && Bt[1] == 3 * I,
          "complex double, row-major: status %d, info %d, x = (%g%+gi, %g%+gi)", (int)status, (int)info,
          creal(Bt[0]), cimag(Bt[0]), creal(Bt[1]), cimag(Bt[1]));
    info = -1;
    status = tdls_batched_gesv(NULL, TDLS_COMPLEX64, TDLS_COL_MAJOR, 2, 1, Af, 2, 4, NULL, 2, Bf, 2, 2, &info, 1);
    CHECK(status == TDLS_SUCCESS && info == 0 && Bf[0] == 1 - I && Bf[1] == 3 * I,
          "complex float: status %d, info %d, x = (%g%+gi, %g%+gi)", (int)status, (int)info, crealf(Bf[0]),
          cimagf(Bf[0]), crealf(Bf[1]), cimagf(Bf[1]));
}

int main(void) {
    int major = -1, minor = -1, patch = -1;
    tdls_get_version(&major, &minor, &patch);
    CHECK(major == TDLS_VERSION_MAJOR && minor == TDLS_VERSION_MINOR && patch == TDLS_VERSION_PATCH,
          "version %d.%d.%d", major, minor, patch);
    CHECK(strcmp(tdls_last_error(), "") == 0, "a fresh thread's last error is \"%s\"", tdls_last_error());

    gesv_column_major();
    gesv_row_major();
    getrf_getrs_column_major();
    getrf_getrs_row_major();
    gesv_single();
    gesv_complex();
    invalid_call();

    printf("test_c99: %d checks passed, %d failed, %d expected\n", passed, failed, EXPECTED_CHECKS);
    if (failed != 0) return 1;
    if (passed != EXPECTED_CHECKS) {
        printf("test_c99: %d checks ran, not the %d expected\n", passed, EXPECTED_CHECKS);
        return 1;
    }
    return 0;
}
