# THE list of precompiled solver instances. Everything else is generated from
# it (kernels/CMakeLists.txt): the instantiation sources, stamped from
# gesv.instantiate.<backend>.cpp.in, and the generated header
# <tdls/generated/instances.hpp> that the dispatch table, the tests and the
# benchmarks read. Order 0 stands for the dynamic solver, which serves every
# order up to TDLS_MAX_ORDER without a static instance.
#
# Each backend lists its orders; every order is compiled for every type and
# layout below.

set(TDLS_INSTANCE_TYPES float double)
set(TDLS_INSTANCE_LAYOUTS col row)

# CPU, one system per thread (the cooperative solver in a group of one):
# only the dynamic solver, for the orders past the SIMD kernels' 64.
set(TDLS_CPU_ORDERS 0)

# CPU, one system per SIMD lane (kernels/cpu/simd/): every order up to 64, for
# each instruction set below; the library picks the widest the machine runs.
# Static orders 1-16 and the dynamic kernel above them. Measured (g++ 12 -O3,
# AVX-512, double, one core, L2-resident batch) static over dynamic: 1.7x at
# n = 2, 1.3x at 4, 1.1x at 8-16; an instance builds in 1-1.5 s.
set(TDLS_SIMD_ORDERS 0)
foreach(n RANGE 1 16)
  list(APPEND TDLS_SIMD_ORDERS ${n})
endforeach()

# GPU register kernels (kernels/gpu/, the CUDA and HIP plugins): static orders
# whose rows fit the registers of one warp's groups. Every other order up to
# TDLS_MAX_ORDER runs the block kernel (one system per block, the dynamic
# solver on a copy of the matrix in shared memory). Sized by the plugins'
# build time, which CI keeps under ~5 minutes per plugin on 2 cores: nvcc
# took 5.6 s for orders 1-4 (double, column-major, sm_90, one core) and 108 s
# for orders 29-32, so 1-32 would cost about 25 core-minutes per plugin, and
# 1-16 took about 10 (hipcc more); with 1-12 each plugin builds in 131 s
# (CUDA) and 134 s (HIP) with -j2 on 2 cores. scripts/device-check, on a
# many-core GPU machine, raises the bound to 32.
set(TDLS_GPU_MAX_STATIC_ORDER 12 CACHE STRING "Largest order of the GPU register kernels (1..32)")
set(TDLS_GPU_ORDERS)
foreach(n RANGE 1 ${TDLS_GPU_MAX_STATIC_ORDER})
  list(APPEND TDLS_GPU_ORDERS ${n})
endforeach()

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
