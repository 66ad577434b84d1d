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

# CPU (oneTBB, one thread per system): static orders 1-16, the dynamic solver
# above. Measured with g++ 12 -O3 on one core (double, column-major), static
# over dynamic: 4.0x at n = 2, 2.0x at 4, 1.7x at 8, 1.4x at 16, 1.2x at 32;
# an instance costs 1.5 s (n = 4) to 7 s (n = 32) of build, so orders past 16
# would add minutes for little.
set(TDLS_CPU_ORDERS 0)
foreach(n RANGE 1 16)
  list(APPEND TDLS_CPU_ORDERS ${n})
endforeach()
