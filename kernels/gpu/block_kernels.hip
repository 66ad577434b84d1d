// The block kernels compiled as HIP (style rule 1: one source, several backends).
#include "block_kernels.cu"
