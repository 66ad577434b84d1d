// The plugin_solve source compiled as HIP (style rule 1: one source, several backends).
#include "plugin_solve.cu"
