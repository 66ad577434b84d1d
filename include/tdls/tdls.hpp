// libtdls: the C++ umbrella header, under the name upstream TDLS code includes.
// It brings in the device-callable solvers and their vocabulary (the groups
// and barriers of core/group.hpp, the configuration, both solvers). The C ABI
// of the runtime library is <tdls/tdls.h>.
#pragma once

#include <tdls/core/structural_real.hpp>
#include <tdls/solvers.hpp>
