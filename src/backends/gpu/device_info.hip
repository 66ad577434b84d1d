// The device_info source compiled as HIP (style rule 1: one source, several backends).
#include "device_info.cu"
