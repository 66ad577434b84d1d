// The plugin_entry source compiled as HIP (style rule 1: one source, several backends).
#include "plugin_entry.cu"
