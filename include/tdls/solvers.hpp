// libtdls: every device-callable solver header (C++20, no library to link).
#pragma once

#include <tdls/core/group.hpp>
#include <tdls/core/macros.hpp>
#include <tdls/core/math.hpp>
#include <tdls/core/target.hpp>
#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/solver_dynamic.hpp>
#include <tdls/solvers/cooperative_lupp/solver_static.hpp>
#include <tdls/solvers/cooperative_lupp/verdict.hpp>
