// The same kernels as solver_kernels.cu, compiled as HIP (style rule 1: one
// source, several backends).
#include "solver_kernels.cu"
