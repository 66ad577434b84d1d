/* One magma_dgesv_batched call on host arrays, compiled for either width
 * (MAGMA_ILP64 or not): the program check_magma_width.sh links and runs
 * against the right and the wrong library. Exit 0 when x = 2 solves 2 x = 4. */
#include <tdls/magma.h>

#include <stdio.h>

int main(void) {
    double a[1] = {2}, b[1] = {4};
    double* dA_array[1];
    double* dB_array[1];
    magma_int_t ipiv[1] = {0};
    magma_int_t* dipiv_array[1];
    magma_int_t info[1] = {-1};
    magma_int_t code;
    dA_array[0] = a;
    dB_array[0] = b;
    dipiv_array[0] = ipiv;
    code = magma_dgesv_batched(1, 1, dA_array, 1, dipiv_array, dB_array, 1, info, 1, NULL);
    printf("width_consumer (magma_int_t of %d bytes): code %d, info %d, x = %g\n", (int)sizeof(magma_int_t),
           (int)code, (int)info[0], b[0]);
    return code == 0 && info[0] == 0 && b[0] == 2 && ipiv[0] == 1 ? 0 : 1;
}
