# THE list of precompiled solver instances. Everything else is generated from
# it (kernels/CMakeLists.txt): the instantiation sources, stamped from
# gesv.instantiate.<backend>.cpp.in, and the generated header
# <tdls/generated/instances.hpp> that the dispatch table, the tests and the
# benchmarks read. Order 0 stands for the dynamic solver, which serves every
# order up to TDLS_MAX_ORDER without a static instance.
#
# Each backend lists its orders; every order is compiled for every type and
# layout below.

# The scalar types, by their names in kernels/common/scalar_type.hpp (whose
# traits give each its tdls_dtype_t, size and LAPACK prefix): adding a type
# to the library is adding it here, and the kernels that take it. The C ABI
# answers TDLS_ERROR_NOT_SUPPORTED for a tdls_dtype_t left out.
set(TDLS_INSTANCE_TYPES float double complex_float complex_double)
set(TDLS_INSTANCE_LAYOUTS col row)

# The types each backend compiles kernels for, a subset of the list above.
# The CPU's one-system-per-thread kernel, the SIMD families (complex:
# kernels/cpu/simd/complex_lu.hpp, at order 0 only, below) and the GPU
# plugins (complex in tdls::ComplexPair, register and block kernels) take
# every type; each SIMD family's blocked kernel past the tiles' 256 takes the
# real ones so far (issue 18): a complex CPU call past 256 runs the
# one-system-per-thread kernel.
set(TDLS_CPU_TYPES ${TDLS_INSTANCE_TYPES})
set(TDLS_SIMD_TYPES ${TDLS_INSTANCE_TYPES})
set(TDLS_BLOCKED_TYPES float double)
set(TDLS_GPU_TYPES ${TDLS_INSTANCE_TYPES})

# CPU, one system per thread (the cooperative solver in a group of one):
# only the dynamic solver, for TDLS_CPU_KERNEL=scalar (the SIMD families
# take orders past their tiles' 256 to their blocked kernel).
set(TDLS_CPU_ORDERS 0)

# Two profiles of the one list below. `full` is every instance that buys
# speed: the default of every build a user makes or installs. `ci` is a
# representative subset that still compiles every kernel template at its
# extremes (smallest and largest static order, an odd one, the in-register
# paths of the smallest orders, the dynamic kernel; every type, layout,
# instruction set and GPU plugin), so that CI's four builds fit its budget.
# The tests and benchmarks read what was built (the generated header), never
# assume it: a `ci` build passes the same suite. docs/ci.md has the times.
set(TDLS_INSTANCE_PROFILE full CACHE STRING "Precompiled instance set: full (every instance that buys speed) or ci")
set_property(CACHE TDLS_INSTANCE_PROFILE PROPERTY STRINGS full ci)
if(NOT TDLS_INSTANCE_PROFILE MATCHES "^(full|ci)$")
  message(FATAL_ERROR "TDLS_INSTANCE_PROFILE is '${TDLS_INSTANCE_PROFILE}': full or ci")
endif()

# CPU, one system per SIMD lane (kernels/cpu/simd/): every order up to 256, for
# each instruction set below; the library picks the widest the machine runs.
# full: static orders 1-16 and the dynamic kernel above them. Measured (g++ 12
# -O3, AVX-512, double, one core, L2-resident batch) static over dynamic: 1.7x
# at n = 2, 1.3x at 4, 1.1x at 8-16; an instance builds in 1-1.5 s.
# ci: 1 (smallest; n*n = 1 splits in registers), 2 (n*n = 4 splits below the
# vector width), 7 (odd, a row block of 7), 16 (largest static, row blocks of
# 8), and the dynamic kernel (0), which serves the orders left out.
# Complex: the dynamic kernel only (complex_lu.hpp has no static form).
set(TDLS_SIMD_COMPLEX_ORDERS 0)
if(TDLS_INSTANCE_PROFILE STREQUAL "ci")
  set(TDLS_SIMD_ORDERS 0 1 2 7 16)
else()
  set(TDLS_SIMD_ORDERS 0)
  foreach(n RANGE 1 16)
    list(APPEND TDLS_SIMD_ORDERS ${n})
  endforeach()
endif()

# GPU register kernels (kernels/gpu/, the CUDA and HIP plugins): static orders
# whose rows fit the registers of one warp's groups, one list per plugin.
# Every other order up to TDLS_MAX_ORDER runs the warp kernel (up to two rows
# per lane, several systems per block, matrices in shared memory) or past it
# the block kernel (one system per block), which hold rows in shared memory,
# not registers: full ships the register kernels of every order up to 32 in
# both plugins (complex double past 16 on NVIDIA compiles to nothing: no rows
# per thread fit its register budget, runtime::register_budget_for_rows). Build cost, one core, one
# architecture, per (type, layout): nvcc (sm_90) 5.6 s for orders 1-4 and
# 108 s for 29-32 (double, column-major); hipcc (gfx90a, whose 512 registers
# take up to 4 rows of 32 per thread) 64-79 s (float) and 190-209 s (double)
# for orders 1, 7 and 32 together. docs/ci.md has the plugins' build times.
# ci: CUDA the smallest (1), an odd one (7) and the largest (32); HIP 1, 7 and
# 16, since its order-32 instances alone would take 400 s of CI's build (hipcc
# still compiles the register solver at order 32 in the compile check,
# tests/gpu/, and nvcc compiles the same kernel source at 32 in both types).
if(TDLS_INSTANCE_PROFILE STREQUAL "ci")
  set(TDLS_GPU_cuda_ORDERS 1 7 32)
  set(TDLS_GPU_hip_ORDERS 1 7 16)
else()
  set(TDLS_GPU_cuda_ORDERS)
  foreach(n RANGE 1 32)
    list(APPEND TDLS_GPU_cuda_ORDERS ${n})
  endforeach()
  set(TDLS_GPU_hip_ORDERS ${TDLS_GPU_cuda_ORDERS})
endif()

# Instruction sets: name, vector bytes, compiler flags. generic is the
# compiler's baseline (SSE2 on x86-64) and is built everywhere; the others on
# x86-64 only. The flags must match the run-time check in src/registry.cpp.
set(TDLS_SIMD_ISAS generic)
set(TDLS_SIMD_generic_BYTES 16)
set(TDLS_SIMD_generic_FLAGS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  list(APPEND TDLS_SIMD_ISAS avx2 avx512)
  set(TDLS_SIMD_avx2_BYTES 32)
  set(TDLS_SIMD_avx2_FLAGS -mavx2 -mfma)
  set(TDLS_SIMD_avx512_BYTES 64)
  set(TDLS_SIMD_avx512_FLAGS -mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma)
endif()
